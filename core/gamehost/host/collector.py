"""Python's cyclic garbage collector, set for a long-lived server.

With the interpreter's defaults (700, 10, 10) a host under load runs a full
collection every 10 to 20 s, and each one stops the process while it walks
every tracked object: in the serving process the modules, the catalog and
every live match's caches and streams (90 to 180 ms with 600 matches); in a
rules worker every resident match's state (110 to 250 ms), while every
request queued at that worker waits. Those pauses made most of the soak's
move latency beyond its p95 (bench/README.md, "Where the soak's tail comes
from").

So, once the host (or a rules worker) has started: one collection, then
``gc.freeze()``: what start-up made (modules, the catalog, restored
matches) lives as long as the process, and the collector no longer walks
it. Young and middle collections keep the interpreter's sizes (a few
milliseconds each); a full collection comes after a hundred times as many
middle ones as by default: minutes apart under load instead of seconds.
Reference counting still frees everything that is not in a cycle at once;
only garbage in cycles that reached the oldest generation waits longer.
"""

from __future__ import annotations

import asyncio
import ctypes
import gc

import structlog

log = structlog.get_logger("gamehost.collector")

# Objects allocated (less freed) before a young collection (the
# interpreter's); young collections before a middle one (the interpreter's);
# middle ones before a full one (the interpreter's is 10).
THRESHOLDS = (700, 10, 1_000)


def settle_after_start() -> None:
    """Collect what start-up left, freeze the survivors and set the thresholds."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    log.info("garbage collector set for serving", frozen_objects=gc.get_freeze_count(), thresholds=THRESHOLDS)


# After a busy spell, the quiet that follows: what the rare full collections
# have not reached yet (streams cancelled together at the end of a load leave
# their calls, tasks and errors in cycles), and the memory the C allocator
# holds free, would otherwise stay with the process until the next busy
# spell. So when the collector's own counts say the process went from busy
# to quiet, one full collection runs, and glibc is asked to give its free
# memory back (``malloc_trim``): at a moment nobody is waiting for the loop.
QUIET_CHECK = 2.0   # seconds between two looks at the collector's counts
BUSY_YOUNG = 5      # young collections between two looks: the process is at work


class QuietCollector:
    def __init__(self) -> None:
        self._young = _young_collections()
        self._busy = False

    async def run(self) -> None:
        while True:
            await asyncio.sleep(QUIET_CHECK)
            self.look()

    def look(self) -> bool:
        """One look at the counts; True when it collected."""
        young = _young_collections()
        made, self._young = young - self._young, young
        if made >= BUSY_YOUNG:
            self._busy = True
            return False
        if not self._busy:
            return False
        self._busy = False
        collected = gc.collect()
        log.info("quiet after a busy spell: full collection", collected_objects=collected,
                 memory_returned=_return_free_memory())
        self._young = _young_collections()  # its own collection is not work
        return True


def _young_collections() -> int:
    return int(gc.get_stats()[0]["collections"])


def _return_free_memory() -> bool:
    """glibc's free heap memory back to the system; False where there is no glibc."""
    try:
        return bool(ctypes.CDLL("libc.so.6").malloc_trim(0))
    except (OSError, AttributeError):
        return False
