"""A frozen copy of the search bots as they were before the search was
reworked (commit 92e7e5e's ``gamehost.sdk.search``), kept for
``bench/bot_versions.py`` only: each level of today's search plays the same
level of this one at the same think time. Do not change it; the host never
imports it.

The original module's description follows.

A search bot for every game: information-set Monte Carlo tree search.

The bot sees the game through the rules SDK alone. Each iteration draws a
state the bot's seat cannot tell from the real one (``Game.sample_state``),
walks the tree of moves with UCT (each move's statistics count only the
iterations in which it was legal, so one tree serves every sampled state),
adds one move, plays the rest out (random moves, or the game's
``playout_move`` or ``rollout_move`` at a level with ``move_hints``) up to
a cap (the level's, or the game's shorter ``playout_horizon``), and scores
the end: each seat's share of the other seats it beat (a tie counts half), or the game's
``evaluate`` where the cap cut the playout short. The move most often tried
at the root is played.

Progressive widening keeps the iterations on few moves where a position
has hundreds (Callisto: a median of 198): a node tried ``visits`` times
holds at most ``ceil(widening * visits ** widening_exponent)`` moves, so its
moves are tried again and compared instead of each being tried once. The
move added next is the first untried one in the game's ``order_moves``, or
the game's ``rollout_move`` among the untried ones, or a random one.

All chance comes from the rng the engine hands ``choose`` (sampling, playout
moves, the rules' own chance), so a bot's move is a function of the position
and that rng whenever the iteration budget ends the search before the time
budget does; either way the match log replays, since it records the moves.
"""

from __future__ import annotations

import math
import os
import random
import time
from dataclasses import dataclass
from typing import Any, Sequence

from gamehost.sdk.rules import Game, Move, Outcome, rank_shares

EXPLORATION = 0.7  # UCT's constant for rewards in [0, 1]
DEADLINE_CHECK_EVERY = 16  # playout moves between looks at the clock


@dataclass(frozen=True)
class SearchLevel:
    """A strength: how many iterations, at most how many seconds a move,
    and how many moves a playout may last before it is scored as it stands.

    ``widening`` and ``widening_exponent`` bound the moves a node has tried
    (progressive widening): ``ceil(widening * visits ** widening_exponent)``."""

    name: str
    title: str
    level: int
    iterations: int
    seconds: float
    playout_cap: int
    widening: float = 1.5
    widening_exponent: float = 0.5
    move_hints: bool = True
    """Whether the search asks the game which moves are good (``order_moves``,
    ``rollout_move``, ``playout_move``); without, it adds moves and plays
    out at random. How a playout is scored (``playout_horizon``,
    ``evaluate``) serves every level."""

    def moves_allowed(self, visits: int) -> int:
        """How many moves a node tried ``visits`` times may have tried."""
        return math.ceil(self.widening * max(1, visits) ** self.widening_exponent)


LEVELS = (
    SearchLevel("mcts-easy", "Search bot, easy", 1, iterations=60, seconds=0.1, playout_cap=40, move_hints=False),
    SearchLevel("mcts-medium", "Search bot, medium", 2, iterations=300, seconds=0.35, playout_cap=100,
                move_hints=False),
    SearchLevel("mcts-hard", "Search bot, hard", 3, iterations=1500, seconds=0.9, playout_cap=200),
)


THINK_SCALE_VARIABLE = "GAMEHOST_BOT_THINK_SCALE"


def think_scale() -> float:
    """The factor on every level's budgets (``gamehost serve --bot-think-scale``)."""
    try:
        return max(0.0, float(os.environ.get(THINK_SCALE_VARIABLE, "1")))
    except ValueError:
        return 1.0


def set_think_scale(scale: float) -> None:
    """Set the factor for this process and the rules workers it starts."""
    os.environ[THINK_SCALE_VARIABLE] = repr(float(scale))


class _Node:
    __slots__ = ("children", "visits", "reward", "available", "ranked")

    def __init__(self) -> None:
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.reward = 0.0  # summed over visits, for the seat whose move leads here
        self.available = 0  # iterations in which this node's move was legal
        self.ranked: dict[int, list[str]] = {}  # per mover: the game's order_moves, as move ids

    def score(self) -> float:
        return self.reward / self.visits + EXPLORATION * math.sqrt(math.log(self.available) / self.visits)


def rewards(outcome: Outcome) -> list[float]:
    """The outcome as each seat's share of the seats it placed above."""
    return rank_shares(list(outcome.ranking))


class SearchBot:
    """Information-set MCTS with a budget in iterations and in wall-clock time.

    ``choose`` searches whole; ``think`` starts a search that a caller runs
    in slices (``Think.run``) between other work, as a rules worker does so
    that other matches' calls are answered while a bot thinks."""

    def __init__(self, level: SearchLevel) -> None:
        self.level = level

    def choose(self, game: Game, state: Any, seat: int, moves: Sequence[Move], rng: random.Random) -> Move:
        think = self.think(game, state, seat, moves, rng)
        think.run(math.inf)
        return think.choice()

    def think(self, game: Game, state: Any, seat: int, moves: Sequence[Move], rng: random.Random) -> "Think":
        """A search for ``seat``'s move, started now: its time budget runs from here."""
        return Think(self, game, state, seat, moves, rng)

    def search(self, game: Game, state: Any, seat: int, rng: random.Random) -> _Node:
        """The tree grown from ``state`` for ``seat`` within the level's budgets."""
        think = Think(self, game, state, seat, (), rng)
        think.run(math.inf)
        return think.root

    def _iterate(self, game: Game, state: Any, root: _Node, rng: random.Random, deadline: float) -> None:
        path: list[tuple[_Node, int]] = []  # (node entered, the seat whose move entered it)
        node = root
        expanded = False
        outcome = game.outcome(state)
        while outcome is None and not expanded:
            to_move = game.to_move(state)
            if not to_move:
                break
            mover = to_move[rng.randrange(len(to_move))] if len(to_move) > 1 else to_move[0]
            legal = game.legal_moves(state, mover)
            if not legal:
                break
            tried = [move for move in legal if move.id in node.children]
            for move in tried:
                node.children[move.id].available += 1
            widen = len(node.children) < self.level.moves_allowed(node.visits)
            if not tried or (widen and len(tried) < len(legal)):
                move = self._new_move(game, state, mover, legal, node, rng)
                child = node.children[move.id] = _Node()
                child.available = 1
                expanded = True
            else:
                move = max(tried, key=lambda m: node.children[m.id].score())
                child = node.children[move.id]
            state = game.apply(state, mover, move.args, rng)
            path.append((child, mover))
            node = child
            outcome = game.outcome(state)
        reward = self._playout(game, state, outcome, rng, deadline)
        root.visits += 1  # the root is in no path, and widening counts its visits too
        for visited, mover in path:
            visited.visits += 1
            visited.reward += reward[mover] if reward is not None else 0.5

    def _new_move(self, game: Game, state: Any, mover: int, legal: Sequence[Move], node: _Node,
                  rng: random.Random) -> Move:
        """The move a node tries next: the first untried one in the game's
        ``order_moves`` (asked once per node and mover), else the game's
        playout choice among the untried moves, or one of them at random
        (always, for a level without move hints)."""
        untried = [move for move in legal if move.id not in node.children]
        if not self.level.move_hints:
            return untried[rng.randrange(len(untried))]
        ranked = node.ranked.get(mover)
        if ranked is None:
            order = game.order_moves(state, mover, legal, rng)
            ranked = node.ranked[mover] = [move.id for move in order or ()]
        if ranked:
            by_id = {move.id: move for move in untried}
            # A sampled state may offer moves the ranked one did not: those come after.
            for move_id in ranked:
                if move_id in by_id:
                    return by_id[move_id]
        preferred = game.rollout_move(state, mover, untried, rng)
        if preferred is not None and any(move.id == preferred.id for move in untried):
            return preferred  # only one of the moves it was offered
        return untried[rng.randrange(len(untried))]

    def _playout(self, game: Game, state: Any, outcome: Outcome | None, rng: random.Random,
                 deadline: float) -> list[float] | None:
        """The rewards of a playout from ``state``: random moves (or the
        game's own choice) until the end, or the cap, or the deadline."""
        cap = self.level.playout_cap if game.playout_horizon is None else min(self.level.playout_cap,
                                                                                game.playout_horizon)
        hinted = self.level.move_hints
        for step in range(cap):
            if outcome is not None:
                return rewards(outcome)
            if step % DEADLINE_CHECK_EVERY == DEADLINE_CHECK_EVERY - 1 and time.monotonic() >= deadline:
                break
            to_move = game.to_move(state)
            if not to_move:
                return None
            mover = to_move[rng.randrange(len(to_move))]
            move = game.playout_move(state, mover, rng) if hinted else None
            if move is None:
                legal = game.legal_moves(state, mover)
                if not legal:
                    return None
                move = game.rollout_move(state, mover, legal, rng) if hinted else None
                if move is None:
                    move = legal[rng.randrange(len(legal))]
            state = game.apply(state, mover, move.args, rng)
            outcome = game.outcome(state)
        if outcome is not None:
            return rewards(outcome)
        estimate = game.evaluate(state)
        return None if estimate is None else [float(value) for value in estimate]


class Think:
    """One search in progress, run in slices: ``run(until)`` iterates until
    the monotonic time ``until`` or the search's own end (its iteration
    budget, or its deadline, which runs from when it was started), whichever
    comes first. Sliced or whole, the same iterations draw from the same rng;
    only how many fit before the deadline differs."""

    def __init__(self, bot: SearchBot, game: Game, state: Any, seat: int, moves: Sequence[Move],
                 rng: random.Random) -> None:
        scale = think_scale()
        self.bot, self.game, self.state, self.seat, self.moves, self.rng = bot, game, state, seat, moves, rng
        self.deadline = time.monotonic() + bot.level.seconds * scale
        self.budget = max(1, round(bot.level.iterations * scale))
        self.iterations = 0
        self.root = _Node()
        # One legal move needs no search (an empty list: ``search`` grows the tree for its own use).
        self.done = len(moves) == 1

    def run(self, until: float) -> bool:
        """Iterate until ``until`` or the end of the search; True once it has
        ended. Each call makes one iteration at least: a slice always gains."""
        bot, game, rng, root = self.bot, self.game, self.rng, self.root
        started = self.iterations
        while not self.done:
            if self.iterations:
                now = time.monotonic()
                if now >= self.deadline or self.iterations >= self.budget:
                    self.done = True
                    break
                if now >= until and self.iterations > started:
                    return False
            bot._iterate(game, game.sample_state(self.state, self.seat, rng), root, rng, self.deadline)
            self.iterations += 1
        return True

    def choice(self) -> Move:
        """The move most often tried at the root (the search has ended)."""
        moves = self.moves
        if len(moves) == 1:
            return moves[0]
        by_id = {move.id: move for move in moves}
        tried = [(child.visits, child.reward, move_id) for move_id, child in self.root.children.items()
                 if move_id in by_id]
        if not tried:
            return moves[self.rng.randrange(len(moves))]
        return by_id[max(tried)[2]]


SEARCH_BOTS: dict[str, SearchBot] = {level.name: SearchBot(level) for level in LEVELS}
