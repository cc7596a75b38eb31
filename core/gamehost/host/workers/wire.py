"""Frames between the host and a worker: a 4-byte big-endian length, then
one JSON document. JSON, not pickle: the worker runs code the operator did
not write, and decoding its answers must not run any (see
docs/architecture.md for the measured cost).

A frame may carry bytes after its JSON (``Attached``: the View fields a
worker encodes, view_bytes.py): the JSON holds each one's [offset, size] in
that tail, after a newline (compact JSON has none). The bytes then cross
as they are, not as base64 text the host would decode (issue 19: the
serving process's CPU per move); reading them runs no code either.
"""

from __future__ import annotations

import json
import struct
from typing import Any

MAX_FRAME = 64 << 20  # bytes; a bigger answer means a runaway plugin
HEADER = struct.Struct(">I")
ATTACHED = "attached"  # the key under which ``decode`` leaves a frame's tail of bytes
_TAIL = b"\n"  # ends the JSON when bytes follow


class FrameTooLarge(Exception):
    pass


class Attached:
    """Bytes to send after the frame's JSON, which holds their place."""

    __slots__ = ("data",)

    def __init__(self, data: bytes) -> None:
        self.data = data


def frame(message: dict) -> bytes:
    tail: list[bytes] = []
    offset = 0

    def place(value: Any) -> list[int]:
        nonlocal offset
        if not isinstance(value, Attached):  # a plugin's bytes (or sets, ...) are not JSON-shaped
            raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")
        tail.append(value.data)
        offset += len(value.data)
        return [offset - len(value.data), len(value.data)]

    body = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False,
                            default=place).encode(message).encode()
    if tail:
        body = b"".join([body, _TAIL, *tail])
    if len(body) > MAX_FRAME:
        raise FrameTooLarge(f"a {len(body)}-byte message is over the {MAX_FRAME}-byte limit")
    return HEADER.pack(len(body)) + body


def decode(body: bytes) -> Any:
    """A frame's JSON; its tail of bytes, if any, under ``ATTACHED`` (a
    memoryview: ``attached`` slices it). Raises ValueError on garbage."""
    end = body.find(_TAIL)
    if end < 0:
        return json.loads(body)
    message = json.loads(body[:end])
    if not isinstance(message, dict):
        raise ValueError("bytes attached to a frame that is not a JSON object")
    message[ATTACHED] = memoryview(body)[end + 1:]
    return message


def attached(tail: memoryview | bytes, place: Any) -> bytes:
    """The bytes ``frame`` wrote at ``place`` ([offset, size]) in ``tail``;
    ValueError for a place the tail does not hold (a worker broke the wire)."""
    if not (isinstance(place, list) and len(place) == 2 and all(type(n) is int for n in place)):
        raise ValueError(f"not a place in a frame's bytes: {str(place)[:40]}")
    offset, size = place
    if offset < 0 or size < 0 or offset + size > len(tail):
        raise ValueError(f"bytes {offset} to {offset + size} are beyond the frame's {len(tail)}")
    return bytes(tail[offset:offset + size])


_json = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode


def through(value):
    """``value`` as the other side decodes it (tuples become lists, keys strings, ...)."""
    return json.loads(_json(value))


def body_length(header: bytes) -> int:
    (length,) = HEADER.unpack(header)
    if length > MAX_FRAME:
        raise FrameTooLarge(f"a {length}-byte message is over the {MAX_FRAME}-byte limit")
    return length
