"""What a rules call that failed means to the engine: the refusal or
failure a worker (or the host's own table) answered, as the error the
engine raises to its caller."""

from __future__ import annotations

from typing import Any, Callable

from gamehost.host import errors
from gamehost.host.plugins import GameEntry
from gamehost.host.workers import messages
from gamehost.sdk.i18n import text_of
from gamehost.sdk.rules import IllegalMove, InvalidOptions, MalformedMove


class UnknownMoveId(Exception):
    """The seat has no legal move with the id given (the rules resolved it)."""


MAX_MESSAGE_SHOWN = 240  # characters of a plugin's error (it may quote the client's move) in an answer
PLUGIN_ERROR = "PLUGIN_ERROR"  # the reason of an exception the plugin raised


def plugin_error(entry: GameEntry, bound, hook: str, message: str) -> errors.Internal:
    bound.error("plugin raised", plugin=entry.plugin, hook=hook, error=message)
    shown = message if len(message) <= MAX_MESSAGE_SHOWN else message[:MAX_MESSAGE_SHOWN] + "..."
    return errors.Internal(
        f"The {entry.plugin!r} plugin failed in {hook}(): {shown}. "
        "The match is unchanged; report this to the plugin's authors.", PLUGIN_ERROR,
        metadata=errors.metadata_of(plugin=entry.plugin, game=entry.game.id, hook=hook))


def rules_failure(live: Any, reason: str, op: str, what: str) -> errors.HostError:
    """A call that overran its deadline or whose worker died (``reason``:
    RULES_TIMEOUT or RULES_CRASHED), logged and worded for the caller."""
    entry = live.entry
    hook = "load" if op == "load" else op
    live.log.error("rules failed", plugin=entry.plugin, hook=hook, reason=reason, error=what)
    kind = errors.DeadlineExceeded if reason == "RULES_TIMEOUT" else errors.Internal
    return kind(f"The {entry.plugin!r} plugin {what} in {hook}() for matches/{live.id}. "
                "The match is unchanged; a match whose rules keep failing is suspended.", reason,
                metadata=errors.metadata_of(plugin=entry.plugin, game=entry.game.id, hook=hook))


def refused(live: Any, answer: messages.Refusal) -> Exception:
    """The exception a refusal or a plugin's failure answers for."""
    if answer["error"] in ("illegal", "malformed"):
        message = answer.get("reason_text")
        reason = text_of(message) if isinstance(message, dict) else answer["reason"]
        if answer["error"] == "illegal":
            return IllegalMove(reason, answer["rule"] or "illegal-move")
        return MalformedMove(reason, answer["rule"] or "malformed-move")
    if answer["error"] == "unknown_move":
        return UnknownMoveId()
    if answer["error"] == "options":
        return InvalidOptions(answer["field"], answer["reason"])
    if answer["error"] == "plugin":
        return plugin_error(live.entry, live.log, answer["hook"], answer["message"])
    return errors.Internal(f"The rules process answered {answer['error']!r} for matches/{live.id}.", "HOST_ERROR")


def renderings_read(live: Any, on_failure: Callable[[Any, errors.HostError], None], answer: messages.Renderings,
                seconds: float) -> dict[tuple[int | None, str], str | errors.HostError]:
    """A worker's renderings read back (``ResidentMatches._render``):
    (viewer, kind) -> the text, or the error the host raised when it
    rendered from the view's data; one over its budget is a strike."""
    texts = answer["texts"]
    made: dict[tuple[int | None, str], str | errors.HostError] = {
        (viewer, kind): texts[i] for viewer, kind, i in answer["of"]}
    for viewer, kind, hook, message in answer["failed"]:
        made[(viewer, kind)] = plugin_error(live.entry, live.log, hook, message)
    for viewer, kind, hook, spent in answer["overran"]:
        error = rules_failure(live, "RULES_TIMEOUT", hook, f"did not answer within {seconds:g} s")
        live.log.debug("rendering over its budget", viewer=viewer, kind=kind, seconds=round(spent, 3))
        on_failure(live, error)  # a strike, as when the worker is stopped at the deadline
        made[(viewer, kind)] = error
    return made
