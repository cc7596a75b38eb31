// Undo by agreement on the game page (docs/protocol.md, "Undo by agreement"):
// the player whose move is the last one standing may ask to take it back,
// every other person seated accepts or refuses, the asker may withdraw. The
// panel follows the ask from the match's events (UNDO_ASKED to UNDONE) and
// Match.undo_ask; the board itself changes with the UNDONE event's view.
import {
  EventKind, MatchStatus, SeatKind, type Match, type MatchEvent, type Seat, type UndoAsk, type View,
} from "@gamehost/client";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { gamehost } from "./api";
import { h, replaceChildren } from "./elements";
import { problemOf, type Problem } from "./errors";
import { seatName, seatNames } from "./match-text";
import { tr } from "./i18n";
import { StandingMoves } from "./standing-moves";

export interface UndoPanelHost {
  /** "matches/{id}". */
  readonly name: string;
  /** The page's seat token now (it changes when the seat is lost or taken back). */
  token(): string;
  report(problem: Problem, context: string): void;
  clearProblems(): void;
  /** Reads the match again (seats, the open ask); the panel hears of it through match(). */
  refresh(): void;
}

interface OpenAsk {
  seat: number;
  undoes: bigint;
  askVersion: bigint;
  /** Milliseconds since the epoch; 0 when the host gave none. */
  expiresAt: number;
  accepted: number[];
}

type Outcome = "undone" | "refused" | "withdrawn" | "lapsed" | "closed";

export class UndoPanel {
  readonly element = h("section", { id: "undo", class: "undo-panel", "aria-label": tr("Taking a move back"), hidden: true });
  // Announced as the page announces moves (last-move.ts): politely, the words only, never the countdown.
  private readonly message = h("p", { id: "undo-message", class: "undo-message", "aria-live": "polite" });
  private readonly expiry = h("span", { id: "undo-expiry", class: "undo-expiry muted" });
  private readonly controls = h("div", { class: "undo-controls" });
  private readonly moves = new StandingMoves();
  private offered = false;
  private ask?: OpenAsk;
  private outcome?: { kind: Outcome; text: string };
  private pending = "";
  private lastAsk?: OpenAsk;
  private eventVersion = 0n;
  private view?: View;
  private seats: Seat[] = [];
  private timer = 0;

  constructor(private readonly page: UndoPanelHost) {
    this.element.append(h("div", { class: "undo-line" }, this.message, this.expiry), this.controls);
  }

  /** Whether the game offers undo (Game.undo): without it the panel takes no room at all. */
  offer(offered: boolean): void {
    this.offered = offered;
    this.render();
  }

  /**
   * One event of the match, in version order: from the log when the page opens, then live. The events decide
   * the ask and its outcome; applied on top of a match read that already counted them, they come to the same.
   */
  note(event: MatchEvent): void {
    if (event.version <= this.eventVersion) return;
    this.eventVersion = event.version;
    const ask = this.ask;
    const closing = ask ?? this.lastAsk;  // a match read may have closed it before its closing event came
    switch (event.kind) {
      case EventKind.UNDO_ASKED:
        this.ask = this.lastAsk = { seat: event.seat, undoes: event.undoes, askVersion: event.version, accepted: [],
          expiresAt: event.undoExpireTime ? timestampDate(event.undoExpireTime).getTime() : 0 };
        this.outcome = undefined;
        break;
      case EventKind.UNDO_ACCEPTED:
        if (ask && !ask.accepted.includes(event.seat)) ask.accepted.push(event.seat);
        break;
      case EventKind.UNDO_REFUSED:
        this.close("refused", tr("{who} refused: {move} stands.", { who: this.name(event.seat), move: this.moveOf(closing) }));
        break;
      case EventKind.UNDO_WITHDRAWN:
        this.close("withdrawn", tr("{who} withdrew the ask: {move} stands.",
          { who: this.name(event.seat), move: this.moveOf(closing) }));
        break;
      case EventKind.UNDONE:
        this.close("undone", tr("Taken back: {move}.", { move: this.moveOf({ seat: event.seat, undoes: event.undoes }) }));
        break;
      case EventKind.UNDO_LAPSED:
        this.close("lapsed", tr("Nobody answered in time: {move} stands.", { move: this.moveOf(closing) }));
        break;
      default:
        // Any other event closes an open ask (the position or the seats changed); a move clears an old outcome.
        if (ask) this.close("closed", tr("The ask to take back closed: the match moved on."));
        else if (event.kind === EventKind.MOVED) this.outcome = undefined;
    }
    this.moves.note(event);
    this.render();
  }

  /** The match as read from the host: its undo_ask is the open ask, unless the page has seen newer events. */
  match(match: Match): void {
    this.seats = match.seats;
    if (match.version >= this.eventVersion) {
      this.ask = match.undoAsk ? openAsk(match.undoAsk) : undefined;
      if (this.ask) this.lastAsk = this.ask;
    }
    this.render();
  }

  show(view: View, seats: Seat[]): void {
    this.view = view;
    this.seats = seats;
    this.render();
  }

  stop(): void {
    window.clearInterval(this.timer);
  }

  private close(kind: Outcome, text: string): void {
    this.ask = undefined;
    this.outcome = { kind, text };
  }

  private name(seat: number): string {
    return seatName(seat, this.seats);
  }

  /** "Ann's move (X on b2)", the label left out where this viewer may not see it. */
  private moveOf(ask: { seat: number; undoes: bigint } | undefined): string {
    return ask ? tr("{who}'s move{label}", { who: this.name(ask.seat), label: this.labelOf(ask.undoes) }) : tr("the move");
  }

  private labelOf(version: bigint): string {
    const label = this.moves.at(version)?.label;
    return label ? ` (${label})` : "";
  }

  /** The seats still to answer: every other person seated who has not accepted (bots accept). */
  private waiting(ask: OpenAsk): number[] {
    return this.seats.filter((seat) => seat.kind === SeatKind.HUMAN && seat.index !== ask.seat
      && !ask.accepted.includes(seat.index)).map((seat) => seat.index);
  }

  private render(): void {
    this.element.hidden = !this.offered;
    window.clearInterval(this.timer);
    if (!this.offered || !this.view) return;
    const view = this.view;
    if (this.ask && this.ask.expiresAt && Date.now() >= this.ask.expiresAt) {
      this.close("lapsed", tr("Nobody answered in time: {move} stands.", { move: this.moveOf(this.ask) }));
    }
    const ask = view.status === MatchStatus.ACTIVE ? this.ask : undefined;
    this.element.dataset.state = ask ? "asked" : this.outcome ? "outcome" : "none";
    this.element.dataset.outcome = !ask && this.outcome ? this.outcome.kind : "";
    if (ask) this.showAsk(ask, view.seat);
    else this.showNoAsk(view);
  }

  private showAsk(ask: OpenAsk, me: number): void {
    const waiting = this.waiting(ask);
    const others = waiting.length ? seatNames(waiting, this.seats) : tr("the others");
    const label = this.labelOf(ask.undoes);
    this.element.dataset.asker = String(ask.seat);
    if (me === ask.seat) {
      setText(this.message, tr("You asked to take back your move{label}. Waiting for {others} to answer.",
        { label, others }));
      this.setControls("withdraw", () => this.button("undo-withdraw", tr("Withdraw"), tr("Withdraw your ask to take back"),
        () => gamehost.withdrawUndo({ name: this.page.name, playerToken: this.page.token() }), tr("Withdrawing your ask")));
    } else if (waiting.includes(me)) {
      setText(this.message, tr("{who} asks to take back their move{label}.", { who: this.name(ask.seat), label }));
      const answer = (accept: boolean) => () => gamehost.answerUndo({ name: this.page.name,
        playerToken: this.page.token(), accept, askVersion: ask.askVersion });
      this.setControls(`answer ${ask.askVersion}`, () => [
        this.button("undo-accept", tr("Accept"), tr("Accept: take back {move}", { move: this.moveOf(ask) }), answer(true),
          tr("Accepting")),
        " ",
        this.button("undo-refuse", tr("Refuse"), tr("Refuse: {move} stands", { move: this.moveOf(ask) }), answer(false),
          tr("Refusing"))]);
    } else {
      const agreed = ask.accepted.includes(me) ? tr(" You agreed.") : "";
      setText(this.message, tr("{who} asks to take back their move{label}.{agreed} Waiting for {others} to answer.",
        { who: this.name(ask.seat), label, agreed, others }));
      this.setControls("", () => []);
    }
    if (ask.expiresAt) {
      const tick = () => {
        const seconds = Math.max(0, Math.ceil((ask.expiresAt - Date.now()) / 1000));
        this.expiry.textContent = tr(" The ask lapses in {time}.",
          { time: `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}` });
        if (seconds === 0) this.render();  // the ask lapsed: its UNDO_LAPSED event may come a moment later
      };
      tick();
      this.timer = window.setInterval(tick, 1000);
    } else {
      this.expiry.textContent = "";
    }
  }

  private showNoAsk(view: View): void {
    delete this.element.dataset.asker;
    setText(this.message, this.outcome?.text ?? "");
    this.expiry.textContent = "";
    if (view.seat < 0) {
      this.setControls("", () => []);  // a spectator sees asks and outcomes, never a button
      return;
    }
    const why = this.cannotAsk(view);
    this.setControls(`ask ${why}`, () => {
      const button = this.button("undo-ask", tr("Ask to take back"), tr("Ask to take back your last move"),
        () => gamehost.askUndo({ name: this.page.name, playerToken: this.page.token() }),
        tr("Asking to take back your move"));
      button.disabled = why !== "";
      button.setAttribute("aria-describedby", "undo-reason");
      return [button, " ", h("span", { id: "undo-reason", class: "undo-reason muted" }, why)];
    });
  }

  /** Draws the buttons again only when they change: a redraw for another reason must not take the focus away. */
  private setControls(key: string, draw: () => HTMLElement | (HTMLElement | string)[]): void {
    const full = `${key}|${this.pending}`;
    if (this.controls.dataset.key === full) return;
    this.controls.dataset.key = full;
    const hadFocus = this.controls.contains(document.activeElement);
    replaceChildren(this.controls, draw());
    // A keyboard user who just pressed a button lands on what replaced it (e.g. "Withdraw" after asking).
    if (hadFocus) this.controls.querySelector<HTMLButtonElement>("button")?.focus();
  }

  /** Why this seat cannot ask now, in words; "" when it can. */
  private cannotAsk(view: View): string {
    if (this.pending) return this.pending;
    if (view.status !== MatchStatus.ACTIVE) return tr("Moves can be taken back only while the match is being played.");
    const last = this.moves.last();
    if (!last) return tr("No move to take back yet.");
    if (last.seat !== view.seat) {
      return tr("The last move is {who}'s: only your own move can be taken back, while it is the last one.",
        { who: this.name(last.seat) });
    }
    return "";
  }

  private button(id: string, text: string, label: string, call: () => Promise<unknown>, context: string)
    : HTMLButtonElement {
    return h("button", { type: "button", id, class: "undo-button", "aria-label": label, disabled: this.pending !== "",
      onclick: () => void this.act(call, context) }, text);
  }

  /** One call; the panel then changes with the events it causes (the follower delivers them). */
  private async act(call: () => Promise<unknown>, context: string): Promise<void> {
    if (this.pending) return;
    this.pending = tr("{action}…", { action: context });
    this.page.clearProblems();
    this.render();
    try {
      await call();
    } catch (error) {
      this.page.report(problemOf(error), context);
      this.page.refresh();  // e.g. the ask was answered or closed meanwhile: show it as it is
    } finally {
      this.pending = "";
      this.render();
    }
  }
}

function openAsk(ask: UndoAsk): OpenAsk {
  return { seat: ask.seat, undoes: ask.undoes, askVersion: ask.askVersion, accepted: [...ask.accepted],
    expiresAt: ask.expireTime ? timestampDate(ask.expireTime).getTime() : 0 };
}

/** Changes a live region's text only when it differs: a re-render must not announce it again. */
function setText(element: HTMLElement, text: string): void {
  if (element.textContent !== text) element.textContent = text;
}
