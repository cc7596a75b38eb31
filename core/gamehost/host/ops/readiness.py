"""Readiness that follows the store: the GameHost service's health status is
SERVING while the store answers and takes writes, NOT_SERVING while it does
not. A read is not enough: a full disk still answers reads while every
move fails, so a store that can (SQLite) also commits a small probe.

The overall health status (service "") is left alone: it answers as long as
the process does, which is what a liveness probe asks. Restarting a host
cannot bring a database back, so a store outage only takes the host out of
load balancing.
"""

from __future__ import annotations

import asyncio

import structlog
from grpc_health.v1 import health, health_pb2

from gamehost.host.store import Store

log = structlog.get_logger("gamehost.readiness")

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


class StoreReadiness:
    """Pings the store every ``interval`` seconds (a ping that takes longer
    counts as a failure) and sets ``service``'s health accordingly."""

    def __init__(self, store: Store, health_servicer: health.aio.HealthServicer, service: str,
                 interval: float) -> None:
        self.store = store
        self.health = health_servicer
        self.service = service
        self.interval = interval
        self.reachable = True
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def check(self) -> bool:
        try:
            await asyncio.wait_for(self._probe(), self.interval)
        except Exception as error:
            if self.reachable:
                log.warning("store unreachable or not writable: not ready",
                            error=f"{type(error).__name__}: {error}")
                await self.health.set(self.service, NOT_SERVING)
            self.reachable = False
        else:
            if not self.reachable:
                log.info("store reachable and writable again: ready")
                await self.health.set(self.service, SERVING)
            self.reachable = True
        return self.reachable

    async def _probe(self) -> None:
        await self.store.ping()
        probe_write = getattr(self.store, "probe_write", None)
        if probe_write is not None:
            await probe_write()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            await self.check()
