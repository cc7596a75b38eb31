"""A watched chat in memory (engine/chat_feed.py): a change made while a
watcher was still sending its last batch reaches it without another change."""

from __future__ import annotations

import asyncio

from gamehost.host.engine.chat_feed import ChatFeed
from gamehost.host.store.chat_rows import ChatRecord


def message(sequence: int, hidden_by: str = "") -> ChatRecord:
    return ChatRecord("m", sequence, "players", "ann", "Ann", 0, f"message {sequence}", 0.0, hidden_by)


async def test_a_change_made_while_a_batch_was_being_sent_is_not_lost():
    feed = ChatFeed("m", [message(1)])
    follow = feed.follow(0, lambda: False)
    assert [r.sequence for r in await anext(follow)] == [1]
    feed.take([message(2)])  # while the watcher is away sending message 1
    feed.take([message(1, hidden_by="admin")])
    batch = await asyncio.wait_for(anext(follow), 5)
    assert [(r.sequence, r.hidden) for r in batch] == [(2, False), (1, True)]
    waiting = asyncio.ensure_future(anext(follow))
    await asyncio.sleep(0)
    assert not waiting.done()
    feed.take([message(2)])  # the same message again: nothing changed, nobody woken
    await asyncio.sleep(0)
    assert not waiting.done()
    feed.take([message(3)])
    assert [r.sequence for r in await asyncio.wait_for(waiting, 5)] == [3]
    await follow.aclose()
