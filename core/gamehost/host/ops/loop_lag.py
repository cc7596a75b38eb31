"""The event loop's lateness, in the log.

When the loop is saturated, new calls wait in grpc's queue before any of the
host's code sees them (transport.py): a client sees seconds of latency, or
after grpc's bounds a bare CANCELLED, and nothing else in the log would say
why. A timer that should fire every PERIOD seconds measures how late it
fires; a turn later than SATURATED is logged (a warning at most every
REPORT_EVERY seconds while it lasts, with the worst lateness seen), and so is
the end of it.
"""

from __future__ import annotations

import asyncio

import structlog

log = structlog.get_logger("gamehost.loop")

PERIOD = 0.25        # seconds between two looks at the clock
SATURATED = 0.5      # this late: calls wait to be taken up
CAUGHT_UP = 0.05     # this late or less: the loop keeps up again
REPORT_EVERY = 10.0  # seconds between two warnings while it lasts


class LoopLag:
    def __init__(self) -> None:
        self.saturated_since: float | None = None
        self.last_warning = float("-inf")
        self.worst = 0.0  # the worst lateness since the last warning

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            expected = loop.time() + PERIOD
            await asyncio.sleep(PERIOD)
            now = loop.time()
            self.look(now - expected, now)

    def look(self, late: float, now: float) -> None:
        if late >= SATURATED:
            self.worst = max(self.worst, late)
            if self.saturated_since is None:
                self.saturated_since = now - late
            if now - self.last_warning >= REPORT_EVERY:
                log.warning("event loop saturated: new calls wait in grpc's queue", late_ms=round(1000 * late),
                            worst_late_ms=round(1000 * self.worst),
                            saturated_s=round(now - self.saturated_since, 1))
                self.last_warning, self.worst = now, 0.0
        elif late <= CAUGHT_UP and self.saturated_since is not None:
            log.info("event loop caught up", saturated_s=round(now - self.saturated_since, 1))
            self.saturated_since, self.last_warning, self.worst = None, float("-inf"), 0.0
