// Ending a match by the players' decision on the game page (docs/protocol.md,
// "Resigning, draws and claims"): Resign, after a confirmation, and, in games
// whose Game.draw_by_agreement is true, a draw offer that every other person
// seated accepts or declines and the offerer may withdraw. The panel draws
// the open offer from Match.draw_offer; the page reads the match again at
// each DRAW_* event, so every seat sees the offer and its end.
import { MatchStatus, type Match, type View } from "@gamehost/client";
import { gamehost } from "./api";
import { h, replaceChildren } from "./elements";
import { problemOf, type Problem } from "./errors";
import { seatName, seatNames } from "./match-text";
import { tr } from "./i18n";

export interface EndingsPanelHost {
  /** "matches/{id}". */
  readonly name: string;
  token(): string;
  report(problem: Problem, context: string): void;
  clearProblems(): void;
  /** The seat resigned: the host's answer is the match after it. */
  resigned(seat: number, match: Match): void;
  /** Reads the match again (the open offer, the result). */
  refresh(): void;
}

export class EndingsPanel {
  readonly element = h("section", { id: "endings", class: "endings-panel", "aria-label": tr("Resigning and draws"),
    hidden: true });
  private readonly message = h("p", { id: "draw-message", class: "draw-message", "aria-live": "polite" });
  private readonly controls = h("div", { class: "endings-controls" });
  private draws = false;
  private busy = false;
  private match?: Match;
  private view?: View;

  constructor(private readonly page: EndingsPanelHost) {
    this.element.append(this.controls, this.message);
  }

  /** Whether the game allows draws by agreement (Game.draw_by_agreement). */
  offerDraws(allowed: boolean): void {
    this.draws = allowed;
    this.draw();
  }

  show(match: Match | undefined, view: View): void {
    this.match = match;
    this.view = view;
    this.draw();
  }

  private draw(): void {
    const view = this.view;
    const seat = view?.seat ?? -1;
    const playing = !!view && seat >= 0 && view.status === MatchStatus.ACTIVE;
    const offer = this.match?.drawOffer;
    const seats = this.match?.seats ?? [];
    this.element.hidden = !playing && !offer;
    this.element.dataset.offer = offer ? String(offer.seat) : "";
    if (!playing) {
      this.controls.replaceChildren();
      this.message.textContent = "";
      return;
    }
    const buttons: HTMLElement[] = [h("button", { type: "button", id: "resign", class: "resign", disabled: this.busy,
      onclick: () => void this.resign(seat) }, tr("Resign"))];
    if (this.draws && !offer) {
      buttons.push(h("button", { type: "button", id: "draw-offer", disabled: this.busy,
        onclick: () => void this.call(tr("Offering a draw"), () => gamehost.offerDraw(this.request())) },
      tr("Offer draw")));
    }
    if (offer && offer.seat === seat) {
      this.message.textContent = tr("You offered a draw. Waiting for {names}.",
        { names: seatNames(offer.waiting, seats) });
      buttons.push(h("button", { type: "button", id: "draw-withdraw", disabled: this.busy,
        onclick: () => void this.call(tr("Withdrawing the offer"), () => gamehost.withdrawDraw(this.request())) },
      tr("Withdraw offer")));
    } else if (offer) {
      const toAnswer = offer.waiting.includes(seat);
      this.message.textContent = tr("{who} offers a draw.", { who: seatName(offer.seat, seats) });
      if (toAnswer) {
        const answer = (accept: boolean) => () => void this.call(accept ? tr("Accepting the draw") : tr("Declining the draw"),
          () => gamehost.answerDraw({ ...this.request(), accept, offerVersion: offer.offerVersion }));
        buttons.push(
          h("button", { type: "button", id: "draw-accept", disabled: this.busy, onclick: answer(true) }, tr("Accept")),
          h("button", { type: "button", id: "draw-decline", disabled: this.busy, onclick: answer(false) }, tr("Decline")));
      }
    } else {
      this.message.textContent = "";
    }
    replaceChildren(this.controls, buttons);
  }

  private request() {
    return { name: this.page.name, playerToken: this.page.token() };
  }

  private async resign(seat: number): Promise<void> {
    if (!window.confirm(tr("Resign this match? Your opponents win, and it cannot be taken back."))) return;
    this.busy = true;
    this.draw();
    try {
      this.page.clearProblems();
      const match = await gamehost.resign(this.request());
      this.page.resigned(seat, match);
    } catch (error) {
      this.page.report(problemOf(error), tr("Resigning"));
    } finally {
      this.busy = false;
      this.draw();
    }
  }

  private async call(context: string, send: () => Promise<unknown>): Promise<void> {
    this.busy = true;
    this.draw();
    try {
      this.page.clearProblems();
      await send();
    } catch (error) {
      this.page.report(problemOf(error), context);
    } finally {
      this.busy = false;
      this.page.refresh();
    }
  }
}
