"""Bad input gets the right status code, an actionable message, structured
details, and changes nothing: one test each."""

from __future__ import annotations

import contextlib

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from gamehost.client import GameHostError, to_struct
from gamehost.v1 import gamehost_pb2 as pb


@pytest.fixture()
def match(client):
    """A tictactoe match after X's first move (b2): O is to move."""
    created = client.create_match("tictactoe")
    x = client.join(created.name).player_token
    o = client.join(created.name).player_token
    client.move(created.name, x, move_id="b2")
    return created.name, x, o


def snapshot(client, name, token):
    log = client.log(name, token)
    view = client.view(name, token)
    return [(e.version, e.kind, e.label) for e in log.events], view.version, view.state


@contextlib.contextmanager
def unchanged(client, name, token):
    before = snapshot(client, name, token)
    yield
    assert snapshot(client, name, token) == before, "the match and its log are unchanged"


def test_unknown_game_is_not_found(client):
    with pytest.raises(GameHostError) as caught:
        client.create_match("chess")
    error = caught.value
    assert error.code == grpc.StatusCode.NOT_FOUND and error.reason == "GAME_NOT_FOUND"
    assert "games/chess" in error.message and "tictactoe" in error.message  # names what is served


def test_unknown_match_is_not_found(client):
    with pytest.raises(GameHostError) as caught:
        client.view("matches/does-not-exist")
    assert caught.value.code == grpc.StatusCode.NOT_FOUND and caught.value.reason == "MATCH_NOT_FOUND"
    assert "ListMatches" in caught.value.message


def test_resource_info_detail_names_the_missing_match(host):
    from gamehost.v1 import gamehost_pb2_grpc as pb_grpc

    with host.channel() as channel:
        with pytest.raises(grpc.RpcError) as caught:
            pb_grpc.GameHostStub(channel).GetMatch(pb.GetMatchRequest(name="matches/nope"))
    status = rpc_status.from_call(caught.value)
    infos = []
    for detail in status.details:
        info = error_details_pb2.ResourceInfo()
        if detail.Unpack(info):
            infos.append(info)
    assert infos and infos[0].resource_name == "matches/nope"


def test_malformed_resource_name_is_invalid_argument_with_a_field_violation(client):
    with pytest.raises(GameHostError) as caught:
        client.match("matches/a/b")
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.field_violations[0][0] == "name"


def test_malformed_move_is_invalid_argument(client, match):
    name, x, o = match
    with unchanged(client, name, o):
        with pytest.raises(GameHostError) as caught:
            client.move(name, o, move={"cell": "top left"})
    error = caught.value
    assert error.code == grpc.StatusCode.INVALID_ARGUMENT and error.reason == "MALFORMED_MOVE"
    assert "cell" in error.message and error.field_violations


MALFORMED_MOVES = {  # per game, a move without the game's move shape: INVALID_ARGUMENT, never FAILED_PRECONDITION
    "burgbaumeister": {"action": "jump"},
    "callisto": {"piece": "pass", "x": 0, "y": 0},
    "campanile": {"action": 3},
    "kensington": {"action": ["draw"]},
    "scalino": {"colour": 7, "level": 1, "cells": ["d4"]},
    "scalino-pyramid": {"piece": "the top one"},
}


@pytest.mark.parametrize("game", sorted(MALFORMED_MOVES))
def test_every_game_answers_a_malformed_move_with_invalid_argument(client, game):
    name = client.create_match(game).name
    tokens = [client.join(name).player_token for _ in range(2)]
    seat = client.view(name, tokens[0]).to_move[0]
    with unchanged(client, name, tokens[seat]):
        with pytest.raises(GameHostError) as caught:
            client.move(name, tokens[seat], move=MALFORMED_MOVES[game])
    error = caught.value
    assert error.code == grpc.StatusCode.INVALID_ARGUMENT and error.reason == "MALFORMED_MOVE", error.message


def test_missing_move_is_invalid_argument(client, match):
    name, x, o = match
    with unchanged(client, name, o):
        with pytest.raises(GameHostError) as caught:
            # The typed client always sends a move: send the raw request.
            client._call(client.stub.SubmitMove, pb.SubmitMoveRequest(name=name, player_token=o))
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.field_violations[0][0] == "move"


def test_move_out_of_turn_is_failed_precondition(client, match):
    name, x, o = match
    with unchanged(client, name, x):
        with pytest.raises(GameHostError) as caught:
            client.move(name, x, move={"cell": 0})
    assert caught.value.code == grpc.StatusCode.FAILED_PRECONDITION
    assert caught.value.reason == "NOT_YOUR_TURN" and "seat 1 is to move" in caught.value.message


def test_illegal_move_is_failed_precondition_with_the_rules_reason(client, match):
    name, x, o = match
    with unchanged(client, name, o):
        with pytest.raises(GameHostError) as caught:
            client.move(name, o, move={"cell": 4})
    error = caught.value
    assert error.code == grpc.StatusCode.FAILED_PRECONDITION and error.reason == "ILLEGAL_MOVE"
    assert "Cell b2 is already taken by X" in error.message and error.metadata["rule"] == "cell-occupied"


def test_unknown_move_id_lists_the_legal_ones(client, match):
    name, x, o = match
    with unchanged(client, name, o):
        with pytest.raises(GameHostError) as caught:
            client.move(name, o, move_id="b2")
    assert caught.value.code == grpc.StatusCode.FAILED_PRECONDITION
    assert "a3" in caught.value.message and caught.value.reason == "UNKNOWN_MOVE"


def test_stale_version_is_aborted(client, match):
    name, x, o = match
    with unchanged(client, name, o):
        with pytest.raises(GameHostError) as caught:
            client.move(name, o, move_id="a3", expected_version=3)
    assert caught.value.code == grpc.StatusCode.ABORTED and caught.value.reason == "STALE_VERSION"
    assert caught.value.metadata["current_version"] == "4"


def test_repeated_request_id_returns_the_first_answer_and_applies_once(client, match):
    name, x, o = match
    first = client.move(name, o, move_id="a3", request_id="req-1")
    with unchanged(client, name, o):
        again = client.move(name, o, move_id="a3", request_id="req-1")
        # A retry may even carry another move: the request id decides.
        other = client.move(name, o, move_id="c1", request_id="req-1")
    assert not first.replayed and again.replayed and other.replayed
    assert first.version == again.version == other.version


def test_wrong_token_is_unauthenticated(client, match):
    name, x, o = match
    with unchanged(client, name, o):
        with pytest.raises(GameHostError) as caught:
            client.move(name, "not-a-token", move_id="a3")
    assert caught.value.code == grpc.StatusCode.UNAUTHENTICATED and "JoinMatch" in caught.value.message


def test_token_of_another_match_is_unauthenticated(client, match):
    name, x, o = match
    other = client.create_match("tictactoe")
    stranger = client.join(other.name).player_token
    with pytest.raises(GameHostError) as caught:
        client.view(name, stranger)
    assert caught.value.code == grpc.StatusCode.UNAUTHENTICATED


def test_spectator_trying_to_move_is_permission_denied(client, match):
    name, x, o = match
    with unchanged(client, name, o):
        with pytest.raises(GameHostError) as caught:
            client.move(name, "", move_id="a3")
    assert caught.value.code == grpc.StatusCode.PERMISSION_DENIED
    assert "Spectators cannot move" in caught.value.message


def test_oversized_message_is_resource_exhausted(client, match):
    name, x, o = match
    with unchanged(client, name, o):
        with pytest.raises(GameHostError) as caught:
            client.move(name, o, move={"cell": 0, "padding": "x" * (2 << 20)})
    assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED


def test_invalid_options_are_field_violations(client):
    with pytest.raises(GameHostError) as caught:
        client.create_match("tictactoe", options={"board_size": 4})
    error = caught.value
    assert error.code == grpc.StatusCode.INVALID_ARGUMENT and error.reason == "INVALID_OPTIONS"
    assert "board_size" in error.message


def test_option_out_of_its_schema_names_the_field(client):
    with pytest.raises(GameHostError) as caught:
        client.create_match("crashy", options={"target": 12})
    assert caught.value.field_violations[0][0] == "options.target"
    assert "12 is greater than the maximum of 9" in caught.value.message


def test_options_that_do_not_fit_the_seat_count_are_refused_by_the_rules(client):
    with pytest.raises(GameHostError) as caught:
        client.create_match("crashy", options={"first_seat": 3})
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT and caught.value.reason == "INVALID_OPTIONS"
    assert caught.value.field_violations == [("options.first_seat", "first_seat must be a seat, 0 to 1.")]


def test_unknown_variant_lists_the_variants(client):
    with pytest.raises(GameHostError) as caught:
        client.create_match("crashy", variant="short")
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.field_violations == [("variant", "Crashy counter has no variant 'short' (variants: long).")]


def test_unknown_bot_names_the_bots_there_are(client):
    with pytest.raises(GameHostError) as caught:
        client._call(client.stub.CreateMatch, pb.CreateMatchRequest(game="games/tictactoe", bot_seats=[1],
                                                                    bot="grandmaster"))
    assert caught.value.field_violations == [
        ("bot", "no bot 'grandmaster' on this host "
                "(bots: broken, cheat, first, mcts-easy, mcts-hard, mcts-medium, random, slow, stuck).")]


def test_unknown_status_filter_is_invalid_argument(client):
    with pytest.raises(GameHostError) as caught:
        client._call(client.stub.ListMatches, pb.ListMatchesRequest(status=42))
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT and caught.value.field_violations[0][0] == "status"


def test_seat_count_out_of_range_is_invalid_argument(client):
    with pytest.raises(GameHostError) as caught:
        client.create_match("tictactoe", seats=3)
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.field_violations == [("seats", "Tic-tac-toe is played by 2 players, not 3.")]


def test_a_seat_count_between_the_allowed_ones_is_invalid_argument_naming_them(client):
    """Scalino is played by 2 or 4 (spec 3.3): 3 is refused before setup, not a plugin failure."""
    with pytest.raises(GameHostError) as caught:
        client.create_match("scalino", seats=3)
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.field_violations == [("seats", "Scalino is played by 2 or 4 players, not 3.")]


def test_joining_a_full_match_is_failed_precondition(client, match):
    name, x, o = match
    with pytest.raises(GameHostError) as caught:
        client.join(name)
    assert caught.value.code == grpc.StatusCode.FAILED_PRECONDITION and caught.value.reason == "MATCH_NOT_OPEN"


def test_taken_seat_is_failed_precondition(client):
    created = client.create_match("tictactoe")
    client.join(created.name, seat=1)
    with pytest.raises(GameHostError) as caught:
        client.join(created.name, seat=1)
    assert caught.value.reason == "SEAT_TAKEN" and "Open seats: 0" in caught.value.message


def test_watch_from_a_version_ahead_of_the_match_is_invalid_argument(client, match):
    name, x, o = match
    with pytest.raises(GameHostError) as caught:
        list(client.watch(name, after_version=99))
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT


def test_bad_page_token_is_invalid_argument(client):
    with pytest.raises(GameHostError) as caught:
        client._call(client.stub.ListMatches, pb.ListMatchesRequest(page_token="garbage!"))
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT and caught.value.reason == "INVALID_PAGE_TOKEN"


def test_crashing_rules_fail_the_move_with_internal_naming_the_plugin(client):
    created = client.create_match("crashy")
    a = client.join(created.name).player_token
    client.join(created.name)
    with unchanged(client, created.name, a):
        with pytest.raises(GameHostError) as caught:
            client.move(created.name, a, move_id="add3")
    error = caught.value
    assert error.code == grpc.StatusCode.INTERNAL and error.reason == "PLUGIN_ERROR"
    assert "fixture-crashy" in error.message and "ZeroDivisionError" in error.message
    assert error.metadata["hook"] == "apply"
    # The match goes on: the rules' in-place damage was not kept.
    answer = client.move(created.name, a, move_id="add1", view=True)
    assert answer.view.state.fields["count"].number_value == 1
