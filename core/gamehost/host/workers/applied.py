"""What a step's answer (``messages.Stepped``) brings the engine."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from gamehost.host.workers import messages
from gamehost.host.workers.moves_on_wire import move_of
from gamehost.host.workers.view_bytes import decode_shared
from gamehost.sdk.rules import Move, Part


@dataclass(frozen=True)
class Applied:
    """What one move brings back: all the engine needs for the step."""

    result: messages.Outcome | None  # the outcome, as the match row keeps it
    to_move: tuple[int, ...]
    moves: Mapping[int, tuple[Move, ...]]  # legal moves of each seat to move
    state: Any  # the new state when asked for (a snapshot is due) or the match finished, else None
    tag: int
    version: int  # the step the move makes
    views: Mapping[int | None, Mapping[str, Any]] = field(default_factory=dict)  # viewer -> view, when asked for
    # Rules in a worker answer views encoded instead (view_bytes.py): viewer -> the View's fields
    # (state, and a seat to move's legal moves), and no legal-move listing.
    encoded: Mapping[int | None, bytes] = field(default_factory=dict)
    played: Move | None = None  # the listed move a move id named
    revealed: tuple[dict[str, Any], ...] = ()  # what the step made known, as the log keeps it (reveals.py)


def listed_moves(data: list[Any], parts: dict[tuple[str, str], Part]) -> tuple[Move, ...]:
    if data and isinstance(data[0], Move):  # from the host's own table: nothing to rebuild
        return tuple(data)
    return tuple([move_of(move, parts) for move in data])


def step_applied(answer: messages.Stepped, tag: int, version: int, viewers: Sequence[int | None],
                 parts: dict[tuple[str, str], Part]) -> Applied:
    """``answer`` read back, keeping the views of ``viewers`` only (those asked for)."""
    moves = {int(seat): listed_moves(listed, parts) for seat, listed in answer.get("moves", {}).items()}
    views = {viewer: view for viewer, view in answer.get("views", ()) if viewer in viewers}
    encoded: dict[int | None, bytes] = {}
    if "encoded" in answer:
        encoded = {viewer: fields for viewer, fields
                   in decode_shared(answer["encoded"], answer.get("attached", ())).items() if viewer in viewers}
    played = answer.get("played")
    if played is not None and not isinstance(played, Move):
        played = move_of(played, parts)
    return Applied(answer["outcome"], tuple(answer.get("to_move", ())), moves, answer.get("state"), tag, version,
                   views, encoded, played, tuple(answer.get("revealed", ())))
