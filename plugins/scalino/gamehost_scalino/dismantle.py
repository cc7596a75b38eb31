"""Scalino: "Démonte la pyramide", the dismantling variant, 2 to 6 players.

The complete pyramid stands on the board; in turn each player takes one
uncovered piece with a free side, and the collected cells are the score.
Spec: docs/rules/scalino.md section 3.8 (French original:
shared/seeds/002_61a8e91d03a4ca12.txt, "VARIANTE DU JEU").

State (plain JSON): ``grid[level - 1][cell]`` is the index in ``pieces`` of
the piece there, or None once taken; each piece is ``{"colour", "size",
"level", "cells", "taken_by"}``. ``chain`` is the level the player to move
must take from after emptying the level above it, else None.
"""

from __future__ import annotations

from functools import cache

from gamehost.sdk import IllegalMove, MalformedMove, Move, Outcome, Text, places, seat_name

from gamehost_scalino.pyramid import (
    COLOURS,
    PIECE_SIZES,
    PIECES_PER_COLOUR,
    Pyramid,
    pyramid,
)
from gamehost_scalino.words import piece_name, verdict

FREE_SIDE_RULES = ("whole-side", "any-face")
"""When a piece is "free on at least one side" (spec 3.8 b): PROPOSED default,
one of its four sides has no piece of its level along its whole length;
alternative, any single unit face is free."""

START_PLAYERS = ("random", "first-seat")
"""Who starts: "les joueurs désignent celui qui commence"; PROPOSED: random."""

BUILD_ATTEMPT_NODES = 1000
"""Search steps one attempt at building the starting pyramid may take before
starting over with fresh random choices (a few attempts are usual on the
diamond board, one on the square board)."""


# --- setup: the complete pyramid (spec 3.8, PROPOSED engine-built) ------------------

def build_pyramid(pyr: Pyramid, rng) -> tuple[list, list]:
    """A random complete pyramid using all 48 pieces. Levels are filled from the
    top down (the small upper levels are the hardest to fit), each from its first
    empty cell: a random bar (sizes weighted by the pieces left) whose colour
    touches no same-colour piece beside, below or above, so it looks like a
    finished Scalino pyramid. Returns (grid, pieces)."""
    while True:
        grid = [[None] * len(pyr.cells) for _ in range(pyr.levels)]
        pieces: list[dict] = []
        stock = {colour: dict(PIECES_PER_COLOUR) for colour in COLOURS}
        budget = [BUILD_ATTEMPT_NODES]
        if _fill(pyr, rng, grid, pieces, stock, budget):
            return grid, pieces


def _fill(pyr, rng, grid, pieces, stock, budget) -> bool:
    """Cover the first empty cell of the highest unfinished level, then the rest (backtracking)."""
    budget[0] -= 1
    if budget[0] < 0:
        return False
    for level in range(pyr.levels, 0, -1):
        empty = [cell for cell in sorted(pyr.regions[level - 1]) if grid[level - 1][cell] is None]
        if empty:
            break
    else:
        return True
    first = empty[0]
    choices = []
    for colour in COLOURS:
        for size in PIECE_SIZES:
            if stock[colour][size] == 0:
                continue
            for bar in pyr.bars[level - 1][size]:
                if bar[0] == first and _fits(pyr, grid, pieces, level, colour, bar):
                    choices.append((rng.random() ** (1 / stock[colour][size]), colour, bar))
    for _, colour, bar in sorted(choices, reverse=True):
        for cell in bar:
            grid[level - 1][cell] = len(pieces)
        pieces.append({"colour": colour, "size": len(bar), "level": level,
                       "cells": [pyr.names[c] for c in bar], "taken_by": None})
        stock[colour][len(bar)] -= 1
        if _fill(pyr, rng, grid, pieces, stock, budget):
            return True
        stock[colour][len(bar)] += 1
        pieces.pop()
        for cell in bar:
            grid[level - 1][cell] = None
    return False


def _fits(pyr, grid, pieces, level, colour, bar) -> bool:
    """Empty cells, and no same-colour piece beside, directly below or directly above."""
    here = grid[level - 1]
    if any(here[cell] is not None for cell in bar):
        return False
    near = {here[n] for cell in bar for n in pyr.neighbours[cell]}
    for other in (level - 1, level + 1):
        if 1 <= other <= pyr.levels:
            near |= {grid[other - 1][cell] for cell in bar}
    near.discard(None)
    return all(pieces[p]["colour"] != colour for p in near)


# --- taking a piece (spec 3.8) ----------------------------------------------------------

def piece_cells(pyr: Pyramid, piece: dict) -> list[int]:
    return [pyr.index[name] for name in piece["cells"]]


def not_covered(state: dict, pyr: Pyramid, piece: dict) -> tuple[str, str] | None:
    """(a) No piece on the level above lies over any of its cells."""
    level = piece["level"]
    if level == pyr.levels:
        return None
    above = state["grid"][level]
    covered = [cell for cell in piece_cells(pyr, piece) if above[cell] is not None]
    if covered:
        return "covered", (f"The piece on {pyr.span(piece_cells(pyr, piece))} (level {level}) is covered "
                           f"by a level {level + 1} piece on {pyr.names[covered[0]]}.")
    return None


def sides(pyr: Pyramid, cells: list[int]) -> list[list[int | None]]:
    """The neighbour cells along each of a bar's four sides: two long sides and two ends."""
    up, left, right, down = 0, 1, 2, 3
    cells = sorted(cells)
    horizontal = len(cells) == 1 or cells[1] == cells[0] + 1
    if horizontal:
        return [[pyr.steps[c][up] for c in cells], [pyr.steps[c][down] for c in cells],
                [pyr.steps[cells[0]][left]], [pyr.steps[cells[-1]][right]]]
    return [[pyr.steps[c][left] for c in cells], [pyr.steps[c][right] for c in cells],
            [pyr.steps[cells[0]][up]], [pyr.steps[cells[-1]][down]]]


def free_on_a_side(state: dict, pyr: Pyramid, piece: dict) -> tuple[str, str] | None:
    """(b) Free on at least one side: with "whole-side", one side has no piece of
    its level along its whole length; with "any-face", one unit face is free.
    The edge of the level counts as free."""
    here = state["grid"][piece["level"] - 1]

    def free(cell):
        return cell is None or here[cell] is None

    faces = sides(pyr, piece_cells(pyr, piece))
    if state["options"]["free_side"] == "whole-side":
        ok = any(all(free(cell) for cell in side) for side in faces)
    else:
        ok = any(free(cell) for side in faces for cell in side)
    if not ok:
        return "no-free-side", (f"The piece on {pyr.span(piece_cells(pyr, piece))} (level {piece['level']}) "
                                f"is held on every side by pieces of its level.")
    return None


def from_chain_level(state: dict, piece: dict) -> tuple[str, str] | None:
    """Level cleared: after emptying a level the same player takes one more piece
    from the level below."""
    if state["chain"] is not None and piece["level"] != state["chain"]:
        return "take-from-level-below", (f"You emptied level {state['chain'] + 1}: take one more piece "
                                         f"from level {state['chain']}.")
    return None


def removal_problem(state: dict, pyr: Pyramid, piece: dict) -> tuple[str, str] | None:
    """The first rule taking ``piece`` breaks, as (rule, reason), or None."""
    if piece["taken_by"] is not None:
        return "already-taken", f"That piece was already taken by Player {piece['taken_by'] + 1}."
    return from_chain_level(state, piece) or not_covered(state, pyr, piece) or free_on_a_side(state, pyr, piece)


def level_is_empty(state: dict, level: int) -> bool:
    return all(cell is None for cell in state["grid"][level - 1])


def after_taking(state: dict, seat: int, level: int) -> dict:
    """The same seat takes again from the level below when this emptied a level
    (PROPOSED: and again if that empties the lower level too); the last piece
    ends the game; otherwise the next seat clockwise plays."""
    if level_is_empty(state, level):
        if level == 1:
            return {**state, "over": True, "chain": None}
        return {**state, "turn": seat, "chain": level - 1}
    return {**state, "turn": (seat + 1) % state["seats"], "chain": None}


def collected_points(state: dict) -> list[int]:
    """+1, +2 or +3 per collected piece of size 1, 2 or 3 (84 points in all)."""
    points = [0] * state["seats"]
    for piece in state["pieces"]:
        if piece["taken_by"] is not None:
            points[piece["taken_by"]] += piece["size"]
    return points


# --- the game (spec 3.8) -------------------------------------------------------------------

def setup(seats: int, options: dict, rng):
    """The complete pyramid built at random, every piece on it; `options` has every default filled in."""
    if not 2 <= seats <= 6:
        raise ValueError("Démonte la pyramide is played by 2 to 6 players.")
    pyr = pyramid(options["geometry"])
    grid, pieces = build_pyramid(pyr, rng)
    start = rng.randrange(seats) if options["start_player"] == "random" else 0
    return {"options": options, "seats": seats, "grid": grid, "pieces": pieces,
            "turn": start, "chain": None, "over": False}


def to_move(state: dict):
    return () if state["over"] else (state["turn"],)


def legal_moves(state: dict, seat: int):
    if state["over"] or seat != state["turn"]:
        return []
    pyr = pyramid(state["options"]["geometry"])
    return [take_move(pyr, index, piece["colour"], piece["size"], piece["level"], tuple(piece["cells"]))
            for index, piece in enumerate(state["pieces"]) if removal_problem(state, pyr, piece) is None]


@cache  # a Move is immutable: made once, as search bots list the moves at every step of every playout
def take_move(pyr: Pyramid, index: int, colour: str, size: int, level: int, cells: tuple[str, ...]) -> Move:
    span = pyr.span([pyr.index[name] for name in cells])
    return Move(id=f"take:{level}:{span}",
                label=Text("Take the {piece} on {cells} (level {level})", piece=piece_name(colour, size),
                           cells=span, level=level),
                args={"piece": index})


def play(state: dict, seat: int, move):
    if state["over"]:
        raise IllegalMove("The game is over.", "game-over")
    if seat != state["turn"]:
        raise IllegalMove(f"It is Player {state['turn'] + 1}'s turn.", "not-your-turn")
    index = move.get("piece") if hasattr(move, "get") else None
    if isinstance(index, bool) or not isinstance(index, int):
        raise MalformedMove(f'A move takes one piece: {{"piece": 0..{len(state["pieces"]) - 1}}}.')
    if not 0 <= index < len(state["pieces"]):
        raise IllegalMove(f'There is no piece {index}: pieces are 0 to {len(state["pieces"]) - 1}.',
                          "no-such-piece")
    pyr = pyramid(state["options"]["geometry"])
    piece = state["pieces"][index]
    problem = removal_problem(state, pyr, piece)
    if problem:
        raise IllegalMove(problem[1], problem[0])
    level = piece["level"]
    grid = list(state["grid"])
    grid[level - 1] = list(grid[level - 1])
    for cell in piece_cells(pyr, piece):
        grid[level - 1][cell] = None
    pieces = list(state["pieces"])
    pieces[index] = {**piece, "taken_by": seat}
    return after_taking({**state, "grid": grid, "pieces": pieces}, seat, level)


def outcome(state: dict):
    if not state["over"]:
        return None
    points = collected_points(state)
    ranking = places(points)
    winners = [seat_name(seat) for seat in range(state["seats"]) if ranking[seat] == 1]
    return Outcome(scores=[float(p) for p in points], ranking=ranking,
                   summary=Text("{reason} {verdict}", reason=Text("The pyramid is taken apart."),
                                verdict=verdict(winners, max(points))))
