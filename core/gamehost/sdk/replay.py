"""Replaying a match from its record: what verification and restore rely on."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from gamehost.sdk.chance import rng_for
from gamehost.sdk.rules import Game, State


@dataclass(frozen=True)
class RecordedMove:
    """A move as the log records it: the version it produced, the seat, the args."""

    version: int
    seat: int
    args: Mapping[str, Any]


def recorded_moves(events: Iterable[Mapping[str, Any]]) -> list[RecordedMove]:
    """The moves among log events (as the store keeps them) that still
    stand: a move an ``undone`` event took back is left out. Each keeps the
    version it was played at, so its chance is the one it had: the
    position after an undo is exactly the one before the move."""
    events = list(events)
    taken_back = {e["undoes"] for e in events if e["kind"] == "undone"}
    return [RecordedMove(e["version"], e["seat"], e["move"]) for e in events
            if e["kind"] == "moved" and e["version"] not in taken_back]


def initial_state(game: Game, seats: int, options: Mapping[str, Any], seed: int) -> State:
    """The state a match starts from (version 0)."""
    return game.setup(seats, options, rng_for(seed, 0))


def replay(game: Game, state: State, seed: int, moves: Iterable[RecordedMove]) -> State:
    """Apply recorded moves to ``state`` with the same chance the engine used."""
    for move in moves:
        state = game.apply(state, move.seat, move.args, rng_for(seed, move.version))
    return state
