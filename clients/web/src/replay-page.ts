// The replay of a match that is over: its pictures version by version, as the
// host renders them (GetView with at_version), with the move that led to
// each and what it changed marked; buttons, a slider and the keyboard (arrows, Home, End) step through
// them. The raw log (GetMatchLog in the proto3 JSON mapping) is one toggle away.
import { toJsonString } from "@bufbuild/protobuf";
import {
  MatchLogSchema, MatchStatus, type Match, type MatchEvent, type MatchLog, type View,
} from "@gamehost/client";
import { gamehost } from "./api";
import { h, replaceChildren } from "./elements";
import { problemOf, problemPanel } from "./errors";
import { endingBanner } from "./match-outcome";
import { eventText, gameId } from "./match-text";
import { formatNumber, tr } from "./i18n";
import { markChanges } from "./picture-changes";
import { heldSeat } from "./seat-tokens";
import { ChatPanel } from "./chat-panel";
import { sanitizeSvg } from "./svg-sanitizer";

export function showReplay(root: HTMLElement, id: string): () => void {
  const page = new ReplayPage(root, id);
  void page.open();
  return () => page.close();
}

class ReplayPage {
  private readonly name: string;
  private token: string;
  private match?: Match;
  private log?: MatchLog;
  private lastVersion = 0;
  private version = 0;
  private readonly views = new Map<number, Promise<View>>();
  private readonly onKey = (event: KeyboardEvent) => this.key(event);

  private readonly container = h("div", { class: "replay-page" });
  private readonly title = h("h2", {}, tr("Replay"));
  private readonly note = h("p", { id: "replay-note", class: "muted" }, tr("Loading…"));
  private readonly problems = h("div", { id: "problems" });
  private readonly position = h("span", { id: "replay-position", class: "replay-position", "aria-live": "polite" });
  private readonly slider = h("input", { type: "range", id: "replay-slider", min: 0, max: 0, value: 0,
    "aria-label": tr("Step"), oninput: () => this.go(Number(this.slider.value)) });
  private readonly step = h("p", { id: "replay-step", class: "replay-step" });
  private readonly board = h("div", { id: "replay-board", class: "board" });
  private readonly ending = h("div", { id: "replay-ending" });
  private readonly raw = h("pre", { id: "match-log" });
  private readonly controls: HTMLElement;
  private readonly chat: ChatPanel;

  constructor(root: HTMLElement, private readonly id: string) {
    this.name = `matches/${id}`;
    this.token = heldSeat(id)?.token ?? "";
    this.container.dataset.match = id;
    this.chat = new ChatPanel({ name: this.name, token: () => this.token }, false);
    const button = (buttonId: string, label: string, text: string, to: () => number) =>
      h("button", { type: "button", id: buttonId, "aria-label": label, title: label,
        onclick: () => this.go(to()) }, text);
    this.controls = h("div", { class: "replay-controls", role: "group", "aria-label": tr("Replay controls"), hidden: true },
      button("replay-first", tr("First step (Home)"), tr("« First"), () => 0),
      button("replay-prev", tr("Previous step (left arrow)"), tr("◀ Previous"), () => this.version - 1),
      button("replay-next", tr("Next step (right arrow)"), tr("Next ▶"), () => this.version + 1),
      button("replay-last", tr("Last step (End)"), tr("Last »"), () => this.lastVersion),
      this.slider, this.position);
    replaceChildren(root, this.container);
    replaceChildren(this.container,
      h("header", { class: "match-header" }, this.title, " ", h("code", {}, id), " ",
        h("a", { href: `#/matches/${id}` }, tr("back to the match")), " ", h("a", { href: "#/" }, tr("lobby"))),
      this.note, this.problems, this.controls, this.step, this.ending, this.board, this.chat.element,
      h("details", { class: "raw-log" }, h("summary", {}, tr("The raw match log (JSON)")), this.raw));
    document.addEventListener("keydown", this.onKey);
  }

  close(): void {
    document.removeEventListener("keydown", this.onKey);
    this.chat.stop();
  }

  async open(): Promise<void> {
    try {
      this.match = await gamehost.getMatch({ name: this.name });
      const game = await gamehost.getGame({ name: this.match.game }).catch(() => undefined);
      this.title.textContent = tr("Replay: {game}", { game: game?.title ?? gameId(this.match.game) });
      document.title = `${this.title.textContent} · gamehost`;
      this.log = await this.fetchLog();
    } catch (error) {
      this.note.replaceWith(problemPanel(problemOf(error), tr("Loading the match")));
      return;
    }
    this.raw.textContent = toJsonString(MatchLogSchema, this.log, { prettySpaces: 2 });
    this.raw.dataset.complete = String(this.log.complete);
    if (!this.log.complete) {
      replaceChildren(this.note, tr("The match is still being played: its replay opens when it is over. "),
        h("a", { href: `#/matches/${this.id}` }, tr("Follow it live.")));
      return;
    }
    this.note.hidden = true;
    void this.chat.start();
    this.lastVersion = Number(this.log.events.at(-1)?.version ?? 0n);
    this.container.dataset.lastVersion = String(this.lastVersion);
    this.slider.max = String(this.lastVersion);
    this.controls.hidden = false;
    this.go(0);
  }

  /** GetMatchLog as this browser's seat; a token the host no longer knows is dropped (the public log then). */
  private async fetchLog(): Promise<MatchLog> {
    try {
      return await this.everyPage();
    } catch (error) {
      if (!this.token || problemOf(error).reason !== "INVALID_TOKEN") throw error;
      this.token = "";
      return this.everyPage();
    }
  }

  /** The whole log: every page's events, in order, in the last page's MatchLog. */
  private async everyPage(): Promise<MatchLog> {
    const events: MatchEvent[] = [];
    let pageToken = "";
    for (;;) {
      const page = await gamehost.getMatchLog({ name: this.name, playerToken: this.token, pageToken });
      events.push(...page.events);
      pageToken = page.nextPageToken;
      if (!pageToken) return { ...page, events };
    }
  }

  private key(event: KeyboardEvent): void {
    if (this.controls.hidden || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target as HTMLElement | null;
    if (target && (target === this.slider || /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName))) return;
    const to = { ArrowLeft: this.version - 1, ArrowRight: this.version + 1, Home: 0, End: this.lastVersion }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    this.go(to);
  }

  /** Shows step `version`: the move that led to it at once, the host's picture when it comes. */
  private go(version: number): void {
    version = Math.max(0, Math.min(this.lastVersion, version));
    this.version = version;
    this.slider.value = String(version);
    this.position.textContent = tr("Step {step} of {last}",
      { step: formatNumber(version), last: formatNumber(this.lastVersion) });
    this.container.dataset.loading = String(version);
    const seats = this.match?.seats ?? [];
    const event = this.log?.events.find((candidate) => Number(candidate.version) === version);
    this.step.textContent = stepText(event, seats);
    for (const [buttonId, disabled] of [["replay-first", version === 0], ["replay-prev", version === 0],
      ["replay-next", version === this.lastVersion], ["replay-last", version === this.lastVersion]] as const) {
      (this.container.querySelector(`#${buttonId}`) as HTMLButtonElement).disabled = disabled;
    }
    void this.draw(version);
    if (version < this.lastVersion) void this.viewAt(version + 1).catch(() => undefined); // the next step, ahead
  }

  private async draw(version: number): Promise<void> {
    let view: View;
    try {
      view = await this.viewAt(version);
    } catch (error) {
      if (version === this.version) replaceChildren(this.problems, problemPanel(problemOf(error), tr("Drawing this step")));
      return;
    }
    // What this step changed is marked against the step before (usually cached: the page came from there).
    const before = version > 0 ? await this.viewAt(version - 1).catch(() => undefined) : undefined;
    if (version !== this.version) return; // the player stepped on meanwhile
    this.problems.replaceChildren();
    const svg = view.svg ? sanitizeSvg(view.svg) : null;
    if (svg) markChanges(before?.svg ? sanitizeSvg(before.svg) : null, svg);
    replaceChildren(this.board, svg ?? h("pre", { class: "state" }, JSON.stringify(view.state ?? {}, null, 2)));
    const finished = view.status === MatchStatus.FINISHED && view.result;
    if (finished) replaceChildren(this.ending, endingBanner(view.result!, view.seat, this.match?.seats ?? []));
    else this.ending.replaceChildren();
    Object.assign(this.container.dataset, { version: String(version), seat: String(view.seat) });
    delete this.container.dataset.loading;
  }

  /** The host's view at a version, asked once per page (the host caches the replay too). */
  private viewAt(version: number): Promise<View> {
    let view = this.views.get(version);
    if (!view) {
      view = gamehost.getView({ name: this.name, playerToken: this.token, atVersion: BigInt(version),
        render: { svg: true } });
      this.views.set(version, view);
      view.catch(() => this.views.delete(version));
    }
    return view;
  }
}

/** What happened at a step, for people: "Ann: X on b2", "Player 2 joined". */
function stepText(event: MatchEvent | undefined, seats: Match["seats"]): string {
  if (!event) return tr("The match was created.");
  const text = eventText(event, seats);
  return text.charAt(0).toUpperCase() + text.slice(1);
}
