"""Hints for search bots: how good a Callisto placement looks, cheaply.

No rule of the game lives here (``rules.py`` decides what is legal and who
wins); these are a bot's guesses. Every cell left in hand is a penalty point
(§2.7), and a piece may only go where it shares a full edge with its own
colour (§2.6 a), so a placement is worth:

- the penalty points it takes out of hand (its cells);
- the reach it opens: free cells next to it that were not yet next to the
  player's colour, where later pieces may go;
- the reach it takes away: its cells that were next to another colour, where
  that player could have placed.

The search orders the moves it tries by this score (``ordered``), and
playouts place a biggest piece, the best scored of a few drawn at random
(``biggest_piece_move``; ``quick_biggest_piece_move`` finds the same move
without listing every legal move).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from functools import cache
from typing import Any, Sequence

from gamehost.sdk import Move, places, rank_shares

import gamehost_callisto.rules as rules

PENALTY_WEIGHT = 3
"""Score of a cell taken out of hand, against 1 per cell of reach opened or
taken away: size comes first, but a piece that walls its owner in loses."""

PLAYOUT_DRAWS = 3
"""Placements of a biggest piece a playout compares: enough to skip the bad
ones, few enough to stay cheap and to keep the playouts varied."""


@dataclass(frozen=True)
class Footprint:
    """What a move covers: ``cells`` and the cells sharing an edge with them
    (``edges``) as bitmasks, and the penalty points it takes out of hand."""

    cells: int
    edges: int
    penalty: int


@cache
def footprints(players: int, one_sided: bool) -> dict[str, Footprint]:
    """The footprint of every move of a player count, by move id."""
    table = rules.tables(players, one_sided)
    found = {}
    for kind in table.kinds:
        for orientation in table.placeable[kind.id]:
            for anchor, move in orientation.moves.items():
                cells = sum(1 << (anchor + offset) for offset in orientation.offsets)
                found[move.id] = Footprint(cells, rules.edge_neighbours(cells) & ~cells, kind.penalty)
    for cell, move in table.column_moves.items():
        found[move.id] = Footprint(1 << cell, rules.edge_neighbours(1 << cell), 0)
    return found


PLACED_TABLE = rules.mark_table(rules.PIECE_MARKS + rules.COLUMN_MARKS)


class PlacementScore:
    """Scores the moves of ``seat`` in one position (see the module's list)."""

    def __init__(self, state: Any, seat: int):
        board_text = "".join(state["board"]).encode()
        free = rules.mask(board_text, rules.FREE_TABLE)
        own = rules.mask(board_text, rules.OWN_TABLES[seat])
        others = rules.mask(board_text, PLACED_TABLE) & ~own
        self.unreached = free & ~rules.edge_neighbours(own)
        self.their_reach = rules.edge_neighbours(others) & free
        self.footprints = footprints(len(state["hands"]), state["one_sided"])

    def __call__(self, move: Move) -> int:
        footprint = self.footprints[move.id]
        return (PENALTY_WEIGHT * footprint.penalty + (footprint.edges & self.unreached).bit_count()
                + (footprint.cells & self.their_reach).bit_count())


def ordered(state: Any, seat: int, moves: Sequence[Move]) -> list[Move]:
    """``moves`` best scored first (ties keep their order)."""
    return sorted(moves, key=PlacementScore(state, seat), reverse=True)


def best_of_draws(state: Any, seat: int, candidates: Sequence[Move], rng) -> Move:
    """The best scored of ``PLAYOUT_DRAWS`` of ``candidates`` drawn with ``rng``."""
    if len(candidates) > PLAYOUT_DRAWS:
        candidates = [candidates[rng.randrange(len(candidates))] for _ in range(PLAYOUT_DRAWS)]
    return max(candidates, key=PlacementScore(state, seat))


def biggest_piece_move(state: Any, seat: int, moves: Sequence[Move], rng) -> Move | None:
    """A playout player who places a biggest piece (the big ones are the
    first not to fit any more), the best scored of a few such placements.
    None among columns only (the opening), where size says nothing.
    ``moves`` come in ``legal_moves``' order (or a part of it), which lists
    the pieces biggest first."""
    sizes = footprints(len(state["hands"]), state["one_sided"])
    biggest = sizes[moves[0].id].penalty
    if not biggest:
        return None
    count = bisect_right(moves, -biggest, key=lambda move: -sizes[move.id].penalty)
    return best_of_draws(state, seat, moves[:count], rng)


def quick_biggest_piece_move(state: Any, seat: int, rng,
                             search: rules.PlacementSearch = rules.PYTHON_SEARCH) -> Move | None:
    """``biggest_piece_move`` among all legal moves, without listing them:
    only the placements of the biggest pieces in hand that fit (a playout's
    cost is mostly the listing), found by ``search``. None where that would
    be None, or where no piece fits (the third column may)."""
    if state["to_move"] != seat or rules.in_opening(state):
        return None
    hand = state["hands"][seat]
    in_hand = [kind for kind in rules.tables(len(state["hands"]), state["one_sided"]).kinds if hand[kind.id]]
    for size in sorted({kind.penalty for kind in in_hand}, reverse=True):
        placements = search.placements(state, seat, [kind for kind in in_hand if kind.penalty == size])
        if placements:
            return best_of_draws(state, seat, placements, rng)
    return None


def cells_in_hand_shares(state: Any) -> list[float]:
    """A guess at the result of an unfinished game: the seats ranked by the
    penalty they hold now, fewest cells in hand first (§2.7), with the
    penalties of a match's finished games added."""
    one_sided = state["one_sided"]
    held = [rules.penalty(hand, one_sided) + sum(result[seat] for result in state["results"])
            for seat, hand in enumerate(state["hands"])]
    return rank_shares(places([-points for points in held]))
