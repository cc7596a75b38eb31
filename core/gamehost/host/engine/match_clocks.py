"""Chess-style clocks in the engine: charging the seats to move at each
move, the deadline of the first person to run out, and the end of a match
by the game's timeout rule when a clock runs out (``clocks.py`` holds the
arithmetic).

A part of ``MatchEngine`` (an ``EngineCore``).
"""

from __future__ import annotations

import time
from typing import Sequence

from gamehost.host.workers.moves_on_wire import summary_fields
from gamehost.sdk.i18n import Text
from gamehost.host.engine import clocks

from gamehost.host import errors
from gamehost.host.due_timers import DueTimer
from gamehost.host.engine.core import EngineCore
from gamehost.host.engine.live import LiveMatch
from gamehost.host.store.base import MatchRecord
from gamehost.sdk.rules import Game
from gamehost.host.engine.match_events import match_event


class MatchClocks(EngineCore):
    def _clock_after_move(self, record: MatchRecord, to_move: Sequence[int], mover: int, now: float) -> dict | None:
        if record.clock is None:
            return None
        return clocks.charged(record.clock, record.update_time, to_move, mover, now)

    def _arm_clock(self, live: LiveMatch, to_move: Sequence[int]) -> None:
        """Arm the live match's deadline at the first person's running out."""
        record = live.record
        assert record.clock is not None  # armed only for a match with clocks
        due = clocks.deadline(record.clock, record.update_time,
                              [seat for seat in to_move if record.seats[seat].kind == "human"])
        if due is not None:
            live.deadline = DueTimer(due, lambda: self._spawn(self._clock_expired(live)))

    async def _clock_expired(self, live: LiveMatch) -> None:
        """Checked again under the lock: the player may have moved just now,
        here or on another replica."""
        async def attempt(retry: int) -> None:
            record = live.record
            if record.status != "active" or record.clock is None:
                return
            now = time.time()
            to_move = await self.to_move(live)
            ran_out = [seat for seat in to_move if record.seats[seat].kind == "human"
                       and clocks.time_left(record.clock, record.update_time, to_move, seat, now) <= 0]
            if not ran_out:  # moved meanwhile, or the wall clock stepped back: arm it again
                self._spawn(self._schedule_turns(live))
                return
            await self._end_on_time(live, to_move, ran_out, now)

        await self._host_move(live, attempt, lambda error: None, clock_ran_out=True)

    async def _end_on_time(self, live: LiveMatch, to_move: Sequence[int], ran_out: list[int], now: float) -> None:
        record = live.record
        assert record.clock is not None  # ended on time only when a clock ran out
        seats = len(record.seats)
        ranking = await self._timeout_ranking(live, seats, ran_out)
        clock = {**record.clock, "remaining": [
            max(0.0, clocks.time_left(record.clock, record.update_time, to_move, seat, now)) for seat in range(seats)],
            "since": now}
        result = {"scores": [0.0] * seats, "ranking": ranking,
                  "winners": [seat for seat, place in enumerate(ranking) if place == 1],
                  **summary_fields(Text("Time ran out for seat {seats}.",
                                        seats=", ".join(str(s + 1) for s in ran_out)))}
        version = record.version + 1
        events = [match_event(version, "clock_ran_out", ran_out[0], now, seats=ran_out),
                  match_event(version + 1, "finished", -1, now, result=result)]
        await self.commit(live, record.replace(status="finished", result=result, version=version + 1,
                                                update_time=now, clock=clock),
                           events, snapshot_state=await self.final_state(live))
        live.log.info("clock ran out; match finished", seats=ran_out, result=result)
        self.remember_finished(live.id)

    async def _timeout_ranking(self, live: LiveMatch, seats: int, ran_out: list[int]) -> list[int]:
        """The game's timeout rule (``Game.timeout_ranking`` on the position,
        else a ``gamehost_clock_ran_out`` hook's; both in its worker, under
        the rules budget), else the host's. A rule that fails or answers no
        ranking is logged and passed over: a broken plugin must not keep
        the match from ending."""
        if type(live.game).timeout_ranking is not Game.timeout_ranking or self._clock_rule is not None:
            try:
                ranking = await self.rules.timeout_ranking(live, ran_out)
            except errors.HostError as error:  # timed out, crashed (a strike) or raised
                live.log.error("timeout rule failed; the host's rule applies", error=str(error))
            else:
                if ranking is not None and _is_ranking(ranking, seats):
                    return list(ranking)
                if ranking is not None:
                    live.log.error("timeout rule gave no ranking; the host's rule applies", ranking=ranking)
        return clocks.default_timeout_ranking(seats, ran_out)


def _is_ranking(ranking: Sequence[int], seats: int) -> bool:
    return len(ranking) == seats and all(type(place) is int and 1 <= place <= seats for place in ranking)
