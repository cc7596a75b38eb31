"""Operators' changes to a match: abort, delete, hand a seat to a bot,
resume; and dropping matches the retention sweep pruned.

An object the engine holds (``engine.administration``): each change is
one committed step made the engine's way (under the match's lock, through ``commit``), so watchers,
bots, deadlines and replicas see it as they see any move. A match whose
rules version this host lacks can still be aborted and deleted: neither
needs its rules, and an operator who dropped a version must be able to
clear what it left.
"""

from __future__ import annotations

import time
from typing import Any, Awaitable, Callable, Iterable, Mapping, Protocol, TypeVar

import structlog

from gamehost.host import errors
from gamehost.host.engine.directory import RULES_VERSION_UNAVAILABLE
from gamehost.host.engine.live import LiveMatch
from gamehost.host.bots import Bot
from gamehost.host.store.base import OVER_STATUSES, Append, MatchRecord, SeatRecord, Store, VersionConflict
from gamehost.host.engine.match_events import match_event

log = structlog.get_logger("gamehost.engine")

UNFINISHED = ("open", "active", "suspended")

T = TypeVar("T")


def _status_refused(record: MatchRecord, allowed: tuple[str, ...], action: str,
                    reason: str = "") -> errors.FailedPrecondition:
    """MATCH_OVER for a match that is over, else ``reason``."""
    status = record.status
    over = status in OVER_STATUSES
    return errors.FailedPrecondition(
        f"matches/{record.id} is {status}: it can be {action} only while it is {' or '.join(allowed)}.",
        "MATCH_OVER" if over or not reason else reason, metadata=errors.metadata_of(status=status))


def _not_over(record: MatchRecord) -> errors.FailedPrecondition:
    return errors.FailedPrecondition(
        f"matches/{record.id} is {record.status}: only a match that is over (finished, abandoned "
        "or aborted) can be deleted; abort it first.", "MATCH_NOT_OVER",
        metadata=errors.metadata_of(status=record.status))


def _unplayable(error: errors.HostError) -> bool:
    return isinstance(error, errors.FailedPrecondition) and error.reason == RULES_VERSION_UNAVAILABLE


class AdministeredMatches(Protocol):
    """What operators' changes need of the engine's core: the match, its
    lock, the step commit and the directory's bookkeeping."""

    async def live_match(self, match_id: str) -> LiveMatch: ...

    async def stored_match(self, match_id: str) -> MatchRecord: ...

    def check_agent_plays(self, bot: str, game_id: str) -> None: ...

    async def locked(self, live: LiveMatch, attempt: Callable[[], Awaitable[T]]) -> T: ...

    async def commit(self, live: LiveMatch, record: MatchRecord, events: list[dict], *,
                     snapshot_state: Any = None) -> None: ...

    async def final_state(self, live: LiveMatch) -> Any: ...

    def remember_finished(self, match_id: str) -> None: ...

    def forget(self, match_ids: Iterable[str]) -> None: ...

    async def reset_rules_for_resume(self, live: LiveMatch) -> None: ...


class MatchAdministration:
    def __init__(self, matches: AdministeredMatches, store: Store, bots: Mapping[str, Bot]) -> None:
        self.matches = matches
        self.store = store
        self.bots = bots  # the host's bots by name, the engine's own mapping

    async def abort_match(self, match_id: str, reason: str, message: str = "",
                          only: tuple[str, ...] = UNFINISHED) -> LiveMatch | MatchRecord:
        """End a match without a result: status aborted, an ABORTED event
        with ``reason`` (ADMIN_ABORT, OPEN_EXPIRED); its bots and deadline
        stop. ``only``: the statuses it may be aborted from. The aborted
        match, or its stored row if this host lacks its rules version."""
        try:
            live = await self.matches.live_match(match_id)
        except errors.HostError as error:
            if not _unplayable(error):
                raise
            return await self._abort_unplayable(match_id, reason, message, only)

        async def attempt() -> LiveMatch:
            record = live.record
            if record.status not in only:
                raise _status_refused(record, only, "aborted", "MATCH_NOT_OPEN")
            aborted, event = self._aborted(record, reason, message)
            await self.matches.commit(live, aborted, [event], snapshot_state=await self.matches.final_state(live))
            live.log.info("match aborted", reason=reason, message=event["message"])
            self.matches.remember_finished(live.id)
            return live

        return await self.matches.locked(live, attempt)

    def _aborted(self, record: MatchRecord, reason: str, message: str) -> tuple[MatchRecord, dict]:
        now = time.time()
        detail = {"reason": reason, "message": message[:200]}
        event = match_event(record.version + 1, "aborted", -1, now, reason=reason, message=detail["message"])
        return record.replace(status="aborted", status_detail=detail, version=record.version + 1,
                              update_time=now), event

    async def _abort_unplayable(self, match_id: str, reason: str, message: str,
                                only: tuple[str, ...]) -> MatchRecord:
        """Abort a match whose rules this host lacks, in the store alone: no
        snapshot of the final state (the rules would make it), and no live
        match to advance; a replica that has the rules catches up on the
        step as it does on any other."""
        record = await self.matches.stored_match(match_id)
        if record.status not in only:
            raise _status_refused(record, only, "aborted", "MATCH_NOT_OPEN")
        aborted, event = self._aborted(record, reason, message)
        try:
            await self.store.append(Append(aborted, [event], seats_changed=False, details_changed=True))
        except VersionConflict:
            raise errors.Aborted(f"matches/{match_id} changed while it was aborted; try again.",
                                 "CONCURRENT_UPDATE") from None
        log.bind(match_id=match_id, game=record.game_id).info(
            "match aborted without its rules", reason=reason, rules_version=record.rules_version)
        return aborted

    async def delete_match(self, match_id: str) -> None:
        """Delete a match that is over: its row, events and snapshot (also
        one whose rules version this host lacks)."""
        try:
            live = await self.matches.live_match(match_id)
        except errors.HostError as error:
            if not _unplayable(error):
                raise
            record = await self.matches.stored_match(match_id)
            if record.status not in OVER_STATUSES:
                raise _not_over(record) from None
            await self.store.delete_match(match_id)
            log.bind(match_id=match_id, game=record.game_id).info("match deleted without its rules")
            return
        async with live.lock:
            if not live.over:
                raise _not_over(live.record)
            await self.store.delete_match(match_id)
            self.matches.forget([match_id])
        live.log.info("match deleted")

    async def assign_bot(self, match_id: str, seat: int, bot: str = "") -> LiveMatch:
        """Hand a human or open seat to a bot (a BOT_ASSIGNED event); the bot
        moves whenever that seat is to move, from now on. An open match whose
        last open seat this fills starts."""
        bot = bot or "random"
        if bot not in self.bots:
            raise errors.invalid_field("bot", f"no bot {bot[:40]!r} on this host "
                                              f"(bots: {', '.join(sorted(self.bots))}).")
        live = await self.matches.live_match(match_id)
        self.matches.check_agent_plays(bot, live.record.game_id)

        async def attempt() -> LiveMatch:
            record = live.record
            if record.status not in UNFINISHED:
                raise _status_refused(record, UNFINISHED, "given a bot")
            if not 0 <= seat < len(record.seats):
                raise errors.invalid_field("seat", f"seat must be 0 to {len(record.seats) - 1}, not {seat}.")
            if record.seats[seat].kind == "bot":
                raise errors.FailedPrecondition(f"Seat {seat} is already played by the bot "
                                                f"{record.seats[seat].bot!r}.", "SEAT_IS_BOT",
                                                metadata=errors.metadata_of(seat=seat))
            seats = list(record.seats)
            seats[seat] = SeatRecord(seat, "bot", f"bot {seat}", bot=bot)
            now = time.time()
            events = [match_event(record.version + 1, "bot_assigned", seat, now, bot=bot)]
            status = record.status
            if status == "open" and all(s.kind != "open" for s in seats):
                status = "active"
                events.append(match_event(record.version + 2, "started", -1, now))
            await self.matches.commit(live, record.replace(seats=seats, status=status, version=events[-1]["version"],
                                                    update_time=now), events)
            live.log.info("seat given to a bot", seat=seat, bot=bot)
            return live

        return await self.matches.locked(live, attempt)

    async def resume_match(self, match_id: str) -> LiveMatch:
        """Take a suspended match back to active (a RESUMED event) and
        schedule its turns: bots and deadlines start again. Its rules are
        loaded afresh first, with no strikes; if that fails, it stays
        suspended and the rules' error is the answer."""
        live = await self.matches.live_match(match_id)

        async def attempt() -> LiveMatch:
            record = live.record
            if record.status != "suspended":
                raise _status_refused(record, ("suspended",), "resumed", "MATCH_NOT_SUSPENDED")
            await self.matches.reset_rules_for_resume(live)
            now = time.time()
            event = match_event(record.version + 1, "resumed", -1, now)
            # update_time restarts a player's turn timeout: the suspension was not their time
            await self.matches.commit(live, record.replace(status="active", status_detail=None,
                                                    version=record.version + 1, update_time=now), [event])
            live.log.info("match resumed")
            return live

        return await self.matches.locked(live, attempt)
