// Which part of the picture the last move changed. A plugin marks it with a
// data-last attribute on the SVG elements it drew for that move; the page
// highlights them. Every game also gets the last move named above the board,
// so a player who looked away sees what happened.
import { EventKind, type MatchEvent, type Seat } from "./gen/gamehost/v1/gamehost_pb";
import { h, replaceChildren } from "./elements";
import { eventText } from "./match-text";

export class LastMove {
  readonly element = h("p", { id: "last-move", class: "last-move", "aria-live": "polite" });
  private event?: MatchEvent;

  /** Keeps the newest move among the events seen. */
  note(event: MatchEvent): void {
    if (event.kind === EventKind.MOVED && (!this.event || event.version > this.event.version)) this.event = event;
  }

  /** Names the last move up to `version` and highlights what the plugin marked on `board`. */
  show(board: Element, version: bigint, seats: Seat[]): void {
    const event = this.event && this.event.version <= version ? this.event : undefined;
    this.element.dataset.version = event ? String(event.version) : "";
    if (event) replaceChildren(this.element, "Last move: ", h("strong", {}, eventText(event, seats)));
    else this.element.replaceChildren();
    for (const marked of Array.from(board.querySelectorAll("[data-last]"))) marked.classList.add("last-move-part");
  }
}
