"""The rules' placement searches compiled, when gamehost-callisto-native is installed.

The search bots spend most of a Callisto move listing piece placements,
asking whether any piece still fits and checking the placements they make
(``rules.piece_placements``, ``rules.some_piece_fits``, ``rules.check_piece``). The package gamehost-callisto-native
(plugins/callisto/native, Rust) answers both on bitmasks some twenty times
faster; this module hands it the rules' own placement tables, the very move
objects included, so that it lists the same moves in the same order. The
rules stay in ``rules.py``: a move the compiled table does not find legal
goes to ``rules.check_piece``, which says why it is refused.
Without the package, ``fastest()`` is the Python search.
"""

from __future__ import annotations

from functools import cache
from importlib.util import find_spec
from typing import Any, Iterable, Mapping

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
        # A piece move's arguments -> (kind, orientation, anchor, cells), for quick_cells.
        self.placement_at = {
            (kind.id, orientation.name, anchor % rules.FRAME, anchor // rules.FRAME):
                (kind_index, orientation_index, anchor, [anchor + offset for offset in orientation.offsets])
            for kind_index, kind in enumerate(table.kinds)
            for orientation_index, orientation in enumerate(table.placeable[kind.id])
            for anchor in orientation.moves}
        self.compiled = PlacementTable(
            rules.FRAME, (rules.EMPTY + rules.EMPTY_CENTRE).encode(),
            [(piece + column).encode() for piece, column in zip(rules.PIECE_MARKS, rules.COLUMN_MARKS)],
            [[(orientation.offsets, list(orientation.moves.items())) for orientation in table.placeable[kind.id]]
             for kind in table.kinds],
            rules.EMPTY.encode(), list(table.column_moves.items()))

    def placements(self, state: Any, seat: int, kinds: Iterable[rules.PieceKind] | None) -> list[Move]:
        hand = state["hands"][seat]
        chosen = [self.index[kind.id] for kind in (self.kinds if kinds is None else kinds) if hand[kind.id]]
        return self.compiled.placements("".join(state["board"]).encode(), seat, chosen)

    def some_fits(self, state: Any, seat: int) -> bool:
        hand = state["hands"][seat]
        # Smallest pieces first, as rules.some_piece_fits tries them: they fit most often.
        chosen = [index for index in self.smallest_first if hand[self.kinds[index].id]]
        return self.compiled.some_fits("".join(state["board"]).encode(), seat, chosen)

    def columns(self, state: Any) -> list[Move]:
        return self.compiled.columns("".join(state["board"]).encode())

    def quick_cells(self, state: Any, seat: int, move: Mapping[str, Any]) -> list[int] | None:
        piece, orientation, x, y = move.get("piece"), move.get("orientation"), move.get("x"), move.get("y")
        # Exact types only: True and 1.0 equal 1 as keys, and the rules refuse them (check_piece says why).
        if type(piece) is not str or type(orientation) is not str or type(x) is not int or type(y) is not int:
            return None
        found = self.placement_at.get((piece, orientation, x, y))
        if found is None or rules.in_opening(state) or not state["hands"][seat][self.kinds[found[0]].id]:
            return None
        kind, turn, anchor, cells = found
        return cells if self.compiled.fits("".join(state["board"]).encode(), seat, kind, turn, anchor) else None


@cache
def compiled_placements(players: int, one_sided: bool) -> CompiledPlacements:
    return CompiledPlacements(players, one_sided)


def piece_placements(state: Any, seat: int, kinds: Iterable[rules.PieceKind] | None = None) -> list[Move]:
    """``rules.piece_placements``, compiled."""
    return compiled_placements(len(state["hands"]), state["one_sided"]).placements(state, seat, kinds)


def some_piece_fits(state: Any, seat: int) -> bool:
    """``rules.some_piece_fits``, compiled."""
    return compiled_placements(len(state["hands"]), state["one_sided"]).some_fits(state, seat)


def column_placements(state: Any) -> list[Move]:
    """``rules.column_placements``, compiled."""
    return compiled_placements(len(state["hands"]), state["one_sided"]).columns(state)


def quick_cells(state: Any, seat: int, move: Mapping[str, Any]) -> list[int] | None:
    """The cells of the piece move ``move`` if the compiled table finds it legal, else None (``check_piece``
    decides): a piece in hand after the opening, in an orientation and at an anchor of the table, fitting."""
    return compiled_placements(len(state["hands"]), state["one_sided"]).quick_cells(state, seat, move)


COMPILED_SEARCH = (rules.PlacementSearch(piece_placements, some_piece_fits, column_placements, quick_cells)
                   if INSTALLED else None)
"""The compiled search, or None when gamehost-callisto-native is not installed."""


def fastest() -> rules.PlacementSearch:
    """The compiled search when installed, else the rules' own."""
    return COMPILED_SEARCH or rules.PYTHON_SEARCH
