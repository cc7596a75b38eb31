"""Chess clocks: each seat's bank of time runs while it is to move, an
increment is added after its moves, and a match whose player runs out ends
by the game's timeout rule (the host's: the player who ran out is last)."""

from __future__ import annotations

import grpc
import pytest

from gamehost.client import GameHostError
from gamehost.v1 import gamehost_pb2 as pb


def seconds(value) -> float:
    return value.ToNanoseconds() / 1e9


def events_until_finished(client, match: str) -> list[pb.MatchEvent]:
    """The match's events up to FINISHED, waited for on the watch stream."""
    seen = []
    for event in client.watch(match):
        seen.append(event)
        if event.kind == pb.EVENT_KIND_FINISHED:
            break
    return seen


def test_a_player_whose_clock_runs_out_loses_by_the_hosts_timeout_rule(client):
    match = client.create_match("tictactoe", seed=3, clock=1.0).name
    client.join(match)
    started = client.join(match).match
    assert list(started.clock.running) == [0]
    assert seconds(started.clock.deadline) == pytest.approx(seconds(started.update_time) + 1.0)
    events = events_until_finished(client, match)
    ran_out, finished = events[-2:]
    assert (ran_out.kind, ran_out.seat) == (pb.EVENT_KIND_CLOCK_RAN_OUT, 0)
    assert seconds(ran_out.time) >= seconds(started.clock.deadline)
    over = client.match(match)
    assert over.status == pb.MATCH_STATUS_FINISHED
    assert (list(over.result.ranking), list(over.result.winners)) == ([2, 1], [1])
    assert [seconds(left) for left in over.clock.remaining] == [0.0, 1.0]
    assert not over.clock.running and not over.clock.HasField("deadline")


def test_a_move_charges_the_movers_time_and_adds_the_increment(client):
    match = client.create_match("tictactoe", seed=4, clock=30.0, increment=2.0).name
    x = client.join(match).player_token
    started = client.join(match).match
    answer = client.move(match, x, move_id=client.view(match, x).legal_moves[0].id)
    moved = client.match(match)
    event = [e for e in client.log(match).events if e.version == answer.version][0]
    spent = seconds(event.time) - seconds(started.update_time)
    x_left, o_left = (seconds(left) for left in moved.clock.remaining)
    assert x_left == pytest.approx(30.0 - spent + 2.0, abs=1e-3)
    assert x_left > 30.0 and o_left == 30.0  # a quick move gains more than it spends; O's clock did not run
    assert list(moved.clock.running) == [1]
    assert seconds(moved.clock.deadline) == pytest.approx(seconds(moved.clock.since) + 30.0, abs=1e-3)


@pytest.mark.parametrize("fields, field", [
    ({"clock": 1.0, "turn_timeout": 5.0}, "turn_timeout"),
    ({"clock": 31 * 24 * 3600.0}, "clock_initial"),
    ({"increment": 2.0}, "clock_initial"),
    ({"clock": 60.0, "increment": 2 * 24 * 3600.0}, "clock_increment"),
    ({"move_time": 60.0, "clock": 60.0}, "correspondence_move_time"),
    ({"move_time": 31 * 24 * 3600.0}, "correspondence_move_time"),
])
def test_a_clock_it_cannot_have_is_refused(client, fields, field):
    with pytest.raises(GameHostError) as refused:
        client.create_match("tictactoe", **fields)
    assert refused.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert refused.value.field_violations[0][0] == field


def test_a_correspondence_clock_gives_each_move_its_full_time_and_ends_the_match_when_one_runs_out(client):
    match = client.create_match("tictactoe", seed=5, move_time=1.5).name
    x = client.join(match).player_token
    client.join(match)
    client.move(match, x, move_id=client.view(match, x).legal_moves[0].id)
    moved = client.match(match)
    assert seconds(moved.clock.per_move) == 1.5
    assert [seconds(left) for left in moved.clock.remaining] == [1.5, 1.5]  # X's move time is whole again
    ran_out = events_until_finished(client, match)[-2]
    assert (ran_out.kind, ran_out.seat) == (pb.EVENT_KIND_CLOCK_RAN_OUT, 1)
    assert list(client.match(match).result.ranking) == [1, 2]


def test_a_clock_that_ran_out_while_the_host_was_down_ends_the_match_after_restart(start_host, tmp_path):
    host = start_host(data_dir=tmp_path)
    with host.client() as client:
        match = client.create_match("tictactoe", seed=9, clock=2.0, increment=0.5).name
        x = client.join(match).player_token
        client.join(match)
        client.move(match, x, move_id=client.view(match, x).legal_moves[0].id)
        charged = client.match(match).clock
    host.kill()
    restarted = start_host(data_dir=tmp_path)
    with restarted.client() as client:
        ran_out = events_until_finished(client, match)[-2]
        assert (ran_out.kind, ran_out.seat) == (pb.EVENT_KIND_CLOCK_RAN_OUT, 1)
        over = client.match(match)
        assert list(over.result.ranking) == [1, 2]
        assert over.clock.remaining[0] == charged.remaining[0]  # X's charge and increment were stored
        assert seconds(over.clock.remaining[0]) > 2.0


def test_a_timeout_rule_that_sees_the_position_ranks_by_it(client):
    """Game.timeout_ranking, in the rules worker: in the fixture game
    sealed-notes the seat that ran out is last and the others are placed by
    the totals they have written."""
    match = client.create_match("sealed-notes", seats=3, clock=1.0).name
    tokens = [client.join(match).player_token for _ in range(3)]
    client.move(match, tokens[0], move_id="write1")
    client.move(match, tokens[1], move_id="write3")
    ran_out, finished = events_until_finished(client, match)[-2:]
    assert (ran_out.kind, ran_out.seat) == (pb.EVENT_KIND_CLOCK_RAN_OUT, 2)
    assert list(client.match(match).result.ranking) == [2, 1, 3]


@pytest.mark.parametrize("game", ["sealed-notes-broken-clock-rule", "clock-hook-stalls"])
def test_a_timeout_rule_that_raises_or_never_answers_leaves_the_hosts_rule_to_end_the_match(client, game):
    """sealed-notes-broken-clock-rule's Game.timeout_ranking raises;
    clock-hook-stalls' gamehost_clock_ran_out hook never answers. The hook is
    plugin code too: it runs in the game's worker under the rules budget, so
    one that never answers costs its budget, not the host's loop (which once
    ran it and stalled for good)."""
    match = client.create_match(game, seats=2, clock=0.5).name
    client.join(match)
    client.join(match)
    ran_out, finished = events_until_finished(client, match)[-2:]
    assert (ran_out.kind, finished.kind) == (pb.EVENT_KIND_CLOCK_RAN_OUT, pb.EVENT_KIND_FINISHED)
    assert list(client.match(match).result.ranking) == [2, 1]  # the host's rule: who ran out is last


def test_a_game_with_a_timeout_rule_of_its_own_ends_by_it(client):
    # The fixture plugin's rule for crashy: running out of time is a draw.
    match = client.create_match("crashy", seed=2, clock=0.5).name
    client.join(match)
    client.join(match)
    ran_out, finished = events_until_finished(client, match)[-2:]
    assert (ran_out.kind, ran_out.seat) == (pb.EVENT_KIND_CLOCK_RAN_OUT, 0)
    assert list(client.match(match).result.ranking) == [1, 1]
