"""Protobuf's fields, written by hand.

The host builds some messages' bytes itself (events shared by watchers,
legal-move listings, View states) and lets protobuf's C parser read them
back: a length-delimited field there is its key, its payload's length as a
varint, the payload. The keys are read from the messages' descriptors
(``field_tag``), once, when a module that writes them is imported.
"""

from __future__ import annotations

from typing import Protocol

from google.protobuf.descriptor import FieldDescriptor

_SHORT = [bytes((size,)) for size in range(128)]  # a length under 128 is one varint byte

# How protobuf puts each type of field on the wire (its wire types).
_VARINT, _FIXED64, _LENGTH_DELIMITED, _FIXED32 = 0, 1, 2, 5
_WIRE_TYPE = {
    FieldDescriptor.TYPE_DOUBLE: _FIXED64, FieldDescriptor.TYPE_FIXED64: _FIXED64,
    FieldDescriptor.TYPE_SFIXED64: _FIXED64,
    FieldDescriptor.TYPE_FLOAT: _FIXED32, FieldDescriptor.TYPE_FIXED32: _FIXED32,
    FieldDescriptor.TYPE_SFIXED32: _FIXED32,
    FieldDescriptor.TYPE_STRING: _LENGTH_DELIMITED, FieldDescriptor.TYPE_BYTES: _LENGTH_DELIMITED,
    FieldDescriptor.TYPE_MESSAGE: _LENGTH_DELIMITED,
}  # every other type (integers, bool, enum) is a varint


class FieldOfMessage(Protocol):
    """A message field's descriptor, as protobuf's pure-Python or C layer gives it."""

    @property
    def full_name(self) -> str: ...
    @property
    def number(self) -> int: ...
    @property
    def type(self) -> int: ...
    @property
    def is_packed(self) -> bool: ...


def length_prefix(size: int) -> bytes:
    """``size`` as protobuf's varint."""
    if size < 128:
        return _SHORT[size]
    out = bytearray()
    while size > 0x7F:
        out.append((size & 0x7F) | 0x80)
        size >>= 7
    out.append(size)
    return bytes(out)


def field_tag(descriptor: FieldOfMessage) -> bytes:
    """The key protobuf writes before one value of the field ``descriptor``:
    its number and wire type, as a varint. A packed field (a repeated
    number field, written as one length-delimited list) is refused: the
    host writes none by hand."""
    if descriptor.type == FieldDescriptor.TYPE_GROUP:
        raise ValueError(f"{descriptor.full_name}: a group is not written by hand")
    if descriptor.is_packed:
        raise ValueError(f"{descriptor.full_name}: a packed field is written as one list, not value by value")
    wire_type = _WIRE_TYPE.get(descriptor.type, _VARINT)
    return length_prefix(descriptor.number << 3 | wire_type)  # a key is a varint as a length is


def field(key: bytes, payload: bytes) -> bytes:
    """A length-delimited field: ``key`` (its number and wire type), the length, ``payload``."""
    return key + length_prefix(len(payload)) + payload
