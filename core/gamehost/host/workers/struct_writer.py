"""A view's state as Struct bytes, written fast where the rules run.

The same bytes ``struct_encoding.struct_field`` writes (that module stays
the reference, and the tests compare the two), for a fraction of the CPU:
most of a rules worker's time per move went into that encoding (a
Kensington or Scalino view is a few hundred JSON values, written for every
viewer after every move). Three things make the difference:

- scalars are written inline in their container's loop (no call per value),
  and keys and strings, which repeat, are kept encoded;
- a view's top-level values are kept encoded by their exact content: most
  of them (options, piles, tiles, hands) are the same for every viewer and
  from one move to the next, and are written once;
- a move's encoding is kept by its exact content too (a Callisto position
  lists hundreds of moves, nearly the same as the position before).

Exact content is ``marshal.dumps(value, 2)``: marshal is written in C,
tells apart every type it takes (1, 1.0 and True; "1" and 1 as keys; -0.0
and 0.0; list and tuple), and its bytes read back to the same value, so two
values share a key only if they are the same JSON. Version 2 writes no
back-references, whose use depends on reference counts. What marshal takes
but JSON does not (a set, bytes) misses the table and is refused by the
writer; what marshal refuses (another type, nesting too deep) is written
without being kept. Encodings are a function of content alone: a table
shared by every match and viewer gives nobody bytes of a value they were
not handed.
"""

from __future__ import annotations

import marshal
import struct
import sys
from typing import Any, Iterable

from gamehost.host.codec.length_delimited import length_prefix
from gamehost.host.codec.struct_encoding import NotPlainJson
from gamehost.sdk.rules import Move, Part

_DOUBLE = struct.Struct("<d").pack
_NULL = b"\x08\x00"
_NUMBER = b"\x11"
_STRING = b"\x1a"
_TRUE, _FALSE = b"\x20\x01", b"\x20\x00"
_STRUCT = b"\x2a"
_LIST = b"\x32"
_FIRST = b"\x0a"
_SECOND = b"\x12"
_SHORT = [bytes((size,)) for size in range(128)]

MAX_KEPT = 1 << 14        # entries per table; a flood of new ones only empties it
MAX_KEPT_BYTES = 32 << 20  # bytes of kept encodings (and their keys) per table
# Moves: a Callisto match alone lists tens of thousands of distinct moves (21 pieces, their turns, the
# cells); a table that holds fewer is emptied again and again and keeps nothing.
MAX_MOVES_KEPT = 1 << 17
MAX_TEXT_KEPT = 256        # longer strings are written each time
MIN_SWEEP = 4096           # moves kept by object before the first look at which the game still holds
# sys.getrefcount of a move held by this table alone (CPython): the table's tuple and the call's argument.
_HELD_HERE_ONLY = 2


class _Table:
    """Encodings by key, bounded in entries and bytes: full, it is emptied."""

    __slots__ = ("kept", "size", "entries")

    def __init__(self, entries: int | None = None) -> None:
        self.kept: dict[Any, bytes] = {}
        self.size = 0
        self.entries = entries

    def keep(self, key: Any, encoded: bytes, weight: int) -> None:
        if len(self.kept) >= (self.entries or MAX_KEPT) or self.size + weight > MAX_KEPT_BYTES:
            self.kept.clear()
            self.size = 0
        self.kept[key] = encoded
        self.size += weight


def _prefix(size: int) -> bytes:
    return _SHORT[size] if size < 128 else length_prefix(size)


class StructWriter:
    """JSON-shaped data as google.protobuf.Struct / Value bytes."""

    def __init__(self) -> None:
        self._heads: dict[str, bytes] = {}    # key -> a map entry's bytes up to its value's length
        self._strings: dict[str, bytes] = {}  # short string -> its Value's bytes
        self._ints: dict[int, bytes] = {}     # int -> its Value's bytes
        self._values = _Table()               # marshal of a top-level value -> its Value's bytes

    # ------------------------------------------------------------ scalars

    def _head(self, key: Any) -> bytes:
        head = self._heads.get(key) if type(key) is str else None
        if head is None:
            if type(key) is not str:
                raise NotPlainJson(f"a {type(key).__name__} key is not a string")
            name = key.encode()
            head = _FIRST + _prefix(len(name)) + name + _SECOND
            if len(self._heads) >= MAX_KEPT:
                self._heads.clear()
            self._heads[key] = head
        return head

    def _string(self, text: str) -> bytes:
        encoded = self._strings.get(text)
        if encoded is None:
            payload = text.encode()
            encoded = _STRING + _prefix(len(payload)) + payload
            if len(text) <= MAX_TEXT_KEPT:
                if len(self._strings) >= MAX_KEPT:
                    self._strings.clear()
                self._strings[text] = encoded
        return encoded

    def _int(self, number: int) -> bytes:
        encoded = self._ints.get(number)
        if encoded is None:
            encoded = _NUMBER + _DOUBLE(number)  # beyond a double: struct.error, as struct_encoding
            if len(self._ints) >= MAX_KEPT:
                self._ints.clear()
            self._ints[number] = encoded
        return encoded

    # ------------------------------------------------------------ values

    def value(self, value: Any) -> bytes:
        """``value`` as a google.protobuf.Value's encoded fields."""
        kind = type(value)
        if kind is str:
            return self._string(value)
        if kind is int:
            return self._int(value)
        if kind is float:
            return _NUMBER + _DOUBLE(value)
        if kind is bool:
            return _TRUE if value else _FALSE
        if value is None:
            return _NULL
        if kind is dict:
            payload = self.struct(value)
            return _STRUCT + _prefix(len(payload)) + payload
        if kind is list or kind is tuple:
            payload = self._list(value)
            return _LIST + _prefix(len(payload)) + payload
        raise NotPlainJson(f"a {kind.__name__} is not one of JSON's types")

    def _list(self, items: list | tuple) -> bytes:
        strings, ints, value = self._strings, self._ints, self.value
        out: list[bytes] = []
        append = out.append
        for item in items:
            kind = type(item)
            encoded = (strings.get(item) if kind is str else ints.get(item) if kind is int else None)
            if encoded is None:
                encoded = value(item)
            append(_FIRST)
            append(_SHORT[len(encoded)] if len(encoded) < 128 else length_prefix(len(encoded)))
            append(encoded)
        return b"".join(out)

    def struct(self, data: dict) -> bytes:
        """``data`` as a google.protobuf.Struct's encoded fields."""
        heads, strings, ints, value = self._heads, self._strings, self._ints, self.value
        out: list[bytes] = []
        append = out.append
        for key, item in data.items():
            head = heads.get(key) if type(key) is str else None
            if head is None:
                head = self._head(key)
            kind = type(item)
            encoded = (strings.get(item) if kind is str else ints.get(item) if kind is int else None)
            if encoded is None:
                encoded = value(item)
            size = len(encoded)
            length = _SHORT[size] if size < 128 else length_prefix(size)
            append(_FIRST)
            append(_prefix(len(head) + len(length) + size))
            append(head)
            append(length)
            append(encoded)
        return b"".join(out)

    def _kept_value(self, value: Any) -> bytes:
        """``value``'s Value bytes, kept by exact content when it is a container."""
        kind = type(value)
        if kind is not dict and kind is not list and kind is not tuple:
            return self.value(value)
        try:
            key = marshal.dumps(value, 2)
        except ValueError:  # not marshal's (another type, nesting too deep): written, not kept
            return self.value(value)
        table = self._values
        encoded = table.kept.get(key)
        if encoded is None:
            encoded = self.value(value)
            table.keep(key, encoded, len(key) + len(encoded))
        return encoded

    def struct_field(self, tag: bytes, data: dict) -> bytes:
        """``data`` as the Struct field ``tag`` of another message (a view's
        state), its top-level values kept by content."""
        out: list[bytes] = []
        append = out.append
        for key, item in data.items():
            head = self._head(key)
            encoded = self._kept_value(item)
            size = len(encoded)
            length = _prefix(size)
            append(_FIRST)
            append(_prefix(len(head) + len(length) + size))
            append(head)
            append(length)
            append(encoded)
        payload = b"".join(out)
        return tag + _prefix(len(payload)) + payload


def _part_key(part: Part) -> tuple[str, str]:
    return part.id, str(part.label)


class MoveEncodings:
    """Each legal move's encoding (``encode(move)``: its View.legal_moves
    field), kept by the move's exact content: id, label, arguments, parts.

    Games that build their moves once and list the same objects again
    (Callisto's hundreds per position) are answered by the object itself,
    checked against a copy of its arguments taken when it was encoded (a
    Move is frozen, but its arguments are a dict): reading a move's content
    costs more than the rest of its encoding's reuse."""

    def __init__(self, encode) -> None:
        self._encode = encode
        self._table = _Table(MAX_MOVES_KEPT)
        self._objects: dict[int, tuple[Move, Any, bytes]] = {}  # id(move) -> the move (kept alive), args, bytes
        self._sweep_at = MIN_SWEEP

    def field(self, move: Move) -> bytes:
        seen = self._objects.get(id(move))
        if seen is not None and seen[0] is move and seen[1] == move.args:
            return seen[2]
        args: Any = move.args  # a dict, as a rule; marshal refuses another Mapping (below)
        try:
            # Labels as plain str: a translatable one (Text, a str subclass) is refused by marshal, and
            # the encoding holds only its English (str() of a plain str is the string itself).
            key = marshal.dumps((move.id, str(move.label), args, tuple(map(_part_key, move.parts))), 2)
        except ValueError:  # arguments of another type (a Mapping that is not a dict): encoded, not kept
            return self._encode(move)
        table = self._table
        encoded = table.kept.get(key)
        if encoded is None:
            encoded = self._encode(move)
            table.keep(key, encoded, len(key) + len(encoded))
        if len(self._objects) >= self._sweep_at:
            self._sweep()
        self._objects[id(move)] = (move, marshal.loads(marshal.dumps(args, 2)), encoded)
        return encoded

    def _sweep(self) -> None:
        """Forget the moves only this table still holds: a game that lists new
        move objects at each position (most of them) has dropped them, and
        holding them would keep every move of every match a worker ever
        listed (hundreds of MB after a load). Moves the game keeps (Callisto's
        tables) stay. Swept when the table doubles: a constant cost per move."""
        self._objects = {key: entry for key, entry in self._objects.items()
                         if sys.getrefcount(entry[0]) > _HELD_HERE_ONLY}
        if len(self._objects) >= MAX_MOVES_KEPT:  # every one still listed: start again
            self._objects.clear()
        self._sweep_at = max(MIN_SWEEP, 2 * len(self._objects))

    def view_field(self, moves: Iterable[Move]) -> bytes:
        """``moves`` as a View's repeated ``legal_moves``, in order."""
        field = self.field
        return b"".join([field(move) for move in moves])
