"""A viewer's View, encoded where the rules run.

A worker holds each state and computes its views and legal moves; encoding
them there as the View's protobuf fields (the state's Struct, the legal
moves' messages) spares the serving process decoding them from JSON and
building the messages value by value: it merges the bytes with protobuf's C
parser (``MergeFromString``). The bytes cross the wire attached beside the
answer's JSON document as they are (wire.py; decoding them runs no code).

Hidden information: a viewer's bytes are made from that viewer's view, and
legal moves only for the seat the host names. Viewers whose bytes are equal
(every viewer of a game without secrets, most spectators) share one entry of
the answer, and so one bytes object in the host.
"""

from __future__ import annotations

import struct
from typing import Any, Iterable, Mapping, Sequence

from gamehost.host.codec.length_delimited import field
from gamehost.host.codec.struct_encoding import struct_field
from gamehost.host.workers.messages import EncodedViews
from gamehost.host.workers.struct_writer import MoveEncodings, StructWriter
from gamehost.host.workers.wire import Attached
from gamehost.sdk.rules import Move

VIEW_STATE_TAG = b"\x32"  # View.state: field 6, length-delimited
# LegalMove's fields (see gamehost.proto): 1 id, 2 label, 3 move (a Struct), 4 parts; MovePart: 1 id, 2 label.
_ID, _LABEL, _MOVE, _PARTS = b"\x0a", b"\x12", b"\x1a", b"\x22"
VIEW_LEGAL_MOVES_TAG = b"\x3a"  # View.legal_moves: field 7, length-delimited
# What the encoding refuses (NotPlainJson is a ValueError; an int beyond a double is struct.error):
# the host then builds that View as before.
NOT_ENCODED = (ValueError, TypeError, OverflowError, RecursionError, struct.error)


def _text(key: bytes, text: str) -> bytes:
    return field(key, text.encode()) if text else b""  # proto3 leaves an empty string out


def legal_move_bytes(move: Move) -> bytes:
    """``move`` as a serialized LegalMove, as ``service.legal_move`` makes it."""
    parts = b"".join([field(_PARTS, _text(_ID, part.id) + _text(_LABEL, part.label)) for part in move.parts])
    return _text(_ID, move.id) + _text(_LABEL, move.label) + struct_field(_MOVE, dict(move.args)) + parts


def legal_move_field(move: Move) -> bytes:
    """``move`` as one of a View's ``legal_moves``."""
    return field(VIEW_LEGAL_MOVES_TAG, legal_move_bytes(move))


class ViewEncoder:
    def __init__(self) -> None:
        # What repeats is written once (struct_writer.py): a game's positions list nearly
        # the same moves again and again, and most of a view is what it was a move before.
        self._moves = MoveEncodings(legal_move_field)
        self._writer = StructWriter()

    def fields(self, view: Mapping[str, Any], moves: Iterable[Move]) -> bytes | None:
        """The View's ``state`` and ``legal_moves`` fields, or None for what
        this encoding does not take (not plain JSON, a number beyond a
        double): the host then builds that View from the JSON view."""
        try:
            return self._writer.struct_field(VIEW_STATE_TAG, dict(view)) + self._moves.view_field(moves)
        except NOT_ENCODED:
            return None

    @staticmethod
    def shared(encoded: Iterable[tuple[int | None, bytes]]) -> EncodedViews:
        """Viewers' fields for an answer: each distinct encoding once
        (``fields``, attached beside the frame's JSON: wire.py), and ``of``:
        [viewer, its index in fields]."""
        index: dict[bytes, int] = {}
        of: list[list[Any]] = []
        for viewer, fields in encoded:
            of.append([viewer, index.setdefault(fields, len(index))])
        return {"fields": [Attached(fields) for fields in index], "of": of}


def decode_shared(answer: EncodedViews, attached: Sequence[bytes] = ()) -> dict[int | None, bytes]:
    """``ViewEncoder.shared``'s answer read back: viewer -> fields (equal ones
    one object). ``attached``: the frame's attachments, which ``fields``
    index once the answer has crossed the wire (in the same process they are
    the bytes themselves)."""
    fields = [bytes(item) if isinstance(item, bytes) else attached[item] for item in answer["fields"]]
    return {viewer: fields[i] for viewer, i in answer["of"]}
