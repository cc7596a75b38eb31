"""Legal moves encoded once and shared by every view that lists them.

Building a LegalMove (its Struct of arguments, its parts) is Python work per
value; a Callisto opening lists hundreds of moves, and the next position
lists nearly the same ones again, as do the other Callisto matches. The
encoding of a move depends on nothing but the move (id, label, arguments,
parts), so it is kept under that key, ready to be joined into a View: the
soak's profile had a third of the serving process in building these.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from gamehost.host.codec.length_delimited import field, field_tag
from gamehost.sdk.rules import Move
from gamehost.v1 import gamehost_pb2 as pb

MAX_MOVES_KEPT = 1 << 16  # distinct moves kept (a few MB); a flood of new ones only empties the table
_VIEW_LEGAL_MOVES = field_tag(pb.View.DESCRIPTOR.fields_by_name["legal_moves"])
_SCALARS = (str, int, float, bool, type(None))


def _frozen(value: Any) -> Any:
    """A hashable form of a move argument that tells apart what encodes
    apart (1, 1.0 and True are equal in Python, not on the wire); raises
    TypeError on anything else."""
    kind = type(value)
    if kind in _SCALARS:
        return kind, value
    if kind in (list, tuple):
        return list, tuple(_frozen(item) for item in value)
    if kind is dict:
        return dict, tuple((key, _frozen(item)) for key, item in value.items())
    raise TypeError(kind.__name__)


class LegalMoveEncodings:
    def __init__(self, encode_legal_move: Callable[[Move], bytes]) -> None:
        """``encode_legal_move(move)``: the move's serialized LegalMove."""
        self._encode = encode_legal_move
        self._kept: dict[Any, bytes] = {}

    def view_field(self, moves: Iterable[Move]) -> bytes:
        """``moves`` as a View's repeated ``legal_moves``: merged into a View
        (``MergeFromString``), they are its legal moves, in order."""
        return b"".join([self._field(move) for move in moves])

    def _field(self, move: Move) -> bytes:
        try:
            key = (move.id, move.label, _frozen(move.args), move.parts)
        except TypeError:  # an argument of another type: encoded, not kept
            return self._wrap(move)
        encoded = self._kept.get(key)
        if encoded is None:
            if len(self._kept) >= MAX_MOVES_KEPT:
                self._kept.clear()
            encoded = self._kept[key] = self._wrap(move)
        return encoded

    def _wrap(self, move: Move) -> bytes:
        return field(_VIEW_LEGAL_MOVES, self._encode(move))
