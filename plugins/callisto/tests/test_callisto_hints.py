"""Callisto's hints for search bots (hints.py): no rule of the game, a bot's
guess at how good a placement is, and the playout policy built on it."""

from __future__ import annotations

import random
import statistics

from gamehost_callisto import hints, rules
from gamehost_callisto.game import Callisto

GAME = Callisto()
BLUE, YELLOW = 0, 1


def position(pieces: dict[str, list[tuple[int, int]]]) -> dict:
    """A 2-player game past its opening, blue to move, with ``pieces``
    (board mark: cells as (x, y)) on the board."""
    state = rules.new_game(2, False, BLUE)
    state.update(one_sided=False, games=1, first_start=BLUE, results=[], opening_turns=0)
    for mark, cells in pieces.items():
        state["board"] = rules.placed_on(state["board"], [y * rules.FRAME + x for x, y in cells], mark)
    return state


def score(state, move_id: str) -> int:
    move = next(move for move in GAME.legal_moves(state, BLUE) if move.id == move_id)
    return hints.PlacementScore(state, BLUE)(move)


BLUE_L = [(8, 5), (9, 5), (10, 5), (8, 6)]  # a blue L-tetromino, foot down on the left


def test_a_placement_scores_the_reach_it_opens_for_its_owner():
    """One point per free cell next to the placement that was not next to
    the owner's colour yet: where later pieces may go (§2.6 a)."""
    state = position({"b": BLUE_L})
    # Tucked under the L: 2 cells (6) + reach x09y07, x10y07, x11y06 (3).
    assert score(state, "I2:r0:x09y06") == 9
    # Extending the L's bar: 2 cells (6) + reach x11y04, x12y04, x13y05, x11y06, x12y06 (5).
    assert score(state, "I2:r0:x11y05") == 11


def test_a_placement_scores_the_reach_it_takes_from_other_colours():
    """One point per cell of the placement that was next to another colour,
    where that player could have placed."""
    state = position({"b": BLUE_L, "y": [(12, 4), (13, 4)]})
    # 2 cells (6) + reach x11y04, x13y05, x11y06, x12y06 (4) + x12y05 taken from yellow (1).
    assert score(state, "I2:r0:x11y05") == 11


def _after_opening(seed: int, pieces: int = 0):
    """A 2-player game after its random opening columns and ``pieces`` random placements."""
    rng = random.Random(seed)
    state = GAME.setup(2, {}, rng)
    while rules.in_opening(state) or pieces:
        if not rules.in_opening(state):
            pieces -= 1
        seat = GAME.to_move(state)[0]
        moves = GAME.legal_moves(state, seat)
        state = GAME.apply(state, seat, moves[rng.randrange(len(moves))].args, rng)
    return state


def test_the_search_tries_big_pieces_first_and_the_third_column_last():
    """A cell in hand is worth three cells of reach: pentominoes lead the
    order, and the third column (no penalty, at most 5 points) follows every
    piece (at least 6)."""
    state = _after_opening(3)
    seat = GAME.to_move(state)[0]
    moves = GAME.legal_moves(state, seat)
    order = GAME.order_moves(state, seat, moves, random.Random(0))
    assert sorted(move.id for move in order) == sorted(move.id for move in moves)
    assert order[0].args["piece"] in {"W5", "X5", "T5", "U5"}
    kinds = [move.args["piece"] for move in order]
    assert "column" in kinds and kinds.index("column") == len(kinds) - kinds.count("column")


def test_playouts_place_the_best_scored_of_a_few_biggest_pieces():
    state = _after_opening(5)
    seat = GAME.to_move(state)[0]
    moves = GAME.legal_moves(state, seat)
    placement_score = hints.PlacementScore(state, seat)
    pentominoes = [move for move in moves if move.args["piece"] in {"W5", "X5", "T5", "U5"}]
    chosen = [GAME.rollout_move(state, seat, moves, random.Random(run)) for run in range(30)]
    assert all(move.args["piece"] in {"W5", "X5", "T5", "U5"} for move in chosen)
    assert len({move.id for move in chosen}) > 5  # playouts stay varied
    assert (statistics.mean(map(placement_score, chosen))
            > statistics.mean(map(placement_score, pentominoes)) + 1)


def test_the_quick_playout_move_is_the_rollout_move_among_all_legal_moves():
    """``playout_move`` skips listing the legal moves, not the policy: with
    the same rng it picks what ``rollout_move`` picks among all of them, in
    the opening (None), the midgame and the endgame."""
    for seed, pieces in ((1, 0), (2, 4), (3, 12), (4, 24), (5, 30)):
        state = GAME.setup(2, {}, random.Random(seed)) if pieces == 0 else _after_opening(seed, pieces)
        if GAME.outcome(state) is not None:
            continue
        seat = GAME.to_move(state)[0]
        legal = GAME.legal_moves(state, seat)
        for run in range(3):
            quick = GAME.playout_move(state, seat, random.Random(run))
            listed = GAME.rollout_move(state, seat, legal, random.Random(run))
            assert (quick and quick.id) == (listed and listed.id)
