"""The PostgreSQL store's chat and moderation rows (``chat_rows.ChatStore``).

Each change is announced on ``CHAT_CHANNEL`` in its own transaction, so
every replica hears of it once it is committed: ``m <match>`` (a message
written or hidden), ``b`` (the bans changed), ``r <subject>`` (a user's
mutes or blocks changed)."""

from __future__ import annotations

from typing import Sequence

import psycopg
from psycopg_pool import AsyncConnectionPool

import gamehost.host.store.chat_rows as rows
from gamehost.host.store.chat_rows import BanRecord, ChatRecord, Relations, ReportRecord

CHAT_CHANNEL = "gamehost_chat"
SEQUENCE_RETRIES = 8  # replicas writing to one match at once: each collision takes the next number


class PostgresChat:
    def __init__(self, pool: AsyncConnectionPool) -> None:
        self._pool = pool

    async def _write(self, sql: str, params: tuple, note: str) -> list:
        async with self._pool.connection() as conn, conn.transaction():
            cursor = await conn.execute(sql, params)
            found = await cursor.fetchall() if cursor.description else []
            await conn.execute("SELECT pg_notify(%s, %s)", (CHAT_CHANNEL, note))
            return found

    async def _all(self, sql: str, params: tuple) -> list:
        async with self._pool.connection() as conn:
            return await (await conn.execute(sql, params)).fetchall()

    async def add_message(self, record: ChatRecord, max_messages: int) -> ChatRecord | None:
        for _ in range(SEQUENCE_RETRIES):
            try:
                async with self._pool.connection() as conn, conn.transaction():
                    count = await (await conn.execute(rows.count_sql("%s"), (record.match_id,))).fetchone()
                    if count is not None and count[0] >= max_messages:
                        return None
                    row = await (await conn.execute(rows.insert_message_sql("%s"), (
                        record.match_id, record.channel, record.sender, record.sender_name, record.seat,
                        record.text, record.time, record.match_id))).fetchone()
                    await conn.execute("SELECT pg_notify(%s, %s)", (CHAT_CHANNEL, f"m {record.match_id}"))
            except psycopg.errors.UniqueViolation:
                continue  # another replica took this number first
            assert row is not None
            return ChatRecord(record.match_id, int(row[0]), record.channel, record.sender, record.sender_name,
                              record.seat, record.text, record.time)
        raise RuntimeError(f"no free chat sequence in match {record.match_id} after {SEQUENCE_RETRIES} tries")

    async def messages(self, match_id: str, after: int = 0, limit: int = 10_000) -> list[ChatRecord]:
        return [rows.row_to_message(row) for row in await self._all(rows.messages_sql("%s"), (match_id, after, limit))]

    async def message(self, match_id: str, sequence: int) -> ChatRecord | None:
        found = await self._all(rows.message_sql("%s"), (match_id, sequence))
        return rows.row_to_message(found[0]) if found else None

    async def hide_message(self, match_id: str, sequence: int, admin: str) -> ChatRecord | None:
        found = await self._write(rows.hide_sql("%s"), (admin, match_id, sequence), f"m {match_id}")
        return rows.row_to_message(found[0]) if found else None

    async def add_report(self, report: ReportRecord) -> None:
        async with self._pool.connection() as conn:
            await conn.execute(rows.add_report_sql("%s"), (report.id, report.reporter, report.reported,
                                                           report.match_id, report.sequence, report.reason,
                                                           report.create_time))

    async def reports(self, reported: str, after: tuple[float, str] | None, limit: int) -> list[ReportRecord]:
        return [rows.row_to_report(row) for row in await self._all(
            rows.reports_sql("%s", bool(reported), after is not None), rows.reports_params(reported, after, limit))]

    async def set_relation(self, subject: str, other: str, kind: str, on: bool) -> None:
        await self._write((rows.add_relation_sql if on else rows.remove_relation_sql)("%s"), (subject, other, kind),
                          f"r {subject} {other}")

    async def relations(self, subject: str) -> Relations:
        return rows.relations_of(subject, await self._all(rows.relations_sql("%s"), (subject, subject)))

    async def blocked_pairs(self, subjects: Sequence[str]) -> set[frozenset[str]]:
        if len(subjects) < 2:
            return set()
        found = await self._all(rows.blocked_among_sql("%s", len(subjects)), (*subjects, *subjects))
        return {frozenset(pair) for pair in found}

    async def ban(self, record: BanRecord) -> None:
        await self._write(rows.ban_sql("%s"), (record.subject, record.reason, record.banned_by, record.create_time),
                          "b")

    async def unban(self, subject: str) -> BanRecord | None:
        found = await self._write(rows.unban_sql("%s"), (subject,), "b")
        return rows.row_to_ban(found[0]) if found else None

    async def bans(self) -> list[BanRecord]:
        return [rows.row_to_ban(row) for row in await self._all(rows.BANS_SQL, ())]
