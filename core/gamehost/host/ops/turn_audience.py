"""Who is told that it is their turn: the signed-in people holding a seat to
move once a step is committed. Shared by the webhooks and Web Push."""

from __future__ import annotations

from typing import Any

from gamehost.host.store.base import SeatRecord


async def seats_to_tell(engine: Any, match_id: str, version: int) -> list[tuple[int, SeatRecord]]:
    """The seats to move after the step that made ``version``, held by a
    signed-in person (a bot or an anonymous seat has no one to reach). Only
    the step's last event (the live match's version) asks: one look per
    step; [] when the match moved on or is not active."""
    live = engine.held(match_id)
    if live is None or live.version != version or live.record.status != "active":
        return []
    try:
        to_move = await engine.to_move(live)
    except Exception as error:  # rules failing: the strikes are counted where they fail
        live.log.warning("turn notification skipped", error=str(error))
        return []
    record = live.record
    if record.version != version:
        return []  # moved on meanwhile: the next step tells
    return [(seat, record.seats[seat]) for seat in to_move
            if record.seats[seat].kind == "human" and record.seats[seat].subject]


def seated_people(engine: Any, match_id: str) -> list[SeatRecord]:
    """The signed-in people holding a seat of the match (told when it ends)."""
    live = engine.held(match_id)
    if live is None:
        return []
    return [seat for seat in live.record.seats if seat.kind == "human" and seat.subject]
