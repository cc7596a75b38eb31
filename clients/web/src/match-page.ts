// The universal game page: the plugin's SVG of this seat's view, the legal
// moves (click a data-move target or pick from the list), seats, turn,
// result and move log, kept live by a MatchFollower.
import {
  EventKind, MatchFollower, MatchStatus, SeatKind, isOver, isTransient,
  type Connection, type Game, type Match, type MatchEvent, type Seat, type View,
} from "@gamehost/client";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { gamehost } from "./api";
import { h, replaceChildren } from "./elements";
import { problemOf, problemPanel, type Problem } from "./errors";
import {
  eventText, gameId, personName, seatName, seatNames, seatText, statusDetailText, statusLabel, statusText,
} from "./match-text";
import { formatNumber, tr } from "./i18n";
import { newRequestId } from "./request-ids";
import { sanitizeSvg } from "./svg-sanitizer";
import { MoveComposer } from "./move-composer";
import { heldSeat, joinSeat, playerName, reclaimSeat, releaseSeat } from "./seat-tokens";
import { bearerToken } from "./bearer-token";
import { nameTargetsWithTheirText } from "./board-labels";
import { LastMove } from "./last-move";
import { endingBanner, endingText } from "./match-outcome";
import { TurnSignal } from "./turn-signal";
import { UndoPanel } from "./undo-panel";
import { ChatPanel } from "./chat-panel";
import { EndingsPanel } from "./endings-panel";
import { RematchPanel } from "./rematch-panel";
import { invitationCode, invitationLink, takeInvitationFromAddress } from "./invitations";
import { rulesUnavailableNotice, RULES_VERSION_UNAVAILABLE } from "./rules-unavailable";
import { HowToPlay } from "./how-to-play";
import { zoomBoard } from "./board-zoom";

// After these failures the view the player chose from is out of date: fetch it again.
const REFRESH_AFTER = new Set(["STALE_VERSION", "UNKNOWN_MOVE", "NOT_YOUR_TURN", "MATCH_NOT_ACTIVE",
  "ILLEGAL_MOVE", "CONCURRENT_UPDATE"]);
const SUBMIT_RETRIES = 3;
const FILTER_FROM_MOVES = 12;

export function showMatch(root: HTMLElement, id: string): () => void {
  const name = `matches/${id}`;
  const invited = takeInvitationFromAddress(id);
  const page = new MatchPage(root, name, id, invited);
  void page.open();
  return () => page.close();
}

class MatchPage {
  private token: string;
  private match?: Match;
  private game?: Game;
  private view?: View;
  private follower?: MatchFollower;
  private loggedVersion = 0n;
  private submitting = false;
  private submits = 0;
  private closed = false;
  /** A private match's invitation this browser holds ("" for none): every read of the match carries it. */
  private readonly invite: string;
  /** The seat this page resigned (-1: none): the page then watches, and reads the result as that seat's. */
  private resignedSeat = -1;
  /** Whether the picture shown had targets for this page's player: a zoomed board pans to new ones. */
  private hadTargets = false;
  private readonly rezoom = () => this.zoom();

  private readonly container = h("div", { class: "match-page" });
  private readonly title = h("h2", {}, tr("Match"));
  private readonly statusBadge = h("span", { class: "status", id: "match-status" });
  private readonly connectionBadge = h("span", { class: "connection", id: "connection" }, tr("connecting…"));
  private readonly replayLink: HTMLAnchorElement;
  private readonly identity = h("p", { id: "identity" });
  private readonly seedNotice = h("p", { id: "seed-chosen", class: "seed-chosen", hidden: true });
  private readonly turn = h("p", { id: "turn", class: "turn" });
  private readonly turnClock = h("span", { id: "turn-clock", class: "turn-clock" });
  private clockTimer = 0;
  private readonly problems = h("div", { id: "problems" });
  private readonly ending = h("div", { id: "ending-area" });
  private readonly lastMove = new LastMove();
  private readonly howToPlay = new HowToPlay();
  private readonly undo: UndoPanel;
  private readonly chat: ChatPanel;
  private readonly endings: EndingsPanel;
  private readonly rematch = new RematchPanel({ report: (problem, context) => this.showProblem(problem, context) });
  private readonly invitation = h("section", { id: "invitation", class: "invitation", hidden: true,
    "aria-label": tr("Invite a friend") });
  private readonly signal: TurnSignal;
  private readonly board = h("div", { id: "board", class: "board" });
  private readonly composer = new MoveComposer((moveId) => void this.submit(moveId));
  private readonly moves = h("section", { id: "moves" });
  private readonly seats = h("section", { id: "seats" });
  private readonly result = h("section", { id: "result" });
  // Focusable: it scrolls, and keyboard users must be able to scroll it.
  private readonly moveLog = h("ol", { id: "move-log", class: "move-log", tabindex: 0, "aria-label": tr("Move log") });
  private readonly moveFilter = h("input", { type: "search", id: "move-filter", placeholder: tr("filter the moves"),
    "aria-label": tr("filter the moves"), oninput: () => this.filterMoves() });

  constructor(root: HTMLElement, private readonly name: string, private readonly id: string,
    private readonly invited = false) {
    this.token = heldSeat(id)?.token ?? "";
    this.invite = invitationCode(id);
    this.signal = new TurnSignal(id);
    this.replayLink = h("a", { href: `#/matches/${id}/replay`, id: "replay-link" }, tr("replay and log"));
    this.undo = new UndoPanel({
      name, token: () => this.token, report: (problem, context) => this.showProblem(problem, context),
      clearProblems: () => this.problems.replaceChildren(), refresh: () => void this.refreshMatch(),
    });
    this.endings = new EndingsPanel({
      name, token: () => this.token, report: (problem, context) => this.showProblem(problem, context),
      clearProblems: () => this.problems.replaceChildren(), refresh: () => void this.refreshMatch(),
      resigned: (seat, match) => void this.resigned(seat, match),
    });
    this.chat = new ChatPanel({ name, token: () => this.token, invitationCode: this.invite });
    this.container.dataset.match = id;
    replaceChildren(root, h("div", { class: "match-page-wrapper" }, this.container));
    // Board first: the picture takes the screen's height on the left, and everything a player reads or clicks
    // during a turn (whose turn, the last move, the moves) stands beside it, in the order it is needed; on a
    // narrow screen the same side panel follows the board. Problems stand above both: a page that failed to
    // open hides its body and shows only them.
    replaceChildren(this.container,
      h("header", { class: "match-header" }, this.title, " ", h("code", {}, id), " ", this.statusBadge, " ",
        this.connectionBadge, " ", this.replayLink, " ",
        h("a", { href: "#/" }, tr("lobby")), " ", this.howToPlay.elements, this.identity),
      this.problems,
      h("div", { class: "match-body" }, this.board,
        h("aside", { class: "match-side" }, this.invitation, this.ending,
          h("div", { class: "turn-line" }, this.turn, this.turnClock), this.lastMove.element,
          this.composer.bar, this.moves, this.undo.element, this.endings.element, this.rematch.element,
          this.result, this.seats, this.seedNotice, this.signal.controls,
          h("section", {}, h("h3", {}, tr("Move log")), this.moveLog), this.chat.element)));
    window.addEventListener("resize", this.rezoom);
    this.board.addEventListener("click", (event) => this.clickBoard(event));
    this.board.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") this.clickBoard(event);
    });
  }

  /** Loads the match and follows it; while the host cannot be reached, tries again with backoff. */
  async open(): Promise<void> {
    for (let attempt = 0; !this.closed; attempt += 1) {
      try {
        await this.load();
        return;
      } catch (error) {
        const problem = problemOf(error);
        if (problem.reason === RULES_VERSION_UNAVAILABLE) {
          this.showRulesUnavailable(problem);
          return;
        }
        this.fail(problem, tr("Opening the match"));
        if (!isTransient(error)) return;
        await new Promise((resolve) => window.setTimeout(resolve, Math.min(8000, 500 * 2 ** attempt)));
      }
    }
  }

  private async load(): Promise<void> {
    this.match = await gamehost.getMatch({ name: this.name, invitationCode: this.invite });
    delete this.container.dataset.failed;
    this.problems.replaceChildren();
    if (!this.token) await this.takeSeatBack(this.match);
    if (!this.token && this.invited) await this.joinByInvitation(this.match);
    this.game = await gamehost.getGame({ name: this.match.game }).catch(() => undefined);
    this.undo.match(this.match);
    this.undo.offer(this.game?.undo ?? false);
    this.endings.offerDraws(this.game?.drawByAgreement ?? false);
    this.title.textContent = this.game?.title ?? gameId(this.match.game);
    this.howToPlay.show(this.game);
    // Players must know when chance is not hidden from everyone (an admin chose the seed, e.g. for a tournament).
    this.seedNotice.hidden = !(this.match.seedChosen && (this.game?.chance || this.game?.hiddenInformation));
    this.seedNotice.textContent = tr("The seed of this match was chosen by its creator: whoever knows it can foresee every draw and hidden card.");
    const view = await this.fetchView();
    if (this.closed) return;
    this.showView(view, true);
    await this.loadLog(view.version);
    if (this.closed) return;
    this.lastMove.show(this.board, view.version, this.match?.seats ?? [], null, this.view?.lastTurn);
    this.follow(view);
    void this.chat.start();
  }

  /** Follows the match live, with this page's token, after `view`. */
  private follow(view: View): void {
    this.follower?.stop();
    this.follower = new MatchFollower(gamehost, this.name, this.token, {
      view: (next) => this.showView(next),
      event: (event) => this.addEvent(event),
      connection: (connection) => this.showConnection(connection),
    }, { render: { svg: true }, invitationCode: this.invite });  // whole views: a patch costs the host more CPU than the bytes it saves (bench/README.md)
    void this.follower.start(view);
  }

  close(): void {
    this.closed = true;
    window.removeEventListener("resize", this.rezoom);
    this.follower?.stop();
    this.undo.stop();
    this.chat.stop();
    this.rematch.stop();
    window.clearInterval(this.clockTimer);
  }

  /** GetView as this seat; a token the host refuses is dropped, and the page goes on as the seat the
   * signed-in user holds (taken back) or as a spectator. */
  private async fetchView(): Promise<View> {
    try {
      return await gamehost.getView({ name: this.name, playerToken: this.token, render: { svg: true },
        invitationCode: this.invite });
    } catch (error) {
      const problem = problemOf(error);
      if (problem.reason !== "INVALID_TOKEN" || !this.token) throw error;
      releaseSeat(this.id);
      this.token = "";
      const reclaimed = this.match ? await this.takeSeatBack(this.match) : false;
      const view = await this.fetchView();
      if (!reclaimed) this.showProblem(problem, tr("Opening your seat"));
      return view;
    }
  }

  /**
   * A signed-in user who holds a seat here but has no token for it in this
   * browser (another device, or a token since replaced) gets the seat back.
   * Only when the page opens, never on its own mid-match: a new token
   * replaces the old one, and two open devices would take it from each other.
   */
  private async takeSeatBack(match: Match): Promise<boolean> {
    if (!bearerToken()) return false;
    try {
      const held = await reclaimSeat(match);
      if (held) {
        this.token = held.token;
        this.container.dataset.reclaimed = String(held.seat);
      }
      return held !== null;
    } catch (error) {
      this.showProblem(problemOf(error), tr("Taking your seat back"));
      return false;
    }
  }

  private async loadLog(upTo: bigint): Promise<void> {
    try {
      const log = await gamehost.getMatchLog({ name: this.name, playerToken: this.token, invitationCode: this.invite });
      for (const event of log.events) if (event.version <= upTo) this.addEvent(event, false);
    } catch (error) {
      this.showProblem(problemOf(error), tr("Loading the move log"));
    }
  }

  /** The host lacks the match's rules version: say which, and which it has, instead of a board it cannot draw. */
  private showRulesUnavailable(problem: Problem): void {
    const match = this.match;
    Object.assign(this.container.dataset, { failed: problem.code, rulesUnavailable: problem.metadata.rules_version ?? "" });
    this.connectionBadge.textContent = tr("not playable on this host");
    if (match) {
      this.statusBadge.textContent = statusLabel(match.status);
      this.statusBadge.className = `status status-${statusText(match.status)}`;
    }
    this.turn.textContent = "";
    this.signal.controls.hidden = true;
    this.replayLink.hidden = true;  // the log and the replay are refused as well
    // In place of the board (hidden with the rest of the match's body, as for any page that failed to open).
    replaceChildren(this.problems, rulesUnavailableNotice(problem, this.game?.title ?? gameId(match?.game ?? "")));
  }

  private fail(problem: Problem, context: string): void {
    this.container.dataset.failed = problem.code;
    this.connectionBadge.textContent = tr("not connected");
    this.showProblem(problem, context);
  }

  private showProblem(problem: Problem, context: string): void {
    replaceChildren(this.problems, problemPanel(problem, context),
      h("button", { type: "button", class: "dismiss", onclick: () => this.problems.replaceChildren() }, tr("Dismiss")));
  }

  private showConnection(connection: Connection): void {
    this.container.dataset.connection = connection.state;
    this.connectionBadge.className = `connection connection-${connection.state}`;
    switch (connection.state) {
      case "live":
        this.connectionBadge.textContent = tr("live");
        break;
      case "ended":
        this.connectionBadge.textContent = tr("match over");
        break;
      case "reconnecting":
        this.connectionBadge.textContent = tr("reconnecting (attempt {attempt}, next try in {seconds} s{code})", {
          attempt: connection.attempt, seconds: (connection.retryInMs / 1000).toFixed(1),
          code: connection.error ? `; ${problemOf(connection.error).code}` : "" });
        break;
      case "failed": {
        const problem = problemOf(connection.error);
        this.connectionBadge.textContent = tr("disconnected: {code}", { code: problem.code });
        this.showProblem(problem, tr("Following the match"));
        if (problem.reason === "INVALID_TOKEN") void this.loseSeat();
        break;
      }
    }
  }

  private addEvent(event: MatchEvent, live = true): void {
    if (event.version <= this.loggedVersion) return;
    this.loggedVersion = event.version;
    this.lastMove.note(event);
    this.undo.note(event);
    this.moveLog.append(h("li", { value: Number(event.version), "data-version": String(event.version),
      "data-kind": EventKind[event.kind] }, eventText(event, this.match?.seats ?? [])));
    if (event.kind === EventKind.UNDONE) this.markTakenBack(event.undoes);
    // Only the log scrolls to its newest line: the page stays where the player looks (the board).
    this.moveLog.scrollTop = this.moveLog.scrollHeight;
    // Joins, leaves, the start and the end change the seats; with a turn timeout every move moves the deadline.
    if (live && (event.kind !== EventKind.MOVED || this.match?.turnTimeout)) void this.refreshMatch();
  }

  /** A move taken back stays in the log, greyed out and said to be taken back. */
  private markTakenBack(version: bigint): void {
    const line = this.moveLog.querySelector(`li[data-version="${version}"]`);
    if (!line || line.classList.contains("taken-back")) return;
    line.classList.add("taken-back");
    line.append(" ", h("span", { class: "taken-back-note" }, tr("(taken back)")));
  }

  /** Seats and status change with joins, leaves, the start and the end; the open ask with undo events. */
  private async refreshMatch(): Promise<void> {
    try {
      this.match = await gamehost.getMatch({ name: this.name, invitationCode: this.invite });
      this.undo.match(this.match);
      if (this.view) this.showView(this.view, true);
    } catch {
      // The follower reports connection trouble; the seats refresh on the next event.
    }
  }

  private showView(view: View, force = false): void {
    if (this.view && view.version < this.view.version && !force) return;
    if (this.view && view.version === this.view.version && !force) return;
    this.view = view;
    const seat = view.seat;
    const player = seat >= 0;
    Object.assign(this.container.dataset, {
      version: String(view.version), status: statusText(view.status), seat: String(seat),
      toMove: view.toMove.join(","),
    });
    this.statusBadge.textContent = statusLabel(view.status);
    this.statusBadge.className = `status status-${statusText(view.status)}`;
    this.showIdentity(seat);
    this.showTurn(view);
    const previousPicture = this.board.querySelector("svg");
    this.showBoard(view);
    nameTargetsWithTheirText(this.board);
    this.lastMove.show(this.board, view.version, this.match?.seats ?? [], previousPicture, view.lastTurn);
    this.showMoves(view, player);
    this.showResult(view);
    this.showSeats(view);
    this.showEnding(view);
    this.undo.show(view, this.match?.seats ?? []);
    this.endings.show(this.match, view);
    this.rematch.show(this.match, view);
    this.showInvitation(view);
  }

  /** For the player who created a private match here: its invitation link, to send to a friend, while seats
   * are open. */
  private showInvitation(view: View): void {
    const open = view.status === MatchStatus.OPEN && view.seat >= 0 && !!this.invite;
    this.invitation.hidden = !open;
    if (!open || this.invitation.childElementCount) return;
    const link = invitationLink(this.name, this.invite);
    const field = h("input", { id: "invitation-link", type: "text", readonly: true, value: link, size: 60,
      "aria-label": tr("Invitation link"), onfocus: () => field.select() });
    const copied = h("span", { id: "invitation-copied", class: "muted", "aria-live": "polite" });
    replaceChildren(this.invitation, h("h3", {}, tr("Play with a friend")),
      h("p", {}, tr("Send this link to your friend: it opens this match and gives them the other seat. Only people with the link can see the match.")),
      h("div", { class: "invitation-line" }, field, " ",
        h("button", { type: "button", id: "copy-invitation", onclick: async () => {
          try {
            await navigator.clipboard.writeText(link);
            copied.textContent = tr("Copied.");
          } catch {
            field.select();
            copied.textContent = tr("Select the link and copy it.");
          }
        } }, tr("Copy link")), " ", copied));
  }

  /** Opened through an invitation link with no seat here: take the open seat the link is for. */
  private async joinByInvitation(match: Match): Promise<void> {
    if (match.status !== MatchStatus.OPEN || !match.seats.some((seat) => seat.kind === SeatKind.OPEN)) return;
    try {
      await joinSeat(this.name, undefined, playerName(), this.invite);
      this.token = heldSeat(this.id)?.token ?? "";
      this.match = await gamehost.getMatch({ name: this.name, invitationCode: this.invite });
    } catch (error) {
      this.showProblem(problemOf(error), tr("Joining by the invitation"));
    }
  }

  /** The seat resigned: its token acts no more; the page watches the match, and reads its end as that seat's. */
  private async resigned(seat: number, match: Match): Promise<void> {
    this.follower?.stop();  // it follows with the token the host no longer takes
    this.resignedSeat = seat;
    this.match = match;
    this.container.dataset.resigned = String(seat);
    await this.loseSeat();
  }

  /** The banner once the match is finished, and the tab's title: whose turn, or how it ended. */
  private showEnding(view: View): void {
    const finished = view.status === MatchStatus.FINISHED && view.result;
    const seats = this.match?.seats ?? [];
    const reader = view.seat >= 0 ? view.seat : this.resignedSeat;
    if (finished) replaceChildren(this.ending, endingBanner(view.result!, reader, seats));
    else this.ending.replaceChildren();
    this.signal.controls.hidden = view.seat < 0 || isOver(view.status); // a spectator never has a turn
    this.signal.show(this.title.textContent ?? tr("Match"), view.toMove.includes(view.seat) && view.seat >= 0,
      finished ? endingText(view.result!, reader, seats) : "");
  }

  private showIdentity(seat: number): void {
    const seats = this.match?.seats ?? [];
    if (seat >= 0) {
      replaceChildren(this.identity, tr("You play "), h("strong", {}, seatName(seat, seats)), tr(". "),
        this.view && !isOver(this.view.status)
          ? h("button", { type: "button", id: "leave", onclick: () => void this.leave() }, tr("Leave"))
          : null);
      return;
    }
    if (this.resignedSeat >= 0) {
      replaceChildren(this.identity, tr("You played "), h("strong", {}, personName(this.resignedSeat, seats)),
        tr(" and resigned."));
      return;
    }
    const open = this.match?.status === MatchStatus.OPEN
      ? this.match.seats.filter((candidate) => candidate.kind === SeatKind.OPEN) : [];
    replaceChildren(this.identity, tr("You are watching as a spectator."),
      open.flatMap((candidate) => [" ", h("button", { type: "button", class: "join-seat", "data-seat": candidate.index,
        onclick: () => void this.join(candidate.index) }, tr("Join as player {number}", { number: candidate.index + 1 }))]));
  }

  private showTurn(view: View): void {
    const seats = this.match?.seats ?? [];
    let text: string;
    const why = statusDetailText(this.match?.statusDetail);
    if (view.status === MatchStatus.FINISHED) {
      const reader = view.seat >= 0 ? view.seat : this.resignedSeat;
      const headline = view.result ? endingText(view.result, reader, seats) : tr("Finished.");
      text = view.result?.summary && view.result.summary !== headline ? `${headline} ${view.result.summary}` : headline;
    }
    else if (view.status === MatchStatus.ABANDONED) text = tr("Abandoned: a player left the match.");
    else if (view.status === MatchStatus.ABORTED) {
      text = tr("Aborted by the host: {why}.", { why: why || tr("no reason given") });
    }
    else if (view.status === MatchStatus.SUSPENDED) {
      text = tr("Suspended: {why}. Nothing moves until an admin resumes or aborts the match.",
        { why: why || tr("no reason given") });
    }
    else if (view.status === MatchStatus.OPEN) text = tr("Waiting for players to take the open seats.");
    else if (view.toMove.includes(view.seat)) {
      text = view.toMove.length > 1 ? tr("Your turn (with others).") : tr("Your turn.");
    }
    else text = waitingText(view.toMove, seats);
    this.turn.textContent = text;
    // A bot answers after a human-paced delay (the host's): say that it is thinking, not that the page hangs.
    this.turn.classList.toggle("bot-thinking", view.status === MatchStatus.ACTIVE && botsOnly(view.toMove, seats));
    this.turn.classList.toggle("your-turn", view.toMove.includes(view.seat));
    this.showClock(view);
  }

  /** The time left to the turn deadline, ticking, while a player is to move in a match with a turn timeout. */
  private showClock(view: View): void {
    window.clearInterval(this.clockTimer);
    const deadline = this.match?.turnDeadline;
    if (!deadline || view.status !== MatchStatus.ACTIVE) {
      this.turnClock.textContent = "";
      return;
    }
    const at = timestampDate(deadline).getTime();
    const tick = () => {
      const seconds = Math.max(0, Math.ceil((at - Date.now()) / 1000));
      this.turnClock.textContent = tr("time left {time}",
        { time: `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}` });
    };
    tick();
    this.clockTimer = window.setInterval(tick, 1000);
  }

  private showBoard(view: View): void {
    const svg = view.svg ? sanitizeSvg(view.svg) : null;
    if (!svg) {
      replaceChildren(this.board, h("pre", { class: "state" }, JSON.stringify(view.state ?? {}, null, 2)));
      this.composer.show(null, view.legalMoves);
      return;
    }
    const legal = new Set(view.legalMoves.map((move) => move.id));
    for (const target of Array.from(svg.querySelectorAll("[data-move]"))) {
      if (!legal.has(target.getAttribute("data-move") ?? "")) continue;
      target.classList.add("move-target");
      target.setAttribute("tabindex", "0");
      target.setAttribute("role", "button");
      const label = view.legalMoves.find((move) => move.id === target.getAttribute("data-move"))?.label;
      if (label) target.setAttribute("aria-label", label);
    }
    replaceChildren(this.board, svg);
    this.composer.show(svg, view.legalMoves);
    this.zoom(true);
  }

  /** Sizes the picture for the screen; `turnBegins`: pans a zoomed board to the player's targets when a turn
   * brings targets that the previous picture did not have. */
  private zoom(turnBegins = false): void {
    const svg = this.board.querySelector("svg");
    if (!svg) return;
    const targets = svg.querySelector(".move-target, .part-choice") !== null;
    zoomBoard(this.board, svg, turnBegins && targets && !this.hadTargets);
    this.hadTargets = targets;
  }

  private showMoves(view: View, player: boolean): void {
    if (!player) {
      this.moves.replaceChildren();
      return;
    }
    const list = h("ul", { class: "legal-moves" }, view.legalMoves.map((move) =>
      h("li", {}, h("button", { type: "button", class: "legal-move", "data-move-id": move.id,
        "data-parts": move.parts.map((part) => part.id).join(" ") || null,
        disabled: this.submitting, onclick: () => void this.submit(move.id) }, move.label || move.id))));
    replaceChildren(this.moves, h("h3", {}, tr("Your moves")),
      view.legalMoves.length > FILTER_FROM_MOVES ? this.moveFilter : null,
      view.legalMoves.length ? list
        : h("p", { class: "muted" }, isOver(view.status) ? tr("The match is over.") : tr("No moves for you right now.")));
    this.filterMoves();
  }

  /** Long move lists get a filter box: it hides the moves whose label lacks its words. */
  private filterMoves(): void {
    const words = this.moveFilter.value.toLowerCase().split(/\s+/).filter(Boolean);
    for (const button of Array.from(this.moves.querySelectorAll<HTMLButtonElement>(".legal-move"))) {
      const label = (button.textContent ?? "").toLowerCase();
      (button.parentElement as HTMLElement).hidden = !words.every((word) => label.includes(word));
    }
  }

  private showResult(view: View): void {
    const result = view.result;
    if (!result || view.status !== MatchStatus.FINISHED) {
      this.result.replaceChildren();
      return;
    }
    const seats = this.match?.seats ?? [];
    replaceChildren(this.result, h("h3", {}, tr("Result")), h("p", { class: "result-summary" }, result.summary),
      h("table", { class: "result-table" },
        h("thead", {}, h("tr", {}, h("th", {}, tr("seat")), h("th", {}, tr("place")), h("th", {}, tr("score")))),
        h("tbody", {}, result.scores.map((score, index) =>
          h("tr", { class: result.winners.includes(index) ? "winner" : "" },
            h("td", {}, seatName(index, seats), index === view.seat ? tr(" (you)") : ""),
            h("td", {}, result.ranking[index] ? formatNumber(result.ranking[index]) : ""),
            h("td", {}, formatNumber(score)))))));
  }

  private showSeats(view: View): void {
    const seats = this.match?.seats ?? [];
    replaceChildren(this.seats, h("h3", {}, tr("Seats")), h("ul", { class: "seat-list" }, seats.map((seat) =>
      h("li", { class: [view.toMove.includes(seat.index) ? "to-move" : "", seat.index === view.seat ? "you" : ""]
        .filter(Boolean).join(" ") || null },
      seatText(seat), seat.index === view.seat ? tr(" (you)") : "",
      view.toMove.includes(seat.index) ? tr(" · to move") : ""))));
  }

  private clickBoard(event: Event): void {
    if (!this.view) return;
    if (this.composer.click(event, this.board)) return;
    const moveId = this.targetOf(event);
    if (!moveId || !this.view.legalMoves.some((move) => move.id === moveId)) return;
    event.preventDefault();
    void this.submit(moveId);
  }

  /** The data-move id under the click: the clicked element's own target, or
   * one lying beneath a label or piece the plugin drew on top of it. */
  private targetOf(event: Event): string | null {
    const direct = (event.target as Element | null)?.closest?.("[data-move]");
    if (direct && this.board.contains(direct)) return direct.getAttribute("data-move");
    if (!(event instanceof MouseEvent)) return null;
    const beneath = document.elementsFromPoint(event.clientX, event.clientY)
      .find((element) => element.hasAttribute("data-move") && this.board.contains(element));
    return beneath?.getAttribute("data-move") ?? null;
  }

  /** SubmitMove with the version the move was chosen from and one request id for all retries. */
  private async submit(moveId: string): Promise<void> {
    if (this.submitting || !this.view) return;
    this.submitting = true;
    this.submits += 1;
    Object.assign(this.container.dataset, { submits: String(this.submits), lastSubmit: moveId });
    this.container.classList.add("submitting");
    this.problems.replaceChildren();
    this.composer.clear();
    this.showMoves(this.view, true);
    const request = { name: this.name, playerToken: this.token, move: { case: "moveId" as const, value: moveId },
      expectedVersion: this.view.version, requestId: newRequestId() };
    try {
      for (let attempt = 0; ; attempt += 1) {
        try {
          await gamehost.submitMove(request);
          return;
        } catch (error) {
          const problem = problemOf(error);
          if (isTransient(error) && attempt < SUBMIT_RETRIES) {
            await new Promise((resolve) => window.setTimeout(resolve, 400 * 2 ** attempt));
            continue;
          }
          this.showProblem(problem, tr("Your move"));
          if (problem.reason === "INVALID_TOKEN") await this.loseSeat();
          else if (REFRESH_AFTER.has(problem.reason)) await this.refreshView();
          return;
        }
      }
    } finally {
      this.submitting = false;
      this.container.classList.remove("submitting");
      if (this.view) this.showMoves(this.view, this.view.seat >= 0);
    }
  }

  private async refreshView(): Promise<void> {
    try {
      const view = await gamehost.getView({ name: this.name, playerToken: this.token, render: { svg: true },
        invitationCode: this.invite });
      this.showView(view, true);
    } catch (error) {
      this.showProblem(problemOf(error), tr("Refreshing the view"));
    }
  }

  private async join(seat: number): Promise<void> {
    try {
      await joinSeat(this.name, seat, playerName(), this.invite);
      this.reopen();
    } catch (error) {
      this.showProblem(problemOf(error), tr("Joining"));
    }
  }

  private async leave(): Promise<void> {
    const active = this.view?.status === MatchStatus.ACTIVE;
    if (active && !window.confirm(tr("Leaving an active match abandons it for everyone. Leave?"))) return;
    try {
      await gamehost.leaveMatch({ name: this.name, playerToken: this.token });
      releaseSeat(this.id);
      this.reopen();
    } catch (error) {
      this.showProblem(problemOf(error), tr("Leaving"));
    }
  }

  /** The host no longer knows this browser's token (e.g. the seat was taken back on another device): the page
   * goes on without it, as whatever the host makes of the caller (a signed-in user acts for their own seat by
   * identity; anyone else watches). Reopening the match gets a token for this browser again. */
  private async loseSeat(): Promise<void> {
    releaseSeat(this.id);
    this.token = "";
    this.follower?.stop();
    try {
      const view = await gamehost.getView({ name: this.name, render: { svg: true }, invitationCode: this.invite });
      this.showView(view, true);
      if (!this.closed) this.follow(view);
    } catch (error) {
      this.showProblem(problemOf(error), tr("Watching the match"));
    }
  }

  private reopen(): void {
    window.dispatchEvent(new HashChangeEvent("hashchange"));
  }
}

function botsOnly(toMove: number[], seats: Seat[]): boolean {
  return toMove.length > 0 && toMove.every((index) => seats[index]?.kind === SeatKind.BOT);
}

/** "Player 2 (bot) is thinking…" while only bots are to move, else "Waiting for Ann and Player 3." */
function waitingText(toMove: number[], seats: Seat[]): string {
  const names = seatNames(toMove, seats);
  if (botsOnly(toMove, seats)) {
    return toMove.length > 1 ? tr("{names} are thinking…", { names }) : tr("{names} is thinking…", { names });
  }
  return tr("Waiting for {names}.", { names });
}
