// Composing a move by clicks on the board. A legal move may come as a path of
// parts (a piece, then how it lies, then its cell); the plugin's SVG marks a
// target for each part with data-part="<part id>", and a sub-choice drawn only
// once a part is chosen sits in an element with data-after-part="<part id>".
// The composer keeps the parts chosen so far, highlights the targets of the
// next choices, hides the sub-choices not reached, and submits the move once
// its whole path is chosen. One SVG per view: the host renders it once, the
// composer only filters (docs/protocol.md, "Moves in parts").
import type { LegalMove, MovePart } from "@gamehost/client";
import { h, replaceChildren } from "./elements";
import { tr } from "./i18n";

export class MoveComposer {
  /** The bar above the board: the parts chosen, Back and Clear, and buttons for choices the picture lacks. */
  readonly bar = h("div", { id: "composer", class: "composer", hidden: true });
  private chosen: string[] = [];
  private moves: LegalMove[] = [];
  private svg: Element | null = null;

  constructor(private readonly submit: (moveId: string) => void) {}

  /** A new view: its picture and the viewer's legal moves. Parts chosen stay while they still lead to a move. */
  show(svg: Element | null, moves: LegalMove[]): void {
    this.svg = svg;
    this.moves = moves.filter((move) => move.parts.length > 0);
    if (!this.candidates().length) this.chosen = [];
    this.advance();
    this.mark();
  }

  /** Handles a click on the board if it picked one of the next choices; false leaves it to data-move targets. */
  click(event: Event, board: Element): boolean {
    const choices = new Set(this.choices().map((part) => part.id));
    const direct = (event.target as Element | null)?.closest?.("[data-part]");
    let target = direct && board.contains(direct) && choices.has(direct.getAttribute("data-part") ?? "")
      ? direct : null;
    if (!target && event instanceof MouseEvent) {
      // A shape the plugin drew on top of the target (or a transparent target beneath another) takes the click.
      target = document.elementsFromPoint(event.clientX, event.clientY).find((element) =>
        board.contains(element) && choices.has(element.getAttribute("data-part") ?? "")) ?? null;
    }
    if (!target) return false;
    event.preventDefault();
    this.choose(target.getAttribute("data-part") ?? "");
    return true;
  }

  /** Forgets the parts chosen, e.g. once a move was submitted. */
  clear(): void {
    this.chosen = [];
    this.advance();
    this.mark();
  }

  private choose(partId: string): void {
    this.chosen.push(partId);
    const complete = this.complete();
    if (complete) {
      this.chosen = [];
      this.mark();
      this.submit(complete.id);
      return;
    }
    this.advance();
    this.mark();
  }

  /** Undoes the player's last choice, with the parts taken automatically after it. */
  private back(): void {
    this.chosen.pop();
    while (this.chosen.length && this.onlyChoiceAt(this.chosen.length - 1)) this.chosen.pop();
    this.advance();
    this.mark();
  }

  private candidates(): LegalMove[] {
    return this.moves.filter((move) => this.chosen.every((id, depth) => move.parts[depth]?.id === id));
  }

  private choices(): MovePart[] {
    const seen = new Map<string, MovePart>();
    for (const move of this.candidates()) {
      const next = move.parts[this.chosen.length];
      if (next && !seen.has(next.id)) seen.set(next.id, next);
    }
    return Array.from(seen.values());
  }

  private complete(): LegalMove | undefined {
    return this.candidates().find((move) => move.parts.length === this.chosen.length);
  }

  private onlyChoiceAt(depth: number): boolean {
    const prefix = this.chosen.slice(0, depth);
    const next = new Set(this.moves.filter((move) => prefix.every((id, index) => move.parts[index]?.id === id))
      .map((move) => move.parts[depth]?.id));
    return next.size === 1;
  }

  /** Takes a choice that is the only one, unless it would finish a move: the last click stays the player's. */
  private advance(): void {
    for (;;) {
      const choices = this.choices();
      if (choices.length !== 1) return;
      const depth = this.chosen.length;
      if (this.candidates().some((move) => move.parts.length === depth + 1)) return;
      this.chosen.push(choices[0].id);
    }
  }

  private mark(): void {
    const choices = new Map(this.choices().map((part) => [part.id, part]));
    const chosen = new Set(this.chosen);
    if (this.svg) {
      for (const element of Array.from(this.svg.querySelectorAll("[data-part]"))) {
        const id = element.getAttribute("data-part") ?? "";
        const part = choices.get(id);
        element.classList.toggle("part-choice", part !== undefined);
        element.classList.toggle("part-chosen", chosen.has(id));
        if (part) {
          element.setAttribute("tabindex", "0");
          element.setAttribute("role", "button");
          element.setAttribute("aria-label", part.label);
        } else {
          for (const name of ["tabindex", "role", "aria-label"]) element.removeAttribute(name);
        }
      }
      for (const element of Array.from(this.svg.querySelectorAll("[data-after-part]"))) {
        if (chosen.has(element.getAttribute("data-after-part") ?? "")) element.removeAttribute("display");
        else element.setAttribute("display", "none");
      }
    }
    this.showBar(choices);
  }

  private showBar(choices: Map<string, MovePart>): void {
    this.bar.hidden = this.moves.length === 0;
    this.bar.dataset.chosen = this.chosen.join(" ");
    const labels = this.chosen.map((id) => this.moves.flatMap((move) => move.parts).find((part) => part.id === id)?.label ?? id);
    const marked = new Set(Array.from(this.svg?.querySelectorAll("[data-part]") ?? [],
      (element) => element.getAttribute("data-part")));
    // Choices the picture has no target for still get a button: every move stays reachable.
    const unmarked = Array.from(choices.values()).filter((part) => !marked.has(part.id));
    replaceChildren(this.bar,
      labels.length ? h("span", { class: "composer-chosen" }, tr("Chosen: {parts}", { parts: labels.join(" › ") })) : null,
      labels.length ? h("button", { type: "button", class: "composer-back", onclick: () => this.back() }, tr("Back")) : null,
      labels.length ? h("button", { type: "button", class: "composer-clear", onclick: () => this.clear() }, tr("Clear"))
        : h("span", { class: "composer-hint" }, tr("Click the board to build your move.")),
      unmarked.map((part) => h("button", { type: "button", class: "composer-choice", "data-part-id": part.id,
        onclick: () => this.choose(part.id) }, part.label)));
  }
}
