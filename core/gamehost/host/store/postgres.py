"""The shared store: PostgreSQL, for several host replicas behind a load balancer.

Same semantics as SQLite (one transaction per step, the optimistic version
check, unique request ids), plus what replicas need to share matches:

- a step is one call of the ``gamehost_append`` function (one statement,
  one round trip, one transaction) that also sends
  ``NOTIFY gamehost_matches, '<match> <version>'``, so every replica learns
  of the step once it is committed;
- a match where a bot must move carries ``due_time``, and a replica *claims*
  it (``claimed_by`` / ``claim_until``, a lease) before acting, so exactly one
  replica moves for a bot, and another takes over when a replica dies.

Times for claims come from the database's clock, so replicas' clocks may
disagree without two of them acting at once.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, Awaitable, Callable, Sequence

import psycopg
import structlog
from psycopg_pool import AsyncConnectionPool

from gamehost.host.store.base import describe_store
from gamehost.host.store.base import (OVER_STATUSES, Append, DeliveryRecord, MatchRecord, PendingDelivery, Snapshot,
                                      PartyFull, QueuedPool, TicketRecord, VersionConflict, delivery_state)
from gamehost.host.store.delivery_rows import (CLAIMED_COLUMNS, LISTED_COLUMNS, NOTIFICATION_COLUMNS, listing_query,
                                               row_to_delivery)
from gamehost.host.store.rating_rows import PostgresRatings
from gamehost.host.store.invitation_rows import PostgresInvitations
from gamehost.host.store.push_rows import PostgresPushSubscriptions
from gamehost.host.store.records import (MATCH_COLUMN_COUNT, MATCH_COLUMNS, PAGE_KEY_COLUMNS, clock_json,
                                         detail_json, dumps, event_rows, list_matches_query, loads, match_values,
                                         player_rows, player_subjects, row_to_record, seats_json, turn_rows,
                                         turn_update_sql)
from gamehost.host.store.ticket_rows import (QUEUED_COUNTS_SQL, QUEUED_POOLS_SQL,
                                             QUEUED_IN_PARTIES_SQL, TICKET_COLUMNS, cancel_sql,
                                             expire_sql, forget_sql, insert_sql, matched_sql, open_count_sql,
                                             party_friends_sql, party_full, party_sql, player_tickets_sql, pools_sql,
                                             queued_sql, row_to_ticket, ticket_values)

from gamehost.host.store.postgres_chat import PostgresChat
from gamehost.host.store.postgres_users import PostgresUsers
from gamehost.host.store.postgres_notifications import AGENT_CHANNEL, ChangeNotifications, notify_tickets
from gamehost.host.store.postgres_schema import migrate

log = structlog.get_logger("gamehost.store.postgres")

PRUNE_LOCK = 0x7072756E  # "prun": one replica prunes at a time
# Matchmaking: (TICKET_LOCK, hashtext(pool)) is held by the one
# replica forming a match in that pool; (TICKET_LOCK + 1, hashtext(subject))
# while a player's open tickets are counted and one added; (TICKET_LOCK + 2,
# hashtext(party)) while a party's queued tickets are counted and one added.
TICKET_LOCK = 0x7469636B  # "tick"
VERSION_CHECK_FAILED = "GH409"

_NOW = "extract(epoch from clock_timestamp())"


async def _value(conn: psycopg.AsyncConnection[Any], sql: str, params: tuple[Any, ...] = ()) -> Any:
    """The one value of a query that always returns one row (an aggregate, a lock function's answer)."""
    row = await (await conn.execute(sql, params)).fetchone()
    if row is None:
        raise RuntimeError(f"no row from {sql!r}")
    return row[0]


class PostgresStore(PostgresInvitations, PostgresPushSubscriptions, PostgresRatings):
    shared = True  # other replicas write too: the engine must catch up and claim

    def __init__(self, url: str, *, owner: str = "", lease: float = 10.0, pool_size: int = 10,
                 open_timeout: float = 30.0) -> None:
        self.url = url
        self.owner = owner
        self.lease = lease  # seconds a claim holds past its due time
        self.open_timeout = open_timeout  # how long open() waits for the database to accept connections
        self._pool = AsyncConnectionPool(url, min_size=2, max_size=pool_size, open=False,
                                         kwargs={"autocommit": True}, name="gamehost")
        self._notifications = ChangeNotifications(url)
        self.chat = PostgresChat(self._pool)  # chat and moderation (chat_rows.py)
        self.users = PostgresUsers(self._pool)  # a user's data, exported and erased (user_rows.py)
        # A forming transaction holds a connection while the match is created
        # on others: at most half the pool forms at once, so creating never
        # waits for a connection only a forming transaction could give back.
        self._forming = asyncio.Semaphore(max(1, pool_size // 2))

    def __repr__(self) -> str:
        return f"PostgresStore({describe_store(self.url)!r})"

    async def open(self) -> None:
        await self._pool.open(wait=True, timeout=self.open_timeout)
        await self.migrate()

    async def migrate(self) -> int:
        """Bring the schema up to date; returns how many migrations ran."""
        async with self._pool.connection() as conn, conn.transaction():
            return await migrate(conn, repr(self))

    async def close(self) -> None:
        await self._notifications.stop()
        await self._pool.close()

    async def ping(self) -> None:
        async with self._pool.connection(timeout=5) as conn:
            await conn.execute("SELECT 1")

    # ------------------------------------------------------------ writes

    async def create_match(self, record: MatchRecord, snapshot: Snapshot, events: Sequence[dict] = (),
                           due_in: float | None = None, to_move: Sequence[int] | None = None) -> None:
        try:
            async with self._pool.connection() as conn, conn.transaction(), conn.pipeline():
                await conn.execute(
                    f"INSERT INTO matches ({MATCH_COLUMNS}, due_time, claimed_by, claim_until) "
                    f"VALUES ({','.join(['%s'] * MATCH_COLUMN_COUNT)}, {_NOW} + %s, %s, {_NOW} + %s)",
                    (*match_values(record), *self._claim(due_in)))
                players = player_rows(record)
                if players:
                    async with conn.cursor() as cursor:
                        await cursor.executemany("INSERT INTO match_players (match_id, subject) VALUES (%s,%s)",
                                                 players)
                        turns = turn_rows(record, to_move)
                        if turns:
                            await cursor.executemany(turn_update_sql("%s"), turns)
                async with conn.cursor() as cursor:
                    await cursor.executemany("INSERT INTO events VALUES (%s,%s,%s,%s,%s)",
                                             event_rows(record.id, events))
                await conn.execute("INSERT INTO snapshots VALUES (%s,%s,%s)",
                                   (record.id, snapshot.version, dumps(snapshot.state)))
        except psycopg.errors.UniqueViolation as error:
            raise VersionConflict(str(error)) from error

    async def append(self, step: Append) -> None:
        record, events, snapshot = step.record, step.events, step.snapshot
        due_in, owner, _ = self._claim(step.due_in)
        try:
            async with self._pool.connection() as conn, self._with_row_changes(conn, step):
                # %b: the event arrays go in binary, which skips escaping each text.
                await conn.execute(
                    "SELECT gamehost_append(%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%b,%b,%b,%b,%s,%s)",
                    (record.id, events[0]["version"] - 1, record.version, record.status, record.update_time,
                     None if record.result is None else dumps(record.result),
                     seats_json(record.seats) if step.seats_changed else None, due_in, owner, self.lease,
                     [e["version"] for e in events], [e.get("seat", -1) for e in events],
                     [e.get("request_id") or None for e in events], [dumps(e) for e in events],
                     None if snapshot is None else snapshot.version,
                     None if snapshot is None else dumps(snapshot.state)))
        except psycopg.errors.UniqueViolation as error:
            raise VersionConflict(str(error)) from error
        except psycopg.DatabaseError as error:
            if error.sqlstate != VERSION_CHECK_FAILED:
                raise
            raise VersionConflict(str(error)) from error

    @contextlib.asynccontextmanager
    async def _with_row_changes(self, conn, step: Append):
        """A step that changes seats or the status detail also writes those
        (match_players, status_detail) in the same transaction, and so does
        the turn index of a match with signed-in players; a move of an
        anonymous match, the common step, stays one statement."""
        turns = turn_rows(step.record, step.to_move)
        if not (step.seats_changed or step.details_changed or step.clock_changed or turns):
            yield
            return
        record = step.record
        async with conn.transaction():
            yield
            if step.clock_changed:
                await conn.execute("UPDATE matches SET clock=%s WHERE id=%s", (clock_json(record), record.id))
            if step.details_changed or step.seats_changed:
                await conn.execute("UPDATE matches SET status_detail=%s WHERE id=%s",
                                   (detail_json(record), record.id))
            if step.seats_changed:  # rows of players who stay keep their turn_since
                await conn.execute("DELETE FROM match_players WHERE match_id=%s AND NOT (subject = ANY(%s))",
                                   (record.id, player_subjects(record)))
                players = player_rows(record)
                if players:
                    async with conn.cursor() as cursor:
                        await cursor.executemany("INSERT INTO match_players (match_id, subject) VALUES (%s,%s) "
                                                 "ON CONFLICT DO NOTHING", players)
            if turns:
                async with conn.cursor() as cursor:
                    await cursor.executemany(turn_update_sql("%s"), turns)

    def _claim(self, due_in: float | None) -> tuple:
        """due_time offset, claimer and lease offset for a step: the replica
        that commits a step after which the host must act holds the claim."""
        if due_in is None:
            return None, None, None
        return due_in, self.owner, due_in + self.lease

    async def claim_due(self, limit: int = 32) -> list[str]:
        """Claim matches whose bot turn is due and unclaimed (or whose
        claim expired: the replica that held it died). SKIP LOCKED lets
        replicas sweep at once without waiting on each other."""
        async with self._pool.connection() as conn:
            rows = await (await conn.execute(
                f"UPDATE matches SET claimed_by=%s, claim_until={_NOW} + %s WHERE id IN ("
                "  SELECT id FROM matches WHERE due_time IS NOT NULL AND status = 'active'"
                f"  AND due_time <= {_NOW} AND (claim_until IS NULL OR claim_until < {_NOW})"
                "  ORDER BY due_time LIMIT %s FOR UPDATE SKIP LOCKED) RETURNING id",
                (self.owner, self.lease, limit))).fetchall()
        return [row[0] for row in rows]

    # ------------------------------------------------------------ reads

    async def _one(self, sql: str, params: tuple):
        async with self._pool.connection() as conn:
            return await (await conn.execute(sql, params)).fetchone()

    async def _all(self, sql: str, params: tuple) -> list:
        async with self._pool.connection() as conn:
            return await (await conn.execute(sql, params)).fetchall()

    # ------------------------------------------------------------ matchmaking

    async def add_ticket(self, ticket, max_open: int) -> bool:
        """Two replicas adding tickets of one player at once take turns on
        the player's advisory lock, so the count they check is the real one."""
        async with self._pool.connection() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (TICKET_LOCK + 1, ticket.subject))
            if await _value(conn, open_count_sql("%s"), (ticket.subject,)) >= max_open:
                return False
            party = []
            if ticket.party:
                await conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (TICKET_LOCK + 2, ticket.party))
                party = [row[0] for row in await (await conn.execute(party_sql("%s"), (ticket.party,))).fetchall()]
                if party_full(ticket, len(party)):
                    raise PartyFull(ticket.party)
            await conn.execute(insert_sql("%s"), ticket_values(ticket))
            if party:  # the party's other players see one more queued (on every replica)
                await notify_tickets(conn, party)
            return True

    async def get_ticket(self, ticket_id: str):
        row = await self._one(f"SELECT {TICKET_COLUMNS} FROM tickets WHERE id=%s", (ticket_id,))
        return None if row is None else row_to_ticket(row)

    async def cancel_ticket(self, ticket_id: str, now: float) -> bool:
        """Waits for a replica forming a match with this ticket (its row
        lock), then finds it matched and changes nothing."""
        async with self._pool.connection() as conn, conn.transaction():
            cancelled = (await conn.execute(cancel_sql("%s"), (now, ticket_id))).rowcount == 1
            if cancelled:  # with its party's queued tickets, whose players see one fewer queued
                friends = await (await conn.execute(party_friends_sql("%s"), (ticket_id,))).fetchall()
                await notify_tickets(conn, [ticket_id, *(row[0] for row in friends)])
            return cancelled

    async def expire_tickets(self, now: float, forget_before: float) -> list[TicketRecord]:
        async with self._pool.connection() as conn, conn.transaction():
            rows = await (await conn.execute(expire_sql("%s"), (now, now))).fetchall()
            expired = [row_to_ticket(row) for row in rows]
            await conn.execute(forget_sql("%s"), (forget_before,))
            if expired:  # with their parties' queued tickets, whose players see one fewer queued
                parties = sorted({ticket.party for ticket in expired if ticket.party})
                friends = await (await conn.execute(QUEUED_IN_PARTIES_SQL, (parties,))).fetchall()
                await notify_tickets(conn, [ticket.id for ticket in expired] + [row[0] for row in friends])
            return expired

    async def pools_to_match(self, now: float, queued_since: float) -> list[str]:
        return [row[0] for row in await self._all(pools_sql("%s"), (queued_since, now, queued_since))]

    async def player_tickets(self, subject: str):
        return [row_to_ticket(row) for row in await self._all(player_tickets_sql("%s"), (subject,))]

    async def party_tickets(self, party: str):
        return [row_to_ticket(row) for row in await self._all(party_sql("%s"), (party,))]

    async def queued_ticket_counts(self) -> dict[str, int]:
        return dict(await self._all(QUEUED_COUNTS_SQL, ()))

    async def queued_pools(self) -> list[QueuedPool]:
        return [QueuedPool(*row) for row in await self._all(QUEUED_POOLS_SQL, ())]

    async def form_match(self, pool: str, now: float, form) -> dict[str, tuple[str, int]]:
        """One replica at a time per pool (an advisory lock it does not wait
        for: a replica that finds it taken leaves the pool to the holder, who
        sees every ticket committed before it read). The rows are locked FOR
        UPDATE while the match is created, so a cancel or an expiry of one of
        them waits and then finds it matched; SKIP LOCKED passes over a row
        being cancelled right now."""
        async with self._forming, self._pool.connection() as conn, conn.transaction():
            if not await _value(conn, "SELECT pg_try_advisory_xact_lock(%s, hashtext(%s))", (TICKET_LOCK, pool)):
                return {}
            rows = await (await conn.execute(queued_sql("%s") + " FOR UPDATE SKIP LOCKED", (pool, now))).fetchall()
            placed = await form([row_to_ticket(row) for row in rows]) if rows else {}
            if placed:
                async with conn.cursor() as cursor:
                    await cursor.executemany(matched_sql("%s"), [
                        (match_id, seat, now, ticket_id) for ticket_id, (match_id, seat) in placed.items()])
                await notify_tickets(conn, list(placed))
            return placed

    async def get_match(self, match_id: str) -> MatchRecord | None:
        row = await self._one(f"SELECT {MATCH_COLUMNS} FROM matches WHERE id=%s", (match_id,))
        return None if row is None else row_to_record(row)

    async def find_match_by_request(self, request_id: str) -> MatchRecord | None:
        row = await self._one(f"SELECT {MATCH_COLUMNS} FROM matches WHERE create_request_id=%s", (request_id,))
        return None if row is None else row_to_record(row)

    async def list_matches(self, *, game_id, status, limit, before, player=None, my_turn=False, public_only=False):
        query = list_matches_query(game_id=game_id, status=status, limit=limit, before=before, mark="%s",
                                   player=player, my_turn=my_turn, public_only=public_only)
        rows = await self._all(*query)
        return [row_to_record(row) for row in rows]

    async def list_match_keys(self, *, game_id, status, limit, before, player=None, my_turn=False,
                              public_only=False):
        query = list_matches_query(game_id=game_id, status=status, limit=limit, before=before, mark="%s",
                                   player=player, my_turn=my_turn, columns=PAGE_KEY_COLUMNS,
                                   public_only=public_only)
        return [tuple(row) for row in await self._all(*query)]

    async def player_turns(self, subject: str, match_ids: Sequence[str]) -> dict[str, float]:
        if not match_ids:
            return {}
        rows = await self._all("SELECT match_id, turn_since FROM match_players WHERE subject=%s "
                               "AND turn_since IS NOT NULL AND match_id = ANY(%s)", (subject, list(match_ids)))
        return dict(rows)

    async def delete_match(self, match_id: str) -> bool:
        async with self._pool.connection() as conn, conn.transaction():
            return bool(await self._delete(conn, [match_id]))

    @staticmethod
    async def _delete(conn, match_ids: list[str]) -> list[str]:
        """Delete these matches if they are over (children first: foreign keys)."""
        rows = await (await conn.execute(
            "SELECT id FROM matches WHERE id = ANY(%s) AND status = ANY(%s) FOR UPDATE",
            (match_ids, list(OVER_STATUSES)))).fetchall()
        over = [row[0] for row in rows]
        if over:
            for table in ("events", "snapshots", "match_players", "rules_strikes", "match_invitations",
                          "chat_messages"):
                await conn.execute(f"DELETE FROM {table} WHERE match_id = ANY(%s)", (over,))
            await conn.execute("DELETE FROM matches WHERE id = ANY(%s)", (over,))
        return over

    async def stale_open_matches(self, created_before: float, limit: int) -> list[str]:
        rows = await self._all("SELECT id FROM matches WHERE status = 'open' AND create_time < %s "
                               "ORDER BY create_time LIMIT %s", (created_before, limit))
        return [row[0] for row in rows]

    async def idle_active_matches(self, updated_before: float, limit: int) -> list[str]:
        rows = await self._all("SELECT id FROM matches WHERE status = 'active' AND update_time < %s "
                               "ORDER BY update_time LIMIT %s", (updated_before, limit))
        return [row[0] for row in rows]

    async def prune_over_matches(self, updated_before: float, limit: int) -> list[str]:
        """The replica that gets the advisory lock prunes; the others skip this round."""
        async with self._pool.connection() as conn, conn.transaction():
            if not await _value(conn, "SELECT pg_try_advisory_xact_lock(%s)", (PRUNE_LOCK,)):
                return []
            rows = await (await conn.execute(
                "SELECT id FROM matches WHERE status = ANY(%s) AND update_time < %s LIMIT %s",
                (list(OVER_STATUSES), updated_before, limit))).fetchall()
            return await self._delete(conn, [row[0] for row in rows]) if rows else []

    async def unfinished_matches(self) -> list[MatchRecord]:
        rows = await self._all(f"SELECT {MATCH_COLUMNS} FROM matches WHERE status IN ('open', 'active')", ())
        return [row_to_record(row) for row in rows]

    async def events(self, match_id: str, after_version: int = 0, limit: int | None = None) -> list[dict]:
        rows = await self._all("SELECT body FROM events WHERE match_id=%s AND version>%s ORDER BY version LIMIT %s",
                               (match_id, after_version, limit))
        return [loads(row[0]) for row in rows]

    async def events_before(self, match_id: str, before_version: int, limit: int) -> list[dict]:
        rows = await self._all("SELECT body FROM events WHERE match_id=%s AND version<%s ORDER BY version DESC "
                               "LIMIT %s", (match_id, before_version, limit))
        return [loads(row[0]) for row in reversed(rows)]

    async def latest_snapshot(self, match_id: str) -> Snapshot:
        row = await self._one("SELECT version, state FROM snapshots WHERE match_id=%s", (match_id,))
        return Snapshot(row[0], loads(row[1]))

    async def request_versions(self, match_id: str) -> dict[tuple[int, str], int]:
        rows = await self._all(
            "SELECT seat, request_id, version FROM events WHERE match_id=%s AND request_id IS NOT NULL",
            (match_id,))
        return {(seat, request_id): version for seat, request_id, version in rows}

    # Turn notifications: when an attempt is due and how long a claim holds
    # go by the database's clock, as bot-turn claims do.

    async def claim_notification(self, key: str, match_id: str, body: str, now: float) -> bool:
        async with self._pool.connection() as conn:
            cursor = await conn.execute(
                f"INSERT INTO notifications ({NOTIFICATION_COLUMNS}) VALUES (%s,%s,%s,%s,'pending',0,{_NOW}) "
                "ON CONFLICT (key) DO NOTHING", (key, match_id, body, now))
            return cursor.rowcount == 1

    async def claim_deliveries(self, now: float, hold: float, limit: int) -> list[PendingDelivery]:
        """SKIP LOCKED: replicas sweeping at once each claim different rows."""
        rows = await self._all(
            f"UPDATE notifications SET claimed_by = %s, claim_until = {_NOW} + %s WHERE key IN ("
            f"  SELECT key FROM notifications WHERE next_attempt <= {_NOW}"
            f"  AND (claim_until IS NULL OR claim_until < {_NOW})"
            f"  ORDER BY next_attempt LIMIT %s FOR UPDATE SKIP LOCKED) RETURNING {CLAIMED_COLUMNS}",
            (self.owner, hold, limit))
        return [PendingDelivery(*row) for row in rows]

    async def record_delivery_attempt(self, key: str, attempt: int, now: float, status: int, error: str,
                                      retry_in: float | None = None) -> None:
        async with self._pool.connection() as conn, conn.transaction():
            await conn.execute("INSERT INTO notification_attempts VALUES (%s,%s,%s,%s,%s) ON CONFLICT DO NOTHING",
                               (key, attempt, now, status, error))
            await conn.execute(
                f"UPDATE notifications SET attempts = %s, state = %s, next_attempt = {_NOW} + %s::double precision, "
                "claimed_by = NULL, claim_until = NULL WHERE key = %s AND attempts < %s",
                (attempt, delivery_state(status, retry_in), retry_in, key, attempt))

    async def delivery_attempts(self, key: str) -> list[tuple[int, float, int, str]]:
        return [tuple(row) for row in await self._all(
            "SELECT attempt, time, status, error FROM notification_attempts WHERE key=%s ORDER BY attempt", (key,))]

    async def add_strike(self, match_id: str) -> int:
        row = await self._one("INSERT INTO rules_strikes VALUES (%s, 1) ON CONFLICT (match_id) DO UPDATE "
                              "SET strikes = rules_strikes.strikes + 1 RETURNING strikes", (match_id,))
        return row[0]

    async def clear_strikes(self, match_id: str) -> None:
        async with self._pool.connection() as conn:
            await conn.execute("DELETE FROM rules_strikes WHERE match_id=%s", (match_id,))

    async def strikes(self, match_id: str) -> int:
        row = await self._one("SELECT strikes FROM rules_strikes WHERE match_id=%s", (match_id,))
        return row[0] if row else 0

    async def list_deliveries(self, state: str | None, match_id: str | None, after: tuple[float, str] | None,
                              limit: int) -> list[DeliveryRecord]:
        sql, params = listing_query(state, match_id, after, limit, "%s")
        rows = await self._all(sql, tuple(params))
        attempts: dict[str, list] = {row[0]: [] for row in rows}
        for key, *attempt in await self._all(  # the page's attempts in one query
                "SELECT key, attempt, time, status, error FROM notification_attempts WHERE key = ANY(%s) "
                "ORDER BY key, attempt", (list(attempts),)):
            attempts[key].append(tuple(attempt))
        return [row_to_delivery(row, attempts[row[0]]) for row in rows]

    async def delivery(self, key: str) -> DeliveryRecord | None:
        row = await self._one(f"SELECT {LISTED_COLUMNS} FROM notifications WHERE key=%s", (key,))
        return None if row is None else row_to_delivery(row, await self.delivery_attempts(key))

    async def retry_delivery(self, key: str, now: float) -> str | None:
        """Due by the database's clock, as every attempt is."""
        async with self._pool.connection() as conn, conn.transaction():
            row = await (await conn.execute("SELECT state FROM notifications WHERE key=%s FOR UPDATE",
                                            (key,))).fetchone()
            if row is None:
                return None
            await conn.execute(
                f"UPDATE notifications SET state = 'pending', next_attempt = {_NOW}, round_start = attempts, "
                "claimed_by = NULL, claim_until = NULL WHERE key = %s AND state = 'failed'", (key,))
            return row[0]

    # ------------------------------------------------------------ notifications

    def subscribe(self, on_change: Callable[[str | None, int], Awaitable[None] | None]) -> None:
        """Call ``on_change(match_id, version)`` for every step any replica
        commits, and ``on_change(None, 0)`` after a lost connection came back
        (notifications sent meanwhile are lost: the engine catches up)."""
        self._notifications.start(on_change)

    def subscribe_agents(self, on_message: Callable[[str], None]) -> None:
        """Hear the remote agents' messages of every replica (engine/agents.py);
        before ``subscribe``, which starts the listening."""
        self._notifications.on_agents = on_message

    async def publish_agents(self, payload: str) -> None:
        """One remote agents' message to every replica (this one too), at most 8000 bytes."""
        async with self._pool.connection() as conn:
            await conn.execute("SELECT pg_notify(%s, %s)", (AGENT_CHANNEL, payload))

    def subscribe_tickets(self, on_tickets: Callable[[list[str] | None], None]) -> None:
        """Call ``on_tickets(ids)`` for the tickets whose state any replica
        changed, ``on_tickets(None)`` after a lost connection came back.
        Before ``subscribe``, whose connection carries both channels."""
        self._notifications.on_tickets = on_tickets

    def subscribe_erasures(self, on_erased: Callable[[list[str]], None]) -> None:
        """``on_erased(match ids)`` for the matches an erasure of a user rewrote on any replica (their cached
        copies are stale). Before ``subscribe``."""
        self._notifications.on_erased = on_erased

    def subscribe_chat(self, on_chat: Callable[[str | None], None]) -> None:
        """``on_chat(note)`` for each chat change any replica commits (postgres_chat.py), None after a lost
        connection came back. Before ``subscribe``."""
        self._notifications.on_chat = on_chat
