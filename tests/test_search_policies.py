"""The search's own playout and tree policies (sdk/search.py): MAST picks
among legal moves only, a search is a function of its position and its rng
in every game, and RAVE's statistics follow the moves played below a node."""

from __future__ import annotations

import random

import pytest

from gamehost.host.plugins import load_catalog
from gamehost.sdk.search import LEVELS, MoveAverages, SearchBot, SearchLevel

CATALOG = load_catalog()
TWO_PLAYER_GAMES = sorted(game_id for game_id, entry in CATALOG.games.items()
                          if 2 in entry.game.allowed_player_counts())


def level(iterations: int, move_hints: bool = True, mast: bool = True, rave: float = 30.0) -> SearchLevel:
    """Bound by iterations only, so trees do not depend on the machine's load."""
    return SearchLevel("test", "test", 2, iterations=iterations, seconds=600, playout_cap=30,
                       move_hints=move_hints, mast=mast, rave=rave)


def midgame(game_id: str, moves: int = 6):
    """A 2-player position a few random moves in, with a choice to make."""
    game = CATALOG.games[game_id].game
    rng = random.Random(5)
    state = game.setup(2, game.default_options(), rng)
    for _ in range(moves):
        if game.outcome(state) is not None:
            break
        seat = game.to_move(state)[0]
        legal = game.legal_moves(state, seat)
        state = game.apply(state, seat, legal[rng.randrange(len(legal))].args, rng)
    seat = game.to_move(state)[0]
    return game, state, seat


class LegalOnly:
    """A game whose ``apply`` fails the test on a move its rules do not list:
    every move a search plays, in its tree or its playouts, passes here."""

    def __init__(self, game) -> None:
        self.game = game
        self.applied = 0

    def __getattr__(self, name):
        return getattr(self.game, name)

    def apply(self, state, seat, move, rng):
        legal = [candidate.args for candidate in self.game.legal_moves(state, seat)]
        assert move in legal, f"{self.game.id}: {move} is not among seat {seat}'s legal moves"
        self.applied += 1
        return self.game.apply(state, seat, move, rng)


@pytest.mark.parametrize("game_id", TWO_PLAYER_GAMES)
def test_guided_and_averaged_playouts_play_legal_moves_and_searches_repeat(game_id):
    """With the game's hints and without (MAST alone), and as the shipped
    levels play (hints, neither MAST nor RAVE), every move played is legal;
    the same position and seed grow the same tree and choose the same move."""
    game, state, seat = midgame(game_id)
    moves = game.legal_moves(state, seat)
    for settings in (level(8), level(8, move_hints=False), level(8, mast=False, rave=0.0)):
        checked = LegalOnly(game)
        bot = SearchBot(settings)
        first = bot.think(checked, state, seat, moves, random.Random(21))
        first.run(float("inf"))
        assert first.iterations == 8 and checked.applied > 8  # playouts went past the tree
        again = bot.think(game, state, seat, moves, random.Random(21))
        again.run(float("inf"))
        assert again.choice() == first.choice()
        assert {move_id: (child.visits, child.reward, child.amaf_visits)
                for move_id, child in again.root.children.items()} == \
            {move_id: (child.visits, child.reward, child.amaf_visits)
             for move_id, child in first.root.children.items()}
        assert again.averages.totals == first.averages.totals


def test_mast_takes_the_best_averaged_legal_move_and_a_draw_s_value_for_unknown_ones():
    game = CATALOG.games["tictactoe"].game
    state = game.setup(2, game.default_options(), random.Random(0))
    legal = game.legal_moves(state, 0)
    averages = MoveAverages()
    averages.add([(0, legal[3].id), (1, legal[5].id), (0, legal[7].id)], [1.0, 0.0])
    averages.add([(0, legal[7].id)], [0.0, 1.0])
    assert averages.mean(0, legal[3].id) == 1.0 and averages.mean(0, legal[7].id) == 0.5
    assert averages.mean(1, legal[3].id) == 0.5  # another mover's average is its own
    for seed in range(5):
        assert averages.best(0, legal, random.Random(seed)) == legal[3]
        assert averages.best(1, legal, random.Random(seed)) != legal[5]  # it lost: any unknown move is better
    without_the_best = [move for move in legal if move != legal[3]]
    assert averages.best(0, without_the_best, random.Random(0)) in without_the_best


def test_rave_counts_a_move_its_mover_played_below_a_node():
    """In tic-tac-toe's opening a root move is also scored by the iterations
    in which the first player took that cell later: after a search, root
    moves carry more all-moves-as-first visits than visits, and none
    without RAVE."""
    game = CATALOG.games["tictactoe"].game
    state = game.setup(2, game.default_options(), random.Random(0))
    root = SearchBot(level(40)).search(game, state, 0, random.Random(2))
    assert all(child.amaf_visits >= child.visits for child in root.children.values())
    assert sum(child.amaf_visits for child in root.children.values()) > 40
    plain = SearchBot(level(40, rave=0.0)).search(game, state, 0, random.Random(2))
    assert all(child.amaf_visits == 0 for child in plain.children.values())


def test_the_shipped_levels_are_plain_uct_over_the_game_s_hints():
    """MAST and RAVE assume a move id names the same move wherever it is
    played, which many games' ids do not: the shipped levels leave both off."""
    assert all(not shipped.mast and shipped.rave == 0 and shipped.move_hints for shipped in LEVELS)
