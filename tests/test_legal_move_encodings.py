"""The lean move path: legal moves encoded once and shared between
views, and a watched match's views brought back with the move itself.

The first tests check the shared encodings against the message built field
by field; the last plays Callisto (hundreds of legal moves a position) over
real gRPC with both seats and a spectator watching, and checks every event's
view against the rules run in the test on the same moves.
"""

from __future__ import annotations

import random

from gamehost.client import from_struct, to_struct
from gamehost.host.codec.legal_move_encodings import LegalMoveEncodings
from gamehost.host.plugins import load_catalog
from gamehost.host.rpc.messages import legal_move
from gamehost.sdk.rules import Move, Part
from gamehost.v1 import gamehost_pb2 as pb


def encodings() -> LegalMoveEncodings:
    return LegalMoveEncodings(lambda move: legal_move(move).SerializeToString())


def view_of(table: LegalMoveEncodings, moves) -> pb.View:
    view = pb.View(version=7)
    view.MergeFromString(table.view_field(moves))
    return view


def test_shared_encodings_make_the_view_the_message_built_field_by_field():
    table = encodings()
    game = load_catalog().games["callisto"].game
    rng = random.Random(5)
    state = game.setup(3, game.default_options(), rng)
    for _ in range(12):  # positions that list nearly the same moves: most come from the table
        seat = list(game.to_move(state))[0]
        moves = game.legal_moves(state, seat)
        assert view_of(table, moves) == pb.View(version=7, legal_moves=[legal_move(m) for m in moves])
        state = game.apply(state, seat, rng.choice(moves).args, rng)


def test_arguments_equal_in_python_but_not_on_the_wire_are_kept_apart():
    table = encodings()
    moves = [Move("a", "A", {"x": 1}), Move("a", "A", {"x": True}), Move("a", "A", {"x": 1.5}),
             Move("a", "A", {"x": [1, "b"]}), Move("a", "A", {"x": [True, "b"]}), Move("a", "A", {"x": {"y": 1}}),
             Move("a", "A", {"x": 1}, (Part("p", "P"),))]
    for _ in range(2):  # the second time, from the table
        view = view_of(table, moves)
        assert list(view.legal_moves) == [legal_move(move) for move in moves]
        assert view.legal_moves[1].move.fields["x"].WhichOneof("kind") == "bool_value"


def newest_view(watch) -> pb.View:
    """The view a watcher starting from the beginning receives with the newest event."""
    while not (event := next(watch)).HasField("view"):
        pass
    return event.view


def test_watched_callisto_events_carry_the_views_the_rules_give(client):
    """Each event's view (brought back with the move, legal moves from the
    shared encodings) against the rules run here on the same moves."""
    game = load_catalog().games["callisto"].game
    options = {**game.default_options(), "start_seat": 0}  # no draw left: the rules here play the same match
    state = game.setup(2, options, random.Random(0))
    match = client.create_match("callisto", seats=2, options={"start_seat": 0})
    tokens = [client.join(match.name).player_token for _ in range(2)]
    watchers = [client.stub.WatchMatch(pb.WatchMatchRequest(name=match.name, player_token=token))
                for token in tokens]
    spectator = client.stub.WatchMatch(pb.WatchMatchRequest(name=match.name))
    rng = random.Random(3)

    def expect(view: pb.View, seat: int | None) -> None:
        assert from_struct(view.state) == from_struct(to_struct(dict(game.view(state, seat))))
        assert list(view.to_move) == list(game.to_move(state))
        listed = game.legal_moves(state, seat) if seat in view.to_move else []
        assert list(view.legal_moves) == [legal_move(move) for move in listed]

    try:
        views = {seat: newest_view(watch) for seat, watch in enumerate(watchers)}
        newest_view(spectator)
        for _ in range(4):
            mover = views[0].to_move[0]
            assert len(views[mover].legal_moves) > 1
            move = rng.choice(list(views[mover].legal_moves))
            client.stub.SubmitMove(pb.SubmitMoveRequest(name=match.name, player_token=tokens[mover],
                                                        move_id=move.id, expected_version=views[mover].version))
            state = game.apply(state, mover, from_struct(move.move), random.Random(0))
            for seat, watch in enumerate(watchers):
                event = next(watch)
                assert event.kind == pb.EVENT_KIND_MOVED and event.view.version == event.version
                expect(event.view, seat)
                views[seat] = event.view
            expect(next(spectator).view, None)
    finally:
        for watch in (*watchers, spectator):
            watch.cancel()
