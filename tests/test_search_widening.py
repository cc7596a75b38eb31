"""Progressive widening in the search bots (sdk/search.py): a node tried
``visits`` times holds at most ``ceil(widening * visits ** widening_exponent)``
moves, takes them in the order the game would play them out, and the bot
still finds a win in a small game."""

from __future__ import annotations

import random

import pytest

from gamehost.host.plugins import load_catalog
from gamehost.sdk.search import LEVELS, SearchBot, SearchLevel

CATALOG = load_catalog()


def level(iterations: int, **widening: float) -> SearchLevel:
    """A level whose iteration budget ends every search (the clock never
    does), so the tree does not depend on the machine's load."""
    return SearchLevel("test", "test", 3, iterations=iterations, seconds=600, playout_cap=200, **widening)


@pytest.fixture(scope="module")
def callisto_midgame():
    """A 2-player Callisto position after the opening columns and a few
    random pieces: well over a hundred legal moves."""
    game = CATALOG.games["callisto"].game
    rng = random.Random(11)
    state = game.setup(2, game.default_options(), rng)
    for _ in range(6):
        seat = game.to_move(state)[0]
        moves = game.legal_moves(state, seat)
        state = game.apply(state, seat, moves[rng.randrange(len(moves))].args, rng)
    seat = game.to_move(state)[0]
    assert len(game.legal_moves(state, seat)) > 100
    return game, state, seat


@pytest.mark.parametrize("widening, widening_exponent", [(1.0, 0.5), (2.0, 0.4)])
def test_widening_and_widening_exponent_bound_the_moves_a_node_tries(callisto_midgame, widening, widening_exponent):
    game, state, seat = callisto_midgame
    bounded = level(60, widening=widening, widening_exponent=widening_exponent)
    root = SearchBot(bounded).search(game, state, seat, random.Random(1))
    assert root.visits == 60
    # The last iteration saw 59 visits: the root may hold as many moves as that allows, and does.
    assert len(root.children) == bounded.moves_allowed(59) < 60
    assert sum(child.visits for child in root.children.values()) == 60


def test_without_widening_every_iteration_tries_a_new_move(callisto_midgame):
    """The behaviour widening replaces: with an unbounded widening each of
    the 60 iterations adds a root move, so each is tried once."""
    game, state, seat = callisto_midgame
    root = SearchBot(level(60, widening=1000.0)).search(game, state, seat, random.Random(1))
    assert len(root.children) == 60 and all(child.visits == 1 for child in root.children.values())


def test_a_node_adds_the_moves_the_game_would_play_out_first(callisto_midgame):
    """Callisto's order_moves puts the biggest pieces first: the root's
    moves are all pentominoes while one fits."""
    game, state, seat = callisto_midgame
    root = SearchBot(level(40)).search(game, state, seat, random.Random(2))
    pentominoes = {"W5", "X5", "T5", "U5"}
    assert {move_id.split(":")[0] for move_id in root.children} <= pentominoes


def test_the_shipped_levels_widen():
    assert all(level.widening >= 1 and 0 < level.widening_exponent < 1 for level in LEVELS)
    hard = LEVELS[-1]
    assert hard.moves_allowed(100) < 100  # a hard think's ~100-250 iterations in Callisto stay on few moves


@pytest.mark.parametrize("seed", range(4))
def test_widening_still_finds_the_win_in_a_small_game(seed):
    """Tic-tac-toe, X at a3 and b3, O at a2 and b2: X wins at c3 at once
    (and must, or O wins at c2). A narrow widening still finds it."""
    game = CATALOG.games["tictactoe"].game
    state = game.setup(2, game.default_options(), random.Random(0))
    for cell in (0, 3, 1, 4):
        state = game.apply(state, game.to_move(state)[0], {"cell": cell}, random.Random(0))
    seat = game.to_move(state)[0]
    bot = SearchBot(level(200, widening=1.0, widening_exponent=0.5))
    move = bot.choose(game, state, seat, game.legal_moves(state, seat), random.Random(seed))
    assert move.args == {"cell": 2}


class OrderedTicTacToe(type(CATALOG.games["tictactoe"].game)):
    """Tic-tac-toe with bot hints a test can see: moves ordered highest cell
    first, playouts taking the lowest free cell, and a count of the calls."""

    def __init__(self):
        self.calls = {"order_moves": 0, "legal_moves": 0, "playout_move": 0}

    def order_moves(self, state, seat, moves, rng):
        self.calls["order_moves"] += 1
        return sorted(moves, key=lambda move: -move.args["cell"])

    def legal_moves(self, state, seat):
        self.calls["legal_moves"] += 1
        return super().legal_moves(state, seat)

    def playout_move(self, state, seat, rng):
        self.calls["playout_move"] += 1
        return min(super().legal_moves(state, seat), key=lambda move: move.args["cell"])


def test_a_node_adds_its_moves_in_the_game_s_order_moves():
    game = OrderedTicTacToe()
    state = game.setup(2, game.default_options(), random.Random(0))
    seat = game.to_move(state)[0]
    bounded = level(12)
    root = SearchBot(bounded).search(game, state, seat, random.Random(3))
    added = len(root.children)
    assert added == bounded.moves_allowed(11) < 9
    highest_first = [move.id for move in sorted(game.legal_moves(state, seat), key=lambda move: -move.args["cell"])]
    assert set(root.children) == set(highest_first[:added])
    # Each iteration adds one move; the root's were asked for once, not once per move added.
    assert game.calls["order_moves"] <= 12 - added + 1


def test_playouts_take_the_game_s_playout_move_without_listing_legal_moves():
    game = OrderedTicTacToe()
    state = game.setup(2, game.default_options(), random.Random(0))
    seat = game.to_move(state)[0]
    SearchBot(level(1)).search(game, state, seat, random.Random(3))
    # One iteration: the root lists its moves once, adds one, and the
    # playout fills the other eight cells (or stops at a win) by playout_move.
    assert game.calls["legal_moves"] == 1
    assert 4 <= game.calls["playout_move"] <= 8


class ShortSightedTicTacToe(OrderedTicTacToe):
    """Playouts of at most two moves, then the game's evaluate (counted)."""

    playout_horizon = 2

    def evaluate(self, state):
        self.calls["evaluate"] = self.calls.get("evaluate", 0) + 1
        return [0.5, 0.5]


def test_a_game_s_playout_horizon_cuts_playouts_short_for_its_evaluate():
    """A game's ``playout_horizon`` caps a playout below the level's cap:
    one iteration from the empty board plays two playout moves (a game
    needs at least five to end), then asks ``evaluate``."""
    game = ShortSightedTicTacToe()
    state = game.setup(2, game.default_options(), random.Random(0))
    SearchBot(level(1)).search(game, state, game.to_move(state)[0], random.Random(3))
    assert game.calls["playout_move"] == 2
    assert game.calls["evaluate"] == 1


def test_a_level_without_move_hints_never_asks_the_game_which_moves_are_good():
    """Levels differ in knowledge as well as budget: one without
    ``move_hints`` adds moves and plays out at random, so the game's
    order_moves and playout_move go unasked (its evaluate still scores)."""
    game = ShortSightedTicTacToe()
    state = game.setup(2, game.default_options(), random.Random(0))
    unhinted = SearchLevel("test", "test", 2, iterations=12, seconds=600, playout_cap=200, move_hints=False)
    root = SearchBot(unhinted).search(game, state, game.to_move(state)[0], random.Random(3))
    assert root.visits == 12 and len(root.children) == unhinted.moves_allowed(11)
    assert game.calls["order_moves"] == game.calls["playout_move"] == 0
    assert game.calls["evaluate"] == 12  # every playout was cut at the game's horizon
    hinted = ShortSightedTicTacToe()
    SearchBot(level(12)).search(hinted, state, hinted.to_move(state)[0], random.Random(3))
    assert hinted.calls["order_moves"] > 0 and hinted.calls["playout_move"] > 0


def test_every_shipped_level_plays_with_the_game_s_move_hints():
    """The levels differ in budget: guided playouts pay at every budget."""
    assert all(level.move_hints for level in LEVELS)
