"""Draw offers, as the log records them: which offer is open and who must
still accept it. Pure functions over log events; ``endings.py`` makes the
changes.

An offer is open from its ``draw_offered`` event until any event other
than an acceptance (a refusal, a withdrawal, the draw itself, a move, any
change of seats or status), or until its ``expire_time``, when the engine
writes a ``draw_lapsed`` event for clients to see. Like an undo ask
(``undo_asks.py``) it needs no state of its own: a restarted host or
another replica reads it from the same log.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from gamehost.host.store.base import SeatRecord


@dataclass(frozen=True)
class DrawOffer:
    seat: int  # who offered it
    version: int  # the version of the ``draw_offered`` event
    expire_time: float
    accepted: tuple[int, ...] = ()

    def waiting(self, seats: Sequence[SeatRecord]) -> list[int]:
        """The seats still to accept: every other person seated (bots, and
        the bots playing resigned seats, accept)."""
        return [s.index for s in seats if s.kind == "human" and s.index != self.seat and s.index not in self.accepted]


def open_offer(events: Iterable[dict], now: float) -> DrawOffer | None:
    """The offer open after ``events`` (the match's latest events, oldest
    first) at ``now``, or None; ``now=0``: the offer not closed by an event,
    expired or not."""
    accepted: list[int] = []
    for event in reversed(list(events)):
        if event["kind"] == "draw_accepted":
            accepted.append(event["seat"])
            continue
        if event["kind"] != "draw_offered" or now >= event["expire_time"]:
            return None
        return DrawOffer(event["seat"], event["version"], event["expire_time"], tuple(sorted(accepted)))
    return None


def offers_since_last_move(events: Sequence[dict]) -> int:
    """Draw offers among ``events`` (the match's latest, oldest first) after
    the last move they hold: every offer when no move is among them."""
    offers = 0
    for event in reversed(events):
        if event["kind"] == "moved":
            break
        offers += event["kind"] == "draw_offered"
    return offers
