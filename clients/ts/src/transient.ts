// Which failures are worth the same call again later: the connection failed,
// not the request (docs/protocol.md, "Errors").
import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorInfoSchema } from "./gen/google/rpc/error_details_pb.js";

// Without an ErrorInfo reason these come from the network, not from the host's checks. ABORTED is how
// @connectrpc/connect-node reports a connection reset in the middle of a stream.
const TRANSIENT_CODES: readonly Code[] = [
  Code.Unavailable, Code.Unknown, Code.Canceled, Code.DeadlineExceeded, Code.Internal, Code.Aborted,
];

/** The host's ErrorInfo.reason ("NOT_YOUR_TURN", ...), or "" when it sent none (a network failure). */
export function errorReason(error: unknown): string {
  return ConnectError.from(error).findDetails(ErrorInfoSchema)[0]?.reason ?? "";
}

/** True when the same call may work later. A host that gave a reason refused the request itself, except
 * TOO_MANY_WATCHERS, which lifts when another watcher leaves. */
export function isTransient(error: unknown): boolean {
  const reason = errorReason(error);
  if (reason === "TOO_MANY_WATCHERS") return true;
  if (reason) return false;
  return TRANSIENT_CODES.includes(ConnectError.from(error).code);
}
