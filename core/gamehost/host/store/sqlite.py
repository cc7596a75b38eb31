"""The embedded default store: one SQLite file in the data directory.

Calls run on the event loop's thread: in WAL mode a commit is a write() to the
log file, a few tens of microseconds, cheaper than a hop to a worker thread.
Copying the log back into the database file (a checkpoint, with its fsync)
is left to a thread of its own (wal_checkpoints.py).
``synchronous=NORMAL`` keeps every commit across a crash of the host process
(SIGKILL included); ``durability="full"`` also fsyncs each commit, for power
loss, at the price of a disk flush per move.
"""

from __future__ import annotations

import asyncio
import sqlite3
import uuid
from pathlib import Path
from typing import Any, Callable, Sequence

from gamehost.host.store.base import (OVER_STATUSES, Append, DeliveryRecord, MatchRecord, PendingDelivery, Snapshot,
                                      StoreUnusable, PartyFull, QueuedPool, TicketRecord, VersionConflict,
                                      delivery_state)
from gamehost.host.store.delivery_rows import (CLAIMED_COLUMNS, LISTED_COLUMNS, NOTIFICATION_COLUMNS, listing_query,
                                               row_to_delivery)
from gamehost.host.store.file_lock import DatabaseLock
from gamehost.host.store.sqlite_health import check_file, check_pages, probe_write
from gamehost.host.store.sqlite_schema import MIGRATIONS
from gamehost.host.store.rating_rows import (RATING_COLUMNS, leaderboard_params, leaderboard_sql, rating_values,
                                             row_to_rating, upsert_sql)
import gamehost.host.store.invitation_rows as invitation_rows
import gamehost.host.store.push_rows as push_rows
from gamehost.host.store.sqlite_chat import SQLiteChat
from gamehost.host.store.sqlite_users import SQLiteUsers
from gamehost.host.store.records import (MATCH_COLUMN_COUNT, MATCH_COLUMNS, PAGE_KEY_COLUMNS, clock_json,
                                         detail_json, dumps, event_rows, list_matches_query, loads, match_values,
                                         player_rows, player_subjects, row_to_record, seats_json, turn_rows,
                                         turn_update_sql)
from gamehost.host.store.ticket_rows import (QUEUED_COUNTS_SQL, QUEUED_POOLS_SQL,
                                             TICKET_COLUMNS, cancel_sql, expire_sql, forget_sql,
                                             insert_sql, matched_sql, open_count_sql, party_full, party_sql,
                                             player_tickets_sql, pools_sql, queued_sql, row_to_ticket, ticket_values)
from gamehost.host.store.wal_checkpoints import BACKSTOP_PAGES, WalCheckpointer

_OVER = ", ".join(f"'{status}'" for status in OVER_STATUSES)

class SQLiteStore:
    shared = False  # this process is the only writer

    def __init__(self, path: Path, durability: str = "normal") -> None:
        self.path = Path(path)
        self._durability = durability
        self._open_db: sqlite3.Connection | None = None  # while open; read through _db
        self._lock = DatabaseLock(self.path)
        # Held while a match forms from a pool (form_match awaits the engine
        # between reading the tickets and marking them): cancel and expiry wait.
        self._tickets_lock = asyncio.Lock()
        # Claims of webhook deliveries (webhooks.py) name the process that
        # made them: the file has one writer, so another's claim is from a
        # host that stopped, and free.
        self._claimer = uuid.uuid4().hex
        self._checkpointer: WalCheckpointer | None = None
        self.chat = SQLiteChat(lambda: self._db)  # chat and moderation (chat_rows.py)
        self.users = SQLiteUsers(lambda: self._db, self._committed)  # a user's data (user_rows.py)

    @property
    def _db(self) -> sqlite3.Connection:
        """The open connection; a call on a closed store fails here, saying so."""
        if self._open_db is None:
            raise ConnectionError(f"{self.path} is not open")
        return self._open_db

    async def probe_write(self) -> None:
        probe_write(self._db, self.path)

    async def open(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock.acquire()
        try:
            check_file(self.path)
        except StoreUnusable:
            self._lock.release()
            raise
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("SELECT count(*) FROM sqlite_schema").fetchone()
            check_pages(db)
        except sqlite3.DatabaseError as error:
            db.close()
            self._lock.release()
            raise StoreUnusable(f"{self.path} is damaged ({error}). Restore it from a backup.") from None
        db.execute(f"PRAGMA synchronous={'FULL' if self._durability == 'full' else 'NORMAL'}")
        db.execute("PRAGMA foreign_keys=ON")
        db.execute("PRAGMA busy_timeout=5000")
        # Checkpoints are made off the loop (wal_checkpoints.py); commits here only past the backstop.
        db.execute(f"PRAGMA wal_autocheckpoint={BACKSTOP_PAGES}")
        self._open_db = db
        self._migrate()
        self._checkpointer = WalCheckpointer(self.path)
        self._checkpointer.start()

    def _migrate(self) -> None:
        current = self._db.execute("PRAGMA user_version").fetchone()[0]
        if current > len(MIGRATIONS):
            raise RuntimeError(f"{self.path} has schema version {current}, newer than this host "
                               f"({len(MIGRATIONS)}): upgrade gamehost")
        for version in range(current, len(MIGRATIONS)):
            self._db.executescript(f"BEGIN; {MIGRATIONS[version]} PRAGMA user_version = {version + 1}; COMMIT;")

    async def close(self) -> None:
        if self._checkpointer is not None:  # before the last connection closes (and checkpoints)
            self._checkpointer.stop()
            self._checkpointer = None
        if self._open_db is not None:
            self._open_db.close()
            self._open_db = None
        self._lock.release()

    async def ping(self) -> None:
        self._db.execute("SELECT 1").fetchone()

    def _transaction(self, work: Callable[[sqlite3.Connection], object]) -> None:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            work(db)
        except sqlite3.IntegrityError as error:
            db.execute("ROLLBACK")
            raise VersionConflict(str(error)) from error
        except VersionConflict:
            db.execute("ROLLBACK")
            raise
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        self._committed()

    def _committed(self) -> None:
        if self._checkpointer is not None:  # None only while the store opens or closes
            self._checkpointer.committed()

    async def create_match(self, record: MatchRecord, snapshot: Snapshot, events: Sequence[dict] = (),
                           due_in: float | None = None, to_move: Sequence[int] | None = None) -> None:
        def work(db):
            db.execute(f"INSERT INTO matches ({MATCH_COLUMNS}) VALUES ({','.join('?' * MATCH_COLUMN_COUNT)})",
                       match_values(record))
            db.executemany("INSERT INTO match_players (match_id, subject) VALUES (?,?)", player_rows(record))
            db.executemany(turn_update_sql("?"), turn_rows(record, to_move))
            db.executemany("INSERT INTO events VALUES (?,?,?,?,?)", event_rows(record.id, events))
            db.execute("INSERT INTO snapshots VALUES (?,?,?)", (record.id, snapshot.version, dumps(snapshot.state)))

        self._transaction(work)

    async def append(self, step: Append) -> None:
        record = step.record

        previous = step.events[0]["version"] - 1

        def work(db):
            result = None if record.result is None else dumps(record.result)
            # The row must still be at the version before these events: the
            # same optimistic check a shared database needs.
            if step.seats_changed or step.details_changed:
                updated = db.execute(
                    "UPDATE matches SET seats=?, status=?, version=?, update_time=?, result=?, status_detail=?, "
                    "clock=? WHERE id=? AND version=?",
                    (seats_json(record.seats), record.status, record.version, record.update_time, result,
                     detail_json(record), clock_json(record), record.id, previous))
            else:
                updated = db.execute(
                    "UPDATE matches SET status=?, version=?, update_time=?, result=?, clock=? WHERE id=? AND version=?",
                    (record.status, record.version, record.update_time, result, clock_json(record), record.id,
                     previous))
            if updated.rowcount != 1:
                raise VersionConflict(f"match {record.id} is not at version {previous}")
            db.executemany("INSERT INTO events VALUES (?,?,?,?,?)", event_rows(record.id, step.events))
            if step.seats_changed:  # rows of players who stay keep their turn_since
                db.execute("DELETE FROM match_players WHERE match_id=? AND subject NOT IN "
                           "(SELECT value FROM json_each(?))", (record.id, dumps(player_subjects(record))))
                db.executemany("INSERT OR IGNORE INTO match_players (match_id, subject) VALUES (?,?)",
                               player_rows(record))
            turns = turn_rows(record, step.to_move)
            if turns:
                db.executemany(turn_update_sql("?"), turns)
            if step.snapshot is not None:
                db.execute("INSERT OR REPLACE INTO snapshots VALUES (?,?,?)",
                           (record.id, step.snapshot.version, dumps(step.snapshot.state)))

        self._transaction(work)

    # ------------------------------------------------------------ ratings

    async def rate_match(self, match_id: str, subjects: list[str], game_id: str, compute) -> bool:
        counted = []

        def work(db):
            if db.execute("INSERT OR IGNORE INTO rated_matches VALUES (?)", (match_id,)).rowcount != 1:
                return  # counted already
            marks = ",".join("?" * len(subjects))
            current = {r.subject: r for r in map(row_to_rating, db.execute(
                f"SELECT {RATING_COLUMNS} FROM ratings WHERE game_id=? AND subject IN ({marks})",
                (game_id, *subjects)))}
            db.executemany(upsert_sql("?"), [rating_values(r) for r in compute(current)])
            counted.append(True)

        self._transaction(work)
        return bool(counted)

    async def leaderboard(self, game_id: str, limit: int, after: tuple[float, str] | None = None) -> list:
        rows = self._db.execute(leaderboard_sql("?", after), leaderboard_params(game_id, limit, after))
        return [row_to_rating(row) for row in rows]

    async def player_ratings(self, subject: str) -> list:
        rows = self._db.execute(f"SELECT {RATING_COLUMNS} FROM ratings WHERE subject=? ORDER BY game_id",
                                (subject,))
        return [row_to_rating(row) for row in rows]

    # ------------------------------------------------------------ matchmaking

    async def add_ticket(self, ticket, max_open: int) -> bool:
        added = []

        def work(db):
            if db.execute(open_count_sql("?"), (ticket.subject,)).fetchone()[0] >= max_open:
                return
            if ticket.party and party_full(ticket, len(db.execute(party_sql("?"), (ticket.party,)).fetchall())):
                raise PartyFull(ticket.party)
            db.execute(insert_sql("?"), ticket_values(ticket))
            added.append(True)

        self._transaction(work)
        return bool(added)

    async def get_ticket(self, ticket_id: str):
        row = self._db.execute(f"SELECT {TICKET_COLUMNS} FROM tickets WHERE id=?", (ticket_id,)).fetchone()
        return None if row is None else row_to_ticket(row)

    async def cancel_ticket(self, ticket_id: str, now: float) -> bool:
        async with self._tickets_lock:
            return self._db.execute(cancel_sql("?"), (now, ticket_id)).rowcount == 1

    async def expire_tickets(self, now: float, forget_before: float) -> list[TicketRecord]:
        expired: list[TicketRecord] = []

        def work(db):
            expired.extend(map(row_to_ticket, db.execute(expire_sql("?"), (now, now)).fetchall()))
            db.execute(forget_sql("?"), (forget_before,))

        async with self._tickets_lock:
            self._transaction(work)
        return expired

    async def pools_to_match(self, now: float, queued_since: float) -> list[str]:
        return [row[0] for row in self._db.execute(pools_sql("?"), (queued_since, now, queued_since)).fetchall()]

    async def player_tickets(self, subject: str):
        return [row_to_ticket(row) for row in self._db.execute(player_tickets_sql("?"), (subject,)).fetchall()]

    async def party_tickets(self, party: str):
        return [row_to_ticket(row) for row in self._db.execute(party_sql("?"), (party,)).fetchall()]

    async def queued_ticket_counts(self) -> dict[str, int]:
        return dict(self._db.execute(QUEUED_COUNTS_SQL).fetchall())

    async def queued_pools(self) -> list[QueuedPool]:
        return [QueuedPool(*row) for row in self._db.execute(QUEUED_POOLS_SQL).fetchall()]

    async def form_match(self, pool: str, now: float, form) -> dict[str, tuple[str, int]]:
        async with self._tickets_lock:
            queued = [row_to_ticket(row) for row in self._db.execute(queued_sql("?"), (pool, now)).fetchall()]
            placed = await form(queued) if queued else {}
            if placed:
                self._transaction(lambda db: db.executemany(matched_sql("?"), [
                    (match_id, seat, now, ticket_id) for ticket_id, (match_id, seat) in placed.items()]))
            return placed

    async def get_match(self, match_id: str) -> MatchRecord | None:
        row = self._db.execute(f"SELECT {MATCH_COLUMNS} FROM matches WHERE id=?", (match_id,)).fetchone()
        return None if row is None else row_to_record(row)

    async def find_match_by_request(self, request_id: str) -> MatchRecord | None:
        row = self._db.execute(f"SELECT {MATCH_COLUMNS} FROM matches WHERE create_request_id=?",
                               (request_id,)).fetchone()
        return None if row is None else row_to_record(row)

    async def list_matches(self, *, game_id, status, limit, before, player=None, my_turn=False, public_only=False):
        query = list_matches_query(game_id=game_id, status=status, limit=limit, before=before, mark="?",
                                   player=player, my_turn=my_turn, public_only=public_only)
        rows = self._db.execute(*query).fetchall()
        return [row_to_record(row) for row in rows]

    async def list_match_keys(self, *, game_id, status, limit, before, player=None, my_turn=False,
                              public_only=False):
        query = list_matches_query(game_id=game_id, status=status, limit=limit, before=before, mark="?",
                                   player=player, my_turn=my_turn, columns=PAGE_KEY_COLUMNS,
                                   public_only=public_only)
        return [tuple(row) for row in self._db.execute(*query).fetchall()]

    async def player_turns(self, subject: str, match_ids: Sequence[str]) -> dict[str, float]:
        if not match_ids:
            return {}
        rows = self._db.execute(
            "SELECT match_id, turn_since FROM match_players WHERE subject=? AND turn_since IS NOT NULL "
            "AND match_id IN (SELECT value FROM json_each(?))", (subject, dumps(list(match_ids)))).fetchall()
        return dict(rows)

    async def delete_match(self, match_id: str) -> bool:
        deleted = []

        def work(db):
            deleted.extend(self._delete(db, [match_id]))

        self._transaction(work)
        return bool(deleted)

    @staticmethod
    def _delete(db, match_ids: list[str]) -> list[str]:
        """Delete these matches if they are over (children first: foreign keys)."""
        marks = ",".join("?" * len(match_ids))
        over = [row[0] for row in db.execute(
            f"SELECT id FROM matches WHERE id IN ({marks}) AND status IN ({_OVER})", match_ids).fetchall()]
        if over:
            marks = ",".join("?" * len(over))
            for table in ("events", "snapshots", "match_players", "rules_strikes", "match_invitations",
                          "chat_messages"):
                db.execute(f"DELETE FROM {table} WHERE match_id IN ({marks})", over)
            db.execute(f"DELETE FROM matches WHERE id IN ({marks})", over)
        return over

    async def stale_open_matches(self, created_before: float, limit: int) -> list[str]:
        rows = self._db.execute("SELECT id FROM matches WHERE status = 'open' AND create_time < ? "
                                "ORDER BY create_time LIMIT ?", (created_before, limit)).fetchall()
        return [row[0] for row in rows]

    async def idle_active_matches(self, updated_before: float, limit: int) -> list[str]:
        rows = self._db.execute("SELECT id FROM matches WHERE status = 'active' AND update_time < ? "
                                "ORDER BY update_time LIMIT ?", (updated_before, limit)).fetchall()
        return [row[0] for row in rows]

    async def prune_over_matches(self, updated_before: float, limit: int) -> list[str]:
        pruned = []

        def work(db):
            ids = [row[0] for row in db.execute(
                f"SELECT id FROM matches WHERE status IN ({_OVER}) AND update_time < ? LIMIT ?",
                (updated_before, limit)).fetchall()]
            if ids:
                pruned.extend(self._delete(db, ids))

        self._transaction(work)
        return pruned

    async def unfinished_matches(self) -> list[MatchRecord]:
        rows = self._db.execute(
            f"SELECT {MATCH_COLUMNS} FROM matches WHERE status IN ('open', 'active')").fetchall()
        return [row_to_record(row) for row in rows]

    async def events(self, match_id: str, after_version: int = 0, limit: int | None = None) -> list[dict]:
        rows = self._db.execute("SELECT body FROM events WHERE match_id=? AND version>? ORDER BY version LIMIT ?",
                                (match_id, after_version, -1 if limit is None else limit)).fetchall()
        return [loads(row[0]) for row in rows]

    async def events_before(self, match_id: str, before_version: int, limit: int) -> list[dict]:
        rows = self._db.execute("SELECT body FROM events WHERE match_id=? AND version<? ORDER BY version DESC "
                                "LIMIT ?", (match_id, before_version, limit)).fetchall()
        return [loads(row[0]) for row in reversed(rows)]

    async def latest_snapshot(self, match_id: str) -> Snapshot:
        row = self._db.execute("SELECT version, state FROM snapshots WHERE match_id=?", (match_id,)).fetchone()
        return Snapshot(row[0], loads(row[1]))

    async def request_versions(self, match_id: str) -> dict[tuple[int, str], int]:
        rows = self._db.execute(
            "SELECT seat, request_id, version FROM events WHERE match_id=? AND request_id IS NOT NULL",
            (match_id,)).fetchall()
        return {(seat, request_id): version for seat, request_id, version in rows}

    async def claim_notification(self, key: str, match_id: str, body: str, now: float) -> bool:
        claimed = []

        def work(db):
            inserted = db.execute(f"INSERT OR IGNORE INTO notifications ({NOTIFICATION_COLUMNS}) "
                                  "VALUES (?,?,?,?,'pending',0,?)", (key, match_id, body, now, now))
            claimed.append(inserted.rowcount == 1)

        self._transaction(work)
        return claimed[0]

    async def claim_deliveries(self, now: float, hold: float, limit: int) -> list[PendingDelivery]:
        claimed: list[PendingDelivery] = []

        def work(db):
            rows = db.execute(f"SELECT {CLAIMED_COLUMNS} FROM notifications WHERE next_attempt <= ? "
                              "AND (claim_until IS NULL OR claim_until < ? OR claimed_by != ?) "
                              "ORDER BY next_attempt LIMIT ?", (now, now, self._claimer, limit)).fetchall()
            db.executemany("UPDATE notifications SET claimed_by = ?, claim_until = ? WHERE key = ?",
                           [(self._claimer, now + hold, row[0]) for row in rows])
            claimed.extend(PendingDelivery(*row) for row in rows)

        self._transaction(work)
        return claimed

    async def record_delivery_attempt(self, key: str, attempt: int, now: float, status: int, error: str,
                                      retry_in: float | None = None) -> None:
        def work(db):
            db.execute("INSERT OR IGNORE INTO notification_attempts VALUES (?,?,?,?,?)",
                       (key, attempt, now, status, error))
            db.execute("UPDATE notifications SET attempts = ?, state = ?, next_attempt = ?, claimed_by = NULL, "
                       "claim_until = NULL WHERE key = ? AND attempts < ?",
                       (attempt, delivery_state(status, retry_in), None if retry_in is None else now + retry_in,
                        key, attempt))

        self._transaction(work)

    async def delivery_attempts(self, key: str) -> list[tuple[int, float, int, str]]:
        return [tuple(row) for row in self._db.execute(
            "SELECT attempt, time, status, error FROM notification_attempts WHERE key=? ORDER BY attempt",
            (key,)).fetchall()]

    async def set_invitation(self, match_id: str, code_hash: str) -> None:
        self._transaction(lambda db: db.execute(invitation_rows.upsert_sql("?"), (match_id, code_hash)).fetchall())

    async def invitation_admits(self, match_id: str, code_hash: str) -> bool:
        return self._db.execute(invitation_rows.admits_sql("?"), (match_id, code_hash)).fetchone() is not None

    async def revoke_invitation(self, match_id: str) -> bool:
        revoked: list[list] = []
        self._transaction(lambda db: revoked.append(db.execute(invitation_rows.revoke_sql("?"), (match_id,)).fetchall()))
        return bool(revoked[0])

    async def add_push_subscription(self, subscription: push_rows.PushSubscriptionRecord, keep: int) -> None:
        s = subscription

        def work(db: sqlite3.Connection) -> None:
            db.execute(push_rows.upsert_sql("?"), (s.endpoint, s.subject, s.p256dh, s.auth, s.locale,
                                                   s.created)).fetchall()
            db.execute(push_rows.beyond_newest_sql("?"), (s.subject, keep)).fetchall()
        self._transaction(work)

    async def push_subscriptions(self, subjects: Sequence[str]) -> list[push_rows.PushSubscriptionRecord]:
        if not subjects:
            return []
        rows = self._db.execute(push_rows.of_subjects_sql("?", len(subjects)), tuple(subjects)).fetchall()
        return [push_rows.record(row) for row in rows]

    async def remove_push_subscription(self, endpoint: str, subject: str | None = None) -> bool:
        removed: list[list] = []
        params = (endpoint,) if subject is None else (endpoint, subject)
        self._transaction(lambda db: removed.append(
            db.execute(push_rows.remove_sql("?", subject is not None), params).fetchall()))
        return bool(removed[0])

    async def add_strike(self, match_id: str) -> int:
        counted: list[int] = []

        def work(db):
            counted.append(db.execute("INSERT INTO rules_strikes VALUES (?, 1) ON CONFLICT (match_id) DO UPDATE "
                                      "SET strikes = strikes + 1 RETURNING strikes", (match_id,)).fetchone()[0])

        self._transaction(work)
        return counted[0]

    async def clear_strikes(self, match_id: str) -> None:
        self._transaction(lambda db: db.execute("DELETE FROM rules_strikes WHERE match_id=?", (match_id,)))

    async def strikes(self, match_id: str) -> int:
        assert self._db is not None  # open
        row = self._db.execute("SELECT strikes FROM rules_strikes WHERE match_id=?", (match_id,)).fetchone()
        return row[0] if row else 0

    async def list_deliveries(self, state: str | None, match_id: str | None, after: tuple[float, str] | None,
                              limit: int) -> list[DeliveryRecord]:
        sql, params = listing_query(state, match_id, after, limit, "?")
        return [await self._with_attempts(row) for row in self._db.execute(sql, params).fetchall()]

    async def delivery(self, key: str) -> DeliveryRecord | None:
        row = self._db.execute(f"SELECT {LISTED_COLUMNS} FROM notifications WHERE key=?", (key,)).fetchone()
        return None if row is None else await self._with_attempts(row)

    async def _with_attempts(self, row: tuple[Any, ...]) -> DeliveryRecord:
        return row_to_delivery(row, await self.delivery_attempts(row[0]))

    async def retry_delivery(self, key: str, now: float) -> str | None:
        before: list[str | None] = [None]

        def work(db):
            row = db.execute("SELECT state FROM notifications WHERE key=?", (key,)).fetchone()
            before[0] = row and row[0]
            db.execute("UPDATE notifications SET state = 'pending', next_attempt = ?, round_start = attempts, "
                       "claimed_by = NULL, claim_until = NULL WHERE key = ? AND state = 'failed'", (now, key))

        self._transaction(work)
        return before[0]
