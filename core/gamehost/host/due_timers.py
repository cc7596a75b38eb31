"""Timers due at a time read from a clock (the wall's, ``time.time()``, for
the deadlines stored with a match; ``time.monotonic()`` for a budget), that
never act before it.

The loop's timers may fire early: uvloop counts whole milliseconds (libuv
rounds the delay and reads a clock in milliseconds), up to about 1.2 ms
early, and the loop's clock is not the wall's, which NTP may slew. So a
timer that wakes before its time arms itself again for what is left, one
timer at a time, and its callback runs once, at or after the due time.
"""

from __future__ import annotations

import asyncio
import time
from typing import Callable

# Added to what is left when a timer woke early: uvloop's resolution, so the
# second timer does not round to "now" and wake early again.
RESOLUTION = 0.001


class DueTimer:
    """``callback()`` once, at ``due`` on ``clock`` or after; ``cancel()`` as a TimerHandle's."""

    def __init__(self, due: float, callback: Callable[[], object], clock: Callable[[], float] = time.time) -> None:
        self.due = due
        self._callback = callback
        self._clock = clock
        self._handle: asyncio.TimerHandle | None = None
        self._arm(max(0.0, due - clock()))

    def _arm(self, delay: float) -> None:
        self._handle = asyncio.get_running_loop().call_later(delay, self._fire)

    def _fire(self) -> None:
        left = self.due - self._clock()
        if left > 0:  # woke early
            self._arm(left + RESOLUTION)
            return
        self._handle = None
        self._callback()

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None


async def sleep_until(due: float, clock: Callable[[], float] = time.time) -> None:
    """Return at ``due`` on ``clock`` or after (now when it has passed)."""
    delay = due - clock()
    while delay > 0:
        await asyncio.sleep(delay)
        delay = due - clock()
        if delay > 0:  # woke early
            delay += RESOLUTION
