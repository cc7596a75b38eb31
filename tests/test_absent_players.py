"""Absent players (BGA's zombie mode): in a match created with
absent_grace, a player who leaves is replaced by a bot after the grace
instead of the match being abandoned, and the seat's signed-in owner
takes it back by joining again."""

from __future__ import annotations

import uuid

import grpc
import pytest

from gamehost.client import GameHostError
from gamehost.v1 import gamehost_pb2 as pb
from gamehost.v1 import gamehost_pb2_grpc as pb_grpc


def seconds(value) -> float:
    return value.ToNanoseconds() / 1e9


def test_a_player_who_leaves_is_played_by_a_bot_after_the_grace_and_takes_the_seat_back(host, client):
    ada = (("x-fixture-user", f"ada-{uuid.uuid4().hex[:6]}"),)  # the fixture plugin's sign-in scheme
    match = client.create_match("tictactoe", seed=11, absent_grace=1.0).name
    with host.channel() as channel:
        stub = pb_grpc.GameHostStub(channel)
        joined = stub.JoinMatch(pb.JoinMatchRequest(name=match), metadata=ada)
        assert joined.seat == 0
        o = client.join(match).player_token
        left = stub.LeaveMatch(pb.LeaveMatchRequest(name=match, player_token=joined.player_token), metadata=ada)
        assert left.status == pb.MATCH_STATUS_ACTIVE  # not abandoned
        away = left.seats[0]
        assert (away.kind, away.bot) == (pb.SEAT_KIND_BOT, "random")
        assert seconds(away.away_until) >= seconds(left.update_time) + 1.0
        bot_move = next(e for e in client.watch(match) if e.kind == pb.EVENT_KIND_MOVED)
        assert bot_move.seat == 0 and seconds(bot_move.time) >= seconds(away.away_until)  # after the grace
        back = stub.JoinMatch(pb.JoinMatchRequest(name=match), metadata=ada)
        assert back.seat == 0 and back.match.seats[0].kind == pb.SEAT_KIND_HUMAN
        assert not back.match.seats[0].HasField("away_until")
        client.move(match, o, move_id=client.view(match, o).legal_moves[0].id)
        view = client.view(match, back.player_token)
        assert list(view.to_move) == [0]  # Ada's turn, not the bot's
        client.move(match, back.player_token, move_id=view.legal_moves[0].id)
    assert client.match(match).seats[0].kind == pb.SEAT_KIND_HUMAN


def test_a_grace_out_of_range_is_refused(client):
    with pytest.raises(GameHostError) as refused:
        client.create_match("tictactoe", absent_grace=-1.0)
    assert refused.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert refused.value.field_violations[0][0] == "absent_grace"


def test_a_player_who_keeps_timing_out_is_replaced_by_a_bot(client):
    match = client.create_match("tictactoe", seed=12, turn_timeout=0.3, absent_grace=0.0).name
    client.join(match)
    client.join(match)
    x_moves = []
    for event in client.watch(match):
        if event.kind == pb.EVENT_KIND_MOVED and event.seat == 0:
            x_moves.append(event)
        if event.kind == pb.EVENT_KIND_LEFT:
            break
    assert event.seat == 0 and event.version == x_moves[-1].version + 1  # right after X's third late move
    assert [e.timed_out for e in x_moves] == [True] * 3
    assert client.match(match).seats[0].kind == pb.SEAT_KIND_BOT
