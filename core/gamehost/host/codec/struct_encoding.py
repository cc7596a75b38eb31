"""A game state as a google.protobuf.Struct field, encoded here in one pass.

Every View carries its viewer's state as a Struct. protobuf's own
``Struct.update`` sets it value by value through Python calls into the
message (``_SetStructValue``): about a fifth of the serving process's time
under the soak of issue 19. The same bytes encoded here, in plain Python
over the JSON-shaped data, and merged once by protobuf's C parser
(``MergeFromString``) make the same message in about half the time.

Only exact JSON types are taken (dict with str keys, list, tuple, str, int,
float, bool, None); anything else raises ``NotPlainJson`` and the caller
falls back to ``Struct.update``, which has the last word on what a Struct
may hold.
"""

from __future__ import annotations

import struct
from typing import Any

from gamehost.host.codec.length_delimited import length_prefix

_DOUBLE = struct.Struct("<d").pack

# google.protobuf.Value's fields as their tags, with the fixed values.
_NULL = b"\x08\x00"                       # 1 null_value: NULL_VALUE
_NUMBER = b"\x11"                         # 2 number_value: a double
_STRING = b"\x1a"                         # 3 string_value
_TRUE, _FALSE = b"\x20\x01", b"\x20\x00"  # 4 bool_value
_STRUCT = b"\x2a"                         # 5 struct_value
_LIST = b"\x32"                           # 6 list_value
_FIRST = b"\x0a"   # field 1, length-delimited: Struct.fields' entries, ListValue.values, a map entry's key
_SECOND = b"\x12"  # field 2, length-delimited: a map entry's value


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
            items.append(_FIRST + length_prefix(len(encoded)) + encoded)
        payload, tag = b"".join(items), _LIST
    else:
        raise NotPlainJson(f"a {kind.__name__} is not one of JSON's types")
    return tag + length_prefix(len(payload)) + payload


def struct_bytes(data: dict) -> bytes:
    """``data`` as a google.protobuf.Struct's encoded fields."""
    entries = []
    for key, value in data.items():
        if type(key) is not str:
            raise NotPlainJson(f"a {type(key).__name__} key is not a string")
        name, encoded = key.encode(), value_bytes(value)
        entry = _FIRST + length_prefix(len(name)) + name + _SECOND + length_prefix(len(encoded)) + encoded
        entries.append(_FIRST + length_prefix(len(entry)) + entry)
    return b"".join(entries)


def struct_field(tag: bytes, data: dict) -> bytes:
    """``data`` as the Struct field ``tag`` of another message, to merge into it."""
    payload = struct_bytes(data)
    return tag + length_prefix(len(payload)) + payload
