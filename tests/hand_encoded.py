"""Protobuf bytes built by hand, for requests protobuf itself refuses to
encode because it could not decode them (a Struct nested past its limit)."""

from __future__ import annotations

import struct


def varint(number: int) -> bytes:
    """The base-128 varint encoding of a non-negative number."""
    out = bytearray()
    while True:
        byte, number = number & 0x7F, number >> 7
        out.append(byte | (0x80 if number else 0))
        if not number:
            return bytes(out)


def deep_struct_bytes(depth: int) -> bytes:
    """The encoding of a Struct nested ``depth`` deep: {"a": {"a": ... {"leaf": 1}}}."""
    body = b"\x0a\x04leaf\x12\x09\x11" + struct.pack("<d", 1.0)  # {"leaf": 1}
    entry = b"\x0a" + bytes([len(body)]) + body  # Struct.fields entry
    for _ in range(depth - 1):
        value = b"\x2a" + varint(len(entry)) + entry  # Value.struct_value
        field = b"\x0a\x01a\x12" + varint(len(value)) + value  # map entry {"a": value}
        entry = b"\x0a" + varint(len(field)) + field
    return entry
