"""JSON encoding shared by the backends, so both store exactly the same bytes."""

from __future__ import annotations

import json
from typing import Any

from gamehost.host.store.base import MatchRecord, SeatRecord

_compact = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode


def dumps(value: Any) -> str:
    return _compact(value)


loads = json.loads


def seats_json(seats: list[SeatRecord]) -> str:
    return dumps([seat.to_json() for seat in seats])


def seats_from_json(text: str) -> list[SeatRecord]:
    return [SeatRecord.from_json(seat) for seat in loads(text)]


def copy_record(record: MatchRecord) -> MatchRecord:
    """A detached copy of the row. The engine replaces records, seat lists and
    seats rather than changing them, so copying the containers is enough."""
    return record.replace(seats=list(record.seats), options=dict(record.options))
