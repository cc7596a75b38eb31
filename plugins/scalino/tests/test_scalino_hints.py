"""Scalino's hints for search bots (hints.py): no rule of the game, a bot's
guess at which placements to try first."""

from __future__ import annotations

import copy
import random

from gamehost_scalino import hints
from gamehost_scalino.game import Scalino
from gamehost_scalino.rules import colour_scores

GAME = Scalino()


def random_positions(games: int, seed: int):
    """Positions of random 2- and 4-player games, under both staircase readings."""
    rng = random.Random(seed)
    for index in range(games):
        options = {"staircase_steps": ("adjacent", "level-change")[index // 2 % 2]}
        state = GAME.setup((2, 4)[index % 2], options, rng)
        while GAME.outcome(state) is None:
            yield state
            seat = GAME.to_move(state)[0]
            moves = GAME.legal_moves(state, seat)
            state = GAME.apply(state, seat, moves[rng.randrange(len(moves))].args, rng)


def test_a_placement_scores_the_staircase_points_its_colour_gains_now():
    """Spec 3.6: the score's first part is exactly what the placed colour's
    staircases are worth after the move, less before; the second its size."""
    checked = 0
    for step, state in enumerate(random_positions(4, seed=1)):
        if step % 3:
            continue
        seat = GAME.to_move(state)[0]
        before = colour_scores(state)
        score = hints.PlacementScore(state)
        for move in GAME.legal_moves(state, seat):
            after = colour_scores(GAME.apply(state, seat, move.args, random.Random(0)))
            colour = move.args["colour"]
            gain = after[colour]["points"] - before[colour]["points"]
            assert score(move) == (gain, len(move.args["cells"]))
            checked += gain > 0
    assert checked  # some placements did gain points


def test_order_lists_exactly_the_legal_moves_best_first_and_changes_nothing():
    for step, state in enumerate(random_positions(4, seed=2)):
        if step % 2:
            continue
        seat = GAME.to_move(state)[0]
        moves = GAME.legal_moves(state, seat)
        frozen = copy.deepcopy(state)
        order = GAME.order_moves(state, seat, moves, random.Random(0))
        assert sorted(move.id for move in order) == sorted(move.id for move in moves)
        scores = [hints.PlacementScore(state)(move) for move in order]
        assert scores == sorted(scores, reverse=True)
        assert state == frozen


def test_with_no_points_to_gain_the_biggest_bars_come_first():
    """The first piece covers the cross, at the centre, which higher levels
    cover: it counts no cell, so 3-cell bars lead and singles come last."""
    state = GAME.setup(4, {}, random.Random(0))
    seat = GAME.to_move(state)[0]
    order = GAME.order_moves(state, seat, GAME.legal_moves(state, seat), random.Random(0))
    sizes = [len(move.args["cells"]) for move in order]
    assert sizes == sorted(sizes, reverse=True) and sizes[0] == 3 and sizes[-1] == 1
