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
import { formatList, tr } from "./i18n";

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
  GAME_NOT_FOUND: () => tr("This host does not serve that game; reload the lobby for the current catalog."),
  MATCH_NOT_FOUND: () => tr("There is no such match on this host. Go back to the lobby and pick one from the list."),
  INVALID_NAME: () => tr("The address names no valid match. Go back to the lobby."),
  INVALID_FIELD: () => tr("Correct the field named below and try again."),
  INVALID_OPTIONS: () => tr("Correct the options marked below and create the match again."),
  INVALID_PAGE_TOKEN: () => tr("Reload the list."),
  MOVE_MISSING: () => tr("Choose a move from the list."),
  MALFORMED_MOVE: () => tr("Choose one of the listed moves instead."),
  VERSION_OUT_OF_RANGE: () => tr("Reload the page to follow the match from its current state."),
  ILLEGAL_MOVE: () => tr("The rules refused that move; choose another one."),
  UNKNOWN_MOVE: () => tr("That move is not legal any more. The board has been refreshed: choose again."),
  NOT_YOUR_TURN: (m) => m.to_move ? tr("It is not your turn ({players} to move); wait for it.",
    { players: playersText(m.to_move) }) : tr("It is not your turn; wait for it."),
  MATCH_NOT_OVER: () => tr("The replay opens once the match is over; follow the match live meanwhile."),
  MATCH_NOT_ACTIVE: (m) => tr("The match is {status}: moves are only accepted while it is being played.",
    { status: m.status || tr("not active") }),
  MATCH_NOT_OPEN: () => tr("Every seat is taken: you can still watch the match."),
  MATCH_OVER: () => tr("The match is over; there is nothing to leave."),
  SEAT_TAKEN: (m) =>
    m.open_seats ? tr("Someone took that seat first. Open seats now: {seats}.", { seats: m.open_seats })
      : tr("Someone took that seat first. No seat is open."),
  STALE_VERSION: (m) =>
    tr("The match moved on (it is at version {current}, you chose at version {expected}). The board has been refreshed: choose again.",
      { current: m.current_version ?? "?", expected: m.expected_version ?? "?" }),
  CONCURRENT_UPDATE: () => tr("Someone else changed the match at the same moment. The board has been refreshed: try again."),
  INVALID_TOKEN: () =>
    tr("The seat saved in this browser does not belong to this match, or was taken back on another device. You are watching as a spectator; join to play, or, signed in, open the match again to take your seat back here."),
  SPECTATOR_FORBIDDEN: () => tr("Spectators cannot do that: join the match first."),
  TOO_MANY_WATCHERS: (m) => tr("Too many people are watching this match (limit {limit}); retrying shortly.",
    { limit: m.limit ?? "?" }),
  INVALID_BEARER_TOKEN: () => tr("The host does not accept your sign-in. Sign in again, or sign out to go on anonymously."),
  TOKEN_EXPIRED: () => tr("Your sign-in has expired. Sign in again, or sign out to go on anonymously."),
  INVALID_AUTHORIZATION: () => tr("The sign-in token could not be read. Sign out, then sign in again."),
  AUTHENTICATION_REQUIRED: () => tr("This host admits only signed-in users: sign in first."),
  MATCH_QUOTA_EXCEEDED: (m) => m.quota === "bot_matches"
    ? tr("You run as many all-bot matches as this host allows; wait for one to finish.")
    : tr("You have as many open matches as this host allows; start or leave one first."),
  JWKS_UNAVAILABLE: () => tr("The host cannot check sign-ins right now (its identity provider is unreachable). Try again shortly."),
  RULES_VERSION_UNAVAILABLE: (m) => tr("This host lacks the rules version {version} this match was created with (it has {served}): it cannot be opened here until the host's operator installs a plugin release that ships it.",
    { version: m.rules_version ?? "?", served: m.served_versions || tr("others") }),
  UNDO_NOT_SUPPORTED: () => tr("This game does not let players take moves back."),
  UNDO_NOT_ALLOWED: () => tr("The rules do not let this move be taken back (it drew chance or revealed something)."),
  NOTHING_TO_UNDO: () => tr("No move stands that could be taken back."),
  UNDO_NOT_YOURS: () => tr("Only the player whose move is the last one may ask to take it back, or withdraw the ask."),
  UNDO_ALREADY_ASKED: () => tr("An ask to take back is open already: it must be answered or withdrawn first."),
  NO_UNDO_ASKED: () => tr("No ask to take back is open any more: it was answered, withdrawn, closed by a move, or lapsed."),
  UNDO_OWN_ASK: () => tr("This is your own ask: you may withdraw it."),
  UNDO_ALREADY_ANSWERED: () => tr("You have answered this ask already."),
  STALE_UNDO_ASK: () => tr("That ask is no longer the open one; the page shows the match as it is now."),
  // Matchmaking (the lobby's "Find a match").
  SIGN_IN_REQUIRED: () => tr("Finding a match is for signed-in players: sign in first."),
  TICKET_LIMIT: (m) => tr("You are queued {limit} times already, the most one player may be: cancel one of your queued tickets or wait for a match.",
    { limit: m.limit ?? "4" }),
  PARTY_FULL: (m) => m.party_size
    ? tr("Every place of this party of {size} is taken: start a party of your own, or queue alone.", { size: m.party_size })
    : tr("Every place of this party is taken: start a party of your own, or queue alone."),
  PARTY_NOT_FOUND: () => tr("This party is not gathering any more (its players were matched or left the queue), or the link is mistyped: ask your friend for a new link, or start a party of your own."),
  ALREADY_IN_PARTY: () => tr("You are queued in this party already: wait for your friends to join it."),
  PARTY_MISMATCH: () => tr("The party queues for another game, player count or options: join it with the party's own."),
  PARTY_CONFLICT: () => tr("Start a party or join one, not both at once."),
  TICKET_EXPIRED: () => tr("Nobody was found in time: this ticket has left the queue already; queue again."),
  TICKET_MATCHED: (m) => m.match ? tr("A match was found already ({match}): play it, or leave it there.", { match: m.match })
    : tr("A match was found already: play it, or leave it there."),
  TICKET_NOT_FOUND: () => tr("That ticket is no longer kept on this host; queue again."),
  NOT_TICKET_HOLDER: () => tr("That ticket is another player's: only they may follow or cancel it."),
  // Chat (chat-panel.ts).
  CHAT_RATE: () => tr("You are writing too fast: wait a moment, then send again."),
  CHAT_REFUSED: () => tr("The host's word filter refused this message: say it otherwise."),
  CHAT_FULL: () => tr("This match's chat is full: nothing more can be said in it."),
  BANNED: () => tr("This account is banned from this host. Contact its operators to appeal."),
  PLUGIN_ERROR: () => tr("The game's plugin failed on this request; the match is unchanged. Another move may work; please report it."),
  HOST_ERROR: () => tr("The host failed unexpectedly; try again later and report it."),
};

const ADVICE_BY_CODE: Partial<Record<Code, string>> = {
  [Code.Unavailable]: tr("The host cannot be reached. Check that it is running; this page retries on its own."),
  [Code.Unknown]: tr("The request did not get through (network or host problem). Try again."),
  [Code.DeadlineExceeded]: tr("The host took too long to answer. Try again."),
  [Code.Canceled]: tr("The request was cancelled. Try again."),
  [Code.Unimplemented]: tr("This host does not offer that call; it may be older than this page."),
  [Code.ResourceExhausted]: tr("The request was too large or the host is busy. Try again later."),
  [Code.Internal]: tr("The host failed on this request. Try again later and report it."),
  [Code.Unauthenticated]: tr("The host does not know who you are: sign in (again), or sign out to go on anonymously."),
  [Code.PermissionDenied]: tr("Your sign-in does not allow this."),
};

/** "0,2" (seat indexes, as error metadata lists them) as people count them: "player 1 and player 3". */
function playersText(indexes: string): string {
  return formatList(indexes.split(",").map((index) => tr("player {number}", { number: Number(index) + 1 })));
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
    h("h3", {}, tr("{action} did not work.", { action: context })),
    h("p", { class: "problem-advice" }, problem.advice || problem.message || tr("Something went wrong; try again.")),
    problem.quotaViolations.length
      ? h("ul", { class: "problem-quotas" },
        problem.quotaViolations.map((violation) => h("li", {}, violation.description)))
      : null,
    problem.retryAfterSeconds !== undefined
      ? h("p", { class: "problem-retry" }, tr("You may try again in {seconds} s.", { seconds: Math.ceil(problem.retryAfterSeconds) }))
      : null,
    h("details", { class: "problem-details" },
      h("summary", {}, tr("Details")),
      h("p", {}, h("code", { class: "problem-code" }, problem.code),
        problem.reason ? [" · ", h("code", { class: "problem-reason" }, problem.reason)] : null),
      h("p", { class: "problem-message" }, tr("The host said: "), problem.message || tr("(no message)")),
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
        ? h("p", { class: "problem-resource" }, tr("Resource: "), h("code", {}, problem.resource.name),
          ` (${problem.resource.type})`)
        : null,
      metadataEntries.length
        ? h("dl", { class: "problem-metadata" },
          metadataEntries.flatMap(([key, value]) => [h("dt", {}, key), h("dd", {}, value)]))
        : null),
  );
}
