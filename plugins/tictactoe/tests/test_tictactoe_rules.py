"""Tic-tac-toe, rule by rule."""

from __future__ import annotations

import random

import pytest

from gamehost.sdk import IllegalMove, MalformedMove
from gamehost.testing.conformance import run_conformance
from gamehost_tictactoe.game import TicTacToe

GAME = TicTacToe()
RNG = random.Random(0)


def play(*cells: int) -> dict:
    state = GAME.setup(2, {}, RNG)
    for turn, cell in enumerate(cells):
        state = GAME.apply(state, turn % 2, {"cell": cell}, RNG)
    return state


def test_x_moves_first_on_an_empty_grid():
    state = GAME.setup(2, {}, RNG)
    assert GAME.to_move(state) == (0,)
    assert [m.id for m in GAME.legal_moves(state, 0)] == ["a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1"]
    assert GAME.legal_moves(state, 1) == []


def test_players_alternate():
    assert GAME.to_move(play(4)) == (1,)
    assert GAME.to_move(play(4, 0)) == (0,)


def test_a_mark_goes_on_an_empty_cell_only():
    state = play(4)
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(state, 1, {"cell": 4}, RNG)
    assert refused.value.rule == "cell-occupied" and "b2 is already taken by X" in refused.value.reason


def test_only_the_player_to_move_may_mark():
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(play(4), 0, {"cell": 0}, RNG)
    assert refused.value.rule == "not-your-turn"


def test_a_move_names_a_cell_on_the_board():
    with pytest.raises(MalformedMove):
        GAME.apply(play(), 0, {"square": 1}, RNG)
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(play(), 0, {"cell": 9}, RNG)
    assert refused.value.rule == "off-board"


@pytest.mark.parametrize("cell", [float("nan"), float("inf"), float("-inf"), [4], {"cell": 4}, None, True])
def test_a_cell_that_is_not_a_whole_number_is_a_malformed_move(cell):
    state = play()
    with pytest.raises(MalformedMove):
        GAME.apply(state, 0, {"cell": cell}, RNG)
    assert state == play()


@pytest.mark.parametrize("line", [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)])
def test_three_in_a_line_wins(line):
    others = [c for c in range(9) if c not in line]
    # X takes the line, O plays elsewhere without making a line of its own
    o_cells = others[:2]
    state = play(line[0], o_cells[0], line[1], o_cells[1], line[2])
    outcome = GAME.outcome(state)
    assert outcome.winners == [0] and outcome.summary == "X wins."
    assert GAME.to_move(state) == () and GAME.legal_moves(state, 1) == []


def test_full_grid_without_a_line_is_a_draw():
    state = play(0, 1, 2, 4, 3, 5, 7, 6, 8)  # X O X / X O O / O X X
    outcome = GAME.outcome(state)
    assert outcome.ranking == [1, 1] and outcome.scores == [0.5, 0.5] and outcome.summary == "Draw."


def test_no_move_after_the_game_is_over():
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(play(0, 3, 1, 4, 2), 1, {"cell": 8}, RNG)
    assert refused.value.rule == "game-over"


def test_apply_leaves_its_input_alone():
    state = play(4)
    GAME.apply(state, 1, {"cell": 0}, RNG)
    assert state == play(4)


def test_svg_marks_every_empty_cell_as_a_move_target():
    state = play(4)
    svg = GAME.render_svg(GAME.view(state, 1), GAME.legal_moves(state, 1))
    assert svg.count("data-move=") == 8 and 'data-move="b2"' not in svg


def test_text_rendering_shows_marks_and_coordinates():
    assert GAME.render_text(play(0, 4)).splitlines() == ["3 X . .", "2 . O .", "1 . . .", "  a b c"]


def test_conformance_over_500_random_games():
    report = run_conformance(GAME, seats=2, playouts=500, legible_text=True, tappable_targets=True)
    assert report.playouts == 500 and sum(report.wins) > 0
