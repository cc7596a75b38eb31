"""Chat and moderation in the stores: a match's chat messages, players'
reports, mutes and blocks, and bans.

Each store holds a ``chat`` object with the methods of ``ChatStore``; the
SQL is the same for SQLite and PostgreSQL but for the driver's placeholder,
and the memory store keeps the same rows in dicts. A message's sequence is
the match's chat count plus one, taken in the insert's own statement, so
two replicas writing at once collide on the primary key and the loser takes
the next number. On PostgreSQL every change is announced on the
``gamehost_chat`` channel (``chat_notifications.py``) so that every replica
delivers new and hidden messages and refuses a banned user at once.
"""

from __future__ import annotations

import dataclasses
import uuid
from typing import Any, Protocol, Sequence

CHANNELS = ("players", "spectators")
MUTE, BLOCK = "mute", "block"

# SQLite's DDL; PostgreSQL's differs only in its types (postgres_schema.py).
SQLITE_TABLES = """
    CREATE TABLE chat_messages (
        match_id TEXT NOT NULL,
        sequence INTEGER NOT NULL,
        channel TEXT NOT NULL,
        sender TEXT NOT NULL,
        sender_name TEXT NOT NULL,
        seat INTEGER NOT NULL,
        text TEXT NOT NULL,
        time REAL NOT NULL,
        hidden_by TEXT NOT NULL DEFAULT '',
        PRIMARY KEY (match_id, sequence)
    ) WITHOUT ROWID;
    CREATE TABLE chat_reports (
        id TEXT PRIMARY KEY,
        reporter TEXT NOT NULL,
        reported TEXT NOT NULL,
        match_id TEXT NOT NULL,
        sequence INTEGER NOT NULL,
        reason TEXT NOT NULL,
        create_time REAL NOT NULL
    );
    CREATE INDEX chat_reports_by_time ON chat_reports (create_time, id);
    CREATE TABLE chat_relations (
        subject TEXT NOT NULL,
        other TEXT NOT NULL,
        kind TEXT NOT NULL,
        PRIMARY KEY (subject, other, kind)
    ) WITHOUT ROWID;
    CREATE INDEX chat_relations_by_other ON chat_relations (other, kind);
    CREATE TABLE bans (
        subject TEXT PRIMARY KEY,
        reason TEXT NOT NULL,
        banned_by TEXT NOT NULL,
        create_time REAL NOT NULL
    );
"""

POSTGRES_TABLES = (SQLITE_TABLES.replace(" WITHOUT ROWID", "").replace("TEXT", "text")
                   .replace("INTEGER", "bigint").replace("REAL", "double precision"))

MESSAGE_COLUMNS = "match_id, sequence, channel, sender, sender_name, seat, text, time, hidden_by"
REPORT_COLUMNS = "id, reporter, reported, match_id, sequence, reason, create_time"
BAN_COLUMNS = "subject, reason, banned_by, create_time"


@dataclasses.dataclass(frozen=True)
class ChatRecord:
    """One message of a match's chat, as stored."""

    match_id: str
    sequence: int
    channel: str  # "players" or "spectators"
    sender: str  # the signed-in subject who wrote it
    sender_name: str
    seat: int  # the sender's seat on the players' channel, else -1
    text: str  # kept when hidden, for audit
    time: float
    hidden_by: str = ""  # the admin who hid it; "": shown

    @property
    def hidden(self) -> bool:
        return bool(self.hidden_by)


@dataclasses.dataclass(frozen=True)
class ReportRecord:
    id: str
    reporter: str
    reported: str
    match_id: str  # "" for a report of a player outside a match
    sequence: int  # 0 for a report of a player
    reason: str
    create_time: float


@dataclasses.dataclass(frozen=True)
class BanRecord:
    subject: str
    reason: str
    banned_by: str
    create_time: float


def new_report_id() -> str:
    return uuid.uuid4().hex


def row_to_message(row: Sequence[Any]) -> ChatRecord:
    return ChatRecord(row[0], int(row[1]), row[2], row[3], row[4], int(row[5]), row[6], float(row[7]), row[8])


def row_to_report(row: Sequence[Any]) -> ReportRecord:
    return ReportRecord(row[0], row[1], row[2], row[3], int(row[4]), row[5], float(row[6]))


def row_to_ban(row: Sequence[Any]) -> BanRecord:
    return BanRecord(row[0], row[1], row[2], float(row[3]))


def insert_message_sql(mark: str) -> str:
    """Insert a message as the match's next one; returns its sequence."""
    return (f"INSERT INTO chat_messages ({MESSAGE_COLUMNS}) SELECT {mark}, coalesce(max(sequence), 0) + 1, "
            f"{mark}, {mark}, {mark}, {mark}, {mark}, {mark}, '' FROM chat_messages WHERE match_id = {mark} "
            "RETURNING sequence")


def messages_sql(mark: str) -> str:
    return (f"SELECT {MESSAGE_COLUMNS} FROM chat_messages WHERE match_id = {mark} AND sequence > {mark} "
            f"ORDER BY sequence LIMIT {mark}")


def message_sql(mark: str) -> str:
    return f"SELECT {MESSAGE_COLUMNS} FROM chat_messages WHERE match_id = {mark} AND sequence = {mark}"


def hide_sql(mark: str) -> str:
    return (f"UPDATE chat_messages SET hidden_by = {mark} WHERE match_id = {mark} AND sequence = {mark} "
            f"RETURNING {MESSAGE_COLUMNS}")


def count_sql(mark: str) -> str:
    return f"SELECT count(*) FROM chat_messages WHERE match_id = {mark}"


def add_report_sql(mark: str) -> str:
    return f"INSERT INTO chat_reports ({REPORT_COLUMNS}) VALUES ({', '.join([mark] * 7)})"


def reports_sql(mark: str, reported: bool, after: bool) -> str:
    """Reports newest first, from after a (create_time, id) cursor, maybe of one reported user."""
    where = [f"reported = {mark}"] if reported else []
    if after:
        where.append(f"(create_time < {mark} OR (create_time = {mark} AND id < {mark}))")
    clause = f" WHERE {' AND '.join(where)}" if where else ""
    return f"SELECT {REPORT_COLUMNS} FROM chat_reports{clause} ORDER BY create_time DESC, id DESC LIMIT {mark}"


def reports_params(reported: str, after: tuple[float, str] | None, limit: int) -> tuple:
    return (*((reported,) if reported else ()), *((after[0], after[0], after[1]) if after else ()), limit)


def add_relation_sql(mark: str) -> str:
    return f"INSERT INTO chat_relations VALUES ({mark}, {mark}, {mark}) ON CONFLICT DO NOTHING"


def remove_relation_sql(mark: str) -> str:
    return f"DELETE FROM chat_relations WHERE subject = {mark} AND other = {mark} AND kind = {mark}"


def relations_sql(mark: str) -> str:
    """(subject, other, kind) of every relation the subject holds or is the other of."""
    return f"SELECT subject, other, kind FROM chat_relations WHERE subject = {mark} OR other = {mark}"


def blocked_among_sql(mark: str, count: int) -> str:
    marks = ", ".join([mark] * count)
    return (f"SELECT subject, other FROM chat_relations WHERE kind = 'block' AND subject IN ({marks}) "
            f"AND other IN ({marks})")


def ban_sql(mark: str) -> str:
    return (f"INSERT INTO bans ({BAN_COLUMNS}) VALUES ({mark}, {mark}, {mark}, {mark}) ON CONFLICT (subject) "
            "DO UPDATE SET reason = excluded.reason, banned_by = excluded.banned_by, "
            "create_time = excluded.create_time")


def unban_sql(mark: str) -> str:
    return f"DELETE FROM bans WHERE subject = {mark} RETURNING {BAN_COLUMNS}"


BANS_SQL = f"SELECT {BAN_COLUMNS} FROM bans"


@dataclasses.dataclass(frozen=True)
class Relations:
    """A user's chat relations: whom they mute, whom they block, who blocks them."""

    muted: frozenset[str] = frozenset()
    blocked: frozenset[str] = frozenset()
    blocked_by: frozenset[str] = frozenset()

    def hides(self, sender: str) -> bool:
        """Whether a message of ``sender`` stays out of this user's sight."""
        return sender in self.muted or sender in self.blocked or sender in self.blocked_by


def relations_of(subject: str, rows: Sequence[Sequence[Any]]) -> Relations:
    muted = {other for holder, other, kind in rows if holder == subject and kind == MUTE}
    blocked = {other for holder, other, kind in rows if holder == subject and kind == BLOCK}
    blocked_by = {holder for holder, other, kind in rows if other == subject and kind == BLOCK}
    return Relations(frozenset(muted), frozenset(blocked), frozenset(blocked_by))


class ChatStore(Protocol):
    """What the engine's chat asks of a store (``Store.chat``)."""

    async def add_message(self, record: ChatRecord, max_messages: int) -> ChatRecord | None:
        """Store ``record`` as the match's next message and return it with
        its sequence; None, writing nothing, when the match already has
        ``max_messages``."""

    async def messages(self, match_id: str, after: int = 0, limit: int = 10_000) -> list[ChatRecord]: ...

    async def message(self, match_id: str, sequence: int) -> ChatRecord | None: ...

    async def hide_message(self, match_id: str, sequence: int, admin: str) -> ChatRecord | None: ...

    async def add_report(self, report: ReportRecord) -> None: ...

    async def reports(self, reported: str, after: tuple[float, str] | None, limit: int) -> list[ReportRecord]: ...

    async def set_relation(self, subject: str, other: str, kind: str, on: bool) -> None: ...

    async def relations(self, subject: str) -> Relations: ...

    async def blocked_pairs(self, subjects: Sequence[str]) -> set[frozenset[str]]:
        """The pairs of ``subjects`` where one blocks the other."""

    async def ban(self, record: BanRecord) -> None: ...

    async def unban(self, subject: str) -> BanRecord | None: ...

    async def bans(self) -> list[BanRecord]: ...
