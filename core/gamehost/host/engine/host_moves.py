"""Moves the host makes for a seat: bots' turns and the random move of a
player whose turn timed out, retried with backoff when they fail, and (with
a shared store) the sweep for the due turns this replica claims.

A part of ``MatchEngine`` (an ``EngineCore``).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import structlog

from gamehost.host import errors, traces
from gamehost.host.due_timers import DueTimer, sleep_until
from gamehost.host.engine.agents import agent_name
from gamehost.host.engine.core import EngineCore
from gamehost.host.engine.live import LiveMatch
from gamehost.host.engine.match_quotas import host_played, kept_timing_out
from gamehost.host.store.base import MatchRecord
from gamehost.host.workers.runner import PLUGIN_ERROR

log = structlog.get_logger("gamehost.engine")

HOST_MOVE_RETRY_MAX = 30.0  # seconds between tries of a bot or timed-out move that keeps failing
# Choices in a row whose ``apply`` raised after which that is a strike: the
# plugin's apply fails whatever is drawn, and would be retried for ever.
APPLY_FAILURES_PER_STRIKE = 3


def _fails_whatever_the_choice(error: Exception) -> bool:
    """A plugin's exception in a hook other than the chosen move's ``apply``
    (listing the moves, loading the match): drawing another move cannot help,
    and retried for ever it would be tried every 30 s while the host runs.
    One in ``apply`` may be that move's alone, so the retry draws again."""
    return isinstance(error, errors.HostError) and error.reason == PLUGIN_ERROR and \
        error.metadata.get("hook") != "apply"


def _bot_overran(error: Exception) -> bool:
    """The bot's think outran its budget or took its worker down (a plugin's
    bot or search hint that hangs or crashes): thinking again would only do
    it again on the replacement worker."""
    return isinstance(error, errors.HostError) and error.reason in ("RULES_TIMEOUT", "RULES_CRASHED") and \
        error.metadata.get("hook") == "choose"


def _failed_in_apply(error: Exception) -> bool:
    return isinstance(error, errors.HostError) and error.reason == PLUGIN_ERROR and \
        error.metadata.get("hook") == "apply"


class HostMoves(EngineCore):
    async def _schedule_turns(self, live: LiveMatch) -> None:
        """Act where the host must: bot seats to move, and the deadline of a
        player to move in a match with a turn timeout."""
        live.disarm_deadline()
        live.disarm_undo_lapse()
        live.disarm_draw_lapse()
        if self._closing or live.record.status != "active":
            return
        self._arm_undo_lapse(live)
        self._arm_draw_lapse(live)
        try:
            to_move = await self.to_move(live)
        except errors.HostError as error:  # counted as a strike where it failed; nothing to schedule
            live.log.error("turns not scheduled", error=str(error))
            return
        live.disarm_deadline()  # a concurrent call may have armed it meanwhile
        record = live.record
        if self._closing or record.status != "active":
            return
        for seat in to_move:
            if record.seats[seat].kind == "bot" and seat not in live.bot_pending:
                live.bot_pending.add(seat)
                agent = agent_name(record.seats[seat].bot) is not None
                self._spawn(self._agent_turn(live, seat) if agent else self._bot_turn(live, seat))
        if record.turn_timeout and any(record.seats[seat].kind == "human" for seat in to_move):
            live.deadline = DueTimer(record.update_time + record.turn_timeout,
                                     lambda: self._spawn(self._turn_timed_out(live)))
        if record.clock is not None:
            self._arm_clock(live, to_move)

    async def _bot_turn(self, live: LiveMatch, seat: int) -> None:
        overran = False  # the seat's bot overran on this move: the random bot plays it instead

        async def attempt(retry: int) -> None:
            live.bot_pending.discard(seat)
            if live.record.status != "active" or live.record.seats[seat].kind != "bot" \
                    or seat not in await self.to_move(live):
                return  # over, moved, or its absent owner took the seat back
            bot = live.record.seats[seat].bot
            if overran and bot != "random":
                live.log.warning("bot overran; the random bot plays this move", bot=bot, seat=seat)
                bot = "random"
            await self._play_for(live, seat, bot, retry=retry)

        def failed(error: Exception) -> None:
            nonlocal overran
            overran = overran or _bot_overran(error)
            live.bot_pending.add(seat)  # still this task's turn: no second bot task meanwhile

        # An absent player's bot waits out the grace (stored in the seat, so a restart keeps it).
        await sleep_until(max(time.time() + self._bot_delay(live.record), live.record.seats[seat].away_until))
        await self._host_move(live, attempt, failed, seat=seat)

    def _bot_delay(self, record: MatchRecord) -> float:
        """A person's pace where a human plays; all-bot matches keep ``bot_delay``."""
        humans = any(seat.kind != "bot" for seat in record.seats)
        return self.bot_delay_with_humans if humans else self.bot_delay

    async def _turn_timed_out(self, live: LiveMatch) -> None:
        """The deadline passed: a random legal move for the first player to
        move. Checked again under the lock, on a fresh copy: the player may
        have moved just now, here or on another replica."""
        async def attempt(retry: int) -> None:
            record = live.record
            if record.status != "active":
                return
            if time.time() < record.update_time + record.turn_timeout:
                # Moved meanwhile (its step armed the new deadline), or the
                # wall clock stepped back since the timer was armed: arm it again.
                self._spawn(self._schedule_turns(live))
                return
            late = [seat for seat in await self.to_move(live) if record.seats[seat].kind == "human"]
            if late:
                live.log.info("turn timed out", seat=late[0], timeout=record.turn_timeout)
                await self._play_for(live, late[0], "random", timed_out=True, retry=retry)
                if live.record.absent_grace is not None and live.record.status == "active" \
                        and kept_timing_out(live, late[0]):
                    await self._leave_to_bot(live, late[0])
                elif host_played(live) and self.quotas.host_plays_too_many(
                        live.record.creator, live, self._live.created_by(live.record.creator)):
                    # Nobody plays it any more and its creator already has the host playing
                    # as many matches as allowed: it ends instead of playing on alone.
                    await self._abandon(live, late[0])

        await self._host_move(live, attempt, lambda error: None, timed_out=True)

    async def _host_move(self, live: LiveMatch, attempt, failed, **fields: Any) -> None:
        """Run a move the host makes for a seat (``attempt(retry)``, under the
        lock). It must not stall the match when it fails (the store away, the
        rules crashing on the chosen move), so it is tried again with backoff
        while the host is open and the match active (``failed(error)`` hears
        of each failure first); each retry draws the choice afresh. A
        plugin's exception that another choice cannot avoid is a strike, and
        so is every ``APPLY_FAILURES_PER_STRIKE``-th choice in a row that
        ``apply`` raised on: at ``max_strikes`` the match is suspended and
        the retries end."""
        retry = apply_failures = 0
        while not self._closing and live.record.status == "active":
            try:
                if not traces.on():
                    await self.locked(live, lambda: attempt(retry))
                    return
                with traces.span("engine host move", {"gamehost.match_id": live.id, "gamehost.game": live.record.game_id,
                                                      "gamehost.retry": retry,
                                                      **{f"gamehost.{key}": value for key, value in fields.items()}}):
                    await self.locked(live, lambda: attempt(retry))
                return
            except asyncio.CancelledError:
                raise
            except Exception as error:
                failed(error)
                apply_failures = apply_failures + 1 if _failed_in_apply(error) else 0
                if isinstance(error, errors.HostError) and (_fails_whatever_the_choice(error) or (
                        apply_failures and apply_failures % APPLY_FAILURES_PER_STRIKE == 0)):
                    self._rules_failed(live, error)
                delay = min(HOST_MOVE_RETRY_MAX, self.host_move_retry * 2 ** retry)
                retry += 1
                live.log.error("host move failed; trying again", error=str(error), retry=retry,
                               retry_in=delay, **fields)
                await asyncio.sleep(delay)

    async def _play_for(self, live: LiveMatch, seat: int, bot_name: str, *, timed_out: bool = False,
                        retry: int = 0) -> None:
        """The host moves for ``seat`` with the named bot (the lock is held).
        A bot that fails or offers a move that is not legal is replaced by
        the random bot for this move: a plugin's bot must not stall a match."""
        # A retry draws from its own stream, so a choice the rules crashed on is not bound to come again.
        choice, bot_failed = await self.rules.choose(live, seat, bot_name, live.version + 1,
                                                     f"bot retry {retry}" if retry else "bot")
        if choice is None:
            live.log.error("no legal move to play for the seat", seat=seat)
            return
        if bot_failed:
            live.log.error("bot failed; a random move is played instead", bot=bot_name, seat=seat, error=bot_failed)
        await self._play(live, seat, choice.id, None, "", timed_out)

    async def _sweep_due_turns(self) -> None:
        """Shared store: act on the bot moves and deadlines this replica
        claims, those whose replica died or failed before acting."""
        while not self._closing:
            try:
                claimed = await self.replicas.claim_due()
            except Exception as error:  # the database may be away: sweep again later
                log.warning("sweep for due turns failed", error=str(error))
                claimed = []
            for match_id in claimed:
                try:
                    live = await self.live_match(match_id)
                    async with live.lock:
                        await self._catch_up(live)
                except Exception as error:  # e.g. a game this replica lacks: the lease lets another try
                    log.error("claimed turn not taken", match_id=match_id, error=str(error))
                    continue
                live.log.info("turn claimed")
                await self._schedule_turns(live)
            await asyncio.sleep(self.sweep_interval)
