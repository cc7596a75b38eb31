"""Players' data: export everything the host holds about a user, and erase
it (store/user_rows.py says what each does to each record).

An object the engine holds (``engine.user_data``). A user may export and
erase their own data, an admin anyone's. Erasure refuses, changing
nothing, while the user holds a seat in a match not over: its other players
are still playing with them (they resign, or an admin aborts the match,
first). After an erasure this replica forgets what it keeps of the
rewritten matches; on a shared store the others hear of it at the commit
(postgres_users.py). The audit log line names the pseudonym and who asked,
never the user.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Mapping, Sequence

import structlog

from gamehost.host import errors
from gamehost.host.auth.principal import Principal
from gamehost.host.store.base import Store
from gamehost.host.store.user_data import Erasure, LiveMatchesHeld, UserDataUnavailable
from gamehost.host.store.user_rows import new_pseudonym

log = structlog.get_logger("gamehost.engine")

EXPORT_FORMAT = "gamehost.user-data/1"
LISTED_MATCHES = 5  # live matches named in a refusal


def unknown_user(subject: str) -> errors.NotFound:
    return errors.NotFound(
        f"The host holds nothing about players/{errors.shown(subject)}: no seat, rating, ticket, chat message, "
        "report, mute, block, ban or push subscription (never seen, or deleted already).", "USER_NOT_FOUND",
        resource=("gamehost.dev/Player", f"players/{subject}"))


def check_may_handle(subject: str, caller: Principal, action: str) -> None:
    """Only the user themself, signed in, or an admin."""
    if caller.anonymous:
        raise errors.Unauthenticated(f"Sign in to {action} (authorization: Bearer ...): a user handles only "
                                     "their own data.", "AUTHENTICATION_REQUIRED")
    if caller.subject != subject and not caller.admin:
        raise errors.PermissionDenied(
            f"You may {action} only your own data (players/{errors.shown(caller.subject)}); an admin handles "
            "other users'.", "NOT_YOUR_DATA", metadata=errors.metadata_of(caller=f"players/{caller.subject}"))


def _unavailable(error: UserDataUnavailable) -> errors.FailedPrecondition:
    return errors.FailedPrecondition(
        f"This host keeps its data in {error}, which forgets everything when the host stops: there is no "
        "user data to export or delete. Hosts started with --data-dir or --store postgresql://... keep it.",
        "USER_DATA_UNAVAILABLE")


def _in_live_matches(match_ids: Sequence[str]) -> errors.FailedPrecondition:
    named = ", ".join(f"matches/{match_id}" for match_id in match_ids[:LISTED_MATCHES])
    more = f" and {len(match_ids) - LISTED_MATCHES} more" if len(match_ids) > LISTED_MATCHES else ""
    return errors.FailedPrecondition(
        f"The user holds a seat in {len(match_ids)} match(es) not over yet ({named}{more}): its other players "
        "are still playing with them. Resign them (Resign), or an admin aborts them (gamehost admin abort "
        "matches/ID), then delete again. Nothing was deleted.", "USER_IN_LIVE_MATCHES",
        metadata=errors.metadata_of(matches=" ".join(f"matches/{match_id}" for match_id in match_ids)))


class PlayersData:
    def __init__(self, store: Store, forget_matches: Callable[[list[str]], None],
                 reread_chat: Callable[[str, Sequence[str], Sequence[str]], None],
                 tickets_changed: Callable[[list[str] | None], None]) -> None:
        self.store = store
        self.forget_matches = forget_matches  # drops this replica's copies of rewritten matches
        self.reread_chat = reread_chat  # (subject, related users, match ids): the chat's caches read again
        self.tickets_changed = tickets_changed  # wakes the watchers of deleted tickets

    async def export(self, subject: str, caller: Principal,
                     elsewhere: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The store's sections, and ``elsewhere``'s: what the host holds outside its store."""
        check_may_handle(subject, caller, "export user data")
        try:
            held = {**await self.store.users.export(subject), **(elsewhere or {})}
        except UserDataUnavailable as error:
            raise _unavailable(error) from None
        if not any(held.values()):
            raise unknown_user(subject)
        log.info("user data exported", by="self" if caller.subject == subject else "admin",
                 admin=None if caller.subject == subject else caller.subject, matches=len(held["matches"]))
        return {"format": EXPORT_FORMAT, "player": f"players/{subject}", "export_time": time.time(), **held}

    async def erase(self, subject: str, caller: Principal, confirmed: bool) -> Erasure:
        check_may_handle(subject, caller, "delete user data")
        if not confirmed:
            raise errors.invalid_field("confirm", "deleting a user's data cannot be undone: set confirm to true "
                                                  "to delete it.", "CONFIRMATION_REQUIRED")
        try:
            done = await self.store.users.erase(subject, new_pseudonym())
        except UserDataUnavailable as error:
            raise _unavailable(error) from None
        except LiveMatchesHeld as held:
            raise _in_live_matches(held.match_ids) from None
        if not done.rows:
            raise unknown_user(subject)
        self.forget_matches(done.match_ids)
        self.reread_chat(subject, done.related, sorted({*done.match_ids, *done.chat_match_ids}))
        if done.ticket_ids:
            self.tickets_changed(done.ticket_ids)
        log.info("user data erased", pseudonym=done.pseudonym, by="self" if caller.subject == subject else "admin",
                 admin=None if caller.subject == subject else caller.subject, rows=done.rows,
                 matches=len(done.match_ids))
        return done
