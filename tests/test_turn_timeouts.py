"""Turn timeouts: a player who does not move in time gets a random legal
move played for them, once, and the clock restarts at every move."""

from __future__ import annotations

import time

import grpc
import pytest

from gamehost.client import GameHostError
from gamehost.v1 import gamehost_pb2 as pb


def first_moves(client, match: str, count: int) -> list[pb.MatchEvent]:
    moves = []
    for event in client.watch(match):
        if event.kind == pb.EVENT_KIND_MOVED:
            moves.append(event)
            if len(moves) == count:
                return moves
    return moves


def test_a_player_who_does_not_move_in_time_gets_a_random_move_played_for_them(client):
    match = client.create_match("tictactoe", seed=5, turn_timeout=0.4)
    assert match.turn_timeout.ToNanoseconds() == 400_000_000
    client.join(match.name)
    started = client.join(match.name).match
    deadline = started.turn_deadline.ToNanoseconds() / 1e9
    assert deadline == pytest.approx(started.update_time.ToNanoseconds() / 1e9 + 0.4)
    first, second = first_moves(client, match.name, 2)
    assert (first.seat, first.timed_out, second.seat, second.timed_out) == (0, True, 1, True)
    assert first.time.ToNanoseconds() / 1e9 >= deadline
    assert second.time.ToNanoseconds() / 1e9 >= first.time.ToNanoseconds() / 1e9 + 0.4  # the clock restarted
    logged = [e for e in client.log(match.name).events if e.kind == pb.EVENT_KIND_MOVED]
    assert [e.timed_out for e in logged[:2]] == [True, True]


def test_a_move_in_time_is_the_players_and_restarts_the_clock(client):
    match = client.create_match("tictactoe", seed=6, turn_timeout=1.0).name
    x = client.join(match).player_token
    client.join(match)
    time.sleep(0.5)
    answer = client.move(match, x, move_id=client.view(match, x).legal_moves[0].id)
    moved = client.match(match)
    assert moved.turn_deadline.ToNanoseconds() / 1e9 == pytest.approx(moved.update_time.ToNanoseconds() / 1e9 + 1.0)
    ours, theirs = first_moves(client, match, 2)
    assert (ours.version, ours.timed_out) == (answer.version, False)
    assert (theirs.seat, theirs.timed_out) == (1, True)
    assert theirs.time.ToNanoseconds() - ours.time.ToNanoseconds() >= 1_000_000_000


def test_no_deadline_is_shown_without_a_timeout_or_while_a_bot_moves(client):
    untimed = client.create_match("tictactoe", bots=[1])
    client.join(untimed.name)
    assert not client.match(untimed.name).HasField("turn_timeout")
    timed = client.create_match("tictactoe", bots=[0], turn_timeout=60, seed=1, seats=2)
    assert timed.HasField("turn_timeout") and not timed.HasField("turn_deadline")  # open: nobody moves yet


@pytest.mark.parametrize("seconds", [-1, 31 * 24 * 3600])
def test_a_turn_timeout_out_of_range_is_refused(client, seconds):
    with pytest.raises(GameHostError) as refused:
        client.create_match("tictactoe", turn_timeout=seconds)
    assert refused.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert refused.value.field_violations[0][0] == "turn_timeout"


def test_a_deadline_that_passed_while_the_host_was_down_fires_after_restart(start_host, tmp_path):
    host = start_host(data_dir=tmp_path)
    with host.client() as client:
        match = client.create_match("tictactoe", turn_timeout=0.5, seed=8).name
        client.join(match)
        client.join(match)
    host.kill()
    time.sleep(0.6)
    restarted = start_host(data_dir=tmp_path)
    with restarted.client() as client:
        first = first_moves(client, match, 1)[0]
        assert (first.seat, first.timed_out) == (0, True)


def test_a_timed_out_move_the_rules_crash_on_is_tried_again_until_one_is_played(host, client):
    # Crashy's rules crash on "add 3", which the random move picks half the time.
    match = client.create_match("crashy", seed=7, turn_timeout=0.2)
    client.join(match.name)
    client.join(match.name)
    moves = first_moves(client, match.name, 5)
    assert [(e.label, e.timed_out) for e in moves] == [("add 1", True)] * 5
    assert client.match(match.name).status == pb.MATCH_STATUS_FINISHED
    assert host.wait_for_log("host move failed; trying again", match.name, timed_out=True)
