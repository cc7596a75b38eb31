"""The SQLite store's chat and moderation rows (``chat_rows.ChatStore``):
one process per file, so nothing needs announcing."""

from __future__ import annotations

import sqlite3
from typing import Callable, Sequence

import gamehost.host.store.chat_rows as rows
from gamehost.host.store.chat_rows import BanRecord, ChatRecord, Relations, ReportRecord


class SQLiteChat:
    def __init__(self, connection: Callable[[], sqlite3.Connection]) -> None:
        self._connection = connection  # the store's open connection, read at each call

    def _write(self, sql: str, params: tuple) -> list:
        # The connection commits each statement (isolation_level None): one statement, one transaction.
        return self._connection().execute(sql, params).fetchall()

    async def add_message(self, record: ChatRecord, max_messages: int) -> ChatRecord | None:
        db = self._connection()  # one writer, and no await between the count and the insert
        if db.execute(rows.count_sql("?"), (record.match_id,)).fetchone()[0] >= max_messages:
            return None
        sequence = db.execute(rows.insert_message_sql("?"), (
            record.match_id, record.channel, record.sender, record.sender_name, record.seat, record.text,
            record.time, record.match_id)).fetchone()[0]
        return ChatRecord(record.match_id, int(sequence), record.channel, record.sender, record.sender_name,
                          record.seat, record.text, record.time)

    async def messages(self, match_id: str, after: int = 0, limit: int = 10_000) -> list[ChatRecord]:
        return [rows.row_to_message(row)
                for row in self._connection().execute(rows.messages_sql("?"), (match_id, after, limit))]

    async def message(self, match_id: str, sequence: int) -> ChatRecord | None:
        row = self._connection().execute(rows.message_sql("?"), (match_id, sequence)).fetchone()
        return None if row is None else rows.row_to_message(row)

    async def hide_message(self, match_id: str, sequence: int, admin: str) -> ChatRecord | None:
        found = self._write(rows.hide_sql("?"), (admin, match_id, sequence))
        return rows.row_to_message(found[0]) if found else None

    async def add_report(self, report: ReportRecord) -> None:
        self._write(rows.add_report_sql("?"), (report.id, report.reporter, report.reported, report.match_id,
                                               report.sequence, report.reason, report.create_time))

    async def reports(self, reported: str, after: tuple[float, str] | None, limit: int) -> list[ReportRecord]:
        return [rows.row_to_report(row) for row in self._connection().execute(
            rows.reports_sql("?", bool(reported), after is not None), rows.reports_params(reported, after, limit))]

    async def set_relation(self, subject: str, other: str, kind: str, on: bool) -> None:
        self._write((rows.add_relation_sql if on else rows.remove_relation_sql)("?"), (subject, other, kind))

    async def relations(self, subject: str) -> Relations:
        return rows.relations_of(subject, self._connection().execute(rows.relations_sql("?"),
                                                                     (subject, subject)).fetchall())

    async def blocked_pairs(self, subjects: Sequence[str]) -> set[frozenset[str]]:
        if len(subjects) < 2:
            return set()
        found = self._connection().execute(rows.blocked_among_sql("?", len(subjects)),
                                           (*subjects, *subjects)).fetchall()
        return {frozenset(pair) for pair in found}

    async def ban(self, record: BanRecord) -> None:
        self._write(rows.ban_sql("?"), (record.subject, record.reason, record.banned_by, record.create_time))

    async def unban(self, subject: str) -> BanRecord | None:
        found = self._write(rows.unban_sql("?"), (subject,))
        return rows.row_to_ban(found[0]) if found else None

    async def bans(self) -> list[BanRecord]:
        return [rows.row_to_ban(row) for row in self._connection().execute(rows.BANS_SQL)]
