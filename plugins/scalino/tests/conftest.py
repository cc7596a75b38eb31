"""Positions drawn as pictures: one block of rows per level, seen from above.

``R``, ``B``, ``Y``, ``G`` are red, blue, yellow and green piece cells, ``.``
an empty cell of the level, ``-`` a cell outside the level. Same-colour
pieces never touch on a level, so each group of touching same-letter cells
is one piece (checked to be a straight bar of 1 to 3 cells).
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from gamehost_scalino.game import Scalino, ScalinoPyramid
from gamehost_scalino.pyramid import COLOURS, PIECE_SIZES, PIECES_PER_COLOUR, pyramid
from gamehost_scalino.rules import seat_colours

LETTER_COLOURS = {colour[0].upper(): colour for colour in COLOURS}


class PyramidDrawings(NamedTuple):
    level_1: str
    level_2: str
    level_3: str
    level_4: str


# A complete squares pyramid. Levels 1 and 2 are the French rules' scoring
# example, rebuilt (test_scalino_scoring.py reads its staircases); levels 3
# and 4 finish it, red on top.
COMPLETE_PYRAMID = PyramidDrawings(
    level_1="""
BGBBRRR
GBYRGBG
GBYRGBR
GBYRYBR
YRRBYRG
YGGRGGY
GBBRYBY
""",
    level_2="""
-------
-GGGBR-
-YRYBR-
-YGGGR-
-YBYRG-
-BYGBR-
-------
""",
    level_3="""
-------
-------
--YBY--
--YBR--
--YBY--
-------
-------
""",
    level_4="""
-------
-------
-------
---R---
-------
-------
-------
""",
)


def parse_levels(geometry: str, drawings: list[str]) -> tuple[list, list]:
    """(grid, pieces) from level drawings; missing upper levels are empty."""
    pyr = pyramid(geometry)
    grid = [[None] * len(pyr.cells) for _ in range(pyr.levels)]
    pieces = []
    for level, drawing in enumerate(drawings, start=1):
        rows = [row.strip() for row in drawing.strip().splitlines()]
        assert len(rows) == pyr.side and all(len(row) == pyr.side for row in rows), f"level {level} is not {pyr.side}x{pyr.side}"
        marks = "".join(rows)
        for cell, mark in enumerate(marks):
            assert (mark == "-") == (cell not in pyr.regions[level - 1]), f"level {level}: {pyr.names[cell]} is {mark!r}"
        for cell, mark in enumerate(marks):
            if mark not in LETTER_COLOURS or grid[level - 1][cell] is not None:
                continue
            group, stack = {cell}, [cell]
            while stack:
                for n in pyr.neighbours[stack.pop()]:
                    if marks[n] == mark and n not in group:
                        group.add(n)
                        stack.append(n)
            bar = pyr.straight_bar(sorted(group))
            assert bar is not None, f"level {level}: {sorted(pyr.names[c] for c in group)} is not one straight piece"
            for c in bar:
                grid[level - 1][c] = len(pieces)
            pieces.append({"colour": LETTER_COLOURS[mark], "size": len(bar), "level": level,
                           "cells": [pyr.names[c] for c in bar]})
    return grid, pieces


@pytest.fixture
def complete_pyramid() -> PyramidDrawings:
    """The level drawings of a complete pyramid (COMPLETE_PYRAMID)."""
    return COMPLETE_PYRAMID


@pytest.fixture
def scalino_position():
    """A Scalino state from level drawings; hands hold whatever is not on the board."""

    def build(*drawings: str, seats: int = 4, turn: int = 0, **options) -> dict:
        options = {**Scalino().default_options(), **options}
        grid, pieces = parse_levels(options["geometry"], list(drawings))
        hands = {}
        for colour in COLOURS:
            hands[colour] = [PIECES_PER_COLOUR[size] - sum(p["colour"] == colour and p["size"] == size for p in pieces)
                             for size in PIECE_SIZES]
            assert min(hands[colour]) >= 0, f"more {colour} pieces on the board than in the box"
        return {"options": options, "seats": seats, "colours": seat_colours(seats), "hands": hands, "grid": grid,
                "pieces": pieces, "turn": turn, "bonus": False, "skipped": [], "over": False}

    return build


@pytest.fixture
def pyramid_position():
    """A Démonte la pyramide state from level drawings (nothing taken yet)."""

    def build(*drawings: str, seats: int = 2, turn: int = 0, **options) -> dict:
        options = {**ScalinoPyramid().default_options(), **options}
        grid, pieces = parse_levels(options["geometry"], list(drawings))
        for piece in pieces:
            piece["taken_by"] = None
        return {"options": options, "seats": seats, "grid": grid, "pieces": pieces, "turn": turn,
                "chain": None, "over": False}

    return build
