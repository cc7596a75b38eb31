"""The serving process's event loop: uvloop's when it is installed, else asyncio's.

Every RPC, stream message and worker answer is a few callbacks of the loop
(54 per move under the soak), and asyncio's own Python was about a quarter
of the serving process's CPU per move; uvloop runs the same interface in C
(on libuv). grpcio's asyncio server works on any loop that watches a file
descriptor (``add_reader``: its poller thread wakes the loop through a
socket). Measured in bench/README.md ("uvloop"). The rules workers and the
``--processes`` supervisor do not run an event loop of this kind and are
unaffected.
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable, Coroutine


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's loop when the package is there; None: asyncio's own."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def run(main: Coroutine[Any, Any, Any]) -> Any:
    """``asyncio.run(main)`` on the serving loop."""
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        return runner.run(main)
