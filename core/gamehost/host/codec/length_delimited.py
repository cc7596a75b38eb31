"""Protobuf's length-delimited fields, written by hand.

The host builds some messages' bytes itself (events shared by watchers,
legal-move listings, View states) and lets protobuf's C parser read them
back: a field there is its key, its payload's length as a varint, the payload.
"""

from __future__ import annotations

_SHORT = [bytes((size,)) for size in range(128)]  # a length under 128 is one varint byte


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


def field(key: bytes, payload: bytes) -> bytes:
    """A length-delimited field: ``key`` (its number and wire type), the length, ``payload``."""
    return key + length_prefix(len(payload)) + payload
