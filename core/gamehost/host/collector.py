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
