// Follows one match live: WatchMatch from the last version seen, and after a
// dropped stream or a host restart, GetView plus WatchMatch again from that
// version, with exponential backoff. Each event is delivered once, in order.
// Only web-standard globals (AbortController, setTimeout): the same code runs
// in browsers and in Node.
import { ConnectError } from "@connectrpc/connect";
import { fromJson, toJson, type JsonValue, type MessageInitShape } from "@bufbuild/protobuf";
import fastJsonPatch, { type Operation } from "fast-json-patch";
import { ViewSchema, type MatchEvent, type RenderOptionsSchema, type View } from "./gen/gamehost/v1/gamehost_pb.js";
import type { GamehostClient } from "./client.js";
import { isFinalEvent, isOver } from "./match-status.js";
import { isTransient } from "./transient.js";

export type Connection =
  | { state: "live" }
  | { state: "reconnecting"; attempt: number; retryInMs: number; error?: ConnectError }
  | { state: "ended" }
  | { state: "failed"; error: ConnectError };

export interface FollowerHandlers {
  /** The seat's view: after a resume (the match as it is now), and with each event that carries one. */
  view?(view: View): void;
  /** Every event after the starting view, once, in version order. */
  event?(event: MatchEvent): void;
  connection?(connection: Connection): void;
}

export interface FollowerOptions {
  /** What the host draws into each view, e.g. `{ svg: true }` for a page; nothing by default. */
  render?: MessageInitShape<typeof RenderOptionsSchema>;
  /** A private match's invitation code, for a follower who holds no seat and is none of its users. */
  invitationCode?: string;
  /** The first wait before reconnecting; it doubles per failed attempt, up to maxRetryMs (each ±25 %). */
  firstRetryMs?: number;
  maxRetryMs?: number;
  /** Views as changes: the host sends each view after a stream's first as a JSON Patch (RFC 6902) of the one
   * before (MatchEvent.viewPatch); the follower applies it, so handlers still get whole views. */
  viewPatches?: boolean;
}

/** The view a patched stream holds, as JSON (the form the host's patches apply to). */
class PatchedViews {
  private json: JsonValue | undefined;
  private version: bigint | undefined;

  reset(): void {
    this.json = undefined;
    this.version = undefined;
  }

  /** The event's view whole: kept when whole, rebuilt from the held view when patched. */
  whole(event: MatchEvent): View | undefined {
    if (event.view) {
      this.json = toJson(ViewSchema, event.view);
      this.version = event.view.version;
      return event.view;
    }
    const patch = event.viewPatch;
    if (!patch) return undefined;
    if (this.json === undefined || patch.fromVersion !== this.version) {
      throw new Error(`a view patch from version ${patch.fromVersion}, the view held is at ${this.version}`);
    }
    const operations = JSON.parse(patch.jsonPatch) as Operation[];
    this.json = fastJsonPatch.applyPatch(this.json, operations, false, false).newDocument as JsonValue;
    const view = fromJson(ViewSchema, this.json, { ignoreUnknownFields: true });
    event.view = view;
    this.version = view.version;
    return view;
  }
}

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 8000;

export class MatchFollower {
  private lastVersion = 0n;
  private over = false;
  private readonly abort = new AbortController();
  private readonly firstRetryMs: number;
  private readonly maxRetryMs: number;

  /** `playerToken` empty: follows as a spectator. */
  constructor(
    private readonly client: GamehostClient,
    private readonly name: string,
    private readonly playerToken: string,
    private readonly handlers: FollowerHandlers,
    private readonly options: FollowerOptions = {},
  ) {
    this.firstRetryMs = options.firstRetryMs ?? FIRST_RETRY_MS;
    this.maxRetryMs = options.maxRetryMs ?? MAX_RETRY_MS;
  }

  /** Follows the events after a view the caller already has (GetView's answer). The promise settles when
   * following stops: the match is over, the host refused (a "failed" connection) or stop() was called. */
  start(shown: View): Promise<void> {
    this.lastVersion = shown.version;
    this.over = isOver(shown.status);
    if (this.over) {
      this.handlers.connection?.({ state: "ended" });
      return Promise.resolve();
    }
    return this.run();
  }

  stop(): void {
    this.abort.abort();
  }

  private async run(): Promise<void> {
    const { signal } = this.abort;
    const render = this.options.render;
    const invitationCode = this.options.invitationCode ?? "";
    const viewPatches = this.options.viewPatches ?? false;
    const patched = new PatchedViews();
    let attempt = 0;
    let resuming = false;
    while (!signal.aborted) {
      let error: ConnectError | undefined;
      try {
        if (resuming) {
          // The match as it is now at once; the watch below then fills in the missed events.
          const view = await this.client.getView({ name: this.name, playerToken: this.playerToken, render,
            invitationCode }, { signal });
          this.handlers.view?.(view);
          this.over ||= isOver(view.status) && view.version <= this.lastVersion;
        }
        if (this.over) break;
        this.handlers.connection?.({ state: "live" });
        patched.reset();  // a new stream starts with a whole view
        const events = this.client.watchMatch(
          { name: this.name, playerToken: this.playerToken, afterVersion: this.lastVersion, render, invitationCode,
            viewPatches },
          { signal });
        for await (const event of events) {
          attempt = 0;
          if (viewPatches) patched.whole(event);  // also for a repeat: the next patch may start from it
          if (event.version <= this.lastVersion) continue;
          this.lastVersion = event.version;
          this.handlers.event?.(event);
          if (event.view) this.handlers.view?.(event.view);
          this.over ||= isFinalEvent(event.kind);
        }
        // The stream ended cleanly: the match is over, or the host is shutting down.
        if (this.over) break;
      } catch (thrown) {
        if (signal.aborted) return;
        error = ConnectError.from(thrown);
        if (!isTransient(error)) {
          this.handlers.connection?.({ state: "failed", error });
          return;
        }
      }
      const retryInMs = Math.min(this.maxRetryMs, this.firstRetryMs * 2 ** attempt) * (0.75 + Math.random() / 2);
      attempt += 1;
      resuming = true;
      this.handlers.connection?.({ state: "reconnecting", attempt, retryInMs, error });
      await sleep(retryInMs, signal);
    }
    if (!signal.aborted) this.handlers.connection?.({ state: "ended" });
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, { once: true });
  });
}
