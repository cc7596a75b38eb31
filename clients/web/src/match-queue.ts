// The lobby's "Find a match": a signed-in player queues for a game (matchmaking tickets), alone or as a
// party of friends, and is taken to the match page once the host seats them. The ticket is followed live
// by WatchTicket; a dropped stream is picked up again by GetTicket + WatchTicket. The matched seat is bound
// to the player's identity, so the match page takes it by identity (seat-tokens.ts, reclaimSeat).
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { TicketState, isTransient, type Game, type Ticket } from "@gamehost/client";
import { gamehost } from "./api";
import { h, replaceChildren } from "./elements";
import { problemOf, problemPanel, type Problem } from "./errors";
import { gameId, matchId } from "./match-text";
import { formatNumber, formatTime, tr } from "./i18n";

const DEFAULT_BOT_WAIT_S = 30;
const DEFAULT_TTL_MIN = 5; // the host's own default
const MAX_TTL_MIN = 60;
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 8000;
// Resumed when the lobby opens: a player holds at most 4 queued tickets (the host's limit).
const QUEUED_PAGE_SIZE = 10;
const FIELD_LABELS: Record<string, () => string> = { game: () => tr("Game"), seats: () => tr("Players"),
  party_size: () => tr("Queue"), bot_wait: () => tr("Accept bots after"), ttl: () => tr("Give up after") };
const PARTY_NAME = /^parties\/[A-Za-z0-9_-]{1,64}$/;

/** The party a `#/?party=parties/...` link invites to, as written in the address ("" when none). */
export function partyInvitation(): string {
  const query = window.location.hash.replace(/^#[^?]*\??/, "");
  return new URLSearchParams(query).get("party")?.trim() ?? "";
}

/** The address of the lobby that invites a friend into `party`. */
export function partyLink(party: string): string {
  return `${window.location.origin}${window.location.pathname}#/?party=${party}`;
}

export class MatchQueue {
  readonly element = h("section", { id: "find-match", class: "find-match" });
  private readonly invitation = h("div", { id: "party-invitation", class: "party-invitation", hidden: true });
  private readonly ticketArea = h("div", { id: "ticket", class: "ticket", hidden: true });
  private readonly formArea = h("div", { class: "find-match-form-area" });
  private readonly problems = h("div", { class: "problem-area" });
  private games: Game[] = [];
  private ticket?: Ticket;
  private following?: AbortController;
  private timer = 0;
  private stopped = false;

  constructor() {
    this.element.append(h("h2", {}, tr("Find a match")));
  }

  /** Shows the panel: for an anonymous visitor only why to sign in; signed in, the queue form, the ticket
   * already queued (if any) followed live, and the party the address invites to. */
  start(games: Game[], signedIn: boolean): void {
    if (this.stopped) return; // the page was left before the catalog and sign-in were known
    this.games = games;
    const invited = partyInvitation();
    if (!signedIn) {
      this.element.dataset.state = "anonymous";
      this.element.append(h("p", { class: "sign-in-first" },
        invited ? tr("You are invited to join a party ({party}): sign in first, then join it here.", { party: invited })
          : tr("Sign in to find a match: the host seats each player by their sign-in.")));
      return;
    }
    this.element.dataset.state = "ready";
    this.element.append(this.invitation, this.ticketArea, this.problems, this.formArea);
    replaceChildren(this.formArea, this.queueForm());
    this.timer = window.setInterval(() => this.tick(), 1000);
    void this.resume().then(() => { if (invited) this.offerToJoin(invited); });
  }

  stop(): void {
    this.stopped = true;
    this.following?.abort();
    window.clearInterval(this.timer);
  }

  /** Follows the newest ticket the player has queued already (from another visit of the lobby). */
  private async resume(): Promise<void> {
    try {
      const { tickets } = await gamehost.listTickets({ states: [TicketState.QUEUED], pageSize: QUEUED_PAGE_SIZE });
      if (tickets.length && !this.ticket && !this.stopped) void this.follow(tickets[0]);
    } catch (error) {
      this.report(problemOf(error), tr("Looking for your queued tickets"));
    }
  }

  private offerToJoin(party: string): void {
    if (this.ticket?.party === party && this.ticket.state === TicketState.QUEUED) return; // in it already
    this.invitation.hidden = false;
    if (!PARTY_NAME.test(party)) {
      replaceChildren(this.invitation, h("p", { class: "problem input-problem", role: "alert" },
        tr("The link names no party (“{party}”): ask your friend for the link again.", { party })));
      return;
    }
    const join = h("button", { type: "button", id: "join-party" }, tr("Join party"));
    const problemArea = h("div", { class: "problem-area" });
    join.addEventListener("click", async () => {
      join.disabled = true;
      problemArea.replaceChildren();
      try {
        // The party's game, player count and options are taken: nothing else to choose.
        const ticket = await gamehost.createTicket({ party });
        forgetInvitation();
        this.invitation.hidden = true;
        void this.follow(ticket);
      } catch (error) {
        problemArea.append(problemPanel(problemOf(error), tr("Joining the party")));
        join.disabled = false;
      }
    });
    replaceChildren(this.invitation, h("p", {}, tr("A friend invites you to queue together: "), h("code", {}, party),
      tr(". You will play their game, with their player count and options. "), join), problemArea);
  }

  private queueForm(): HTMLFormElement {
    const game = h("select", { name: "game", onchange: () => drawCounts() },
      this.games.map((known) => h("option", { value: known.name }, known.title)));
    const seats = h("select", { name: "seats", onchange: () => drawPartySizes() });
    const partySize = h("select", { name: "party-size", onchange: () => labelButton() });
    const acceptBots = h("input", { type: "checkbox", name: "accept-bots", onchange: () => {
      botWait.disabled = !acceptBots.checked;
    } });
    const botWait = h("input", { type: "number", name: "bot-wait", min: 0, step: 1, value: DEFAULT_BOT_WAIT_S,
      disabled: true, style: "width: 5rem", "aria-label": tr("seconds before bots fill the empty seats") });
    const ttl = h("input", { type: "number", name: "ttl", min: 0, max: MAX_TTL_MIN, step: "any",
      value: DEFAULT_TTL_MIN, style: "width: 5rem", "aria-label": tr("minutes before the host gives up") });
    const submit = h("button", { type: "submit", id: "queue" }, tr("Queue"));
    const problemArea = h("div", { class: "problem-area" });
    const chosenGame = () => this.games.find((known) => known.name === game.value);
    const drawCounts = () => {
      const picked = chosenGame();
      replaceChildren(seats, picked ? range(picked.minPlayers, picked.maxPlayers).map((count) =>
        h("option", { value: String(count) }, formatNumber(count))) : []);
      drawPartySizes();
    };
    const drawPartySizes = () => {
      const before = partySize.value;
      replaceChildren(partySize, h("option", { value: "0" }, tr("alone")),
        range(2, Number(seats.value)).map((size) => h("option", { value: String(size) },
          tr("with friends: a party of {size}", { size }))));
      if (Array.from(partySize.options).some((option) => option.value === before)) partySize.value = before;
      labelButton();
    };
    const labelButton = () => {
      submit.textContent = Number(partySize.value) ? tr("Start a party of {size}", { size: partySize.value }) : tr("Queue");
    };
    drawCounts();

    const form = h("form", { class: "find-match-form", novalidate: true },
      h("div", { class: "form-line" }, h("label", {}, tr("Game "), game), " ", h("label", {}, tr("Players "), seats), " ",
        h("label", {}, tr("Queue "), partySize)),
      h("div", {}, h("label", {}, acceptBots, tr(" accept bots after ")), botWait, " s",
        h("small", { class: "muted" }, tr(" optional: bots fill the seats nobody took (for a party: if all accept)"))),
      h("div", {}, h("label", {}, tr("Give up after "), ttl, " min")),
      submit, problemArea);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      problemArea.replaceChildren();
      const waitSeconds = botWait.valueAsNumber;
      const ttlSeconds = Math.round(ttl.valueAsNumber * 60);
      const refuse = (message: string) => problemArea.append(h("p", { class: "problem input-problem", role: "alert" },
        message));
      if (acceptBots.checked && !(waitSeconds >= 0)) {
        refuse(tr("The wait before bots must be a number of seconds (0 or more)."));
        return;
      }
      if (!(ttlSeconds >= 1 && ttlSeconds <= MAX_TTL_MIN * 60)) {
        refuse(tr("The time to give up after must be a number of minutes, more than 0 and at most {max}.",
          { max: MAX_TTL_MIN }));
        return;
      }
      submit.disabled = true;
      try {
        const ticket = await gamehost.createTicket({ game: game.value, seats: Number(seats.value),
          partySize: Number(partySize.value), ttl: { seconds: BigInt(ttlSeconds), nanos: 0 },
          botWait: acceptBots.checked ? { seconds: BigInt(Math.floor(waitSeconds)), nanos: 0 } : undefined });
        void this.follow(ticket);
      } catch (error) {
        const problem = problemOf(error);
        problemArea.append(problemPanel(problem, tr("Queuing")));
        // The host names the field at fault by its proto name: say it with the form's words.
        for (const violation of problem.fieldViolations) {
          refuse(tr("{field}: {problem}", { field: FIELD_LABELS[violation.field]?.() ?? violation.field,
            problem: violation.description }));
        }
      } finally {
        submit.disabled = false;
      }
    });
    return form;
  }

  /** Shows `first` and follows it until it leaves the queue or the lobby closes. */
  private async follow(first: Ticket): Promise<void> {
    this.following?.abort();
    const following = new AbortController();
    this.following = following;
    const { signal } = following;
    const name = first.name;
    this.problems.replaceChildren();
    this.show(first);
    let attempt = 0;
    let resuming = false;
    while (!signal.aborted && this.ticket?.state === TicketState.QUEUED) {
      try {
        if (resuming) this.show(await gamehost.getTicket({ name }, { signal }));
        if (this.ticket?.state !== TicketState.QUEUED) break;
        for await (const ticket of gamehost.watchTicket({ name }, { signal })) {
          attempt = 0;
          this.ticketArea.dataset.connection = "live"; // the stream sends the ticket at once: it is up
          this.show(ticket);
        }
      } catch (error) {
        if (signal.aborted) return;
        if (!isTransient(error)) {
          this.ticketArea.dataset.connection = "failed";
          this.report(problemOf(error), tr("Following your ticket"));
          return;
        }
      }
      if (signal.aborted || this.ticket?.state !== TicketState.QUEUED) break;
      // The stream dropped (or the host is restarting) while the ticket waits: pick it up again.
      this.ticketArea.dataset.connection = "reconnecting";
      resuming = true;
      await sleep(Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt), signal);
      attempt += 1;
    }
  }

  private show(ticket: Ticket): void {
    if (this.stopped) return;
    this.ticket = ticket;
    const id = ticket.name.replace(/^tickets\//, "");
    Object.assign(this.ticketArea.dataset, { ticket: id, state: stateName(ticket.state), party: ticket.party,
      partyQueued: String(ticket.partyQueued) });
    this.ticketArea.hidden = false;
    switch (ticket.state) {
      case TicketState.MATCHED:
        replaceChildren(this.ticketArea, h("p", { role: "status" }, tr("Match found: opening it…")));
        window.location.hash = `#/matches/${matchId(ticket.match)}`;
        return;
      case TicketState.QUEUED:
        this.formArea.hidden = true;
        this.drawQueued(ticket);
        return;
      case TicketState.CANCELLED:
        this.formArea.hidden = false;
        replaceChildren(this.ticketArea, h("p", { class: "ticket-over", role: "status" },
          tr("You left the queue for {game}.", { game: this.gameTitle(ticket.game) })));
        return;
      case TicketState.EXPIRED:
        this.formArea.hidden = false;
        replaceChildren(this.ticketArea, h("p", { class: "ticket-over", role: "status" },
          tr("Nobody was found in time for {game}; queue again.", { game: this.gameTitle(ticket.game) })));
        return;
      default:
        this.formArea.hidden = false;
    }
  }

  private drawQueued(ticket: Ticket): void {
    const cancel = h("button", { type: "button", id: "cancel-ticket" }, tr("Cancel"));
    cancel.addEventListener("click", async () => {
      cancel.disabled = true;
      try {
        this.show(await gamehost.cancelTicket({ name: ticket.name }));
      } catch (error) {
        // Matched meanwhile: the stream brings the match. Otherwise say why.
        const problem = problemOf(error);
        if (problem.reason !== "TICKET_MATCHED") this.report(problem, tr("Cancelling"));
        cancel.disabled = false;
      }
    });
    const bots = ticket.botWait
      ? tr("; bots fill the empty seats after {seconds} s", { seconds: durationSeconds(ticket.botWait) }) : "";
    const expires = ticket.expireTime ? formatTime(timestampDate(ticket.expireTime)) : "?";
    replaceChildren(this.ticketArea,
      h("p", { class: "ticket-what" },
        tr("Looking for a {count}-player match of {game}", { count: ticket.seats, game: this.gameTitle(ticket.game) }),
        bots, "."),
      h("p", { class: "ticket-wait" }, tr("Waiting "), h("span", { class: "ticket-waited" }, this.waitedText()),
        tr("; the host gives up at {time}. ", { time: expires }), cancel),
      ticket.party ? partyLine(ticket) : null);
  }

  private tick(): void {
    const waited = this.ticketArea.querySelector(".ticket-waited");
    if (waited && this.ticket?.state === TicketState.QUEUED) waited.textContent = this.waitedText();
  }

  private waitedText(): string {
    const since = this.ticket?.createTime ? timestampDate(this.ticket.createTime).getTime() : Date.now();
    const seconds = Math.max(0, Math.floor((Date.now() - since) / 1000));
    return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  }

  private gameTitle(game: string): string {
    return this.games.find((known) => known.name === game)?.title ?? gameId(game);
  }

  private report(problem: Problem, context: string): void {
    replaceChildren(this.problems, problemPanel(problem, context));
  }
}

/** A party's invitation link to copy, and how many of its players have queued. */
function partyLine(ticket: Ticket): HTMLElement {
  const link = partyLink(ticket.party);
  const copied = h("span", { class: "muted", role: "status" });
  const copy = h("button", { type: "button", id: "copy-party-link" }, tr("Copy link"));
  copy.addEventListener("click", () => {
    // No clipboard on a page served over plain HTTP from another machine: the link is there to select.
    const written = navigator.clipboard ? navigator.clipboard.writeText(link) : Promise.reject(new Error("no clipboard"));
    written.then(() => { copied.textContent = tr(" copied"); },
      () => { copied.textContent = tr(" select the link and copy it"); });
  });
  return h("div", { class: "party" },
    h("p", {}, tr("Your party of {size}: ", { size: ticket.partySize }),
      h("strong", { class: "party-queued", "aria-live": "polite" },
        tr("{queued} of {size} queued", { queued: ticket.partyQueued, size: ticket.partySize })),
      ticket.partyQueued >= ticket.partySize ? tr(". All of you are queued: waiting for players to fill the match.")
        : tr(". Friends who open this link, signed in, can join it:")),
    h("p", {}, h("a", { id: "party-link", class: "party-link", href: link }, link), " ", copy, copied));
}

/** Drops `party=` from the address once joined: a reload must not offer to join again. */
function forgetInvitation(): void {
  const [route, query = ""] = window.location.hash.replace(/^#/, "").split("?", 2);
  const params = new URLSearchParams(query);
  params.delete("party");
  const rest = params.toString();
  window.history.replaceState(window.history.state, "",
    `${window.location.pathname}${window.location.search}#${route || "/"}${rest ? `?${rest}` : ""}`);
}

function stateName(state: TicketState): string {
  return (TicketState[state] ?? "UNSPECIFIED").toLowerCase();
}

function durationSeconds(duration: { seconds: bigint; nanos: number }): number {
  return Number(duration.seconds) + duration.nanos / 1e9;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = window.setTimeout(resolve, ms);
    signal.addEventListener("abort", () => { window.clearTimeout(timer); resolve(); }, { once: true });
  });
}

function range(first: number, last: number): number[] {
  return Array.from({ length: Math.max(0, last - first + 1) }, (_, index) => first + index);
}
