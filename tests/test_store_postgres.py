"""What only the shared store does: versioned migrations, notifications to
other replicas, claims on due bot turns, and appends racing from two
connections."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time

import psycopg
import pytest

from gamehost.host.store.base import Append, Snapshot, VersionConflict
from gamehost.host.store.postgres import PostgresStore
from gamehost.host.store.postgres_schema import MIGRATIONS
from test_store import moved, record


@pytest.fixture()
async def two_replicas(postgres_url):
    """Two stores on one database, as two replicas would hold them."""
    first, second = PostgresStore(postgres_url, owner="a"), PostgresStore(postgres_url, owner="b")
    await first.open()
    await second.open()
    yield first, second
    await first.close()
    await second.close()


async def test_migrations_run_once_and_are_recorded(postgres_url):
    store = PostgresStore(postgres_url)
    await store.open()
    assert await store.migrate() == 0  # open() already brought it up to date
    await store.close()
    with psycopg.connect(postgres_url) as conn:
        versions = [row[0] for row in conn.execute("SELECT version FROM schema_migrations ORDER BY version")]
    assert versions == list(range(1, len(MIGRATIONS) + 1))


async def test_replicas_starting_together_migrate_once(postgres_url):
    stores = [PostgresStore(postgres_url) for _ in range(4)]
    await asyncio.gather(*(store.open() for store in stores))
    await asyncio.gather(*(store.close() for store in stores))
    with psycopg.connect(postgres_url) as conn:
        assert conn.execute("SELECT count(*) FROM schema_migrations").fetchone()[0] == len(MIGRATIONS)


async def test_a_database_from_a_newer_host_is_refused(postgres_url):
    store = PostgresStore(postgres_url)
    await store.open()
    await store.close()
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("INSERT INTO schema_migrations (version) VALUES (99)")
    with pytest.raises(RuntimeError, match="newer than this host"):
        await PostgresStore(postgres_url).open()


def test_gamehost_migrate_brings_a_database_up_to_date_and_hides_the_password(postgres_url):
    done = subprocess.run([sys.executable, "-m", "gamehost.cli.main", "migrate", "--store", postgres_url],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "schema up to date" in done.stdout and ":***@" in done.stdout and ":gamehost@" not in done.stdout
    with psycopg.connect(postgres_url) as conn:
        assert conn.execute("SELECT max(version) FROM schema_migrations").fetchone()[0] == len(MIGRATIONS)


def test_gamehost_migrate_names_an_unreachable_database():
    done = subprocess.run([sys.executable, "-m", "gamehost.cli.main", "migrate", "--store",
                           "postgresql://nobody:secret@127.0.0.1:1/none", "--wait", "1"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "cannot migrate postgresql://nobody:***@127.0.0.1:1/none" in done.stderr and "secret" not in done.stderr


async def test_a_commit_on_one_replica_is_announced_to_the_other(two_replicas):
    first, second = two_replicas
    heard: asyncio.Queue = asyncio.Queue()
    second.subscribe(lambda match_id, version: heard.put_nowait((match_id, version)))
    await asyncio.sleep(0.2)  # LISTEN is in place
    await first.create_match(record(), Snapshot(0, {}))
    await first.append(Append(record(version=1), [moved(1)]))
    await first.append(Append(record(version=3), [moved(2), moved(3)]))
    assert [await asyncio.wait_for(heard.get(), 5) for _ in range(2)] == [("m1", 1), ("m1", 3)]


async def test_a_failed_append_announces_nothing(two_replicas):
    first, second = two_replicas
    heard: list = []
    second.subscribe(lambda match_id, version: heard.append((match_id, version)))
    await asyncio.sleep(0.2)
    await first.create_match(record(), Snapshot(0, {}))
    await first.append(Append(record(version=1), [moved(1)]))
    with pytest.raises(VersionConflict):
        await second.append(Append(record(version=1), [moved(1)]))
    await asyncio.sleep(0.3)
    assert heard == [("m1", 1)]


async def test_racing_appends_at_one_version_commit_exactly_one(two_replicas):
    first, second = two_replicas
    await first.create_match(record(), Snapshot(0, {}))
    outcomes = await asyncio.gather(
        *(store.append(Append(record(version=1), [moved(1, seat)])) for seat, store in ((0, first), (1, second))),
        return_exceptions=True)
    assert sorted(type(o).__name__ for o in outcomes) == ["NoneType", "VersionConflict"]
    assert len(await first.events("m1")) == 1


async def test_a_due_bot_turn_is_claimed_by_the_committer_then_by_one_sweeper_after_the_lease(two_replicas):
    first, second = two_replicas
    first.lease = second.lease = 0.3
    await first.create_match(record(), Snapshot(0, {}))
    await first.append(Append(record(status="active", version=1), [moved(1)], due_in=0.0))
    assert await second.claim_due() == []  # the committing replica holds it
    await asyncio.sleep(0.4)  # ... until its lease runs out
    claims = await asyncio.gather(first.claim_due(), second.claim_due())
    assert sorted(claims) == [[], ["m1"]]  # exactly one replica gets it
    await first.append(Append(record(status="active", version=2), [moved(2, 1)]))  # the bot moved: nothing more is due
    await asyncio.sleep(0.4)
    assert await first.claim_due() == [] and await second.claim_due() == []


async def test_replicas_sweeping_the_delivery_queue_at_once_claim_each_attempt_once(two_replicas):
    first, second = two_replicas
    for n in range(40):
        assert await first.claim_notification(f"turn:m{n}:1:0", f"m{n}", "{}", time.time())
    rounds = await asyncio.gather(*(store.claim_deliveries(time.time(), 60.0, 7)
                                    for _ in range(4) for store in (first, second)))
    claimed = [delivery.key for found in rounds for delivery in found]
    assert len(claimed) == len(set(claimed)) == 40  # every one claimed, none twice
    with psycopg.connect(first.url) as conn:
        holders = dict(conn.execute("SELECT claimed_by, count(*) FROM notifications GROUP BY claimed_by"))
    assert sum(holders.values()) == 40 and set(holders) <= {"a", "b"}
