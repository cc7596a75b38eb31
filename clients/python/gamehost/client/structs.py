"""google.protobuf.Struct <-> plain Python data.

Struct numbers are doubles on the wire; a game's data is mostly integers, so
integral numbers come back as ``int``.
"""

from __future__ import annotations

from typing import Any, Mapping

from google.protobuf import struct_pb2


def to_struct(data: Mapping[str, Any] | None) -> struct_pb2.Struct:
    message = struct_pb2.Struct()
    if data:
        message.update(data)
    return message


def _plain(value: struct_pb2.Value) -> Any:
    kind = value.WhichOneof("kind")
    if kind == "number_value":
        number = value.number_value
        return int(number) if number.is_integer() and abs(number) < 2**53 else number
    if kind == "string_value":
        return value.string_value
    if kind == "bool_value":
        return value.bool_value
    if kind == "struct_value":
        return from_struct(value.struct_value)
    if kind == "list_value":
        return [_plain(item) for item in value.list_value.values]
    return None


def from_struct(message: struct_pb2.Struct) -> dict[str, Any]:
    return {key: _plain(value) for key, value in message.fields.items()}
