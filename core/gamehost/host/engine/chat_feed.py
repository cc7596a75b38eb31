"""A watched match's chat in memory: its messages, each with the revision
of its last change (written, then maybe hidden), and the event its
watchers wait on.

A feed exists while someone watches the match's chat on this host; the
messages come from the store when it is made, and again when another
replica announces a change. Each watcher remembers the last revision it
sent, so a hidden message reaches it once more, marked hidden.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import AsyncIterator, Callable, Iterable

from gamehost.host.store.chat_rows import ChatRecord, Relations


@dataclass(frozen=True)
class ChatViewer:
    """Who reads a match's chat: a signed-in subject (or "" for anonymous),
    whether they hold a seat, and whether they are an admin (who sees the
    text of hidden messages)."""

    subject: str
    player: bool
    admin: bool = False


def visible(record: ChatRecord, viewer: ChatViewer, relations: Relations, over: bool) -> bool:
    """Whether ``viewer`` sees ``record``: the spectators' channel is out of a
    player's sight until the match is over (players may not be coached while
    they play), and a sender the viewer mutes or blocks, or who blocks the
    viewer, stays out of sight. Hidden messages are seen, without their text."""
    if record.channel == "spectators" and viewer.player and not over:
        return False
    return record.sender == viewer.subject or not relations.hides(record.sender)


class ChatFeed:
    def __init__(self, match_id: str, records: Iterable[ChatRecord]) -> None:
        self.match_id = match_id
        self.revision = 0
        self.records: dict[int, tuple[int, ChatRecord]] = {}  # sequence -> (revision, record)
        self.changed = asyncio.Event()
        self.loaded = asyncio.Event()  # set once the stored messages were taken
        self.watchers = 0
        self.take(records)

    def take(self, records: Iterable[ChatRecord]) -> None:
        """Take the messages that are new or changed; wake the watchers if any were."""
        news = False
        for record in records:
            kept = self.records.get(record.sequence)
            if kept is None or kept[1] != record:  # hidden, or its sender erased
                self.revision += 1
                self.records[record.sequence] = (self.revision, record)
                news = True
        if news:
            # A fresh event for the next wait, the old one set: no watcher misses a wake-up.
            changed, self.changed = self.changed, asyncio.Event()
            changed.set()

    def after(self, sequence: int) -> tuple[int, list[ChatRecord]]:
        """The current revision and the messages after ``sequence``, in order."""
        return self.revision, [record for _, (_, record) in sorted(self.records.items()) if _ > sequence]

    def since(self, revision: int) -> tuple[int, list[ChatRecord]]:
        """The current revision and the messages changed after ``revision``, in the order of their changes."""
        changed = sorted((kept for kept in self.records.values() if kept[0] > revision), key=lambda kept: kept[0])
        return self.revision, [record for _, record in changed]

    async def follow(self, after: int, closing: Callable[[], bool]) -> AsyncIterator[list[ChatRecord]]:
        """The messages after ``after`` (always a first batch, maybe empty:
        the watcher is then caught up), then each change, batch by batch,
        until ``closing()``."""
        revision, batch = self.after(after)
        yield batch
        while not closing():
            # Changes made while the last batch was being sent are taken before waiting: no wake-up is lost.
            revision, batch = self.since(revision)
            if batch:
                yield batch
            else:
                await self.changed.wait()
