"""The SQLite store's schema, as versioned migrations: entry i brings a
database from version i to i + 1 (``SQLiteStore`` applies them on open)."""

from __future__ import annotations

from gamehost.host.store.chat_rows import SQLITE_TABLES as CHAT_TABLES
from gamehost.host.store.delivery_rows import DUE_INDEX, LEGACY_STATES, RETRY_ROUNDS

# Versioned schema: entry i brings the database from user_version i to i + 1.
MIGRATIONS = [
    """
    CREATE TABLE matches (
        id TEXT PRIMARY KEY,
        game_id TEXT NOT NULL,
        rules_version TEXT NOT NULL,
        options TEXT NOT NULL,
        seed TEXT NOT NULL,
        seats TEXT NOT NULL,
        status TEXT NOT NULL,
        version INTEGER NOT NULL,
        create_time REAL NOT NULL,
        update_time REAL NOT NULL,
        result TEXT,
        create_request_id TEXT UNIQUE
    );
    CREATE INDEX matches_by_status ON matches (status, create_time);
    CREATE INDEX matches_by_game ON matches (game_id, create_time);
    CREATE TABLE events (
        match_id TEXT NOT NULL REFERENCES matches (id),
        version INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        request_id TEXT,
        body TEXT NOT NULL,
        PRIMARY KEY (match_id, version)
    ) WITHOUT ROWID;
    CREATE UNIQUE INDEX events_by_request ON events (match_id, seat, request_id)
        WHERE request_id IS NOT NULL;
    CREATE TABLE snapshots (
        match_id TEXT PRIMARY KEY REFERENCES matches (id),
        version INTEGER NOT NULL,
        state TEXT NOT NULL
    );
    """,
    "ALTER TABLE matches ADD COLUMN turn_timeout REAL NOT NULL DEFAULT 0;",
    """
    ALTER TABLE matches ADD COLUMN creator TEXT NOT NULL DEFAULT '';
    ALTER TABLE matches ADD COLUMN seed_chosen INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE matches ADD COLUMN status_detail TEXT;
    CREATE INDEX matches_by_update ON matches (status, update_time);
    CREATE TABLE match_players (
        subject TEXT NOT NULL,
        match_id TEXT NOT NULL REFERENCES matches (id),
        PRIMARY KEY (subject, match_id)
    ) WITHOUT ROWID;
    CREATE INDEX match_players_by_match ON match_players (match_id);
    """,
    # Players' ratings: one row per player and game, one per match counted.
    """
    CREATE TABLE rated_matches (match_id TEXT PRIMARY KEY) WITHOUT ROWID;
    CREATE TABLE ratings (
        subject TEXT NOT NULL,
        game_id TEXT NOT NULL,
        player_name TEXT NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        losses INTEGER NOT NULL,
        draws INTEGER NOT NULL,
        rating REAL NOT NULL,
        PRIMARY KEY (subject, game_id)
    ) WITHOUT ROWID;
    CREATE INDEX ratings_by_game ON ratings (game_id, rating DESC, subject);
    """,
    # The chess clock of a clocked match; absent players' grace before a bot plays for them
    "ALTER TABLE matches ADD COLUMN clock TEXT; ALTER TABLE matches ADD COLUMN absent_grace REAL;",
    # Turn notifications (webhooks.py); no foreign key: a deleted match keeps its delivery record.
    """
    CREATE TABLE notifications (
        key TEXT PRIMARY KEY,
        match_id TEXT NOT NULL,
        body TEXT NOT NULL,
        create_time REAL NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE notification_attempts (
        key TEXT NOT NULL,
        attempt INTEGER NOT NULL,
        time REAL NOT NULL,
        status INTEGER NOT NULL,
        error TEXT NOT NULL,
        PRIMARY KEY (key, attempt)
    ) WITHOUT ROWID;
    """,
    # Matchmaking: the tickets table.
    """
    CREATE TABLE tickets (
        id TEXT PRIMARY KEY,
        subject TEXT NOT NULL,
        player_name TEXT NOT NULL,
        game_id TEXT NOT NULL,
        seats integer NOT NULL,
        options TEXT NOT NULL,
        pool TEXT NOT NULL,
        rating REAL NOT NULL,
        min_rating REAL,
        max_rating REAL,
        bot TEXT NOT NULL,
        bot_wait REAL,
        create_time REAL NOT NULL,
        expire_time REAL NOT NULL,
        state TEXT NOT NULL,
        match_id TEXT NOT NULL,
        seat integer NOT NULL,
        update_time REAL NOT NULL
    );
    CREATE INDEX tickets_by_pool ON tickets (pool, state, create_time);
    CREATE INDEX tickets_by_subject ON tickets (subject, state);
    CREATE INDEX tickets_by_state ON tickets (state, expire_time);
    """,
    # Since when it is each signed-in player's turn (NULL: not their turn), for ListMatches' my_turn
    "ALTER TABLE match_players ADD COLUMN turn_since REAL;",
    # Rating ranges that widen while a ticket waits
    "ALTER TABLE tickets ADD COLUMN widen_per_second REAL; ALTER TABLE tickets ADD COLUMN max_widening REAL;",
    # The pending turn notifications are a queue that outlives the host (delivery_rows.py)
    f"""
    ALTER TABLE notifications ADD COLUMN state TEXT NOT NULL DEFAULT 'pending';
    ALTER TABLE notifications ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE notifications ADD COLUMN next_attempt REAL;
    ALTER TABLE notifications ADD COLUMN claimed_by TEXT;
    ALTER TABLE notifications ADD COLUMN claim_until REAL;
    {LEGACY_STATES}
    {DUE_INDEX}
    """,
    # Operators list the deliveries and retry a failed one (delivery_rows.py)
    RETRY_ROUNDS,
    # Rules strikes outlive a restart (engine_rules_failures.py)
    "CREATE TABLE rules_strikes (match_id TEXT PRIMARY KEY, strikes INTEGER NOT NULL) WITHOUT ROWID;",
    # Friends queue together as a party (ticket_rows.py)
    """
    ALTER TABLE tickets ADD COLUMN party TEXT NOT NULL DEFAULT '';
    ALTER TABLE tickets ADD COLUMN party_size INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX tickets_by_party ON tickets (party, state) WHERE party <> '';
    """,
    # Private matches, reserved seats and invitations (engine/match_access.py): who may see and watch a match,
    # a casual match, and the hash of its invitation code.
    """
    ALTER TABLE matches ADD COLUMN visibility TEXT NOT NULL DEFAULT 'public';
    ALTER TABLE matches ADD COLUMN spectators TEXT NOT NULL DEFAULT 'anyone';
    ALTER TABLE matches ADD COLUMN rated INTEGER;
    CREATE TABLE match_invitations (match_id TEXT PRIMARY KEY REFERENCES matches (id), code_hash TEXT NOT NULL)
        WITHOUT ROWID;
    """,
    # Verifiable chance: the seed's salt and the commitment published at creation, as hex (records.py);
    # NULL in the matches created before.
    "ALTER TABLE matches ADD COLUMN seed_salt TEXT; ALTER TABLE matches ADD COLUMN seed_commitment TEXT;",
    # Browsers' Web Push subscriptions, per signed-in user (push_rows.py)
    """
    CREATE TABLE push_subscriptions (endpoint TEXT PRIMARY KEY, subject TEXT NOT NULL, p256dh TEXT NOT NULL,
        auth TEXT NOT NULL, locale TEXT NOT NULL, created REAL NOT NULL) WITHOUT ROWID;
    CREATE INDEX push_subscriptions_by_subject ON push_subscriptions (subject, created);
    """,
    # Chat and moderation: messages, reports, mutes and blocks, bans (chat_rows.py)
    CHAT_TABLES,
]
