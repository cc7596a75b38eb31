"""Frames between the host and a worker: a 4-byte big-endian length, then
one JSON document. JSON, not pickle: the worker runs code the operator did
not write, and decoding its answers must not run any (see
docs/architecture.md for the measured cost)."""

from __future__ import annotations

import json
import struct

MAX_FRAME = 64 << 20  # bytes; a bigger answer means a runaway plugin
HEADER = struct.Struct(">I")

_encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode
decode = json.loads


class FrameTooLarge(Exception):
    pass


def frame(message: dict) -> bytes:
    body = _encode(message).encode()
    if len(body) > MAX_FRAME:
        raise FrameTooLarge(f"a {len(body)}-byte message is over the {MAX_FRAME}-byte limit")
    return HEADER.pack(len(body)) + body


def through(value):
    """``value`` as the other side decodes it (tuples become lists, keys strings, ...)."""
    return decode(_encode(value))


def body_length(header: bytes) -> int:
    (length,) = HEADER.unpack(header)
    if length > MAX_FRAME:
        raise FrameTooLarge(f"a {length}-byte message is over the {MAX_FRAME}-byte limit")
    return length
