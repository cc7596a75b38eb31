"""Retention: open matches nobody started expire, active matches nobody
plays expire, and matches long over may be pruned.

A periodic sweep in the engine's background. It asks the store which open
matches are older than the TTL and aborts each (reason OPEN_EXPIRED) the
engine's way, so its players and watchers see an ABORTED event. With
replicas on PostgreSQL several may find the same match: the store's version
check lets one abort commit and the others are refused, and pruning runs
under an advisory lock, so one replica prunes each round.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

import structlog

from gamehost.host import errors

if TYPE_CHECKING:
    from gamehost.host.engine.match_engine import MatchEngine

log = structlog.get_logger("gamehost.retention")

BATCH = 100  # matches handled per round of each kind


class Retention:
    def __init__(self, engine: MatchEngine, open_match_ttl: float, prune_after: float, interval: float,
                 idle_match_ttl: float = 0.0) -> None:
        self.engine = engine
        self.open_match_ttl = open_match_ttl  # 0: open matches wait forever
        # 0: active matches wait forever. A match with a turn timeout or a clock never idles that long
        # (the host moves when time is up), so this ends the ones nobody plays and nothing times.
        self.idle_match_ttl = idle_match_ttl
        self.prune_after = prune_after  # 0: nothing is pruned
        self.interval = interval

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # e.g. the database away: next round
                log.warning("retention sweep failed", error=str(error))

    async def sweep(self) -> tuple[int, int]:
        """One round: (matches expired, matches pruned)."""
        now = time.time()
        expired = pruned = 0
        if self.open_match_ttl:
            for match_id in await self.engine.store.stale_open_matches(now - self.open_match_ttl, BATCH):
                try:
                    await self.engine.abort_match(match_id, "OPEN_EXPIRED", "nobody started it in time",
                                                  only=("open",))
                    expired += 1
                except errors.HostError as refusal:  # it started meanwhile, or another replica expired it
                    log.debug("open match not expired", match_id=match_id, reason=refusal.reason)
        if self.idle_match_ttl:
            for match_id in await self.engine.store.idle_active_matches(now - self.idle_match_ttl, BATCH):
                held = self.engine.held(match_id)
                if held is not None and held.record.update_time >= now - self.idle_match_ttl:
                    continue  # moved since the store was read
                try:
                    await self.engine.abort_match(match_id, "IDLE_EXPIRED", "nobody moved in it for too long",
                                                  only=("active",))
                    expired += 1
                except errors.HostError as refusal:  # moved meanwhile, or another replica expired it
                    log.debug("idle match not expired", match_id=match_id, reason=refusal.reason)
        if self.prune_after:
            deleted = await self.engine.store.prune_over_matches(now - self.prune_after, BATCH)
            pruned = len(deleted)
            # Also what another replica pruned: every replica drops the matches past the age from memory.
            self.engine.forget([*deleted, *(live.id for live in self.engine.held_matches()
                                            if live.over and live.record.update_time < now - self.prune_after)])
        if expired or pruned:
            log.info("retention sweep", expired=expired, pruned=pruned)
        return expired, pruned
