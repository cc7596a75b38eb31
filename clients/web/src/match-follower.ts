// Follows one match live: WatchMatch from the last version seen, and after a
// dropped stream or a host restart, GetView plus WatchMatch again from that
// version, with exponential backoff. Each event is delivered once, in order.
import type { MatchEvent, View } from "./gen/gamehost/v1/gamehost_pb";
import { gamehost } from "./api";
import { isTransient, problemOf, type Problem } from "./errors";
import { isFinalEvent, isOver } from "./match-text";

export type Connection =
  | { state: "live" }
  | { state: "reconnecting"; attempt: number; retryInMs: number; problem?: Problem }
  | { state: "ended" }
  | { state: "failed"; problem: Problem };

export interface FollowerHandlers {
  view(view: View): void;
  event(event: MatchEvent): void;
  connection(connection: Connection): void;
}

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 8000;

export class MatchFollower {
  private lastVersion = 0n;
  private over = false;
  private readonly abort = new AbortController();

  constructor(
    private readonly name: string,
    private readonly playerToken: string,
    private readonly handlers: FollowerHandlers,
  ) {}

  /** Follows the events after a view the page has already drawn. */
  start(shown: View): void {
    this.lastVersion = shown.version;
    this.over = isOver(shown.status);
    if (this.over) {
      this.handlers.connection({ state: "ended" });
      return;
    }
    void this.run();
  }

  stop(): void {
    this.abort.abort();
  }

  private async run(): Promise<void> {
    const { signal } = this.abort;
    const render = { svg: true };
    let attempt = 0;
    let resuming = false;
    while (!signal.aborted) {
      let problem: Problem | undefined;
      try {
        if (resuming) {
          // Draw the match as it is now at once; the watch below then fills in the missed events.
          const view = await gamehost.getView({ name: this.name, playerToken: this.playerToken, render }, { signal });
          this.handlers.view(view);
          this.over ||= isOver(view.status) && view.version <= this.lastVersion;
        }
        if (this.over) break;
        this.handlers.connection({ state: "live" });
        const events = gamehost.watchMatch(
          { name: this.name, playerToken: this.playerToken, afterVersion: this.lastVersion, render }, { signal });
        for await (const event of events) {
          attempt = 0;
          if (event.version <= this.lastVersion) continue;
          this.lastVersion = event.version;
          this.handlers.event(event);
          if (event.view) this.handlers.view(event.view);
          this.over ||= isFinalEvent(event.kind);
        }
        // The stream ended cleanly: the match is over, or the host is shutting down.
        if (this.over) break;
      } catch (error) {
        if (signal.aborted) return;
        problem = problemOf(error);
        if (!isTransient(problem)) {
          this.handlers.connection({ state: "failed", problem });
          return;
        }
      }
      const retryInMs = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt) * (0.75 + Math.random() / 2);
      attempt += 1;
      resuming = true;
      this.handlers.connection({ state: "reconnecting", attempt, retryInMs, problem });
      await sleep(retryInMs, signal);
    }
    if (!signal.aborted) this.handlers.connection({ state: "ended" });
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = window.setTimeout(resolve, ms);
    signal.addEventListener("abort", () => { window.clearTimeout(timer); resolve(); }, { once: true });
  });
}
