// The last move: named above the board for every game, so a player who
// looked away sees what happened, and marked on the picture (picture-changes.ts).
import { type MatchEvent, type Seat } from "@gamehost/client";
import { h, replaceChildren } from "./elements";
import { eventText } from "./match-text";
import { tr } from "./i18n";
import { markChanges } from "./picture-changes";
import { StandingMoves } from "./standing-moves";

export class LastMove {
  readonly element = h("p", { id: "last-move", class: "last-move", "aria-live": "polite" });
  private readonly moves = new StandingMoves();
  private shownEvent?: bigint;

  /** Keeps the newest move among the events seen that was not taken back. */
  note(event: MatchEvent): void {
    this.moves.note(event);
  }

  /** Names the last move up to `version`; on `board`, marks what it changed since the `previous` picture. */
  show(board: Element, version: bigint, seats: Seat[], previous: Element | null = null): void {
    const event: MatchEvent | undefined = this.moves.last(version);
    this.element.dataset.version = event ? String(event.version) : "";
    if (event) replaceChildren(this.element, tr("Last move: "), h("strong", {}, eventText(event, seats)));
    else this.element.replaceChildren();
    const picture = board.querySelector("svg");
    if (picture && picture !== previous) {
      markChanges(event ? previous : null, picture, event !== undefined && event.version === this.shownEvent);
    }
    this.shownEvent = event?.version;
  }
}
