// The lobby's "Your turn": the signed-in player's active matches where it is their move (ListMatches with
// my_turn), the most pressing first, each opening the game page. It polls with the host's etag, so an
// unchanged list costs the host no page and the browser no redraw; the waiting times and clocks tick here.
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { SeatKind, type Match } from "@gamehost/client";
import { gamehost } from "./api";
import { h, replaceChildren } from "./elements";
import { problemOf } from "./errors";
import { matchId, seatName } from "./match-text";
import { formatList, plural, tr } from "./i18n";

const POLL_MS = 4000;
const PAGE_SIZE = 50;
const URGENT_MS = 60_000; // a clock with less than this left is shown as urgent

export class YourTurnList {
  readonly element = h("section", { id: "your-turn", class: "your-turn", hidden: true });
  // The count is announced when it changes; the list is not (its times tick every second).
  private readonly heading = h("h2", { "aria-live": "polite" }, tr("Your turn"));
  private readonly list = h("ul", { id: "your-turn-list", class: "your-turn-list" });
  private readonly note = h("p", { class: "your-turn-note muted", role: "status" });
  private etag = "";
  private matches: Match[] = [];
  private more = false;
  private asking = false;
  private stopped = false;
  private readonly timers: number[] = [];
  private readonly onVisible = () => { if (!document.hidden) void this.refresh(); };

  constructor(private readonly gameTitle: (game: string) => string) {
    this.element.append(this.heading, this.list, this.note);
  }

  /** Shows the section and follows the list until stop(). */
  start(): void {
    if (this.stopped) return; // the page was left before the sign-in was known
    this.element.hidden = false;
    replaceChildren(this.note, tr("Looking for matches where it is your turn…"));
    void this.refresh();
    this.timers.push(window.setInterval(() => { if (!document.hidden) void this.refresh(); }, POLL_MS),
      window.setInterval(() => this.tick(), 1000));
    document.addEventListener("visibilitychange", this.onVisible);
  }

  stop(): void {
    this.stopped = true;
    this.timers.splice(0).forEach((timer) => window.clearInterval(timer));
    document.removeEventListener("visibilitychange", this.onVisible);
  }

  /** Asks the host again; the list is redrawn only when the host's page changed. */
  async refresh(): Promise<void> {
    if (this.asking) return;
    this.asking = true;
    try {
      const page = await gamehost.listMatches({ myTurn: true, pageSize: PAGE_SIZE, ifNoneMatch: this.etag });
      this.element.dataset.problem = "";
      if (page.notModified && this.etag) {
        if (this.note.classList.contains("problem")) this.draw(); // the host answers again: drop the complaint
        return;
      }
      this.etag = page.etag;
      this.matches = page.matches;
      this.more = Boolean(page.nextPageToken);
      this.draw();
    } catch (error) {
      // Keep the list shown, say it may be stale and why; the next poll tries again.
      const problem = problemOf(error);
      this.element.dataset.problem = problem.reason || problem.code;
      this.note.className = "your-turn-note problem";
      replaceChildren(this.note, tr("Could not refresh this list ({reason}): {message}",
        { reason: problem.reason || problem.code, message: problem.message }));
    } finally {
      this.asking = false;
    }
  }

  private draw(): void {
    // A match this host cannot play (its rules version is missing) waits for no move here: "My matches" labels it.
    const ordered = this.matches.filter((match) => !match.rulesUnavailable).sort(mostPressingFirst);
    this.element.dataset.count = String(ordered.length);
    this.element.dataset.etag = this.etag;
    replaceChildren(this.heading, tr("Your turn"), ordered.length ? h("span", { class: "your-turn-count" },
      ` (${ordered.length}${this.more ? "+" : ""})`) : null);
    replaceChildren(this.list, ordered.map((match) => this.item(match)));
    this.note.className = "your-turn-note muted";
    replaceChildren(this.note, ordered.length === 0
      ? tr("No match is waiting for your move. Start one under Games below, or join an open match under Matches: a match appears here as soon as it is your turn.")
      : this.more ? tr("More matches wait for you than the {count} shown; play these first.", { count: PAGE_SIZE }) : "");
    document.title = ordered.length
      ? tr("({count}) Your turn · gamehost", { count: `${ordered.length}${this.more ? "+" : ""}` }) : "gamehost";
    this.tick();
  }

  private item(match: Match): HTMLElement {
    const id = matchId(match.name);
    const opponents = match.seats.filter((seat) => !match.userSeats.includes(seat.index))
      .map((seat) => seat.kind === SeatKind.OPEN ? tr("an open seat") : seatName(seat.index, match.seats));
    const seats = formatList(match.userSeats.map((seat) => tr("player {number}", { number: seat + 1 })));
    return h("li", { class: "your-turn-match", "data-match": id },
      h("a", { class: "open-match", href: `#/matches/${id}` },
        h("strong", { class: "your-turn-game" }, this.gameTitle(match.game)),
        h("span", { class: "your-turn-opponents" }, opponents.length ? tr(" vs {opponents}", { opponents: opponents.join(", ") }) : ""),
        h("span", { class: "muted" }, seats ? tr(" · you are {seats}", { seats }) : "")),
      h("span", { class: "your-turn-waiting muted", "data-since": millis(match.userTurnSince) ?? "" }),
      h("span", { class: "your-turn-clock", "data-deadline": deadlineOf(match) ?? "" }),
      h("a", { class: "button play-turn", href: `#/matches/${id}`, "aria-label": tr("Play {game}", { game: this.gameTitle(match.game) }) },
        tr("Play")));
  }

  /** The waiting times and the clocks, each second, between the host's answers. */
  private tick(): void {
    const now = Date.now();
    for (const waiting of this.list.querySelectorAll<HTMLElement>(".your-turn-waiting")) {
      const since = Number(waiting.dataset.since);
      waiting.textContent = since ? tr(" · waiting {time}", { time: spanText(now - since) }) : "";
    }
    for (const clock of this.list.querySelectorAll<HTMLElement>(".your-turn-clock")) {
      const deadline = Number(clock.dataset.deadline);
      clock.textContent = deadline ? tr(" · {time} left", { time: clockText(deadline - now) }) : "";
      clock.classList.toggle("urgent", Boolean(deadline) && deadline - now < URGENT_MS);
    }
  }
}

function millis(stamp: Match["userTurnSince"]): number | undefined {
  return stamp ? timestampDate(stamp).getTime() : undefined;
}

/** When the user's time to move runs out: their chess or correspondence clock, else the turn timeout. */
function deadlineOf(match: Match): number | undefined {
  const clock = match.clock;
  const running = clock?.running.find((seat) => match.userSeats.includes(seat));
  if (clock && running !== undefined && clock.since) {
    const left = clock.remaining[running];
    const seconds = left ? Number(left.seconds) + left.nanos / 1e9 : 0;
    return timestampDate(clock.since).getTime() + seconds * 1000;
  }
  return millis(match.turnDeadline);
}

/** The matches whose clock runs, soonest deadline first, then the others, longest waiting first. */
function mostPressingFirst(a: Match, b: Match): number {
  const [first, second] = [deadlineOf(a), deadlineOf(b)];
  if (first !== undefined || second !== undefined) return (first ?? Infinity) - (second ?? Infinity) || 0;
  return (millis(a.userTurnSince) ?? 0) - (millis(b.userTurnSince) ?? 0);
}

function spanText(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return plural(Math.floor(hours / 24), "{count} day", "{count} days");
}

function clockText(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  if (seconds >= 3600) return spanText(seconds * 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

