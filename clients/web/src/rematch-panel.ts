// "Play again" on a finished match (docs/protocol.md, "Rematch"): the host's
// Rematch needs every signed-in player of the match to agree. The first to
// ask gets the new match and waits in it; the others see "Ann wants a
// rematch" here (the rematch is an open match of theirs, with a seat held
// for them) and accept it, which moves them into it too. Anonymous seats
// cannot be given back to the same person, so the panel is for signed-in
// players only and says so to the others.
import { MatchStatus, SeatKind, type Match, type View } from "@gamehost/client";
import { gamehost } from "./api";
import { h, replaceChildren } from "./elements";
import { problemOf, type Problem } from "./errors";
import { formatList, tr } from "./i18n";
import { signedInOrNull } from "./identity";
import { matchId } from "./match-text";
import { holdSeat } from "./seat-tokens";

// How often a finished match's page looks for a rematch another player asked for.
const OFFER_POLL_MS = 2000;

export interface RematchPanelHost {
  report(problem: Problem, context: string): void;
}

export class RematchPanel {
  readonly element = h("section", { id: "rematch", class: "rematch-panel", hidden: true,
    "aria-label": tr("Play again") });
  private readonly message = h("p", { id: "rematch-message", class: "rematch-message", "aria-live": "polite" });
  private readonly controls = h("div", { class: "rematch-controls" });
  private shownFor = "";
  private timer = 0;
  private busy = false;

  constructor(private readonly page: RematchPanelHost) {
    this.element.append(this.message, this.controls);
  }

  /** Shows the panel once the match is finished and the reader held a seat in it. */
  show(match: Match | undefined, view: View): void {
    if (!match || view.status !== MatchStatus.FINISHED || view.seat < 0) {
      this.element.hidden = true;
      return;
    }
    if (this.shownFor === match.name) return;
    this.shownFor = match.name;
    void this.start(match);
  }

  stop(): void {
    window.clearInterval(this.timer);
    this.timer = 0;
  }

  private async start(finished: Match): Promise<void> {
    const identity = await signedInOrNull();
    this.element.hidden = false;
    if (!identity?.subject) {
      replaceChildren(this.message, tr("Sign in to play again: a rematch keeps each player's seat for them."));
      this.controls.replaceChildren();
      return;
    }
    this.drawAsk(finished);
    const look = async () => {
      const offer = await rematchWaitingFor(finished).catch(() => null);
      if (offer && this.timer) this.drawOffer(finished, offer);
    };
    this.timer = window.setInterval(() => { if (!document.hidden) void look(); }, OFFER_POLL_MS);
    void look();
  }

  private drawAsk(finished: Match): void {
    this.element.dataset.state = "ask";
    replaceChildren(this.message, tr("Another match with the same players? Everyone must agree."));
    replaceChildren(this.controls, h("button", { type: "button", id: "play-again", class: "play-again",
      onclick: () => void this.agree(finished) }, tr("Play again")));
  }

  private drawOffer(finished: Match, offer: Match): void {
    this.stop();
    this.element.dataset.state = "offered";
    this.element.dataset.rematch = matchId(offer.name);
    const askers = offer.seats.filter((seat) => seat.kind === SeatKind.HUMAN).map((seat) => seat.playerName);
    replaceChildren(this.message, tr("{players} wants a rematch.", { players: formatList(askers) }));
    replaceChildren(this.controls, h("button", { type: "button", id: "accept-rematch", class: "accept-rematch",
      onclick: () => void this.agree(finished) }, tr("Accept the rematch")));
  }

  /** Asks for the rematch (or agrees to the one asked), takes this player's seat in it, and goes there. */
  private async agree(finished: Match): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.controls.querySelectorAll("button").forEach((button) => { button.disabled = true; });
    try {
      const identity = await signedInOrNull();
      const rematch = await gamehost.rematch({ name: finished.name });
      // Rematch took the held seat; JoinMatch gives a signed-in player their own seat's token.
      const joined = await gamehost.joinMatch({ name: rematch.name, playerName: identity?.displayName ?? "" });
      holdSeat(matchId(rematch.name), { seat: joined.seat, token: joined.playerToken,
        playerName: identity?.displayName ?? "", subject: identity?.subject || undefined });
      this.stop();
      window.location.hash = `#/matches/${matchId(rematch.name)}`;
    } catch (error) {
      this.page.report(problemOf(error), tr("Asking for a rematch"));
      this.controls.querySelectorAll("button").forEach((button) => { button.disabled = false; });
    } finally {
      this.busy = false;
    }
  }
}

/** The rematch of `finished` another player asked for: an open match of the reader's (a seat is held for
 * them) of the same game and seat count, created after `finished` ended, whose seats the same people hold. */
async function rematchWaitingFor(finished: Match): Promise<Match | null> {
  const { matches } = await gamehost.listMatches({ mine: true, game: finished.game, status: MatchStatus.OPEN,
    pageSize: 50 });
  const ended = timeOf(finished.updateTime);
  const players = new Set(finished.seats.map((seat) => seat.playerName));
  return matches.find((candidate) => candidate.seats.length === finished.seats.length
    && timeOf(candidate.createTime) >= ended
    && candidate.seats.some((seat) => seat.kind === SeatKind.HUMAN)
    && candidate.seats.every((seat) => players.has(seat.playerName))) ?? null;
}

function timeOf(stamp: { seconds: bigint; nanos: number } | undefined): number {
  return stamp ? Number(stamp.seconds) * 1000 + stamp.nanos / 1e6 : 0;
}
