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
    """A detached copy, so a backend never shares mutable rows with the engine."""
    return MatchRecord(
        id=record.id, game_id=record.game_id, rules_version=record.rules_version,
        options=loads(dumps(record.options)), seed=record.seed,
        seats=seats_from_json(seats_json(record.seats)), status=record.status,
        version=record.version, create_time=record.create_time, update_time=record.update_time,
        result=None if record.result is None else loads(dumps(record.result)),
        create_request_id=record.create_request_id,
    )
