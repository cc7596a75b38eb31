"""Python's cyclic garbage collector, set for a long-lived server.

With the interpreter's defaults (700, 10, 10) a host under load runs a full
collection every 10 to 20 s, and each one stops the event loop while it
walks every tracked object: the modules, the catalog and every live match's
caches and streams, 90 to 180 ms with 600 matches (bench/README.md, "Where
the soak's tail comes from"). Every call in flight waits it out, and those
pauses made most of the soak's move latency beyond its p95.

So, once the host (or a rules worker) has started: one collection, then
``gc.freeze()``: what start-up made (modules, the catalog, restored
matches) lives as long as the process, and the collector no longer walks
it. And full collections a tenth as often per young one, with young ones
about three times larger: 28 times fewer full collections for the same
allocations, minutes apart instead of seconds, while young and middle
collections stay a few milliseconds. Reference counting still frees
everything that is not in a cycle at once; cycles wait a little longer.
"""

from __future__ import annotations

import gc

import structlog

log = structlog.get_logger("gamehost.collector")

# Objects allocated (less freed) before a young collection; young
# collections before a middle one; middle ones before a full one.
THRESHOLDS = (2_000, 10, 100)


def settle_after_start() -> None:
    """Collect what start-up left, freeze the survivors and set the thresholds."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    log.info("garbage collector set for serving", frozen_objects=gc.get_freeze_count(), thresholds=THRESHOLDS)
