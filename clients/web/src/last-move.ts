// The last move: named above the board for every game, so a player who
// looked away sees what happened, and marked on the picture (picture-changes.ts).
// A turn of several steps (a bet, then a draw) is named whole, from the view's
// last turn, with what each step revealed (the card turned up, the tile drawn).
import { type MatchEvent, type Seat, type TurnSummary } from "@gamehost/client";
import { h, replaceChildren } from "./elements";
import { eventText, seatName, turnText } from "./match-text";
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

  /** Names the last move up to `version` (the whole `turn` it ends, when the view's last turn does); on
   * `board`, marks what it changed since the `previous` picture. */
  show(board: Element, version: bigint, seats: Seat[], previous: Element | null = null, turn?: TurnSummary): void {
    const event: MatchEvent | undefined = this.moves.last(version);
    this.element.dataset.version = event ? String(event.version) : "";
    const whole = event && turn?.steps.at(-1)?.version === event.version ? turn : undefined;
    this.element.dataset.steps = whole ? String(whole.steps.length) : "";
    this.element.dataset.seat = whole ? String(whole.seat) : "";
    if (whole && whole.steps.length > 1) {
      replaceChildren(this.element, tr("Last turn: "), h("strong", {}, tr("{who}: {move}", {
        who: seatName(whole.seat, seats), move: turnText(whole) })));
    } else if (event) replaceChildren(this.element, tr("Last move: "), h("strong", {}, eventText(event, seats)));
    else this.element.replaceChildren();
    const picture = board.querySelector("svg");
    if (picture && picture !== previous) {
      markChanges(event ? previous : null, picture, event !== undefined && event.version === this.shownEvent);
    }
    this.shownEvent = event?.version;
  }
}
