"""What replays of finished matches keep between reads: the log, the past
views the rules replayed (a chunk of versions at a time) and their
renderings, host-wide, within a budget of bytes.

Stepping through a replay reads the same chunk and picture again and
again, so they are worth keeping; but every version of every finished
match is readable by anyone, so what is kept is bounded by size, not by
match: the least recently read entries go first once the budget is spent,
whichever match and reader they came from. An entry is charged its
approximate size in memory (its JSON text's length times the overhead of
Python's objects over that text); one larger than the whole budget is
answered and not kept.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from typing import Any, Awaitable, Callable, Hashable, TypeVar

from gamehost.host.workers.messages import PastView

T = TypeVar("T")

DEFAULT_BUDGET = 32 * 1024 * 1024  # bytes
OBJECT_OVERHEAD = 4  # Python's dicts, lists and strings over their JSON text, roughly


def approximate_size(value: Any) -> int:
    """Bytes ``value`` (strings, or JSON-like data) holds in memory, roughly."""
    if isinstance(value, str):
        return len(value) + 64
    return len(json.dumps(value, separators=(",", ":"), default=str)) * OBJECT_OVERHEAD + 64


class ReplayCache:
    def __init__(self, budget: int = DEFAULT_BUDGET) -> None:
        self.budget = budget
        self.used = 0  # bytes charged for the entries kept
        self._kept: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()  # oldest read first
        self._computing: dict[Hashable, asyncio.Future] = {}

    def __len__(self) -> int:
        return len(self._kept)

    async def _once(self, key: Hashable, compute: Callable[[], Awaitable[T]]) -> T:
        """The value kept under ``key``, else computed once: callers asking
        while it is computed wait for the same answer. A failure is not kept."""
        kept = self._kept.get(key)
        if kept is not None:
            self._kept.move_to_end(key)
            return kept[0]
        task = self._computing.get(key)
        if task is None:
            task = self._computing[key] = asyncio.ensure_future(compute())
            task.add_done_callback(lambda done: self._settled(key, done))
        return await asyncio.shield(task)

    def _settled(self, key: Hashable, done: asyncio.Future) -> None:
        if self._computing.get(key) is done:
            del self._computing[key]
        if done.cancelled() or done.exception() is not None:
            return
        value = done.result()
        size = approximate_size(value)
        if size > self.budget:
            return
        self._kept[key] = (value, size)
        self.used += size
        while self.used > self.budget:
            _, (_, dropped) = self._kept.popitem(last=False)
            self.used -= dropped

    def forget(self, match_id: str) -> None:
        """Drop what is kept of a match (deleted, or taken out of memory)."""
        for key in [key for key in self._kept if key[0] == match_id]:  # type: ignore[index]
            self.used -= self._kept.pop(key)[1]

    # ------------------------------------------------------------ what a replay keeps

    async def events(self, match_id: str, compute: Callable[[], Awaitable[list[dict]]]) -> list[dict]:
        """The finished match's whole log."""
        return await self._once((match_id, "events"), compute)

    async def chunk(self, match_id: str, seat: int | None, chunk: int,
                    compute: Callable[[], Awaitable[list[PastView]]]) -> list[PastView]:
        """The views ``seat`` had over one chunk of versions."""
        return await self._once((match_id, "chunk", seat, chunk), compute)

    async def rendering(self, match_id: str, kind: str, seat: int | None, version: int,
                        compute: Callable[[], Awaitable[str]]) -> str:
        """A past view's text or SVG."""
        return await self._once((match_id, kind, seat, version), compute)
