"""Moves in parts over real gRPC: the legal moves of Callisto and
Kensington carry paths of parts that narrow to each move, and the SVG of the
same view marks a target for every part (docs/protocol.md, "Moves in parts")."""

from __future__ import annotations

from gamehost.client import candidates, choices, composed, from_struct, path_problems
from gamehost.sdk.part_targets import target_problems
from gamehost.v1 import gamehost_pb2 as pb


def assert_composable(view: pb.View) -> None:
    """Every move with parts narrows to itself, and the SVG shows a target for each of its parts."""
    moves = list(view.legal_moves)
    assert path_problems(moves) == []
    for move in (move for move in moves if move.parts):
        path = [part.id for part in move.parts]
        assert composed(moves, path) is move
        for depth, part in enumerate(move.parts):
            assert part in choices(moves, path[:depth])
    assert target_problems(view.svg, moves) == []


def test_callisto_moves_are_composed_piece_turn_cell_and_the_svg_marks_each_part(client):
    match = client.create_match("callisto", seats=2, options={"start_seat": 0})
    tokens = [client.join(match.name).player_token for _ in range(2)]
    for turn in range(6):  # two rounds of columns, then pieces
        token = tokens[turn % 2]
        view = client.view(match.name, token, svg=True)
        assert_composable(view)
        moves = list(view.legal_moves)
        assert all(move.parts for move in moves)
        if turn < 4:
            assert [part.label for part in choices(moves, [])] == ["column"]
        else:
            pieces = choices(moves, [])
            assert len(moves) > 100 and len(pieces) > 5
            # A piece, then how it lies, then its cell: each choice narrows the candidates.
            turns = choices(moves, [pieces[0].id])
            cells = choices(moves, [pieces[0].id, turns[0].id])
            assert len(candidates(moves, [pieces[0].id, turns[0].id])) == len(cells) < len(moves)
        first = moves[0]
        client.move(match.name, token, move_id=first.id, expected_version=view.version)
        moved = client.log(match.name).events[-1]
        assert moved.kind == pb.EVENT_KIND_MOVED and from_struct(moved.move) == from_struct(first.move)


def test_kensington_placements_are_composed_tile_then_cell_and_the_svg_marks_each_part(client):
    match = client.create_match("kensington", seats=2, seed=5)
    tokens = [client.join(match.name).player_token for _ in range(2)]
    composed_views = 0
    for _ in range(12):
        view = client.view(match.name, tokens[0], svg=True)
        token = tokens[0]
        if not view.legal_moves:
            view = client.view(match.name, tokens[1], svg=True)
            token = tokens[1]
        assert_composable(view)
        moves = list(view.legal_moves)
        places = [move for move in moves if move.id.startswith("place:")]
        assert all(len(move.parts) == 2 and move.parts[0].id.startswith("tile:") for move in places)
        assert all(not move.parts for move in moves if not move.id.startswith("place:"))
        composed_views += bool(places)
        chosen = places[0] if places else moves[0]
        client.move(match.name, token, move_id=chosen.id, expected_version=view.version)
    assert composed_views >= 3
