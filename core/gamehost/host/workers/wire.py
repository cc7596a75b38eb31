"""Frames between the host and a worker: a 4-byte big-endian length, then
the body: its JSON document's length (4 bytes), the JSON document, and the
bytes attached to it, each a 4-byte length and the bytes. JSON, not pickle:
the worker runs code the operator did not write, and decoding its answers
must not run any (see docs/architecture.md for the measured cost).

Attached bytes (``Attached``: the View fields a worker encodes) travel
beside the document instead of in it as base64: a Callisto listing is tens
of kilobytes, which the worker would otherwise encode to base64 and escape
into JSON, and the host scan and decode back. In the document an
attachment is its index; ``decode`` puts the list under ``ATTACHED``.
"""

from __future__ import annotations

import json
import struct

MAX_FRAME = 64 << 20  # bytes; a bigger answer means a runaway plugin
HEADER = struct.Struct(">I")
ATTACHED = "attached"  # a decoded message's attached bytes, by index


class Attached(bytes):
    """Bytes sent beside a frame's JSON document, not in it; only this type
    is: bytes a plugin put in an answer are still not JSON-shaped."""


decode_json = json.loads


class FrameTooLarge(Exception):
    pass


def frame(message: dict) -> bytes:
    attached: list[bytes] = []

    def attach(value):
        if type(value) is not Attached:
            raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")
        attached.append(value)
        return len(attached) - 1

    document = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False,
                                default=attach).encode(message).encode()
    parts = [HEADER.pack(len(document)), document]
    for value in attached:
        parts.append(HEADER.pack(len(value)))
        parts.append(value)
    body = b"".join(parts)
    if len(body) > MAX_FRAME:
        raise FrameTooLarge(f"a {len(body)}-byte message is over the {MAX_FRAME}-byte limit")
    return HEADER.pack(len(body)) + body


def decode(body: bytes) -> dict:
    """A frame's body read back; attached bytes, if any, under ``ATTACHED``.
    A body that breaks the format raises ValueError."""
    size = HEADER.size
    if len(body) < size:
        raise ValueError("a frame shorter than its document's length")
    (length,) = HEADER.unpack_from(body)
    end = size + length
    if end > len(body):
        raise ValueError("a document longer than its frame")
    message = decode_json(body[size:end])
    if end < len(body):
        attached = []
        while end < len(body):
            if end + size > len(body):
                raise ValueError("an attachment's length cut short")
            (length,) = HEADER.unpack_from(body, end)
            start, end = end + size, end + size + length
            if end > len(body):
                raise ValueError("an attachment longer than its frame")
            attached.append(body[start:end])
        if type(message) is not dict:
            raise ValueError("attachments to a document that is not an object")
        message[ATTACHED] = attached
    return message


def through(value):
    """``value`` as the other side decodes it (tuples become lists, keys strings, ...)."""
    return decode_json(json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode(value))


def body_length(header: bytes) -> int:
    (length,) = HEADER.unpack(header)
    if length > MAX_FRAME:
        raise FrameTooLarge(f"a {length}-byte message is over the {MAX_FRAME}-byte limit")
    return length
