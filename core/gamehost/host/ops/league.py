"""The scheduled league: the host plays rated matches among the built-in
bot levels, within a budget, so that each game's leaderboard shows where
the levels stand (``--league-matches-per-hour``; off, 0, by default).

Its budget has three parts. It starts at most ``matches_per_hour`` matches
an hour (evenly spaced), runs at most ``max_concurrent`` at once, and
spends at most ``cpu_seconds_per_hour`` of bot thinking in any hour: in a
match of bots alone one bot thinks at a time, so a match's running time
bounds the CPU it takes, and that time is what is counted (a running match
counts what it has run so far). Past the budget, the league waits for its
oldest spending to leave the last hour.

The games take turns; in each game the matches follow the league's round
(``gamehost.client.league_rounds``: every ordering of the levels over the
seats), so each level plays each seat equally often. On replicas sharing a
store, each replica with a league plays its own: set it on one.
"""

from __future__ import annotations

import asyncio
import collections
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Protocol, Sequence

import structlog

from gamehost.client.league_rounds import league_matches
from gamehost.host.engine.live import LiveMatch
from gamehost.host.engine.rating_rules import RATED_BOTS
from gamehost.host.store.base import Store

log = structlog.get_logger("gamehost.league")

HOUR = 3600.0
RECHECK = 5.0  # seconds between reads of a league match from the store: another replica may play its turns


class LeagueUnplayable(Exception):
    """The league's settings name what this host cannot play; the message says what."""


@dataclass(frozen=True)
class LeagueBudget:
    matches_per_hour: float
    max_concurrent: int
    cpu_seconds_per_hour: float
    games: tuple[str, ...]  # the games played, in turn
    seats: int = 2
    levels: tuple[str, ...] = RATED_BOTS


class LeagueHost(Protocol):
    """What the league needs of the engine."""

    store: Store

    async def create_match(self, game_id: str, **settings: Any) -> LiveMatch: ...


class ScheduledLeague:
    def __init__(self, engine: LeagueHost, budget: LeagueBudget,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.engine = engine
        self.budget = budget
        self.clock = clock
        self.spent: collections.deque[tuple[float, float]] = collections.deque()  # (ended at, seconds) a match ran
        self.running: dict[str, float] = {}  # league matches under way: id -> started at
        self._ended = asyncio.Event()  # set when a league match ends
        self._schedules: dict[str, Iterator[tuple[str, ...]]] = {
            game: league_matches(budget.levels, budget.seats) for game in budget.games}

    def spent_in_last_hour(self, now: float) -> float:
        while self.spent and self.spent[0][0] <= now - HOUR:
            self.spent.popleft()
        return sum(seconds for _, seconds in self.spent) + sum(now - start for start in self.running.values())

    def _budget_wait(self, now: float) -> float | None:
        """How long until the hour's spending leaves room for a match (None: it does now)."""
        over = self.spent_in_last_hour(now) - self.budget.cpu_seconds_per_hour
        if over < 0:
            return None
        if self.running:
            return HOUR  # running matches only spend more: wait for one to end
        # The oldest spending leaves the hour first; wait till enough has.
        freed = 0.0
        for ended, seconds in self.spent:
            freed += seconds
            if freed > over:
                return max(ended + HOUR - now, 0.01)
        return 0.01

    async def _until_a_match_ends(self, timeout: float) -> None:
        self._ended.clear()
        try:
            await asyncio.wait_for(self._ended.wait(), timeout)
        except TimeoutError:
            pass

    async def run(self) -> None:
        budget = self.budget
        interval = HOUR / budget.matches_per_hour
        log.info("league scheduled", games=list(budget.games), levels=list(budget.levels), seats=budget.seats,
                 matches_per_hour=budget.matches_per_hour, max_concurrent=budget.max_concurrent,
                 cpu_seconds_per_hour=budget.cpu_seconds_per_hour)
        tasks: set[asyncio.Task] = set()
        games = self._game_turns()
        next_start = self.clock()
        paused = False  # by the CPU budget (said once a pause)
        try:
            while True:
                await asyncio.sleep(max(next_start - self.clock(), 0.0))
                if len(self.running) >= budget.max_concurrent:
                    await self._until_a_match_ends(HOUR)
                    continue
                wait = self._budget_wait(self.clock())
                if wait is not None:
                    if not paused:
                        log.info("league paused: its CPU budget for the hour is spent",
                                 spent_seconds=round(self.spent_in_last_hour(self.clock()), 3),
                                 cpu_seconds_per_hour=budget.cpu_seconds_per_hour)
                    paused = True
                    await self._until_a_match_ends(wait)
                    continue
                paused = False
                game = next(games)
                task = asyncio.create_task(self._play(game, next(self._schedules[game])))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
                next_start = max(next_start + interval, self.clock())
        finally:
            for task in tasks:
                task.cancel()

    def _game_turns(self) -> Iterator[str]:
        while True:
            yield from self.budget.games

    async def _play(self, game: str, levels: Sequence[str]) -> None:
        started = self.clock()
        key = f"starting-{id(levels)}-{started}"
        self.running[key] = started  # counted from now: creating the match spends too
        try:
            live = await self.engine.create_match(game, seats=len(levels), bot_seats=tuple(range(len(levels))),
                                                  seat_bots=tuple(levels), rated=True)
            self.running[live.id] = self.running.pop(key)
            key = live.id
            live.log.info("league match started", levels=list(levels))
            status = await self._finish(live)
            live.log.info("league match over", status=status, seconds=round(self.clock() - started, 3))
        except asyncio.CancelledError:
            raise
        except Exception as error:  # one match failing leaves the league running
            log.error("league match failed", game=game, levels=list(levels), error=f"{type(error).__name__}: {error}")
        finally:
            self.running.pop(key, None)
            self.spent.append((self.clock(), self.clock() - started))
            self._ended.set()

    async def _finish(self, live: LiveMatch) -> str:
        """Wait until the match is over; its status then."""
        while not live.over:
            changed = live.changed
            try:
                await asyncio.wait_for(changed.wait(), RECHECK)
            except TimeoutError:
                record = await self.engine.store.get_match(live.id)
                if record is None or record.status in ("finished", "abandoned", "aborted", "suspended"):
                    return record.status if record else "deleted"
        return live.record.status
