"""Every store backend keeps the same semantics."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import time

import pytest

from gamehost.host.store import MatchRecord, MemoryStore, SeatRecord, SQLiteStore, VersionConflict, open_store
from gamehost.host.store.base import Append, Snapshot, StoreUnusable
from gamehost.host.store.wal_checkpoints import BACKSTOP_PAGES


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
async def store(request, tmp_path):
    if request.param == "postgresql":
        backend = open_store(request.getfixturevalue("postgres_url"))
    else:
        backend = MemoryStore() if request.param == "memory" else SQLiteStore(tmp_path / "store.db")
    await backend.open()
    yield backend
    await backend.close()


def record(match_id="m1", game="tictactoe", created=1.0, status="open", version=0):
    return MatchRecord(id=match_id, game_id=game, rules_version="1", options={"size": 3}, seed=2**63 + 5,
                       seats=[SeatRecord(0), SeatRecord(1, "bot", "bot 1", bot="random")], status=status,
                       version=version, create_time=created, update_time=created)


def moved(version, seat=0, request_id=None):
    event = {"version": version, "kind": "moved", "seat": seat, "time": 2.0, "move": {"cell": version}}
    if request_id:
        event["request_id"] = request_id
    return event


async def test_a_created_match_reads_back_equal(store):
    await store.create_match(record(), Snapshot(0, {"board": [None] * 9}))
    assert await store.get_match("m1") == record()
    assert (await store.latest_snapshot("m1")) == Snapshot(0, {"board": [None] * 9})
    assert await store.get_match("other") is None


async def test_append_commits_events_row_and_snapshot_together(store):
    await store.create_match(record(), Snapshot(0, {"n": 0}))
    updated = record(status="active", version=2)
    await store.append(Append(updated, [moved(1), moved(2, 1, "r-2")], Snapshot(2, {"n": 2})))
    assert (await store.get_match("m1")).version == 2
    assert [e["version"] for e in await store.events("m1")] == [1, 2]
    assert [e["version"] for e in await store.events("m1", 1)] == [2]
    assert await store.latest_snapshot("m1") == Snapshot(2, {"n": 2})
    assert await store.request_versions("m1") == {(1, "r-2"): 2}


async def test_an_event_at_a_taken_version_conflicts_and_writes_nothing(store):
    await store.create_match(record(), Snapshot(0, {}))
    await store.append(Append(record(version=1), [moved(1)]))
    with pytest.raises(VersionConflict):
        await store.append(Append(record(version=2, status="finished"), [moved(1), moved(2)], Snapshot(2, {"x": 1})))
    assert [e["version"] for e in await store.events("m1")] == [1]
    row = await store.get_match("m1")
    assert (row.version, row.status) == (1, "open")
    assert await store.latest_snapshot("m1") == Snapshot(0, {})


async def test_an_event_after_a_gap_conflicts(store):
    await store.create_match(record(), Snapshot(0, {}))
    with pytest.raises(VersionConflict):
        await store.append(Append(record(version=2), [moved(2)]))
    assert await store.events("m1") == [] and (await store.get_match("m1")).version == 0


async def test_a_request_id_is_applied_once_per_seat(store):
    await store.create_match(record(), Snapshot(0, {}))
    await store.append(Append(record(version=1), [moved(1, 0, "same")]))
    with pytest.raises(VersionConflict):
        await store.append(Append(record(version=2), [moved(2, 0, "same")]))
    await store.append(Append(record(version=2), [moved(2, 1, "same")]))  # another seat may reuse it
    assert await store.request_versions("m1") == {(0, "same"): 1, (1, "same"): 2}


async def test_list_matches_newest_first_with_filters_and_cursor(store):
    for index in range(5):
        game = "tictactoe" if index % 2 == 0 else "campanile"
        await store.create_match(record(f"m{index}", game, created=float(index)), Snapshot(0, {}))
    everything = await store.list_matches(game_id=None, status=None, limit=10, before=None)
    assert [r.id for r in everything] == ["m4", "m3", "m2", "m1", "m0"]
    tictactoe = await store.list_matches(game_id="tictactoe", status=None, limit=10, before=None)
    assert [r.id for r in tictactoe] == ["m4", "m2", "m0"]
    page = await store.list_matches(game_id=None, status=None, limit=2, before=(3.0, "m3"))
    assert [r.id for r in page] == ["m2", "m1"]
    assert await store.list_matches(game_id=None, status="finished", limit=10, before=None) == []


async def test_unfinished_matches_are_the_open_and_active_ones(store):
    await store.create_match(record("a", status="open"), Snapshot(0, {}))
    await store.create_match(record("b", status="active"), Snapshot(0, {}))
    await store.create_match(record("c", status="finished"), Snapshot(0, {}))
    assert sorted(r.id for r in await store.unfinished_matches()) == ["a", "b"]


async def test_create_request_ids_find_their_match(store):
    created = record()
    created.create_request_id = "create-1"
    await store.create_match(created, Snapshot(0, {}))
    assert (await store.find_match_by_request("create-1")).id == "m1"
    assert await store.find_match_by_request("create-2") is None


async def test_sqlite_keeps_everything_across_reopening(tmp_path):
    path = tmp_path / "durable.db"
    first = SQLiteStore(path)
    await first.open()
    await first.create_match(record(), Snapshot(0, {"a": 1}))
    await first.append(Append(record(version=1), [moved(1, 0, "r")]))
    await first.close()
    second = SQLiteStore(path)
    await second.open()
    assert (await second.get_match("m1")).version == 1
    assert await second.request_versions("m1") == {(0, "r"): 1}
    await second.close()


def moves_in_database_file(path, scratch) -> int:
    """The moves the database file itself holds, without its WAL: what checkpoints have copied there."""
    copy = scratch / "file-alone.db"
    shutil.copyfile(path, copy)
    try:
        with sqlite3.connect(copy) as db:
            return db.execute("SELECT count(*) FROM events WHERE match_id='m1'").fetchone()[0]
    except sqlite3.DatabaseError:  # copied halfway through a checkpoint's write: look again
        return 0
    finally:
        copy.unlink()
        copy.with_name(copy.name + "-wal").unlink(missing_ok=True)


async def test_sqlite_checkpoints_the_wal_off_the_loop(tmp_path):
    """A commit on the loop only appends to the WAL (SQLite's own checkpoint
    waits for BACKSTOP_PAGES); the store's thread copies it into the database
    file soon after."""
    (tmp_path / "data").mkdir()
    path = tmp_path / "data" / "checkpointed.db"
    store = SQLiteStore(path)
    await store.open()
    try:
        assert store._db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == BACKSTOP_PAGES
        await store.create_match(record(), Snapshot(0, {"a": 1}))
        await store.append(Append(record(version=1), [moved(1)]))
        await store.append(Append(record(version=2), [moved(2)]))
        deadline = time.monotonic() + 30  # the thread waits half a second for more commits; a busy machine is slow
        while moves_in_database_file(path, tmp_path) < 2:
            assert time.monotonic() < deadline, "the WAL was not checkpointed into the database file"
            await asyncio.sleep(0.05)
    finally:
        await store.close()


async def test_sqlite_refuses_a_database_from_a_newer_host(tmp_path):
    path = tmp_path / "future.db"
    sqlite3.connect(path).execute("PRAGMA user_version = 99").connection.close()
    with pytest.raises(RuntimeError, match="newer than this host"):
        await SQLiteStore(path).open()


def signed_in(match_id, created, subjects):
    """A match whose seats the signed-in users ``subjects`` hold."""
    return MatchRecord(id=match_id, game_id="tictactoe", rules_version="1", options={}, seed=1,
                       seats=[SeatRecord(i, "human", f"user {s}", "h", subject=s) for i, s in enumerate(subjects)],
                       status="active", version=0, create_time=created, update_time=created, creator="user:x")


async def test_creator_seed_choice_status_detail_and_seat_subjects_read_back(store):
    first = signed_in("m1", 1.0, ["ann", "bob"])
    first.seed_chosen, first.status_detail = True, {"reason": "ADMIN_ABORT", "message": "why"}
    await store.create_match(first, Snapshot(0, {}))
    assert await store.get_match("m1") == first


async def test_a_seat_record_without_subject_loads_as_before():
    assert SeatRecord.from_json({"index": 0, "kind": "human", "player_name": "p", "token_hash": "h", "bot": ""}) \
        == SeatRecord(0, "human", "p", "h")
    assert "subject" not in SeatRecord(0).to_json()  # anonymous seats keep their stored form


async def test_matches_of_a_player_are_listed_newest_first_by_page(store):
    for number in range(5):
        await store.create_match(signed_in(f"m{number}", float(number), ["ann", "bob"] if number % 2 else ["ann"]),
                                 Snapshot(0, {}))
    first = await store.list_matches(game_id=None, status=None, limit=2, before=None, player="ann")
    assert [r.id for r in first] == ["m4", "m3"]
    rest = await store.list_matches(game_id=None, status=None, limit=5, before=(first[-1].create_time, "m3"),
                                    player="ann")
    assert [r.id for r in rest] == ["m2", "m1", "m0"]
    assert [r.id for r in await store.list_matches(game_id=None, status=None, limit=9, before=None,
                                                   player="bob")] == ["m3", "m1"]


async def test_a_seat_change_updates_the_players_index(store):
    await store.create_match(signed_in("m1", 1.0, ["ann"]), Snapshot(0, {}))
    changed = signed_in("m1", 1.0, ["cat"]).replace(version=1)
    await store.append(Append(changed, [moved(1)], seats_changed=True))
    assert await store.list_matches(game_id=None, status=None, limit=9, before=None, player="ann") == []
    assert [r.id for r in await store.list_matches(game_id=None, status=None, limit=9, before=None,
                                                   player="cat")] == ["m1"]


async def test_status_detail_is_written_with_the_step_that_sets_it(store):
    await store.create_match(record(), Snapshot(0, {}))
    detail = {"reason": "OPEN_EXPIRED", "message": "nobody started it in time"}
    aborted = record(status="aborted", version=1).replace(status_detail=detail)
    await store.append(Append(aborted, [moved(1)], seats_changed=False, details_changed=True))
    assert (await store.get_match("m1")).status_detail == detail


async def test_only_matches_over_are_deleted_and_pruned(store):
    await store.create_match(record("open", created=1.0), Snapshot(0, {}))
    await store.create_match(record("done", created=1.0, status="finished"), Snapshot(0, {}))
    await store.create_match(record("new", created=50.0, status="aborted"), Snapshot(0, {}))
    await store.append(Append(record("done", created=1.0, status="finished", version=1), [moved(1)]))
    assert await store.delete_match("open") is False and await store.get_match("open") is not None
    assert await store.stale_open_matches(10.0, 10) == ["open"]
    assert await store.prune_over_matches(10.0, 10) == ["done"]
    assert await store.get_match("done") is None and await store.events("done") == []
    assert await store.delete_match("new") is True and await store.get_match("new") is None


async def test_active_matches_idle_longest_are_found_first(store):
    for match_id, updated, status in [("busy", 90.0, "active"), ("idle", 5.0, "active"), ("older", 2.0, "active"),
                                      ("waiting", 1.0, "open"), ("over", 1.0, "finished")]:
        await store.create_match(record(match_id, created=updated, status=status), Snapshot(0, {}))
    assert await store.idle_active_matches(10.0, 10) == ["older", "idle"]
    assert await store.idle_active_matches(10.0, 1) == ["older"]


async def test_a_notification_is_claimed_once_and_its_attempts_are_kept_in_order(store):
    # The unique key is what keeps two replicas from both sending one turn's notification.
    assert await store.claim_notification("turn:m1:3:0", "m1", '{"seat":0}', 1.0)
    assert not await store.claim_notification("turn:m1:3:0", "m1", '{"seat":0}', 2.0)
    assert await store.claim_notification("turn:m1:3:1", "m1", '{"seat":1}', 2.0)
    await store.record_delivery_attempt("turn:m1:3:0", 1, 3.0, 500, "HTTP 500")
    await store.record_delivery_attempt("turn:m1:3:0", 2, 4.0, 204, "")
    assert await store.delivery_attempts("turn:m1:3:0") == [(1, 3.0, 500, "HTTP 500"), (2, 4.0, 204, "")]
    assert await store.delivery_attempts("turn:m1:3:1") == []


async def test_a_queued_notification_is_due_at_once_and_each_attempt_is_claimed_by_one_holder(store):
    """The delivery queue (webhooks.py): a claim holds until it is released
    by the attempt's record or runs out; negative holds and retries stand
    for times already past, so every backend reads them by its own clock."""
    now = time.time()
    assert await store.claim_notification("turn:m1:3:0", "m1", '{"seat":0}', now)
    [first] = await store.claim_deliveries(time.time(), 60.0, 8)
    assert (first.key, first.match_id, first.body, first.attempts) == ("turn:m1:3:0", "m1", '{"seat":0}', 0)
    assert await store.claim_deliveries(time.time(), 60.0, 8) == []  # held while its attempt is made
    await store.record_delivery_attempt("turn:m1:3:0", 1, time.time(), 0, "refused", retry_in=3600.0)
    assert await store.claim_deliveries(time.time(), 60.0, 8) == []  # released, due in an hour
    await store.record_delivery_attempt("turn:m1:3:0", 1, time.time(), 0, "refused", retry_in=-1.0)
    assert await store.claim_deliveries(time.time(), 60.0, 8) == []  # a repeated record rewinds nothing

    assert await store.claim_notification("turn:m2:5:1", "m2", '{"seat":1}', now)
    await store.record_delivery_attempt("turn:m2:5:1", 1, time.time(), 503, "HTTP 503", retry_in=-1.0)
    [again] = await store.claim_deliveries(time.time(), -1.0, 8)  # due again; claimed, but the claim ran out
    assert (again.key, again.attempts) == ("turn:m2:5:1", 1)
    [taken_over] = await store.claim_deliveries(time.time(), 60.0, 8)  # its holder stopped: free for another
    assert taken_over == again
    await store.record_delivery_attempt("turn:m2:5:1", 2, time.time(), 204, "")
    assert await store.claim_deliveries(time.time(), -1.0, 8) == []  # delivered: not due any more
    assert [(a, s) for a, _, s, _ in await store.delivery_attempts("turn:m2:5:1")] == [(1, 503), (2, 204)]

    assert await store.claim_notification("finished:m3", "m3", "{}", now)
    await store.claim_deliveries(time.time(), 60.0, 8)
    await store.record_delivery_attempt("finished:m3", 1, time.time(), 500, "HTTP 500", retry_in=None)
    assert await store.claim_deliveries(time.time(), -1.0, 8) == []  # given up: not due any more


async def test_operators_list_deliveries_newest_first_and_a_retry_starts_a_new_round(store):
    """Part "gaps2": ListDeliveries' pages and filters; RetryDelivery makes
    only a failed delivery pending again, due at once, its attempts kept
    and the round counted from them."""
    for key, match_id, at in (("turn:m1:1:0", "m1", 10.0), ("turn:m1:2:1", "m1", 20.0), ("turn:m2:1:0", "m2", 20.0),
                              ("finished:m1", "m1", 30.0)):
        assert await store.claim_notification(key, match_id, '{"k":1}', at)
    newest = [r.key for r in await store.list_deliveries(None, None, None, 10)]
    assert newest == ["finished:m1", "turn:m2:1:0", "turn:m1:2:1", "turn:m1:1:0"]  # equal times: key descending
    assert [r.key for r in await store.list_deliveries(None, None, (20.0, "turn:m2:1:0"), 10)] == newest[2:]
    assert [r.key for r in await store.list_deliveries(None, "m1", None, 2)] == ["finished:m1", "turn:m1:2:1"]

    [claimed] = [d for d in await store.claim_deliveries(time.time(), 60.0, 8) if d.key == "turn:m1:1:0"]
    assert claimed.round_start == 0
    await store.record_delivery_attempt("turn:m1:1:0", 1, time.time(), 500, "HTTP 500", retry_in=None)
    [failed] = await store.list_deliveries("failed", None, None, 10)
    assert (failed.key, failed.state, failed.next_attempt, failed.create_time) == ("turn:m1:1:0", "failed", None, 10.0)
    assert [(a, s, e) for a, _, s, e in failed.attempts] == [(1, 500, "HTTP 500")]
    assert await store.retry_delivery("turn:m1:2:1", time.time()) == "pending"  # not failed: unchanged
    assert await store.retry_delivery("turn:nope:1:0", time.time()) is None
    assert await store.retry_delivery("turn:m1:1:0", time.time()) == "failed"
    retried = await store.delivery("turn:m1:1:0")
    assert retried.state == "pending" and retried.next_attempt is not None and len(retried.attempts) == 1
    [again] = [d for d in await store.claim_deliveries(time.time() + 1, 60.0, 8) if d.key == "turn:m1:1:0"]
    assert (again.attempts, again.round_start) == (1, 1)
    assert await store.retry_delivery("turn:m1:1:0", time.time()) == "pending"  # a second retry: nothing to do
    assert await store.delivery("turn:nope:1:0") is None


async def test_notifications_an_older_host_recorded_are_not_resumed_and_keep_what_their_attempts_say(tmp_path):
    """SQLite: a file at the schema before the delivery queue, with one
    notification delivered at its 2nd attempt and one never delivered."""
    from gamehost.host.store.sqlite import MIGRATIONS

    queue = next(i for i, migration in enumerate(MIGRATIONS) if "next_attempt" in migration)
    path = tmp_path / "older.db"
    with sqlite3.connect(path, isolation_level=None) as db:
        for version, migration in enumerate(MIGRATIONS[:queue]):
            db.executescript(f"BEGIN; {migration} PRAGMA user_version = {version + 1}; COMMIT;")
        db.executemany("INSERT INTO notifications VALUES (?,?,?,?)",
                       [("turn:m1:3:0", "m1", "{}", 1.0), ("turn:m1:4:1", "m1", "{}", 2.0)])
        db.executemany("INSERT INTO notification_attempts VALUES (?,?,?,?,?)",
                       [("turn:m1:3:0", 1, 1.5, 500, "HTTP 500"), ("turn:m1:3:0", 2, 2.5, 204, ""),
                        ("turn:m1:4:1", 1, 2.5, 0, "refused")])
    db.close()
    store = SQLiteStore(path)
    await store.open()
    try:
        assert await store.claim_deliveries(time.time(), 60.0, 8) == []
    finally:
        await store.close()
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT key, state, attempts, next_attempt FROM notifications ORDER BY key").fetchall()
    db.close()
    assert rows == [("turn:m1:3:0", "delivered", 2, None), ("turn:m1:4:1", "failed", 1, None)]


async def test_on_sqlite_a_claim_left_by_a_stopped_host_is_free_for_the_next(tmp_path):
    """One writer per file (the file lock): a claim the stopped host made
    (cut off mid-attempt) does not hold the next host back for its lease."""
    stopped, next_host = SQLiteStore(tmp_path / "store.db"), SQLiteStore(tmp_path / "store.db")
    await stopped.open()
    try:
        assert await stopped.claim_notification("finished:m1", "m1", "{}", time.time())
        assert [d.key for d in await stopped.claim_deliveries(time.time(), 3600.0, 8)] == ["finished:m1"]
        assert await stopped.claim_deliveries(time.time(), 3600.0, 8) == []  # its own claim holds
        with pytest.raises(StoreUnusable, match="in use by another gamehost process"):
            await next_host.open()
    finally:
        await stopped.close()
    await next_host.open()
    try:
        assert [d.key for d in await next_host.claim_deliveries(time.time(), 3600.0, 8)] == ["finished:m1"]
    finally:
        await next_host.close()


async def test_a_clock_is_written_with_the_step_that_charges_it(store):
    clocked = record()
    clocked.clock = {"initial": 60.0, "increment": 1.0, "per_move": 0.0, "remaining": [60.0, 60.0], "since": None}
    await store.create_match(clocked, Snapshot(0, {}))
    charged = clocked.replace(version=1, status="active",
                              clock={**clocked.clock, "remaining": [55.5, 60.0], "since": 7.0})
    await store.append(Append(charged, [moved(1)], seats_changed=False, clock_changed=True))
    assert (await store.get_match("m1")).clock == charged.clock


async def turns_of(store, subject, match_ids=("m1", "m2")) -> dict:
    return await store.player_turns(subject, list(match_ids))


async def my_turn_ids(store, subject) -> list[str]:
    """The my_turn listing, checked against its keys (what a poll's etag reads)."""
    listing = {"game_id": None, "status": "active", "limit": 9, "before": None, "player": subject, "my_turn": True}
    records = await store.list_matches(**listing)
    assert await store.list_match_keys(**listing) == [(r.id, r.version, r.create_time) for r in records]
    return [r.id for r in records]


async def test_the_turn_index_follows_each_step_and_keeps_when_a_turn_began(store):
    await store.create_match(signed_in("m1", 1.0, ["ann", "bob"]), Snapshot(0, {}))
    await store.create_match(signed_in("m2", 2.0, ["bob", "ann"]), Snapshot(0, {}))
    assert await my_turn_ids(store, "ann") == [] and await turns_of(store, "ann") == {}
    # Ann to move in m1 from time 5, Ann in m2 from time 6: newest first.
    await store.append(Append(signed_in("m1", 1.0, ["ann", "bob"]).replace(version=1, update_time=5.0),
                              [moved(1)], to_move=(0,)))
    await store.append(Append(signed_in("m2", 2.0, ["bob", "ann"]).replace(version=1, update_time=6.0),
                              [moved(1)], to_move=(1,)))
    assert await my_turn_ids(store, "ann") == ["m2", "m1"] and await my_turn_ids(store, "bob") == []
    assert await turns_of(store, "ann") == {"m1": 5.0, "m2": 6.0}
    # Still Ann's turn after a later step (a second move in parts, a seat change): it began at 5.
    away_bob = signed_in("m1", 1.0, ["ann", "bob"]).replace(version=2, update_time=7.0)
    away_bob.seats[1].away_until = 9.0
    await store.append(Append(away_bob, [moved(2)], seats_changed=True, to_move=(0, 1)))
    assert await turns_of(store, "ann") == {"m1": 5.0, "m2": 6.0}
    assert await turns_of(store, "bob") == {}  # away: a bot plays for Bob, it is not his turn
    # Bob's turn once Ann moved; a step whose seats to move were not asked leaves the index alone.
    await store.append(Append(signed_in("m1", 1.0, ["ann", "bob"]).replace(version=3, update_time=8.0),
                              [moved(3)], seats_changed=True, to_move=(1,)))
    await store.append(Append(signed_in("m1", 1.0, ["ann", "bob"]).replace(version=4, update_time=9.0),
                              [moved(4)]))
    assert await my_turn_ids(store, "ann") == ["m2"] and await turns_of(store, "bob") == {"m1": 8.0}
    # Over: nobody's turn.
    await store.append(Append(signed_in("m2", 2.0, ["bob", "ann"]).replace(version=2, update_time=9.0,
                                                                           status="finished"), [moved(2)]))
    assert await my_turn_ids(store, "ann") == [] and await turns_of(store, "ann") == {}
    assert await my_turn_ids(store, "bob") == ["m1"]
