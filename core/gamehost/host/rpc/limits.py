"""Limits on every input, checked at the gate before the engine sees a request.

One place for every limit and its default. ``check_request`` walks the
fields a request sets, whatever its method: strings by field name, repeated
fields by count, ``Struct`` values (options, structured moves) by encoded
size, depth, keys per object, list length and finite numbers. A refusal is
INVALID_ARGUMENT with a BadRequest field violation naming the field; the
request reaches neither the engine nor the store, so nothing changes.

Messages never repeat what was sent beyond ``shown`` (a short prefix): a
client that sends a megabyte gets a sentence back, not its megabyte.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from google.protobuf import struct_pb2
from google.protobuf.descriptor import FieldDescriptor

from gamehost.host import errors
from gamehost.host.errors import SHOWN_CHARS, shown

@dataclass(frozen=True)
class InputLimits:
    """Each limit with its default; docs/security.md ("Input limits") lists them."""

    player_name_chars: int = 64       # JoinMatchRequest.player_name: shown to every player and in every listing
    name_chars: int = 128             # resource names ("games/{id}", "matches/{id}") and their ids
    request_id_chars: int = 128       # CreateMatch and SubmitMove request ids (kept per match for retries)
    token_chars: int = 512            # player tokens and page tokens (the host issues far shorter ones)
    text_chars: int = 256             # any other string field: move ids, variants, bots, reasons, filters
    chat_chars: int = 500             # SendChatRequest.text: one chat message
    repeated_items: int = 64          # entries of a repeated request field (bot_seats)
    page_size: int = 1000             # page_size above this is refused (below it the listing clamps to its own cap)
    struct_bytes: int = 16 * 1024     # encoded size of one Struct (options, a structured move)
    struct_depth: int = 8             # nesting of objects and lists inside one Struct
    struct_keys: int = 64             # keys of one object inside a Struct
    struct_key_chars: int = 64        # length of one key inside a Struct
    struct_list_items: int = 256      # items of one list inside a Struct
    # How far a matchmaking ticket's rating range may widen (CreateTicketRequest), in rating points
    rating_widen_per_second: float = 1000.0  # how fast each bound may move out
    rating_max_widening: float = 10000.0     # how far each bound may move out


DEFAULT_LIMITS = InputLimits()

_STRING_LIMIT = {  # field name -> the InputLimits attribute bounding it
    "player_name": "player_name_chars",
    "name": "name_chars", "game": "name_chars", "match": "name_chars", "player": "name_chars",
    "unwatch": "name_chars",  # SessionRequest: a match name
    "party": "name_chars",  # CreateTicketRequest: the name of the party queuing together
    "request_id": "request_id_chars",
    "player_token": "token_chars", "page_token": "token_chars",
    "text": "chat_chars",  # SendChatRequest: a chat message
}


def _refuse(field: str, description: str, reason: str = "INPUT_TOO_LARGE") -> errors.InvalidArgument:
    return errors.invalid_field(field, description, reason)


def check_request(request, limits: InputLimits = DEFAULT_LIMITS) -> None:
    """Raise InvalidArgument for the first field of ``request`` past a limit."""
    _check_message(request, "", limits)


# Numbers bounded by their field's name: more than 0, finite, at most the limit.
_NUMBER_LIMIT = {"rating_widen_per_second": "rating_widen_per_second",
                 "rating_max_widening": "rating_max_widening"}

_STRING, _MESSAGE, _PAGE_SIZE, _NUMBER, _OTHER = range(5)


def _field_rule(descriptor, limits: InputLimits) -> tuple[str, bool, int, float]:
    """(name, repeated, kind, limit) of a field, worked out once per field and limits."""
    if descriptor.type == FieldDescriptor.TYPE_STRING:
        kind, limit = _STRING, getattr(limits, _STRING_LIMIT.get(descriptor.name, "text_chars"))
    elif descriptor.type == FieldDescriptor.TYPE_MESSAGE:
        kind, limit = _MESSAGE, 0
    elif descriptor.name == "page_size":
        kind, limit = _PAGE_SIZE, limits.page_size
    elif descriptor.name in _NUMBER_LIMIT:
        kind, limit = _NUMBER, getattr(limits, _NUMBER_LIMIT[descriptor.name])
    else:
        kind, limit = _OTHER, 0
    return descriptor.name, descriptor.is_repeated, kind, limit


_RULES: dict[tuple[int, object], tuple[str, bool, int, float]] = {}


def _check_message(message, prefix: str, limits: InputLimits) -> None:
    if isinstance(message, struct_pb2.Struct):
        check_struct(message, prefix.rstrip("."), limits)
        return
    for descriptor, value in message.ListFields():
        key = (id(limits), descriptor)
        rule = _RULES.get(key)
        if rule is None:  # descriptors and limits live as long as the process: the cache stays small
            rule = _RULES[key] = _field_rule(descriptor, limits)
        name, repeated, kind, limit = rule
        if kind == _OTHER and not repeated:
            continue
        path = prefix + name
        if repeated and len(value) > limits.repeated_items:
            raise _refuse(path, f"at most {limits.repeated_items} entries, not {len(value)}.")
        if kind == _STRING:
            for text in (value if repeated else (value,)):
                if len(text) > limit:
                    raise _refuse(path, f"at most {limit} characters, not {len(text)}.")
        elif kind == _MESSAGE:
            for item in (value if repeated else (value,)):
                _check_message(item, path + ".", limits)
        elif kind == _PAGE_SIZE and value > limit:
            raise _refuse(path, f"at most {limit}, not {value}.", "INVALID_FIELD")
        elif kind == _NUMBER and not (math.isfinite(value) and 0 < value <= limit):
            raise _refuse(path, f"more than 0 and at most {limit:g}, not {value:g}.", "INVALID_FIELD")


def check_struct(struct: struct_pb2.Struct, field: str, limits: InputLimits = DEFAULT_LIMITS) -> None:
    """A Struct within the size, depth, key and list limits, with finite numbers only."""
    size = struct.ByteSize()
    if size > limits.struct_bytes:
        raise _refuse(field, f"at most {limits.struct_bytes} bytes encoded, not {size}.")
    # Iterative walk: (value, path, depth); depth counts objects and lists entered.
    pending: list[tuple[struct_pb2.Struct | struct_pb2.ListValue | struct_pb2.Value, str, int]] = [
        (struct, field, 1)]
    while pending:
        item, path, depth = pending.pop()
        if depth > limits.struct_depth:
            raise _refuse(path, f"nested deeper than {limits.struct_depth} levels.")
        if isinstance(item, struct_pb2.Struct):
            if len(item.fields) > limits.struct_keys:
                raise _refuse(path, f"at most {limits.struct_keys} keys in one object, not {len(item.fields)}.")
            for key, child in item.fields.items():
                if len(key) > limits.struct_key_chars:
                    raise _refuse(path, f"keys are at most {limits.struct_key_chars} characters; one has "
                                        f"{len(key)}.")
                pending.append((child, f"{path}.{key}", depth))
        elif isinstance(item, struct_pb2.ListValue):
            if len(item.values) > limits.struct_list_items:
                raise _refuse(path, f"at most {limits.struct_list_items} items in one list, not {len(item.values)}.")
            pending.extend((child, f"{path}[{index}]", depth) for index, child in enumerate(item.values))
        else:  # a Value
            kind = item.WhichOneof("kind")
            if kind == "number_value":
                if not math.isfinite(item.number_value):
                    raise _refuse(path, "numbers must be finite (no NaN or infinity).", "NON_FINITE_NUMBER")
            elif kind == "struct_value":
                pending.append((item.struct_value, path, depth + 1))
            elif kind == "list_value":
                pending.append((item.list_value, path, depth + 1))
