"""The compiled placement search (gamehost-callisto-native): installed where the tests run under CI, used by the
plugin, refusing malformed tables and boards, and held by the conformance kit to the Python rules: a search that
answers otherwise in any way the rules can see fails the kit's check (r). The whole sweep's comparison runs in
test_callisto_conformance.py."""

from __future__ import annotations

import dataclasses
import os
import random

import pytest
from gamehost.sdk.search import LEVELS, SearchBot
from gamehost.testing.conformance import run_conformance

from gamehost_callisto import compiled, rules
from gamehost_callisto.game import Callisto

pytestmark = pytest.mark.skipif(compiled.COMPILED_SEARCH is None and not os.environ.get("CI"),
                                reason="gamehost-callisto-native is not installed (make installs it where cargo is)")


def test_the_plugin_plays_with_the_compiled_search():
    assert compiled.COMPILED_SEARCH is not None, "gamehost-callisto-native is not installed: make .venv/.installed"
    assert Callisto().search is compiled.COMPILED_SEARCH
    assert Callisto(rules.PYTHON_SEARCH).search is rules.PYTHON_SEARCH


def test_the_compiled_table_refuses_what_it_cannot_search():
    from gamehost_callisto_native import PlacementTable

    table = compiled.compiled_placements(2, False).compiled
    board = "".join(rules.empty_board(2)).encode()
    with pytest.raises(ValueError, match="a board of 399 cells was given to a table of 400 cells"):
        table.placements(board[:-1], 0, [0])
    with pytest.raises(ValueError, match="no seat 4 in this table"):
        table.some_fits(board, 4, [0])
    with pytest.raises(ValueError, match="no piece kind 11 in this table"):
        table.placements(board.replace(b".", b"b", 1), 0, [11])
    with pytest.raises(ValueError, match="a frame of 30 x 30 cells: 1 to 448 cells are supported"):
        PlacementTable(30, b".", [b"b"], [], b".", [])
    with pytest.raises(ValueError, match="anchor 399 puts a cell off the 20 x 20 frame"):
        PlacementTable(20, b".", [b"b"], [[([0, 1], [(399, "move")])]], b".", [])


def _reordered(search: rules.PlacementSearch) -> rules.PlacementSearch:
    """The same placements in another order: the ids and their order are what clients and a bot's replay see."""
    return rules.PlacementSearch(lambda state, seat, kinds: search.placements(state, seat, kinds)[::-1],
                                 search.some_fits)


def _seat_one_stuck(search: rules.PlacementSearch) -> rules.PlacementSearch:
    """Seat 1 declared unable to place a piece when it can: it is out too early, the next state differs."""
    return rules.PlacementSearch(search.placements, lambda state, seat: seat != 1 and search.some_fits(state, seat))


@pytest.mark.parametrize("faulty, found", [
    (_reordered, r"seat \d's legal moves: move 0 is"),
    (_seat_one_stuck, r"seat 0's move .* gives a state unlike the reference's: its out, to_move differ"),
], ids=["placements-reordered", "seat-declared-out"])
def test_the_kit_fails_a_search_that_answers_otherwise(faulty, found):
    search = compiled.COMPILED_SEARCH
    assert search is not None
    with pytest.raises(AssertionError, match=r"\(r\) " + found):
        run_conformance(Callisto(faulty(search)), seats=2, playouts=1, seed=7, reference=Callisto(rules.PYTHON_SEARCH))


def test_the_bots_grow_the_same_trees_on_either_search():
    """The search bots see the same moves, hints and next states: with an iteration budget, every level grows the
    same tree from the same rng on the compiled search as on the Python one, and so chooses the same move."""
    compiled_game, python_game = Callisto(), Callisto(rules.PYTHON_SEARCH)
    rng = random.Random(21)
    state = python_game.setup(2, python_game.default_options(), rng)
    for _ in range(9):  # past the columns, into the pieces
        seat = state["to_move"]
        state = python_game.apply(state, seat, rng.choice(python_game.legal_moves(state, seat)).args, rng)
    seat = state["to_move"]
    for level in LEVELS:
        bot = SearchBot(dataclasses.replace(level, iterations=40, seconds=1e9))
        trees = []
        for game in (compiled_game, python_game):
            think = bot.think(game, state, seat, game.legal_moves(state, seat), random.Random(level.level))
            think.run(float("inf"))
            trees.append((think.choice().id, sorted((move_id, child.visits, child.reward)
                                                    for move_id, child in think.root.children.items())))
        assert trees[0] == trees[1], level.name
