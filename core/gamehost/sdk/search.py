"""A search bot for every game: information-set Monte Carlo tree search.

The bot sees the game through the rules SDK alone. Each iteration draws a
state the bot's seat cannot tell from the real one (``Game.sample_state``),
walks the tree of moves with UCT (each move's statistics count only the
iterations in which it was legal, so one tree serves every sampled state),
adds one move, plays the rest out (the game's ``playout_move`` or
``rollout_move`` at a level with ``move_hints``, else random moves) up to a cap (the level's, or the game's
shorter ``playout_horizon``), and scores the end: each seat's share of the
other seats it beat (a tie counts half), or the game's ``evaluate`` where
the cap cut the playout short. The move most often tried at the root is
played.

A level may also let an iteration teach more than its own path (both off
in the shipped levels: see ``SearchLevel.mast`` and ``SearchLevel.rave``):

- **MAST** (move-average sampling): every move played in an iteration, in
  the tree or the playout, adds that iteration's reward for its mover to
  the move's average over the search. Playouts the game does not guide pick
  the best-averaged legal move most of the time (a random one otherwise),
  and a node the game gives no order adds its untried move with the best
  average first.
- **RAVE** (all moves as first): a node's move is also scored by the
  iterations in which its mover played it anywhere below that node; UCT
  blends that early, plentiful estimate into the move's own average, which
  takes over as its visits grow.
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
MAST_RANDOM_SHARE = 0.3
"""The share of unguided playout moves drawn at random rather than by the
best average: enough to keep the playouts varied and the averages learning."""
MAST_PRIOR = 0.5
"""The average of a move not played yet in this search: a draw's."""


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
    out by the search's own averages (MAST). How a playout is scored
    (``playout_horizon``, ``evaluate``) serves every level."""
    mast: bool = False
    """Whether playouts the game does not guide, and nodes it gives no
    order, follow the moves' averages over the search (MAST) rather than
    chance."""
    rave: float = 0.0
    """RAVE's equivalence: the visits at which a move's own average and its
    all-moves-as-first average weigh the same (``rave / (3 * visits + rave)``
    of the blend is RAVE's, square-rooted); 0: plain UCT.

    Both assume that a move id names the same move wherever it is played.
    Many games' ids do not ("take", "decline", "done", a draw from a pile,
    the card at a place whose card a sampled state deals afresh), and
    against the previous search at equal think time the shipped levels
    with MAST and RAVE on lost in Callisto and Burgbaumeister
    (bench/results/2026-11-29/bot_versions.md): they stay off there."""

    def moves_allowed(self, visits: int) -> int:
        """How many moves a node tried ``visits`` times may have tried."""
        return math.ceil(self.widening * max(1, visits) ** self.widening_exponent)


LEVELS = (
    SearchLevel("mcts-easy", "Search bot, easy", 1, iterations=60, seconds=0.1, playout_cap=40),
    SearchLevel("mcts-medium", "Search bot, medium", 2, iterations=300, seconds=0.35, playout_cap=100),
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
    __slots__ = ("children", "visits", "reward", "available", "ranked", "amaf_visits", "amaf_reward")

    def __init__(self) -> None:
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.reward = 0.0  # summed over visits, for the seat whose move leads here
        self.available = 0  # iterations in which this node's move was legal
        self.ranked: dict[int, list[str]] = {}  # per mover: the game's order_moves, as move ids
        self.amaf_visits = 0  # iterations that played this move later on, by the same mover (RAVE)
        self.amaf_reward = 0.0

    def score(self, rave: float) -> float:
        value = self.reward / self.visits
        if rave and self.amaf_visits:
            weight = math.sqrt(rave / (3 * self.visits + rave))
            value += weight * (self.amaf_reward / self.amaf_visits - value)
        return value + EXPLORATION * math.sqrt(math.log(self.available) / self.visits)


class MoveAverages:
    """MAST: each move's mean reward for its mover over a search's iterations, by (mover, move id)."""

    __slots__ = ("totals",)

    def __init__(self) -> None:
        self.totals: dict[tuple[int, str], list[float]] = {}  # [reward summed, times played]

    def mean(self, mover: int, move_id: str) -> float:
        total = self.totals.get((mover, move_id))
        return MAST_PRIOR if total is None else total[0] / total[1]

    def best(self, mover: int, moves: Sequence[Move], rng: random.Random) -> Move:
        """The best-averaged of ``moves``; ties go to the first after a random start."""
        start = rng.randrange(len(moves))
        best, best_mean = moves[start], -1.0
        totals = self.totals
        for index in range(start, start + len(moves)):
            move = moves[index % len(moves)]
            total = totals.get((mover, move.id))
            mean = MAST_PRIOR if total is None else total[0] / total[1]
            if mean > best_mean:
                best, best_mean = move, mean
        return best

    def add(self, played: Sequence[tuple[int, str]], reward: Sequence[float] | None) -> None:
        totals = self.totals
        for mover, move_id in played:
            value = reward[mover] if reward is not None else 0.5
            total = totals.get((mover, move_id))
            if total is None:
                totals[(mover, move_id)] = [value, 1.0]
            else:
                total[0] += value
                total[1] += 1.0


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

    def _iterate(self, game: Game, state: Any, root: _Node, averages: MoveAverages, rng: random.Random,
                 deadline: float) -> None:
        path: list[tuple[_Node, int]] = []  # (node entered, the seat whose move entered it)
        played: list[tuple[int, str]] = []  # (mover, move id) of every move of the iteration, in order
        node = root
        expanded = False
        rave = self.level.rave
        outcome = game.outcome(state)
        while outcome is None and not expanded:
            to_move = game.to_move(state)
            if not to_move:
                break
            mover = to_move[rng.randrange(len(to_move))] if len(to_move) > 1 else to_move[0]
            legal = game.legal_moves(state, mover)
            if not legal:
                break
            children = node.children
            tried = [move for move in legal if move.id in children]
            for move in tried:
                children[move.id].available += 1
            widen = len(children) < self.level.moves_allowed(node.visits)
            if not tried or (widen and len(tried) < len(legal)):
                move = self._new_move(game, state, mover, legal, node, averages, rng)
                child = children[move.id] = _Node()
                child.available = 1
                expanded = True
            else:
                move = max(tried, key=lambda m: children[m.id].score(rave))
                child = children[move.id]
            state = game.apply(state, mover, move.args, rng)
            path.append((child, mover))
            played.append((mover, move.id))
            node = child
            outcome = game.outcome(state)
        reward = self._playout(game, state, outcome, averages, played, rng, deadline)
        root.visits += 1  # the root is in no path, and widening counts its visits too
        for visited, mover in path:
            visited.visits += 1
            visited.reward += reward[mover] if reward is not None else 0.5
        if self.level.mast:
            averages.add(played, reward)
        if rave:
            self._add_all_moves_as_first(root, path, played, reward)

    @staticmethod
    def _add_all_moves_as_first(root: _Node, path: Sequence[tuple[_Node, int]],
                                played: Sequence[tuple[int, str]], reward: Sequence[float] | None) -> None:
        """RAVE: each tree node's moves that their mover played at that
        node's depth or later in this iteration take its reward."""
        last: dict[tuple[int, str], int] = {}  # the last step at which each (mover, move) was played
        for step, key in enumerate(played):
            last[key] = step
        parent = root
        for depth, (entered, mover) in enumerate(path):
            value = reward[mover] if reward is not None else 0.5
            for move_id, child in parent.children.items():
                if last.get((mover, move_id), -1) >= depth:
                    child.amaf_visits += 1
                    child.amaf_reward += value
            parent = entered

    def _new_move(self, game: Game, state: Any, mover: int, legal: Sequence[Move], node: _Node,
                  averages: MoveAverages, rng: random.Random) -> Move:
        """The move a node tries next: the first untried one in the game's
        ``order_moves`` (asked once per node and mover), else the game's
        playout choice among the untried moves, else (and always, for a
        level without move hints) the untried move best averaged so far
        (MAST) or a random one."""
        untried = [move for move in legal if move.id not in node.children]
        if self.level.move_hints:
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
        if self.level.mast:
            return averages.best(mover, untried, rng)
        return untried[rng.randrange(len(untried))]

    def _playout(self, game: Game, state: Any, outcome: Outcome | None, averages: MoveAverages,
                 played: list[tuple[int, str]], rng: random.Random, deadline: float) -> list[float] | None:
        """The rewards of a playout from ``state``: the game's own choices
        (at a level with move hints), else random moves (MAST: mostly the
        best-averaged ones), until the end, or the cap, or the deadline.
        Each move played goes to ``played``."""
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
                    if self.level.mast and rng.random() >= MAST_RANDOM_SHARE:
                        move = averages.best(mover, legal, rng)
                    else:
                        move = legal[rng.randrange(len(legal))]
            played.append((mover, move.id))
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
        self.averages = MoveAverages()
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
            bot._iterate(game, game.sample_state(self.state, self.seat, rng), root, self.averages, rng,
                         self.deadline)
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
