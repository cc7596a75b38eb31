"""Text and SVG pictures of both Scalino games."""

from __future__ import annotations

import random
import re

from gamehost.client.composing import composed, path_problems
from gamehost.sdk.part_targets import target_problems

from gamehost_scalino.game import Scalino, ScalinoPyramid
from gamehost_scalino.rules import colour_scores

SCALINO = Scalino()
PYRAMID = ScalinoPyramid()

DATA_MOVE = re.compile(r'data-move="([^"]*)"')


def played(game, seats, moves, seed=4):
    rng = random.Random(seed)
    state = game.setup(seats, game.default_options(), rng)
    for _ in range(moves):
        seat = game.to_move(state)[0]
        state = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)).args, rng)
    return state


def test_text_shows_the_top_view_with_levels_and_uncounted_cells(scalino_position, complete_pyramid):
    text = SCALINO.render_text(scalino_position(*complete_pyramid[:2]))
    rows = text.splitlines()
    assert "  1 B1 G1 B1 B1 R1 R1 R1" in rows
    # c4-e4 is green on level 2 below its final height: lower case.
    assert "  4 G1 Y2 g2 g2 g2 R2 R1" in rows
    assert "Player 4 green: in hand 0 x 1, 0 x 2, 0 x 3; staircases" in text
    assert "28 points" in text


def test_svg_marks_every_legal_placement_in_parts_a_piece_then_its_starting_cell():
    for seats, moves in ((2, 0), (2, 9), (4, 14)):
        state = played(SCALINO, seats, moves)
        legal = SCALINO.legal_moves(state, SCALINO.to_move(state)[0])
        svg = SCALINO.render_svg(state, legal)
        assert svg.startswith("<svg") and svg.endswith("</svg>")
        assert path_problems(legal) == [] and target_problems(svg, legal) == []
        for move in legal:
            piece, start = move.parts
            assert piece.id.startswith(f"piece:{move.args['colour']}:{len(move.args['cells'])}")
            assert start.id == f"cell:{move.id.split(':')[1].split('-')[0]}"  # the bar's top or left cell
            assert composed(legal, [piece.id, start.id]) is move


def test_svg_outlines_each_staircase(scalino_position, complete_pyramid):
    state = scalino_position(*complete_pyramid[:2])
    svg = SCALINO.render_svg(state, [])
    staircases = [path for score in colour_scores(state).values() for path in score["staircases"]]
    assert svg.count('<polyline') == sum(len(path) > 1 for path in staircases)
    assert svg.count('class="staircase"') == len(staircases)


def test_pyramid_pictures_mark_every_takeable_piece():
    state = played(PYRAMID, 3, 5)
    legal = PYRAMID.legal_moves(state, PYRAMID.to_move(state)[0])
    svg = PYRAMID.render_svg(state, legal)
    assert sorted(DATA_MOVE.findall(svg)) == sorted(move.id for move in legal)
    text = PYRAMID.render_text(state)
    assert text.startswith("Démonte la pyramide: Player")
    assert "Player 3:" in text
