"""The rules' placement searches compiled, when gamehost-callisto-native is installed.

The search bots spend most of a Callisto move listing piece placements and
asking whether any piece still fits (``rules.piece_placements`` and
``rules.some_piece_fits``). The package gamehost-callisto-native
(plugins/callisto/native, Rust) answers both on bitmasks some twenty times
faster; this module hands it the rules' own placement tables, the very move
objects included, so that it lists the same moves in the same order. The
rules stay in ``rules.py``, which also checks every move a player sends.
Without the package, ``fastest()`` is the Python search.
"""

from __future__ import annotations

from functools import cache
from importlib.util import find_spec
from typing import Any, Iterable

from gamehost.sdk import Move

import gamehost_callisto.rules as rules

INSTALLED = find_spec("gamehost_callisto_native") is not None
"""Whether gamehost-callisto-native is installed (it needs a Rust toolchain to build): else the Python search serves."""
if INSTALLED:
    from gamehost_callisto_native import PlacementTable


class CompiledPlacements:
    """The compiled table of one player count and piece set, asked in the
    rules' terms: a state, a seat, piece kinds."""

    def __init__(self, players: int, one_sided: bool):
        table = rules.tables(players, one_sided)
        self.kinds = table.kinds
        self.index = {kind.id: index for index, kind in enumerate(table.kinds)}
        self.smallest_first = list(reversed(range(len(table.kinds))))
        self.compiled = PlacementTable(
            rules.FRAME, (rules.EMPTY + rules.EMPTY_CENTRE).encode(),
            [(piece + column).encode() for piece, column in zip(rules.PIECE_MARKS, rules.COLUMN_MARKS)],
            [[(orientation.offsets, list(orientation.moves.items())) for orientation in table.placeable[kind.id]]
             for kind in table.kinds])

    def placements(self, state: Any, seat: int, kinds: Iterable[rules.PieceKind] | None) -> list[Move]:
        hand = state["hands"][seat]
        chosen = [self.index[kind.id] for kind in (self.kinds if kinds is None else kinds) if hand[kind.id]]
        return self.compiled.placements("".join(state["board"]).encode(), seat, chosen)

    def some_fits(self, state: Any, seat: int) -> bool:
        hand = state["hands"][seat]
        # Smallest pieces first, as rules.some_piece_fits tries them: they fit most often.
        chosen = [index for index in self.smallest_first if hand[self.kinds[index].id]]
        return self.compiled.some_fits("".join(state["board"]).encode(), seat, chosen)


@cache
def compiled_placements(players: int, one_sided: bool) -> CompiledPlacements:
    return CompiledPlacements(players, one_sided)


def piece_placements(state: Any, seat: int, kinds: Iterable[rules.PieceKind] | None = None) -> list[Move]:
    """``rules.piece_placements``, compiled."""
    return compiled_placements(len(state["hands"]), state["one_sided"]).placements(state, seat, kinds)


def some_piece_fits(state: Any, seat: int) -> bool:
    """``rules.some_piece_fits``, compiled."""
    return compiled_placements(len(state["hands"]), state["one_sided"]).some_fits(state, seat)


COMPILED_SEARCH = rules.PlacementSearch(piece_placements, some_piece_fits) if INSTALLED else None
"""The compiled search, or None when gamehost-callisto-native is not installed."""


def fastest() -> rules.PlacementSearch:
    """The compiled search when installed, else the rules' own."""
    return COMPILED_SEARCH or rules.PYTHON_SEARCH
