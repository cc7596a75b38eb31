"""Turn notifications by webhook: signed (HMAC-SHA256 over timestamp and
body), retried with backoff when the receiver fails, every attempt
recorded in the store, sent once per turn to signed-in players only, and
resumed from the store's queue by the next host (or another replica) when
the host stops. Players here sign in with an API key: anonymous seats are
not notified (a receiver could not reach them)."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import sqlite3
import subprocess
import sys
import time

import grpc
import pytest

from gamehost.client import GameHostError
from gamehost.v1 import gamehost_pb2 as pb
from hosts import HostProcess
from identities import write_api_keys
from webhook_receiver import SECRET, running_receiver


@pytest.fixture(scope="module")
def receiver():
    yield from running_receiver()


@pytest.fixture(scope="module")
def api_keys(tmp_path_factory):
    """An operator's key and a player's, in one file every host here reads."""
    path = tmp_path_factory.mktemp("keys") / "api-keys.json"
    return path, write_api_keys(path, ("ops", ["admin"]), ("ada", []), ("bo", []))


@pytest.fixture(scope="module")
def admin_key(api_keys):
    """conftest's fixture of that name, from this module's key file."""
    return api_keys[0], api_keys[1]["ops"]


@pytest.fixture(scope="module")
def player(api_keys):
    """A signed-in player's API key: the seats it takes are notified."""
    return api_keys[1]["ada"]


@pytest.fixture(scope="module")
def opponent(api_keys):
    """Another player's key (a player joining again gets their own seat back, not a second one)."""
    return api_keys[1]["bo"]


def join_as(host, key: str | None, match: str) -> pb.JoinMatchResponse:
    with host.client(key) as client:
        return client.join(match)


@pytest.fixture(scope="module")
def notifying_host(receiver, api_keys, tmp_path_factory):
    host = HostProcess("--api-keys", str(api_keys[0]), "--create-rate", "0",  # matches made quickly, one address
                       data_dir=tmp_path_factory.mktemp("webhooks"), env={
        "GAMEHOST_WEBHOOK_URL": f"http://127.0.0.1:{receiver.server_port}/hook",
        "GAMEHOST_WEBHOOK_SECRET": SECRET, "GAMEHOST_WEBHOOK_RETRY": "0.2"}).start()
    yield host
    host.stop()


def turns(match: str, seat: int):
    return lambda deliveries: [d for d in deliveries
                               if d[0]["type"] == "your_turn" and d[0]["match"] == match and d[0]["seat"] == seat]


def attempts_in_store(host, key) -> list[tuple]:
    with sqlite3.connect(f"file:{host.data_dir / 'gamehost.db'}?mode=ro", uri=True) as db:
        return db.execute("SELECT attempt, status, error FROM notification_attempts WHERE key=? ORDER BY attempt",
                          (key,)).fetchall()


def test_a_turn_notification_arrives_signed_with_a_timestamp(notifying_host, receiver, player, opponent):
    with notifying_host.client(player) as client:
        match = client.create_match("tictactoe", seed=1).name
        client.join(match)
    join_as(notifying_host, opponent, match)
    payload, body, headers = turns(match, 0)(receiver.wait_for(turns(match, 0)))[0]
    stamp = int(headers["Gamehost-Timestamp"])
    assert abs(stamp - time.time()) < 60
    expected = hmac.new(SECRET.encode(), f"{stamp}.".encode() + body, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(headers["Gamehost-Signature"], f"sha256={expected}")
    assert (payload["type"], payload["seat"], payload["player_name"], payload["subject"]) == \
        ("your_turn", 0, "Ada (key)", "ada")
    assert headers["Gamehost-Delivery"] == payload["key"]


def test_a_failed_delivery_is_retried_and_every_attempt_is_recorded(notifying_host, receiver, player, opponent):
    with notifying_host.client(player) as client:
        match = client.create_match("tictactoe", seed=2).name
        x = client.join(match).player_token
        started = join_as(notifying_host, opponent, match).match
        key = f"turn:{match.split('/')[1]}:{started.version + 1}:1"  # O's turn, once X has moved
        with receiver.arrived:
            receiver.failures[key] = 2
        client.move(match, x, move_id=client.view(match, x).legal_moves[0].id)
    delivered = receiver.wait_for(lambda deliveries: sum(d[0]["key"] == key for d in deliveries) == 3)
    delivered = [d for d in delivered if d[0]["key"] == key]
    assert len({body for _, body, _ in delivered}) == 1  # the same body each time, signed afresh
    deadline = time.time() + 30
    recorded = attempts_in_store(notifying_host, key)
    while len(recorded) < 3 and time.time() < deadline:  # the record follows the answer
        time.sleep(0.05)
        recorded = attempts_in_store(notifying_host, key)
    assert [(attempt, status) for attempt, status, _ in recorded] == [(1, 500), (2, 500), (3, 204)]
    assert recorded[0][2] == "HTTP 500"


def test_each_turn_is_notified_once_and_the_end_of_the_match_too(notifying_host, receiver, player):
    with notifying_host.client(player) as client:
        match = client.create_match("tictactoe", seed=3, bots=[1]).name
        x = client.join(match).player_token
        for event in client.watch(match):
            if event.kind == pb.EVENT_KIND_FINISHED:
                break
            view = client.view(match, x)
            if view.version == event.version and 0 in view.to_move:
                client.move(match, x, move_id=view.legal_moves[0].id)
    match_id = match.split("/")[1]
    delivered = receiver.wait_for(lambda deliveries: any(d[0]["key"] == f"finished:{match_id}" for d in deliveries))
    ours = [payload for payload, _, _ in delivered if payload["match"] == match]
    keys = [payload["key"] for payload in ours]
    assert len(keys) == len(set(keys))  # no turn twice
    turns_of_x = [p for p in ours if p["type"] == "your_turn"]
    assert turns_of_x and all(p["seat"] == 0 for p in turns_of_x)  # the bot's turns are not notified
    assert [p["type"] for p in ours].count("match_finished") == 1


def test_an_undo_ask_and_its_answers_notify_nobody_and_the_undo_notifies_the_turn(notifying_host, receiver, player,
                                                                                   opponent):
    with notifying_host.client(player) as client:
        match = client.create_match("tictactoe", seed=4).name
        x, o = client.join(match).player_token, join_as(notifying_host, opponent, match).player_token
        moved = client.move(match, x, move_id=client.view(match, x).legal_moves[0].id).version
        client.ask_undo(match, x)
        client.answer_undo(match, o, False)
        client.ask_undo(match, x)
        undone = client.answer_undo(match, o, True)
    assert undone.undone and undone.version == moved + 5
    match_id = match.split("/")[1]
    back_to_x = f"turn:{match_id}:{undone.version}:0"
    delivered = receiver.wait_for(lambda deliveries: any(d[0]["key"] == back_to_x for d in deliveries))
    versions = [payload["version"] for payload, _, _ in delivered if payload["match"] == match]
    assert moved in versions and not set(range(moved + 1, undone.version)) & set(versions)  # asks and answers: none


def queued_keys(host, match: str) -> list[str]:
    with sqlite3.connect(f"file:{host.data_dir / 'gamehost.db'}?mode=ro", uri=True) as db:
        return [key for (key,) in db.execute("SELECT key FROM notifications WHERE match_id=?",
                                             (match.split("/")[1],))]


def test_anonymous_seats_queue_no_notification_and_a_slow_receiver_does_not_hold_up_a_players(
        notifying_host, receiver, player):
    """Anonymous players' turns once filled the queue ahead of signed-in
    ones: with a receiver taking 1 s an answer, 24 anonymous matches would
    hold a player's notification back by 3 s (8 attempts at once)."""
    receiver.delay = 1.0
    try:
        with notifying_host.client() as anonymous:
            strangers = []
            for _ in range(24):
                match = anonymous.create_match("tictactoe").name
                x = anonymous.join(match).player_token
                anonymous.join(match)
                anonymous.move(match, x, move_id=anonymous.view(match, x).legal_moves[0].id)
                strangers.append(match)
            theirs = anonymous.create_match("tictactoe").name
            mine_first = anonymous.join(theirs).player_token
        started = time.monotonic()
        join_as(notifying_host, player, theirs)  # seat 1, signed in: told once X has moved
        with notifying_host.client() as anonymous:
            anonymous.move(theirs, mine_first, move_id=anonymous.view(theirs, mine_first).legal_moves[0].id)
        receiver.wait_for(turns(theirs, 1))
        took = time.monotonic() - started
    finally:
        receiver.delay = 0.0
    assert took < 2.5, f"the signed-in player's notification took {took:.1f} s"
    assert all(not queued_keys(notifying_host, match) for match in strangers)
    assert [key.split(":")[0] for key in queued_keys(notifying_host, theirs)] == ["turn"]  # seat 1's only


# ---------------------------------------------------------------- the queue outlives the host

def o_to_move_after_x(client, receiver, host, opponent: str) -> tuple[str, str]:
    """A tictactoe match where X has moved while the receiver answers 500 to
    the notification of O's turn (as a receiver that is down): its name and
    the key. O is ``opponent``, signed in: the seat a notification is for."""
    match = client.create_match("tictactoe").name
    x = client.join(match).player_token
    started = join_as(host, opponent, match).match
    key = f"turn:{match.split('/')[1]}:{started.version + 1}:1"
    with receiver.arrived:
        receiver.failures[key] = 1000
    client.move(match, x, move_id=client.view(match, x).legal_moves[0].id)
    return match, key


def receiver_up(receiver, key) -> int:
    """The receiver answers again; returns how many deliveries of ``key`` it had refused."""
    with receiver.arrived:
        receiver.failures[key] = 0
        return sum(d[0]["key"] == key for d in receiver.deliveries)


def wait_until(read, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while not (found := read()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert found, "condition not met in time"
    return found


def stop_once_serving(host) -> None:
    """Stop a host that may have delivered before it finished starting: a
    call answered means its loop is past start-up, signal handlers set."""
    with host.client() as client:
        client.games()
    assert host.stop() == 0


def check_delivered_once(receiver, key: str, refused: int, attempts: list[tuple]) -> None:
    """Exactly one delivery after the receiver came back, signed as every
    notification is, with the body queued at first; the attempts in the
    store numbered without gap or repeat, only the last one answered."""
    delivered = [d for d in receiver.deliveries if d[0]["key"] == key]
    assert len(delivered) == refused + 1
    payload, body, headers = delivered[-1]
    assert body == delivered[0][1] and payload["type"] == "your_turn" and payload["seat"] == 1
    stamp = int(headers["Gamehost-Timestamp"])
    expected = hmac.new(SECRET.encode(), f"{stamp}.".encode() + body, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(headers["Gamehost-Signature"], f"sha256={expected}")
    assert headers["Gamehost-Delivery"] == key
    assert [attempt for attempt, _ in attempts] == list(range(1, len(attempts) + 1))
    assert [status for _, status in attempts] == [500] * (len(attempts) - 1) + [204]


def test_a_delivery_pending_when_the_host_stops_is_made_once_by_the_next_host(receiver, start_host, tmp_path,
                                                                              api_keys, opponent):
    env = {"GAMEHOST_WEBHOOK_URL": f"http://127.0.0.1:{receiver.server_port}/hook",
           "GAMEHOST_WEBHOOK_SECRET": SECRET, "GAMEHOST_WEBHOOK_RETRY": "0.5"}  # 6 attempts over 15 s
    first = start_host("--api-keys", str(api_keys[0]), data_dir=tmp_path, env=env)
    with first.client() as client:
        match, key = o_to_move_after_x(client, receiver, first, opponent)
    wait_until(lambda: attempts_in_store(first, key))  # refused, recorded, pending
    assert first.stop() == 0
    with sqlite3.connect(f"file:{tmp_path / 'gamehost.db'}?mode=ro", uri=True) as db:
        state, claimed = db.execute("SELECT state, claimed_by FROM notifications WHERE key=?", (key,)).fetchone()
    assert state == "pending" and claimed is None
    refused = receiver_up(receiver, key)
    second = start_host("--api-keys", str(api_keys[0]), data_dir=tmp_path, env=env)
    wait_until(lambda: second.wait_for_log("notification delivered", match, notification=key, timeout=0))
    stop_once_serving(second)  # nothing more can come
    attempts = [(attempt, status) for attempt, status, _ in attempts_in_store(second, key)]
    check_delivered_once(receiver, key, refused, attempts)
    assert second.wait_for_log("notification delivered", match, notification=key)[0]["attempt"] == len(attempts)


def test_on_postgresql_another_replica_resumes_a_stopped_replicas_delivery_once(receiver, start_host,
                                                                                 postgres_url, api_keys, opponent):
    import psycopg

    env = {"GAMEHOST_WEBHOOK_URL": f"http://127.0.0.1:{receiver.server_port}/hook",
           "GAMEHOST_WEBHOOK_SECRET": SECRET, "GAMEHOST_WEBHOOK_RETRY": "0.5"}
    a, b = (start_host("--store", postgres_url, "--replica-id", name, "--api-keys", str(api_keys[0]), env=env)
            for name in "ab")

    def attempts() -> list[tuple]:
        with psycopg.connect(postgres_url) as conn:
            return conn.execute("SELECT attempt, status FROM notification_attempts WHERE key=%s ORDER BY attempt",
                                (key,)).fetchall()

    with a.client() as client:
        match, key = o_to_move_after_x(client, receiver, a, opponent)
    wait_until(attempts)
    assert a.stop() == 0  # the replica that queued it is gone; b sweeps the same queue
    refused = receiver_up(receiver, key)
    wait_until(lambda: b.wait_for_log("notification delivered", match, notification=key, timeout=0))
    stop_once_serving(b)
    check_delivered_once(receiver, key, refused, attempts())
    assert not a.wait_for_log("notification delivered", match, notification=key, timeout=0)


# ---------------------------------------------------------------- operators list and retry

@pytest.fixture(scope="module")
def quickly_failing_host(receiver, api_keys, tmp_path_factory):
    """Retries 0.05 s apart: a delivery is given up after its 6 attempts in about 2 s."""
    host = HostProcess("--api-keys", str(api_keys[0]), data_dir=tmp_path_factory.mktemp("give-up"), env={
        "GAMEHOST_WEBHOOK_URL": f"http://127.0.0.1:{receiver.server_port}/hook",
        "GAMEHOST_WEBHOOK_SECRET": SECRET, "GAMEHOST_WEBHOOK_RETRY": "0.05"}).start()
    yield host
    host.stop()


def gamehost_cli(host, token: str, *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "gamehost.cli.main", *args, "--host", host.target],
                          env={**os.environ, "GAMEHOST_TOKEN": token}, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def delivery_of(admin, match: str, key: str):
    found = [d for d in admin.deliveries(match=match) if d.key == key]
    return found[0] if found else None


def test_an_operator_lists_a_given_up_delivery_and_sends_it_again(quickly_failing_host, receiver, admin_key,
                                                                  opponent):
    host = quickly_failing_host
    with host.client() as client, host.client(admin_key[1]) as admin:
        match, key = o_to_move_after_x(client, receiver, host, opponent)
        failed = wait_until(lambda: (d := delivery_of(admin, match, key)) and d.state == pb.DELIVERY_STATE_FAILED
                            and d)
        assert [a.attempt for a in failed.attempts] == [1, 2, 3, 4, 5, 6]
        assert {(a.http_status, a.error) for a in failed.attempts} == {(500, "HTTP 500")}
        assert not failed.HasField("next_attempt_time")
        assert failed.body["type"] == "your_turn" and failed.body["seat"] == 1 and failed.match == match
        assert key in [d.key for d in admin.deliveries(state=pb.DELIVERY_STATE_FAILED)]
        assert key not in [d.key for d in admin.deliveries(state=pb.DELIVERY_STATE_DELIVERED)]

        listed = gamehost_cli(host, admin_key[1], "admin", "deliveries", "--match", match, "--state", "failed")
        assert listed.splitlines() == [f"{key} failed attempts=6 last: HTTP 500"]

        refused = receiver_up(receiver, key)
        retried = gamehost_cli(host, admin_key[1], "admin", "redeliver", key)
        assert retried.startswith(f"{key} pending attempts=6 last: HTTP 500 next attempt ")
        delivered = wait_until(lambda: (d := delivery_of(admin, match, key)) and d.state == pb.DELIVERY_STATE_DELIVERED
                               and d)
    assert [(a.attempt, a.http_status) for a in delivered.attempts] == [(n, 500) for n in range(1, 7)] + [(7, 204)]
    check_delivered_once(receiver, key, refused, [(a.attempt, a.http_status) for a in delivered.attempts])


def test_a_new_round_after_a_retry_has_its_full_attempts(quickly_failing_host, receiver, admin_key,
                                                         opponent):
    """The receiver still down: the retried delivery is attempted 6 more
    times, its backoff starting again, then given up again."""
    with quickly_failing_host.client() as client, quickly_failing_host.client(admin_key[1]) as admin:
        match, key = o_to_move_after_x(client, receiver, quickly_failing_host, opponent)
        wait_until(lambda: (d := delivery_of(admin, match, key)) and d.state == pb.DELIVERY_STATE_FAILED)
        admin.retry_delivery(key)
        again = wait_until(lambda: (d := delivery_of(admin, match, key)) and d.state == pb.DELIVERY_STATE_FAILED
                           and len(d.attempts) > 6 and d)
    assert [a.attempt for a in again.attempts] == list(range(1, 13))
    gaps = [(b.time.ToNanoseconds() - a.time.ToNanoseconds()) / 1e9 for a, b in zip(again.attempts, again.attempts[1:])]
    # The backoff starts again: 0.05 s after the round's first attempt, 0.8 s before its last, as in the first round.
    assert gaps[10] >= 0.8 and gaps[4] >= 0.8 and gaps[6] < gaps[10]


def test_retrying_what_cannot_be_retried_is_refused_with_the_reason(quickly_failing_host, receiver, admin_key,
                                                                    player, opponent):
    with quickly_failing_host.client(player) as client, quickly_failing_host.client(admin_key[1]) as admin:
        match = client.create_match("tictactoe", seed=7).name
        client.join(match)
        started = join_as(quickly_failing_host, opponent, match).match
        key = f"turn:{match.split('/')[1]}:{started.version}:0"  # X's first turn
        delivered = wait_until(lambda: (d := delivery_of(admin, match, key)) and d.state == pb.DELIVERY_STATE_DELIVERED
                               and d)
        cases = {key: (grpc.StatusCode.FAILED_PRECONDITION, "DELIVERY_NOT_FAILED"),
                 "turn:nosuchmatch:1:0": (grpc.StatusCode.NOT_FOUND, "DELIVERY_NOT_FOUND"),
                 "": (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_FIELD"),
                 "x" * 300: (grpc.StatusCode.INVALID_ARGUMENT, "INPUT_TOO_LARGE")}  # the limits, before the call
        for bad, (code, reason) in cases.items():
            with pytest.raises(GameHostError) as refused:
                admin.retry_delivery(bad)
            assert (refused.value.code, refused.value.reason) == (code, reason), bad
        assert delivery_of(admin, match, key) == delivered  # nothing changed
    with quickly_failing_host.client() as anonymous:
        for call in (lambda: anonymous.retry_delivery(key), anonymous.deliveries):
            with pytest.raises(GameHostError) as refused:
                call()
            assert (refused.value.code, refused.value.reason) == (grpc.StatusCode.UNAUTHENTICATED,
                                                                   "AUTHENTICATION_REQUIRED")


def test_deliveries_are_listed_newest_first_in_pages(quickly_failing_host, receiver, admin_key,
                                                     player):
    with quickly_failing_host.client(player) as client, quickly_failing_host.client(admin_key[1]) as admin:
        match = client.create_match("tictactoe", bots=[1]).name
        x = client.join(match).player_token
        for _ in range(3):
            view = client.view(match, x)
            if view.status != pb.MATCH_STATUS_ACTIVE:
                break
            client.move(match, x, move_id=view.legal_moves[0].id, expected_version=view.version)
            wait_until(lambda: 0 in client.view(match, x).to_move or
                       client.view(match, x).status != pb.MATCH_STATUS_ACTIVE)
        every = wait_until(lambda: (found := admin.deliveries(match=match)) and len(found) >= 3 and found)
        paged = admin.deliveries(match=match, page_size=1)
        assert [d.key for d in paged] == [d.key for d in every]
        times = [d.create_time.ToNanoseconds() for d in every]
        assert times == sorted(times, reverse=True)
        with pytest.raises(GameHostError) as refused:
            admin.deliveries(match="games/tictactoe")
        assert (refused.value.code, refused.value.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_NAME")
