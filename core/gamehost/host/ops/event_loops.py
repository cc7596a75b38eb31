"""The event loop the host serves on (``--event-loop``): uvloop where it is
installed (a dependency on Linux and macOS), else asyncio's own.

uvloop takes about 5% less of the serving process's CPU per move
(bench/README.md, "uvloop"). Its timers may fire up to about a millisecond
early; every deadline the host keeps checks its own clock when woken
(due_timers.py; docs/architecture.md, "Timers").
"""

from __future__ import annotations

import asyncio
import importlib.util
from typing import Callable, Coroutine

CHOICES = ("auto", "asyncio", "uvloop")


def uvloop_installed() -> bool:
    return importlib.util.find_spec("uvloop") is not None


def serving_loop(choice: str) -> str:
    """The loop ``choice`` serves on: "uvloop" or "asyncio"."""
    if choice == "auto":
        return "uvloop" if uvloop_installed() else "asyncio"
    return choice


def run(main: Coroutine, choice: str):
    """``asyncio.run(main)`` on the chosen loop. asyncio's is made by the
    event loop policy, as ``asyncio.run`` makes it."""
    factory: Callable[[], asyncio.AbstractEventLoop] | None = None
    if serving_loop(choice) == "uvloop":
        import uvloop

        factory = uvloop.new_event_loop
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(main)
