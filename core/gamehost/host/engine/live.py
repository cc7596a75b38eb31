"""A match the engine holds in memory: its record, its state and what is
derived from them, cached until the next event."""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections import deque
from typing import Any

from gamehost.host.due_timers import DueTimer
from gamehost.host.engine.match_cache import MatchCache
from gamehost.host.engine.view_data import RenderBatch
from gamehost.host.plugins import GameEntry
from gamehost.host.store.base import OVER_STATUSES, MatchRecord

RECENT_EVENTS = 256  # events kept in memory for watchers that resume


def new_seat_token() -> str:
    """A seat's secret token. Never one that starts with "-": pasted after a command
    line's ``--token`` it would read as another option."""
    while True:
        token = secrets.token_urlsafe(24)
        if not token.startswith("-"):
            return token


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class LiveMatch:
    def __init__(self, record: MatchRecord, entry: GameEntry, state: Any, snapshot_version: int, log) -> None:
        self.record = record
        self.entry = entry
        self.game = entry.game
        self.state = state
        self.snapshot_version = snapshot_version
        self.log = log
        self.lock = asyncio.Lock()
        self.changed = asyncio.Event()
        self.recent: deque[dict] = deque(maxlen=RECENT_EVENTS)
        self.requests: dict[tuple[int, str], int] = {}
        self.watchers = 0
        # Of them, those who asked for renderings: (viewer, "text" | "svg") -> watchers; after each step the
        # worker renders those at once (renderings.py), and ``render_batch`` holds that call.
        self.renderings_asked: dict[tuple[int | None, str], int] = {}
        self.render_batch: RenderBatch | None = None
        self.bot_pending: set[int] = set()
        self.catching_up = False  # a catch-up with a shared store is scheduled
        self.deadline: DueTimer | None = None  # the turn timeout of the player to move
        self.undo_lapse: DueTimer | None = None  # when the open ask to take a move back lapses
        self.draw_lapse: DueTimer | None = None  # when the open draw offer lapses
        self.strikes = 0  # rules failures this process saw (the store counts them all: rules_failures.py)
        self._seats_by_token = self._index_tokens()
        self.cache = MatchCache()  # what is derived from the current version

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def version(self) -> int:
        return self.record.version

    @property
    def over(self) -> bool:
        return self.record.status in OVER_STATUSES

    def _index_tokens(self) -> dict[str, int]:
        return {seat.token_hash: seat.index for seat in self.record.seats if seat.token_hash}

    def seat_of_subject(self, subject: str) -> int | None:
        """The seat the signed-in user ``subject`` holds, if any (seats are few: a scan)."""
        return next((seat.index for seat in self.record.seats if seat.subject == subject), None)

    def seat_of_token(self, token: str) -> int | None:
        return self._seats_by_token.get(token_hash(token))

    def forget_derived(self) -> None:
        """Drop what is cached for the current version (its last watcher
        left): a match nobody follows need not hold its encoded views and
        legal moves until its next move (a host kept 283 MB after a soak
        where a fresh one holding the same matches needed 115 MB)."""
        self.cache.drop_settled()
        self.render_batch = None

    def advance(self, record: MatchRecord, events: list[dict], state: Any = None, snapshot_version: int | None = None) -> None:
        """Take the committed ``record`` (and ``state``) as current and wake watchers."""
        if record.version < self.record.version:
            return  # a replica's step this match already took (a load outside the lock caught up first)
        events = [event for event in events if event["version"] > self.record.version]
        seats_changed = record.seats is not self.record.seats
        self.record = record
        if state is not None:
            self.state = state
        if snapshot_version is not None:
            self.snapshot_version = snapshot_version
        if seats_changed:
            self._seats_by_token = self._index_tokens()
        self.recent.extend(events)
        for event in events:
            if event.get("request_id"):
                self.requests[(event["seat"], event["request_id"])] = event["version"]
        self.cache.clear()
        self.wake_watchers()

    def disarm_deadline(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def disarm_undo_lapse(self) -> None:
        if self.undo_lapse is not None:
            self.undo_lapse.cancel()
            self.undo_lapse = None

    def disarm_draw_lapse(self) -> None:
        if self.draw_lapse is not None:
            self.draw_lapse.cancel()
            self.draw_lapse = None

    def wake_watchers(self) -> None:
        woken, self.changed = self.changed, asyncio.Event()
        woken.set()

    def recent_after(self, version: int) -> list[dict] | None:
        """Events after ``version`` from memory, or None if memory starts later."""
        if version >= self.version:
            return []
        if not self.recent or self.recent[0]["version"] > version + 1:
            return None
        start = version + 1 - self.recent[0]["version"]
        return list(self.recent)[start:]
