"""A game state as a google.protobuf.Struct field, encoded here in one pass.

Every View carries its viewer's state as a Struct. protobuf's own
``Struct.update`` sets it value by value through Python calls into the
message (``_SetStructValue``): about a fifth of the serving process's time
under a soak of many matches. The same bytes encoded here, in plain Python
over the JSON-shaped data, and merged once by protobuf's C parser
(``MergeFromString``) make the same message in about half the time.

Only exact JSON types are taken (dict with str keys, list, tuple, str, int,
float, bool, None); anything else raises ``NotPlainJson`` and the caller
falls back to ``Struct.update``, which has the last word on what a Struct
may hold.
"""

from __future__ import annotations

import struct
from typing import Any, Mapping

from google.protobuf import struct_pb2

from gamehost.host.codec.length_delimited import field_tag, length_prefix

_DOUBLE = struct.Struct("<d").pack

# google.protobuf.Value's fields as their tags, with the fixed values.
_VALUE = struct_pb2.Value.DESCRIPTOR.fields_by_name
_NULL = field_tag(_VALUE["null_value"]) + b"\x00"  # NULL_VALUE, the enum's 0
_NUMBER = field_tag(_VALUE["number_value"])  # a double
_STRING = field_tag(_VALUE["string_value"])
_TRUE, _FALSE = field_tag(_VALUE["bool_value"]) + b"\x01", field_tag(_VALUE["bool_value"]) + b"\x00"
_STRUCT = field_tag(_VALUE["struct_value"])
_LIST = field_tag(_VALUE["list_value"])
# The containers' fields: a Struct's entries (a map: each entry a key and a value), a list's items.
_ENTRY = field_tag(struct_pb2.Struct.DESCRIPTOR.fields_by_name["fields"])
_ENTRY_KEY = field_tag(struct_pb2.Struct.FieldsEntry.DESCRIPTOR.fields_by_name["key"])
_ENTRY_VALUE = field_tag(struct_pb2.Struct.FieldsEntry.DESCRIPTOR.fields_by_name["value"])
_ITEM = field_tag(struct_pb2.ListValue.DESCRIPTOR.fields_by_name["values"])


class NotPlainJson(ValueError):
    pass


def value_bytes(value: Any) -> bytes:
    """``value`` as a google.protobuf.Value's encoded fields."""
    if value is None:
        return _NULL
    if value is True:
        return _TRUE
    if value is False:
        return _FALSE
    kind = type(value)
    if kind is int or kind is float:
        return _NUMBER + _DOUBLE(value)  # an int beyond a double's range raises OverflowError
    if kind is str:
        payload = value.encode()
        return _STRING + length_prefix(len(payload)) + payload
    if kind is dict:
        payload, tag = struct_bytes(value), _STRUCT
    elif kind is list or kind is tuple:
        items = []
        for item in value:
            encoded = value_bytes(item)
            items.append(_ITEM + length_prefix(len(encoded)) + encoded)
        payload, tag = b"".join(items), _LIST
    else:
        raise NotPlainJson(f"a {kind.__name__} is not one of JSON's types")
    return tag + length_prefix(len(payload)) + payload


def struct_bytes(data: Mapping[str, Any]) -> bytes:
    """``data`` as a google.protobuf.Struct's encoded fields."""
    entries = []
    for key, value in data.items():
        if type(key) is not str:
            raise NotPlainJson(f"a {type(key).__name__} key is not a string")
        name, encoded = key.encode(), value_bytes(value)
        entry = _ENTRY_KEY + length_prefix(len(name)) + name + _ENTRY_VALUE + length_prefix(len(encoded)) + encoded
        entries.append(_ENTRY + length_prefix(len(entry)) + entry)
    return b"".join(entries)


def struct_field(tag: bytes, data: Mapping[str, Any]) -> bytes:
    """``data`` as the Struct field ``tag`` of another message, to merge into it."""
    payload = struct_bytes(data)
    return tag + length_prefix(len(payload)) + payload
