"""Listening to what other replicas commit: one connection LISTENs on the
matches' channel (``'<match> <version>'`` per committed step) and, when the
engine follows tickets, on the tickets' channel (``'<ticket> <ticket> ...'``),
on the agents' channel when the engine hears remote agents (a JSON
message each: engine/agents.py), on the chat's when it follows chat
(``postgres_chat.py``), and on the users' when it forgets erased users'
matches (``'<match> <match> ...'``: postgres_users.py).
A lost connection is retried for ever; after it comes back the listeners are
told so (``None``), since notifications sent meanwhile are lost."""

from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Callable

import psycopg
import structlog

from gamehost.host.store.postgres_chat import CHAT_CHANNEL

log = structlog.get_logger("gamehost.store.postgres")

CHANNEL = "gamehost_matches"
TICKET_CHANNEL = "gamehost_tickets"
AGENT_CHANNEL = "gamehost_agents"
USERS_CHANNEL = "gamehost_users"

OnChange = Callable[[str | None, int], Awaitable[None] | None]
OnTickets = Callable[[list[str] | None], None]
OnAgents = Callable[[str], None]
OnChat = Callable[[str | None], None]
OnErased = Callable[[list[str]], None]


async def notify_tickets(conn: psycopg.AsyncConnection[Any], ticket_ids: list[str]) -> None:
    """Tell every replica (delivered at commit) which tickets changed: their watchers read them again."""
    for start in range(0, len(ticket_ids), 256):  # a NOTIFY payload is at most 8000 bytes
        await conn.execute("SELECT pg_notify(%s, %s)", (TICKET_CHANNEL, " ".join(ticket_ids[start:start + 256])))


class ChangeNotifications:
    def __init__(self, url: str) -> None:
        self.url = url
        self.on_tickets: OnTickets | None = None
        self.on_agents: OnAgents | None = None
        self.on_chat: OnChat | None = None
        self.on_erased: OnErased | None = None
        self._task: asyncio.Task | None = None

    def start(self, on_change: OnChange) -> None:
        self._task = asyncio.get_running_loop().create_task(self._listen(on_change))

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def _listen(self, on_change: OnChange) -> None:
        delay, reconnected = 0.1, False
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    if self.on_tickets is not None:
                        await conn.execute(f"LISTEN {TICKET_CHANNEL}")
                    if self.on_agents is not None:
                        await conn.execute(f"LISTEN {AGENT_CHANNEL}")
                    if self.on_chat is not None:
                        await conn.execute(f"LISTEN {CHAT_CHANNEL}")
                    if self.on_erased is not None:
                        await conn.execute(f"LISTEN {USERS_CHANNEL}")
                    delay = 0.1
                    if reconnected:
                        log.info("notifications resumed")
                        await _call(on_change, None, 0)
                        if self.on_tickets is not None:
                            self.on_tickets(None)
                        if self.on_chat is not None:
                            self.on_chat(None)
                    async for note in conn.notifies():
                        if note.channel == TICKET_CHANNEL and self.on_tickets is not None:
                            self.on_tickets(note.payload.split())
                            continue
                        if note.channel == AGENT_CHANNEL:
                            if self.on_agents is not None:
                                self.on_agents(note.payload)
                            continue
                        if note.channel == USERS_CHANNEL:
                            if self.on_erased is not None:
                                self.on_erased(note.payload.split())
                            continue
                        if note.channel == CHAT_CHANNEL:
                            if self.on_chat is not None:
                                self.on_chat(note.payload)
                            continue
                        match_id, _, version = note.payload.partition(" ")
                        await _call(on_change, match_id, int(version))
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database went away: retry, never give up
                log.warning("notifications lost; reconnecting", error=str(error), retry_in=delay)
                reconnected = True
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)


async def _call(function: OnChange, *args: object) -> None:
    result = function(*args)  # type: ignore[arg-type]
    if asyncio.iscoroutine(result):
        await result
