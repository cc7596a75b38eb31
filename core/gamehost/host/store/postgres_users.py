"""The PostgreSQL store's users' data (``user_rows.py``). An erasure is one
transaction that tells every replica, at its commit, what to read again:
the rewritten matches (``USERS_CHANNEL``), the deleted tickets (the tickets'
channel), and the chat's messages, bans and relations (the chat's channel)."""

from __future__ import annotations

from typing import Any, Sequence

import psycopg
from psycopg_pool import AsyncConnectionPool

from gamehost.host.store.user_rows import collect as collect_rows, erase as erase_rows
from gamehost.host.store.postgres_chat import CHAT_CHANNEL
from gamehost.host.store.postgres_notifications import USERS_CHANNEL, notify_tickets
from gamehost.host.store.user_data import Erasure

NOTE_IDS = 200  # match ids per notification: a payload is at most 8000 bytes


class _Rows:
    mark = "%s"
    row_lock = "FOR UPDATE"

    def __init__(self, conn: psycopg.AsyncConnection[Any]) -> None:
        self.conn = conn

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        return await (await self.conn.execute(sql, tuple(params))).fetchall()

    async def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        return (await self.conn.execute(sql, tuple(params))).rowcount


class PostgresUsers:
    def __init__(self, pool: AsyncConnectionPool) -> None:
        self._pool = pool

    async def export(self, subject: str) -> dict[str, Any]:
        async with self._pool.connection() as conn, conn.transaction():
            await conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")  # one moment's data
            return await collect_rows(_Rows(conn), subject)

    async def erase(self, subject: str, pseudonym: str) -> Erasure:
        async with self._pool.connection() as conn, conn.transaction():
            # Two erasures of one user (two admins, two replicas) take turns: the second finds nothing.
            await conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", ("gamehost-user " + subject,))
            done = await erase_rows(_Rows(conn), subject, pseudonym)
            notes = [(CHAT_CHANNEL, "b"), (CHAT_CHANNEL, " ".join(["r", subject, *done.related]))]
            notes += [(CHAT_CHANNEL, f"m {match_id}") for match_id in sorted({*done.match_ids, *done.chat_match_ids})]
            notes += [(USERS_CHANNEL, " ".join(done.match_ids[start:start + NOTE_IDS]))
                      for start in range(0, len(done.match_ids), NOTE_IDS)]
            for channel, payload in notes:
                await conn.execute("SELECT pg_notify(%s, %s)", (channel, payload))
            await notify_tickets(conn, done.ticket_ids)
            return done
