// Whether a match, or the event just seen, ends it: the follower stops there.
import { EventKind, MatchStatus } from "./gen/gamehost/v1/gamehost_pb.js";

/** Finished, abandoned or aborted: no more moves. A suspended match may be resumed. */
export function isOver(status: MatchStatus): boolean {
  return status === MatchStatus.FINISHED || status === MatchStatus.ABANDONED || status === MatchStatus.ABORTED;
}

/** Events after which the host sends no more. */
export function isFinalEvent(kind: EventKind): boolean {
  return kind === EventKind.FINISHED || kind === EventKind.ABANDONED || kind === EventKind.ABORTED;
}
