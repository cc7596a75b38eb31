// The moves that still stand: every MOVED event, less those an UNDONE took
// back (an undo never rewrites the log: it names the version it takes back).
import { EventKind, type MatchEvent } from "@gamehost/client";

export class StandingMoves {
  private readonly moves: MatchEvent[] = [];

  /** Takes in one event of the log, in version order (an event seen before is ignored). */
  note(event: MatchEvent): void {
    if (event.kind === EventKind.MOVED) {
      if (!this.moves.some((move) => move.version >= event.version)) this.moves.push(event);
    } else if (event.kind === EventKind.UNDONE) {
      const index = this.moves.findIndex((move) => move.version === event.undoes);
      if (index >= 0) this.moves.splice(index, 1);
    }
  }

  /** The last move still standing, among those at or before `version` (all by default). */
  last(version?: bigint): MatchEvent | undefined {
    for (let index = this.moves.length - 1; index >= 0; index -= 1) {
      if (version === undefined || this.moves[index].version <= version) return this.moves[index];
    }
    return undefined;
  }

  /** The standing move of that version, if it still stands. */
  at(version: bigint): MatchEvent | undefined {
    return this.moves.find((move) => move.version === version);
  }
}
