"""Where each top-level field of a serialized protobuf message lies, read
without parsing it into a message: the host splits a View's bytes into its
parts (the state's values, each legal move) to convert only the parts it
has not seen before (rpc/view_patches.py)."""

from __future__ import annotations

from typing import NamedTuple

# Protobuf's wire types this reader steps over (groups, 3 and 4, are refused: no message of ours has one).
_VARINT, _FIXED64, _LENGTH_DELIMITED, _FIXED32 = 0, 1, 2, 5


class Span(NamedTuple):
    """One field: its number, where its key starts, where its payload starts (after a
    length-delimited field's length), where it ends."""

    number: int
    start: int
    payload: int
    end: int


class MalformedFields(ValueError):
    """The bytes are not a sequence of protobuf fields this reader steps over."""


def _varint(data: bytes, position: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if position >= len(data) or shift > 63:
            raise MalformedFields("a varint runs past the end of the bytes")
        byte = data[position]
        position += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, position
        shift += 7


def field_spans(data: bytes) -> list[Span]:
    """Every top-level field of ``data``, in order."""
    spans: list[Span] = []
    position, size = 0, len(data)
    while position < size:
        start = position
        key, position = _varint(data, position)
        wire_type = key & 7
        if wire_type == _LENGTH_DELIMITED:
            length, position = _varint(data, position)
            payload, end = position, position + length
        elif wire_type == _VARINT:
            payload = position
            _, end = _varint(data, position)
        elif wire_type == _FIXED64:
            payload, end = position, position + 8
        elif wire_type == _FIXED32:
            payload, end = position, position + 4
        else:
            raise MalformedFields(f"wire type {wire_type} is not read here")
        if end > size:
            raise MalformedFields("a field runs past the end of the bytes")
        spans.append(Span(key >> 3, start, payload, end))
        position = end
    return spans
