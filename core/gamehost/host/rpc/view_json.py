"""A View's proto3 JSON form (what ``json_format.MessageToDict`` gives), made
from its bytes a part at a time.

Views as changes (view_patches.py) need each view as JSON, for every viewer
at every version. Converting the whole View message walks every value in
Python through protobuf's generic converter (a Callisto seat's view with its
hundreds of legal moves: 3.5 ms), yet from one version to the next most of it
is the same: the state's values that did not change (options, piles, rows of
a board) and the legal moves come as the same bytes (the rules worker writes
them so). So the bytes are read here directly: the View's fields apart
(codec/field_spans.py), the state's Struct by a small reader of Struct and
Value bytes, and each part (each field of the View, each legal move, each
Struct or list of the state that is not tiny) converted once per distinct
bytes and kept.

Kept by their exact bytes: a viewer is given the JSON of bytes it was sent,
nothing else, so the tables may be shared by every match and viewer. Equal
parts come back as one object, which also lets the patch step skip them at
once (``a is b``). The JSON objects are read, never written to. Bytes the
reader does not take as it expects (a field twice, an unknown field, a
number JSON cannot hold) go through ``MessageToDict`` whole, which gives
what it always gave, or its error.
"""

from __future__ import annotations

import math
import struct
from typing import Any, Callable

from google.protobuf import json_format

from gamehost.host.codec.field_spans import MalformedFields, field_spans
from gamehost.v1 import gamehost_pb2 as pb

_FIELDS = pb.View.DESCRIPTOR.fields_by_name
_STATE, _LEGAL_MOVES = _FIELDS["state"].number, _FIELDS["legal_moves"].number
_STATE_KEY, _LEGAL_MOVES_KEY = _FIELDS["state"].json_name, _FIELDS["legal_moves"].json_name

# google.protobuf.Value's fields as keys on the wire (number << 3 | wire type), one byte each.
_NULL, _NUMBER, _STRING, _BOOL, _STRUCT, _LIST = 0x08, 0x11, 0x1A, 0x20, 0x2A, 0x32
_ITEM = 0x0A           # Struct.fields (a map entry) and ListValue.values: field 1, length-delimited
_ENTRY_VALUE = 0x12    # a map entry's value: field 2
_DOUBLE = struct.Struct("<d").unpack_from
# LegalMove's fields as keys on the wire: 1 id, 2 label (strings), 3 move (a Struct), 4 parts (MovePart:
# 1 id, 2 label); checked against the descriptors below.
_MOVE_FIELDS = {0x0A: "id", 0x12: "label", 0x1A: "move"}
_MOVE_ARGUMENTS, _MOVE_PARTS = 0x1A, 0x22
_PART_TEXTS = {0x0A: "id", 0x12: "label"}
KEPT_FROM_BYTES = 24   # Structs and lists shorter than this are read again: cheaper than keeping them

# Parts kept of each kind and their bytes (their JSON takes a few times that); a full table is
# emptied, so a flood of new parts only empties it. Enough for the views of every match that changes
# at once (a Callisto match alone lists some 1,200 distinct moves), little beside the host's memory.
MAX_PARTS = 1 << 13
MAX_PARTS_BYTES = 4 << 20


def _wire_keys(message: Any) -> dict[int, str]:
    return {field.number << 3 | 2: field.json_name for field in message.DESCRIPTOR.fields}


assert _wire_keys(pb.LegalMove) == {**_MOVE_FIELDS, _MOVE_PARTS: "parts"}, "LegalMove's fields moved"
assert _wire_keys(pb.MovePart) == _PART_TEXTS, "MovePart's fields moved"


class _NotRead(ValueError):
    """Bytes this reader leaves to ``MessageToDict``."""


class _Kept:
    """JSON of parts by their bytes, bounded in entries and bytes: full, it is emptied."""

    def __init__(self, max_parts: int, max_bytes: int) -> None:
        self._max_parts, self._max_bytes = max_parts, max_bytes
        self.parts: dict[bytes, Any] = {}
        self._size = 0

    def keep(self, encoded: bytes, value: Any) -> Any:
        if len(self.parts) >= self._max_parts or self._size + len(encoded) > self._max_bytes:
            self.parts.clear()
            self._size = 0
        self.parts[encoded] = value
        self._size += len(encoded)
        return value

    def get(self, encoded: bytes, convert: Callable[[bytes], Any]) -> Any:
        kept = self.parts.get(encoded)
        return kept if kept is not None else self.keep(encoded, convert(encoded))


class ViewJson:
    def __init__(self, max_parts: int = MAX_PARTS, max_bytes: int = MAX_PARTS_BYTES) -> None:
        self._fields = _Kept(max_parts, max_bytes)   # a View field's bytes -> {its JSON name: value}
        self._moves = _Kept(max_parts, max_bytes)    # a LegalMove's bytes -> its JSON
        self._structs = _Kept(max_parts, max_bytes)  # a Struct's bytes -> a dict
        self._lists = _Kept(max_parts, max_bytes)    # a ListValue's bytes -> a list

    def of(self, view: bytes) -> dict[str, Any]:
        """``view``'s JSON form, equal to ``MessageToDict(View.FromString(view))``."""
        try:
            return self._read(view)
        except (_NotRead, MalformedFields, UnicodeDecodeError, IndexError, struct.error):
            return json_format.MessageToDict(pb.View.FromString(view))  # what it gives, or its error

    def _read(self, view: bytes) -> dict[str, Any]:
        whole: dict[str, Any] = {}
        seen: set[int] = set()
        moves: list[Any] = []
        kept_move = self._moves.get
        for number, start, payload, end in field_spans(view):
            if number == _LEGAL_MOVES:
                moves.append(kept_move(view[payload:end], self._legal_move))
                continue
            if number in seen:  # written twice: protobuf merges or appends, MessageToDict then says how
                raise _NotRead(f"View field {number} written twice")
            seen.add(number)
            if number == _STATE:
                whole[_STATE_KEY] = self._struct(view, payload, end)
            else:
                whole.update(self._fields.get(view[start:end], _view_field_json))
        if moves:
            whole[_LEGAL_MOVES_KEY] = moves
        return whole

    def _legal_move(self, payload: bytes) -> dict[str, Any]:
        """A LegalMove's JSON: id, label, move (a Struct), parts (MovePart: id, label); proto3 leaves
        empty strings and no parts out."""
        move: dict[str, Any] = {}
        parts: list[dict[str, str]] = []
        seen: set[int] = set()
        position, end = 0, len(payload)
        while position < end:
            tag = payload[position]
            length, position = _length(payload, position + 1)
            after = position + length
            if tag == _MOVE_PARTS:
                parts.append(_texts(payload, position, after, _PART_TEXTS))
            elif tag in seen or tag not in _MOVE_FIELDS:  # twice (merged), or not a field read here
                raise _NotRead("a LegalMove field not read here")
            elif tag == _MOVE_ARGUMENTS:
                move["move"] = self._struct(payload, position, after)
            else:
                text = payload[position:after].decode()
                if text:
                    move[_MOVE_FIELDS[tag]] = text
            seen.add(tag)
            position = after
        if position != end:
            raise _NotRead("a LegalMove runs past its length")
        if parts:
            move["parts"] = parts
        return move

    # ------------------------------------------------------------ Struct and Value bytes

    def _struct(self, data: bytes, start: int, end: int) -> dict[str, Any]:
        if end - start >= KEPT_FROM_BYTES:
            encoded = data[start:end]
            kept = self._structs.parts.get(encoded)
            if kept is None:
                kept = self._structs.keep(encoded, self._read_struct(data, start, end))
            return kept
        return self._read_struct(data, start, end)

    def _list(self, data: bytes, start: int, end: int) -> list[Any]:
        if end - start >= KEPT_FROM_BYTES:
            encoded = data[start:end]
            kept = self._lists.parts.get(encoded)
            if kept is None:
                kept = self._lists.keep(encoded, self._read_list(data, start, end))
            return kept
        return self._read_list(data, start, end)

    def _read_struct(self, data: bytes, start: int, end: int) -> dict[str, Any]:
        fields: dict[str, Any] = {}
        position = start
        while position < end:
            if data[position] != _ITEM:
                raise _NotRead("not a Struct's entry")
            length, position = _length(data, position + 1)
            entry_end = position + length
            key, value, has_value = "", None, False
            while position < entry_end:
                tag = data[position]
                size, position = _length(data, position + 1)
                if tag == _ITEM:
                    key = data[position:position + size].decode()
                elif tag == _ENTRY_VALUE and not has_value:
                    value, has_value = self._value(data, position, position + size), True
                else:  # another field, or a value written twice (protobuf would merge them)
                    raise _NotRead("not a Struct entry's key and value")
                position += size
            if position != entry_end:
                raise _NotRead("a Struct entry runs past its length")
            fields[key] = value  # a key written twice: the last wins, as in protobuf's map
        if position != end:
            raise _NotRead("a Struct runs past its length")
        return fields

    def _read_list(self, data: bytes, start: int, end: int) -> list[Any]:
        values: list[Any] = []
        position = start
        while position < end:
            if data[position] != _ITEM:
                raise _NotRead("not a ListValue's value")
            length, position = _length(data, position + 1)
            values.append(self._value(data, position, position + length))
            position += length
        if position != end:
            raise _NotRead("a ListValue runs past its length")
        return values

    def _value(self, data: bytes, start: int, end: int) -> Any:
        if start == end:
            return None  # no kind set: MessageToDict says null
        tag = data[start]
        position = start + 1
        if tag == _STRING:
            length, position = _length(data, position)
            value: Any = data[position:position + length].decode()
            position += length
        elif tag == _NUMBER:
            value = _DOUBLE(data, position)[0]
            position += 8
            if math.isinf(value) or math.isnan(value):
                raise _NotRead("a number JSON cannot hold")
        elif tag == _BOOL or tag == _NULL:
            flag, position = _length(data, position)
            value = flag != 0 if tag == _BOOL else None
        elif tag == _STRUCT or tag == _LIST:
            length, position = _length(data, position)
            value = (self._struct if tag == _STRUCT else self._list)(data, position, position + length)
            position += length
        else:
            raise _NotRead(f"a Value field {tag:#x} not read here")
        if position != end:  # a second kind (the last would win) or a length past the value
            raise _NotRead("a Value with more than one kind")
        return value


def _length(data: bytes, position: int) -> tuple[int, int]:
    """A varint at ``position`` (a length, most often one byte) and the position after it."""
    byte = data[position]
    if byte < 0x80:
        return byte, position + 1
    value, shift = byte & 0x7F, 7
    while True:
        position += 1
        byte = data[position]
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, position + 1
        shift += 7
        if shift > 63:
            raise _NotRead("a varint too long")


def _texts(data: bytes, start: int, end: int, names: dict[int, str]) -> dict[str, str]:
    """A message of string fields alone (``names``: its keys on the wire -> JSON names), each once."""
    texts: dict[str, str] = {}
    position = start
    while position < end:
        tag = data[position]
        length, position = _length(data, position + 1)
        name = names.get(tag)
        if name is None or name in texts:
            raise _NotRead("a field not read here")
        text = data[position:position + length].decode()
        if text:
            texts[name] = text
        position += length
    if position != end:
        raise _NotRead("a message runs past its length")
    return texts


def _view_field_json(encoded: bytes) -> dict[str, Any]:
    """One field of a View (its key included) as its JSON name and value: {} for a default value."""
    return json_format.MessageToDict(pb.View.FromString(encoded))
