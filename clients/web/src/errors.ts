// Every failed call becomes a Problem: the gRPC code, the host's message, the
// google.rpc details, and what the person can do about it.
import { Code, ConnectError } from "@connectrpc/connect";
import {
  BadRequestSchema,
  ErrorInfoSchema,
  PreconditionFailureSchema,
  QuotaFailureSchema,
  ResourceInfoSchema,
  RetryInfoSchema,
} from "@gamehost/client/google/rpc";
import { h } from "./elements";

export interface Problem {
  /** The gRPC status name, e.g. "NOT_FOUND". */
  code: string;
  message: string;
  /** ErrorInfo.reason, e.g. "STALE_VERSION"; empty when the host sent none. */
  reason: string;
  metadata: Record<string, string>;
  fieldViolations: { field: string; description: string }[];
  preconditionViolations: { type: string; subject: string; description: string }[];
  resource?: { type: string; name: string };
  /** QuotaFailure: the quotas the call went over. */
  quotaViolations: { subject: string; description: string }[];
  /** RetryInfo: how long to wait before trying again, in seconds. */
  retryAfterSeconds?: number;
  /** What the person can do, in one sentence. */
  advice: string;
}

const CODE_NAMES: Record<Code, string> = {
  [Code.Canceled]: "CANCELLED",
  [Code.Unknown]: "UNKNOWN",
  [Code.InvalidArgument]: "INVALID_ARGUMENT",
  [Code.DeadlineExceeded]: "DEADLINE_EXCEEDED",
  [Code.NotFound]: "NOT_FOUND",
  [Code.AlreadyExists]: "ALREADY_EXISTS",
  [Code.PermissionDenied]: "PERMISSION_DENIED",
  [Code.ResourceExhausted]: "RESOURCE_EXHAUSTED",
  [Code.FailedPrecondition]: "FAILED_PRECONDITION",
  [Code.Aborted]: "ABORTED",
  [Code.OutOfRange]: "OUT_OF_RANGE",
  [Code.Unimplemented]: "UNIMPLEMENTED",
  [Code.Internal]: "INTERNAL",
  [Code.Unavailable]: "UNAVAILABLE",
  [Code.DataLoss]: "DATA_LOSS",
  [Code.Unauthenticated]: "UNAUTHENTICATED",
};

// What to do, per ErrorInfo reason (docs/protocol.md, "Reasons").
const ADVICE_BY_REASON: Record<string, (metadata: Record<string, string>) => string> = {
  GAME_NOT_FOUND: () => "This host does not serve that game; reload the lobby for the current catalog.",
  MATCH_NOT_FOUND: () => "There is no such match on this host. Go back to the lobby and pick one from the list.",
  INVALID_NAME: () => "The address names no valid match. Go back to the lobby.",
  INVALID_FIELD: () => "Correct the field named below and try again.",
  INVALID_OPTIONS: () => "Correct the options marked below and create the match again.",
  INVALID_PAGE_TOKEN: () => "Reload the list.",
  MOVE_MISSING: () => "Choose a move from the list.",
  MALFORMED_MOVE: () => "Choose one of the listed moves instead.",
  VERSION_OUT_OF_RANGE: () => "Reload the page to follow the match from its current state.",
  ILLEGAL_MOVE: () => "The rules refused that move; choose another one.",
  UNKNOWN_MOVE: () => "That move is not legal any more. The board has been refreshed: choose again.",
  NOT_YOUR_TURN: (m) => `It is not your turn${m.to_move ? ` (${playersText(m.to_move)} to move)` : ""}; wait for it.`,
  MATCH_NOT_OVER: () => "The replay opens once the match is over; follow the match live meanwhile.",
  MATCH_NOT_ACTIVE: (m) => `The match is ${m.status || "not active"}: moves are only accepted while it is being played.`,
  MATCH_NOT_OPEN: () => "Every seat is taken: you can still watch the match.",
  MATCH_OVER: () => "The match is over; there is nothing to leave.",
  SEAT_TAKEN: (m) =>
    `Someone took that seat first. ${m.open_seats ? `Open seats now: ${m.open_seats}.` : "No seat is open."}`,
  STALE_VERSION: (m) =>
    `The match moved on (it is at version ${m.current_version ?? "?"}, you chose at version ` +
    `${m.expected_version ?? "?"}). The board has been refreshed: choose again.`,
  CONCURRENT_UPDATE: () => "Someone else changed the match at the same moment. The board has been refreshed: try again.",
  INVALID_TOKEN: () =>
    "The seat saved in this browser does not belong to this match, or was taken back on another device. You are " +
    "watching as a spectator; join to play, or, signed in, open the match again to take your seat back here.",
  SPECTATOR_FORBIDDEN: () => "Spectators cannot do that: join the match first.",
  TOO_MANY_WATCHERS: (m) => `Too many people are watching this match (limit ${m.limit ?? "?"}); retrying shortly.`,
  INVALID_BEARER_TOKEN: () => "The host does not accept your sign-in. Sign in again, or sign out to go on anonymously.",
  TOKEN_EXPIRED: () => "Your sign-in has expired. Sign in again, or sign out to go on anonymously.",
  INVALID_AUTHORIZATION: () => "The sign-in token could not be read. Sign out, then sign in again.",
  AUTHENTICATION_REQUIRED: () => "This host admits only signed-in users: sign in first.",
  MATCH_QUOTA_EXCEEDED: (m) => m.quota === "bot_matches"
    ? "You run as many all-bot matches as this host allows; wait for one to finish."
    : "You have as many open matches as this host allows; start or leave one first.",
  JWKS_UNAVAILABLE: () => "The host cannot check sign-ins right now (its identity provider is unreachable). Try again shortly.",
  RULES_VERSION_UNAVAILABLE: (m) => `This host lacks the rules version ${m.rules_version ?? "?"} this match was `
    + `created with (it has ${m.served_versions || "others"}): it cannot be opened here until the host's operator `
    + "installs a plugin release that ships it.",
  UNDO_NOT_SUPPORTED: () => "This game does not let players take moves back.",
  UNDO_NOT_ALLOWED: () => "The rules do not let this move be taken back (it drew chance or revealed something).",
  NOTHING_TO_UNDO: () => "No move stands that could be taken back.",
  UNDO_NOT_YOURS: () => "Only the player whose move is the last one may ask to take it back, or withdraw the ask.",
  UNDO_ALREADY_ASKED: () => "An ask to take back is open already: it must be answered or withdrawn first.",
  NO_UNDO_ASKED: () => "No ask to take back is open any more: it was answered, withdrawn, closed by a move, or lapsed.",
  UNDO_OWN_ASK: () => "This is your own ask: you may withdraw it.",
  UNDO_ALREADY_ANSWERED: () => "You have answered this ask already.",
  STALE_UNDO_ASK: () => "That ask is no longer the open one; the page shows the match as it is now.",
  // Matchmaking (the lobby's "Find a match").
  SIGN_IN_REQUIRED: () => "Finding a match is for signed-in players: sign in first.",
  TICKET_LIMIT: (m) => `You are queued ${m.limit ?? "4"} times already, the most one player may be: cancel one of `
    + "your queued tickets or wait for a match.",
  PARTY_FULL: (m) => `Every place of this party${m.party_size ? ` of ${m.party_size}` : ""} is taken: start a party `
    + "of your own, or queue alone.",
  PARTY_NOT_FOUND: () => "This party is not gathering any more (its players were matched or left the queue), or the "
    + "link is mistyped: ask your friend for a new link, or start a party of your own.",
  ALREADY_IN_PARTY: () => "You are queued in this party already: wait for your friends to join it.",
  PARTY_MISMATCH: () => "The party queues for another game, player count or options: join it with the party's own.",
  PARTY_CONFLICT: () => "Start a party or join one, not both at once.",
  TICKET_EXPIRED: () => "Nobody was found in time: this ticket has left the queue already; queue again.",
  TICKET_MATCHED: (m) => `A match was found already${m.match ? ` (${m.match})` : ""}: play it, or leave it there.`,
  TICKET_NOT_FOUND: () => "That ticket is no longer kept on this host; queue again.",
  NOT_TICKET_HOLDER: () => "That ticket is another player's: only they may follow or cancel it.",
  PLUGIN_ERROR: () => "The game's plugin failed on this request; the match is unchanged. Another move may work; please report it.",
  HOST_ERROR: () => "The host failed unexpectedly; try again later and report it.",
};

const ADVICE_BY_CODE: Partial<Record<Code, string>> = {
  [Code.Unavailable]: "The host cannot be reached. Check that it is running; this page retries on its own.",
  [Code.Unknown]: "The request did not get through (network or host problem). Try again.",
  [Code.DeadlineExceeded]: "The host took too long to answer. Try again.",
  [Code.Canceled]: "The request was cancelled. Try again.",
  [Code.Unimplemented]: "This host does not offer that call; it may be older than this page.",
  [Code.ResourceExhausted]: "The request was too large or the host is busy. Try again later.",
  [Code.Internal]: "The host failed on this request. Try again later and report it.",
  [Code.Unauthenticated]: "The host does not know who you are: sign in (again), or sign out to go on anonymously.",
  [Code.PermissionDenied]: "Your sign-in does not allow this.",
};

/** "0,2" (seat indexes, as error metadata lists them) as people count them: "player 1 and player 3". */
function playersText(indexes: string): string {
  return indexes.split(",").map((index) => `player ${Number(index) + 1}`).join(" and ");
}

export function problemOf(error: unknown): Problem {
  const connectError = ConnectError.from(error);
  const [info] = connectError.findDetails(ErrorInfoSchema);
  const metadata = { ...(info?.metadata ?? {}) };
  const reason = info?.reason ?? "";
  const [resource] = connectError.findDetails(ResourceInfoSchema);
  const [retry] = connectError.findDetails(RetryInfoSchema);
  const adviceFor = ADVICE_BY_REASON[reason];
  return {
    code: CODE_NAMES[connectError.code] ?? String(connectError.code),
    message: connectError.rawMessage,
    reason,
    metadata,
    fieldViolations: connectError
      .findDetails(BadRequestSchema)
      .flatMap((badRequest) => badRequest.fieldViolations)
      .map(({ field, description }) => ({ field, description })),
    preconditionViolations: connectError
      .findDetails(PreconditionFailureSchema)
      .flatMap((failure) => failure.violations)
      .map(({ type, subject, description }) => ({ type, subject, description })),
    resource: resource ? { type: resource.resourceType, name: resource.resourceName } : undefined,
    quotaViolations: connectError
      .findDetails(QuotaFailureSchema)
      .flatMap((failure) => failure.violations)
      .map(({ subject, description }) => ({ subject, description })),
    retryAfterSeconds: retry?.retryDelay
      ? Number(retry.retryDelay.seconds) + retry.retryDelay.nanos / 1e9 : undefined,
    advice: adviceFor ? adviceFor(metadata) : ADVICE_BY_CODE[connectError.code] ?? "",
  };
}

/** A box a player can act on: what did not work and what to do, in words; the code, the reason, the host's
 * message and the google.rpc details behind a "Details" toggle, for whoever reports or debugs it. */
export function problemPanel(problem: Problem, context: string): HTMLElement {
  const metadataEntries = Object.entries(problem.metadata);
  return h(
    "section",
    { class: "problem", role: "alert", "data-code": problem.code, "data-reason": problem.reason },
    h("h3", {}, `${context} did not work.`),
    h("p", { class: "problem-advice" }, problem.advice || problem.message || "Something went wrong; try again."),
    problem.quotaViolations.length
      ? h("ul", { class: "problem-quotas" },
        problem.quotaViolations.map((violation) => h("li", {}, violation.description)))
      : null,
    problem.retryAfterSeconds !== undefined
      ? h("p", { class: "problem-retry" }, `You may try again in ${Math.ceil(problem.retryAfterSeconds)} s.`)
      : null,
    h("details", { class: "problem-details" },
      h("summary", {}, "Details"),
      h("p", {}, h("code", { class: "problem-code" }, problem.code),
        problem.reason ? [" · ", h("code", { class: "problem-reason" }, problem.reason)] : null),
      h("p", { class: "problem-message" }, "The host said: ", problem.message || "(no message)"),
      problem.fieldViolations.length
        ? h("ul", { class: "problem-fields" },
          problem.fieldViolations.map((violation) =>
            h("li", {}, h("code", {}, violation.field), ": ", violation.description)))
        : null,
      problem.preconditionViolations.length
        ? h("ul", { class: "problem-preconditions" },
          problem.preconditionViolations.map((violation) =>
            h("li", {}, h("code", {}, violation.type), violation.subject ? [" (", violation.subject, ")"] : null,
              ": ", violation.description)))
        : null,
      problem.resource
        ? h("p", { class: "problem-resource" }, "Resource: ", h("code", {}, problem.resource.name),
          ` (${problem.resource.type})`)
        : null,
      metadataEntries.length
        ? h("dl", { class: "problem-metadata" },
          metadataEntries.flatMap(([key, value]) => [h("dt", {}, key), h("dd", {}, value)]))
        : null),
  );
}
