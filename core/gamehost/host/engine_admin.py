"""Operators' changes to a match: abort, delete, hand a seat to a bot,
resume; and dropping matches the retention sweep pruned.

A mixin of ``MatchEngine``: each change is one committed step made the
engine's way (under the match's lock, through ``_commit``), so watchers,
bots, deadlines and replicas see it as they see any move.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Iterable

from gamehost.host import errors
from gamehost.host.store.base import SeatRecord

if TYPE_CHECKING:
    from gamehost.host.live import LiveMatch

UNFINISHED = ("open", "active", "suspended")


def _status_refused(live: LiveMatch, allowed: tuple[str, ...], action: str,
                    reason: str = "") -> errors.FailedPrecondition:
    """MATCH_OVER for a match that is over, else ``reason``."""
    status = live.record.status
    return errors.FailedPrecondition(
        f"matches/{live.id} is {status}: it can be {action} only while it is {' or '.join(allowed)}.",
        "MATCH_OVER" if live.over or not reason else reason, metadata=errors.metadata_of(status=status))


class MatchAdministration:
    async def abort_match(self, match_id: str, reason: str, message: str = "",
                          only: tuple[str, ...] = UNFINISHED) -> LiveMatch:
        """End a match without a result: status aborted, an ABORTED event
        with ``reason`` (ADMIN_ABORT, OPEN_EXPIRED); its bots and deadline
        stop. ``only``: the statuses it may be aborted from."""
        live = await self.live_match(match_id)

        async def attempt() -> LiveMatch:
            record = live.record
            if record.status not in only:
                raise _status_refused(live, only, "aborted", "MATCH_NOT_OPEN")
            now = time.time()
            detail = {"reason": reason, "message": message[:200]}
            event = self._event(record.version + 1, "aborted", -1, now, reason=reason, message=detail["message"])
            await self._commit(live, record.replace(status="aborted", status_detail=detail,
                                                    version=record.version + 1, update_time=now),
                               [event], snapshot_state=await self._final_state(live))
            live.log.info("match aborted", reason=reason, message=detail["message"])
            self._remember_finished(live.id)
            return live

        return await self._locked(live, attempt)

    async def delete_match(self, match_id: str) -> None:
        """Delete a match that is over: its row, events and snapshot."""
        live = await self.live_match(match_id)
        async with live.lock:
            if not live.over:
                raise errors.FailedPrecondition(
                    f"matches/{match_id} is {live.record.status}: only a match that is over (finished, abandoned "
                    "or aborted) can be deleted; abort it first.", "MATCH_NOT_OVER",
                    metadata=errors.metadata_of(status=live.record.status))
            await self.store.delete_match(match_id)
            self.forget([match_id])
        live.log.info("match deleted")

    def forget(self, match_ids: Iterable[str]) -> None:
        """Drop deleted matches from memory."""
        for match_id in match_ids:
            live = self._live.get(match_id)
            if live is not None and live.over:
                del self._live[match_id]
                if match_id in self._finished_order:
                    self._finished_order.remove(match_id)

    async def assign_bot(self, match_id: str, seat: int, bot: str = "") -> LiveMatch:
        """Hand a human or open seat to a bot (a BOT_ASSIGNED event); the bot
        moves whenever that seat is to move, from now on. An open match whose
        last open seat this fills starts."""
        bot = bot or "random"
        if bot not in self.bots:
            raise errors.invalid_field("bot", f"no bot {bot[:40]!r} on this host "
                                              f"(bots: {', '.join(sorted(self.bots))}).")
        live = await self.live_match(match_id)

        async def attempt() -> LiveMatch:
            record = live.record
            if record.status not in UNFINISHED:
                raise _status_refused(live, UNFINISHED, "given a bot")
            if not 0 <= seat < len(record.seats):
                raise errors.invalid_field("seat", f"seat must be 0 to {len(record.seats) - 1}, not {seat}.")
            if record.seats[seat].kind == "bot":
                raise errors.FailedPrecondition(f"Seat {seat} is already played by the bot "
                                                f"{record.seats[seat].bot!r}.", "SEAT_IS_BOT",
                                                metadata=errors.metadata_of(seat=seat))
            seats = list(record.seats)
            seats[seat] = SeatRecord(seat, "bot", f"bot {seat}", bot=bot)
            now = time.time()
            events = [self._event(record.version + 1, "bot_assigned", seat, now, bot=bot)]
            status = record.status
            if status == "open" and all(s.kind != "open" for s in seats):
                status = "active"
                events.append(self._event(record.version + 2, "started", -1, now))
            await self._commit(live, record.replace(seats=seats, status=status, version=events[-1]["version"],
                                                    update_time=now), events)
            live.log.info("seat given to a bot", seat=seat, bot=bot)
            return live

        return await self._locked(live, attempt)

    async def resume_match(self, match_id: str) -> LiveMatch:
        """Take a suspended match back to active (a RESUMED event) and
        schedule its turns: bots and deadlines start again. Its rules are
        loaded afresh first, with no strikes; if that fails, it stays
        suspended and the rules' error is the answer."""
        live = await self.live_match(match_id)

        async def attempt() -> LiveMatch:
            record = live.record
            if record.status != "suspended":
                raise _status_refused(live, ("suspended",), "resumed", "MATCH_NOT_SUSPENDED")
            await self.reset_rules_for_resume(live)
            now = time.time()
            event = self._event(record.version + 1, "resumed", -1, now)
            # update_time restarts a player's turn timeout: the suspension was not their time
            await self._commit(live, record.replace(status="active", status_detail=None,
                                                    version=record.version + 1, update_time=now), [event])
            live.log.info("match resumed")
            return live

        return await self._locked(live, attempt)
