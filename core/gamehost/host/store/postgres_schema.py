"""The PostgreSQL store's schema, as versioned migrations: entry i brings a
database from version i to i + 1. Replicas starting together apply them in
turn (``migrate``)."""

from __future__ import annotations

from typing import Any

import psycopg
import structlog

from gamehost.host.store.chat_rows import POSTGRES_TABLES as CHAT_TABLES
from gamehost.host.store.delivery_rows import DUE_INDEX, LEGACY_STATES, RETRY_ROUNDS

log = structlog.get_logger("gamehost.store.postgres")

MIGRATION_LOCK = 0x67616D65  # any constant shared by every replica: "game"

# Versioned schema: entry i brings the database from version i to i + 1.
MIGRATIONS = [
    """
    CREATE TABLE matches (
        id text PRIMARY KEY,
        game_id text NOT NULL,
        rules_version text NOT NULL,
        options text NOT NULL,
        seed text NOT NULL,
        seats text NOT NULL,
        status text NOT NULL,
        version bigint NOT NULL,
        create_time double precision NOT NULL,
        update_time double precision NOT NULL,
        result text,
        create_request_id text UNIQUE,
        turn_timeout double precision NOT NULL DEFAULT 0,
        due_time double precision,
        claimed_by text,
        claim_until double precision
    );
    CREATE INDEX matches_by_status ON matches (status, create_time);
    CREATE INDEX matches_by_game ON matches (game_id, create_time);
    CREATE INDEX matches_due ON matches (due_time) WHERE due_time IS NOT NULL;
    CREATE TABLE events (
        match_id text NOT NULL REFERENCES matches (id),
        version bigint NOT NULL,
        seat integer NOT NULL,
        request_id text,
        body text NOT NULL,
        PRIMARY KEY (match_id, version)
    );
    CREATE UNIQUE INDEX events_by_request ON events (match_id, seat, request_id)
        WHERE request_id IS NOT NULL;
    CREATE TABLE snapshots (
        match_id text PRIMARY KEY REFERENCES matches (id),
        version bigint NOT NULL,
        state text NOT NULL
    );
    -- One step in one statement, so one round trip per move. The row must
    -- still be at the version before the events: the check that keeps two
    -- replicas from both moving (SQLSTATE GH409 when it fails).
    CREATE FUNCTION gamehost_append(
        p_match text, p_previous bigint, p_version bigint, p_status text, p_update_time double precision,
        p_result text, p_seats text, p_due_in double precision, p_owner text, p_lease double precision,
        p_versions bigint[], p_event_seats integer[], p_requests text[], p_bodies text[],
        p_snapshot_version bigint, p_snapshot_state text
    ) RETURNS void LANGUAGE plpgsql AS $$
    DECLARE
        now_epoch double precision := extract(epoch from clock_timestamp());
    BEGIN
        UPDATE matches SET seats = coalesce(p_seats, seats), status = p_status, version = p_version,
               update_time = p_update_time, result = p_result, due_time = now_epoch + p_due_in,
               claimed_by = CASE WHEN p_due_in IS NULL THEN NULL ELSE p_owner END,
               claim_until = now_epoch + p_due_in + p_lease
         WHERE id = p_match AND version = p_previous;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'match % is not at version %', p_match, p_previous USING ERRCODE = 'GH409';
        END IF;
        INSERT INTO events SELECT p_match, v, s, r, b FROM unnest(p_versions, p_event_seats, p_requests, p_bodies)
            AS step(v, s, r, b);
        IF p_snapshot_state IS NOT NULL THEN
            INSERT INTO snapshots VALUES (p_match, p_snapshot_version, p_snapshot_state)
                ON CONFLICT (match_id) DO UPDATE SET version = excluded.version, state = excluded.state;
        END IF;
        PERFORM pg_notify('gamehost_matches', p_match || ' ' || p_version);
    END;
    $$;
    """,
    """
    ALTER TABLE matches ADD COLUMN creator text NOT NULL DEFAULT '',
                        ADD COLUMN seed_chosen boolean NOT NULL DEFAULT false,
                        ADD COLUMN status_detail text;
    CREATE INDEX matches_by_update ON matches (status, update_time);
    CREATE TABLE match_players (
        subject text NOT NULL,
        match_id text NOT NULL REFERENCES matches (id),
        PRIMARY KEY (subject, match_id)
    );
    CREATE INDEX match_players_by_match ON match_players (match_id);
    """,
    # Players' ratings: one row per player and game, one per match counted.
    """
    CREATE TABLE rated_matches (match_id text PRIMARY KEY);
    CREATE TABLE ratings (
        subject text NOT NULL,
        game_id text NOT NULL,
        player_name text NOT NULL,
        mu double precision NOT NULL,
        sigma double precision NOT NULL,
        games integer NOT NULL,
        wins integer NOT NULL,
        losses integer NOT NULL,
        draws integer NOT NULL,
        rating double precision NOT NULL,
        PRIMARY KEY (subject, game_id)
    );
    CREATE INDEX ratings_by_game ON ratings (game_id, rating DESC, subject);
    """,
    # The chess clock of a clocked match; absent players' grace before a bot plays for them
    "ALTER TABLE matches ADD COLUMN clock text, ADD COLUMN absent_grace double precision;",
    # Turn notifications (webhooks.py): the key is what keeps replicas from both sending one.
    """
    CREATE TABLE notifications (
        key text PRIMARY KEY,
        match_id text NOT NULL,
        body text NOT NULL,
        create_time double precision NOT NULL
    );
    CREATE TABLE notification_attempts (
        key text NOT NULL,
        attempt integer NOT NULL,
        time double precision NOT NULL,
        status integer NOT NULL,
        error text NOT NULL,
        PRIMARY KEY (key, attempt)
    );
    """,
    # Matchmaking: the tickets table.
    """
    CREATE TABLE tickets (
        id text PRIMARY KEY,
        subject text NOT NULL,
        player_name text NOT NULL,
        game_id text NOT NULL,
        seats integer NOT NULL,
        options text NOT NULL,
        pool text NOT NULL,
        rating double precision NOT NULL,
        min_rating double precision,
        max_rating double precision,
        bot text NOT NULL,
        bot_wait double precision,
        create_time double precision NOT NULL,
        expire_time double precision NOT NULL,
        state text NOT NULL,
        match_id text NOT NULL,
        seat integer NOT NULL,
        update_time double precision NOT NULL
    );
    CREATE INDEX tickets_by_pool ON tickets (pool, state, create_time);
    CREATE INDEX tickets_by_subject ON tickets (subject, state);
    CREATE INDEX tickets_by_state ON tickets (state, expire_time);
    """,
    # Since when it is each signed-in player's turn (NULL: not their turn), for ListMatches' my_turn
    "ALTER TABLE match_players ADD COLUMN turn_since double precision;",
    # Rating ranges that widen while a ticket waits
    "ALTER TABLE tickets ADD COLUMN widen_per_second double precision, ADD COLUMN max_widening double precision;",
    # The pending turn notifications are a queue that outlives the host (delivery_rows.py)
    f"""
    ALTER TABLE notifications ADD COLUMN state text NOT NULL DEFAULT 'pending',
        ADD COLUMN attempts integer NOT NULL DEFAULT 0, ADD COLUMN next_attempt double precision,
        ADD COLUMN claimed_by text, ADD COLUMN claim_until double precision;
    {LEGACY_STATES}
    {DUE_INDEX}
    """,
    # Operators list the deliveries and retry a failed one (delivery_rows.py)
    RETRY_ROUNDS,
    # Rules strikes outlive a restart and add up over replicas (engine_rules_failures.py)
    "CREATE TABLE rules_strikes (match_id text PRIMARY KEY, strikes integer NOT NULL);",
    # Friends queue together as a party (ticket_rows.py)
    """
    ALTER TABLE tickets ADD COLUMN party text NOT NULL DEFAULT '', ADD COLUMN party_size integer NOT NULL DEFAULT 0;
    CREATE INDEX tickets_by_party ON tickets (party, state) WHERE party <> '';
    """,
    # Private matches, reserved seats and invitations (engine/match_access.py): who may see and watch a match,
    # a casual match, and the hash of its invitation code.
    """
    ALTER TABLE matches ADD COLUMN visibility text NOT NULL DEFAULT 'public',
        ADD COLUMN spectators text NOT NULL DEFAULT 'anyone', ADD COLUMN rated boolean;
    CREATE TABLE match_invitations (match_id text PRIMARY KEY REFERENCES matches (id), code_hash text NOT NULL);
    """,
    # Verifiable chance: the seed's salt and the commitment published at creation, as hex (records.py);
    # NULL in the matches created before.
    "ALTER TABLE matches ADD COLUMN seed_salt text, ADD COLUMN seed_commitment text;",
    # Browsers' Web Push subscriptions, per signed-in user (push_rows.py)
    """
    CREATE TABLE push_subscriptions (endpoint text PRIMARY KEY, subject text NOT NULL, p256dh text NOT NULL,
        auth text NOT NULL, locale text NOT NULL, created double precision NOT NULL);
    CREATE INDEX push_subscriptions_by_subject ON push_subscriptions (subject, created);
    """,
    # Chat and moderation: messages, reports, mutes and blocks, bans (chat_rows.py)
    CHAT_TABLES,
]


async def migrate(conn: psycopg.AsyncConnection[Any], database: str) -> int:
    """Bring the schema up to date in the transaction ``conn`` is in; returns
    how many migrations ran. Replicas starting together take turns on an
    advisory lock. ``database`` names the store in the refusal of a schema
    newer than this host."""
    await conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
    await conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations ("
                       "version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())")
    row = await (await conn.execute("SELECT coalesce(max(version), 0) FROM schema_migrations")).fetchone()
    current = row[0] if row else 0
    if current > len(MIGRATIONS):
        raise RuntimeError(f"{database} has schema version {current}, newer than this host "
                           f"({len(MIGRATIONS)}): upgrade gamehost")
    for version in range(current, len(MIGRATIONS)):
        await conn.execute(MIGRATIONS[version])
        await conn.execute("INSERT INTO schema_migrations (version) VALUES (%s)", (version + 1,))
        log.info("schema migrated", version=version + 1)
    return len(MIGRATIONS) - current
