"""Asks to take a move back, as the log records them: which ask is open
and who must still answer it. Pure functions over log events; the engine's
``undo.py`` makes the changes.

An ask is open from its ``undo_asked`` event until any event other than an
acceptance (a refusal, a withdrawal, the undo itself, a move, any change of
seats or status), or until its ``expire_time``, when the engine writes an
``undo_lapsed`` event for clients to see (the ask is closed from that time
whether or not the event is written yet). So the open ask is always
among the match's last few events, and it needs no state of its own: a
restarted host or another replica reads it from the same log.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from gamehost.host.store.base import SeatRecord

ASK_LIFETIME = 300.0  # seconds an unanswered ask stays open
MAX_ASKS_PER_MOVE = 3  # a player asks a move back at most this often: each ask and its answer grow the log
MAX_MATCH_EVENTS = 10_000  # past this many events in a match, no more asks
# The ask and its answers: the position and the turn stay as they were.
ASK_EVENTS = frozenset({"undo_asked", "undo_accepted", "undo_refused", "undo_withdrawn", "undo_lapsed"})


@dataclass(frozen=True)
class UndoAsk:
    seat: int  # the asker, whose move is taken back
    undoes: int  # the version of that move's ``moved`` event
    version: int  # the version of the ``undo_asked`` event
    expire_time: float
    accepted: tuple[int, ...] = ()

    def waiting(self, seats: Sequence[SeatRecord]) -> list[int]:
        """The seats still to answer: every other person seated (bots accept)."""
        return [s.index for s in seats if s.kind == "human" and s.index != self.seat and s.index not in self.accepted]


def open_ask(events: Iterable[dict], now: float) -> UndoAsk | None:
    """The ask open after ``events`` (the match's latest events, oldest
    first) at ``now``, or None; ``now=0``: the ask not closed by an event,
    expired or not."""
    accepted: list[int] = []
    for event in reversed(list(events)):
        if event["kind"] == "undo_accepted":
            accepted.append(event["seat"])
            continue
        if event["kind"] != "undo_asked" or now >= event["expire_time"]:
            return None
        return UndoAsk(event["seat"], event["undoes"], event["version"], event["expire_time"],
                       tuple(sorted(accepted)))
    return None
