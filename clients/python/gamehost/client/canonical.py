"""Canonical JSON of a protobuf message: the form every gamehost client
prints for a match log, so logs from clients in different languages compare
byte for byte (docs/clients.md, "Canonical JSON")."""

from __future__ import annotations

import json
from typing import Any

from google.protobuf.json_format import MessageToDict
from google.protobuf.message import Message


def _plain(value: Any) -> Any:
    """Integral numbers as integers, as JavaScript and Go print them."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


def canonical_json(message: Message) -> str:
    """The proto3 JSON mapping, keys sorted, no whitespace."""
    return json.dumps(_plain(MessageToDict(message)), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
