// The last move: named above the board for every game, so a player who
// looked away sees what happened, and marked on the picture (picture-changes.ts).
import { EventKind, type MatchEvent, type Seat } from "@gamehost/client";
import { h, replaceChildren } from "./elements";
import { eventText } from "./match-text";
import { markChanges } from "./picture-changes";

export class LastMove {
  readonly element = h("p", { id: "last-move", class: "last-move", "aria-live": "polite" });
  private event?: MatchEvent;
  private shownEvent?: bigint;

  /** Keeps the newest move among the events seen. */
  note(event: MatchEvent): void {
    if (event.kind === EventKind.MOVED && (!this.event || event.version > this.event.version)) this.event = event;
  }

  /** Names the last move up to `version`; on `board`, marks what it changed since the `previous` picture. */
  show(board: Element, version: bigint, seats: Seat[], previous: Element | null = null): void {
    const event = this.event && this.event.version <= version ? this.event : undefined;
    this.element.dataset.version = event ? String(event.version) : "";
    if (event) replaceChildren(this.element, "Last move: ", h("strong", {}, eventText(event, seats)));
    else this.element.replaceChildren();
    const picture = board.querySelector("svg");
    if (picture && picture !== previous) {
      markChanges(event ? previous : null, picture, event !== undefined && event.version === this.shownEvent);
    }
    this.shownEvent = event?.version;
  }
}
