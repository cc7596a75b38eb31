"""Rematch: the same players again, each one seat on, from a finished match.

An object the engine holds (``engine.rematches``). The rematch is an
ordinary open match whose seats are held for the old match's players:
bots keep their strategy and take their seat at once, and each signed-in
player's seat waits for that player, who takes it by calling Rematch too
(or JoinMatch). It starts only when every player has agreed so, never with
a seat its player did not take: one player alone cannot start a rated
match against someone who made no call. A seat held anonymously cannot be
given back to the same person: it opens to anyone.
"""

from __future__ import annotations

from typing import Any, Mapping, Protocol, Sequence

from gamehost.host import errors
from gamehost.host.auth import Principal
from gamehost.host.engine.live import LiveMatch
from gamehost.host.engine.match_access import Access
from gamehost.host.store.base import SeatRecord

# The rematch of match M is created with this request id: every ask, on any
# replica, finds the one rematch (the store keeps request ids unique).
REMATCH_REQUEST_PREFIX = "rematch/"


def rematch_request_id(match_id: str) -> str:
    return REMATCH_REQUEST_PREFIX + match_id


def rotated_seats(seats: list[SeatRecord]) -> list[SeatRecord]:
    """Seat i's holder moves to seat i+1, the last one to seat 0. A signed-in
    player's seat is held for them, open until they take it; a seat held
    anonymously opens to anyone."""
    count = len(seats)
    moved = []
    for old in seats:
        index = (old.index + 1) % count
        if old.kind == "bot":
            moved.append(SeatRecord(index, "bot", f"bot {index}", bot=old.bot))
        elif old.kind == "human" and old.subject:
            moved.append(SeatRecord(index, "open", old.player_name, subject=old.subject))
        else:
            moved.append(SeatRecord(index))
    return sorted(moved, key=lambda seat: seat.index)


class MatchMaker(Protocol):
    """What a rematch needs of the engine: the finished match, a new one
    made, and a player's held seat taken."""

    async def live_match(self, match_id: str, access: Access | None = None) -> LiveMatch: ...

    async def join(self, match_id: str, seat: int | None, player_name: str,
                   caller: Principal | None = None, invitation_code: str = "") -> tuple[LiveMatch, int, str]: ...

    async def create_match(self, game_id: str, **settings: Any) -> LiveMatch: ...


class Rematches:
    def __init__(self, matches: MatchMaker) -> None:
        self.matches = matches

    async def rematch(self, match_id: str, caller: Principal) -> LiveMatch:
        if caller.anonymous:
            raise errors.Unauthenticated(
                "Rematch is for the players of the match: sign in (authorization: Bearer ...).",
                "SIGN_IN_REQUIRED")
        live = await self.matches.live_match(match_id, Access(caller))
        record = live.record
        if live.seat_of_subject(caller.subject) is None:
            raise errors.PermissionDenied(
                f"Only a player of matches/{match_id} may ask for its rematch; {caller.subject[:64]!r} holds "
                "no seat in it.", "NOT_A_PLAYER", metadata=errors.metadata_of(match=f"matches/{match_id}"))
        if record.status != "finished":
            raise errors.FailedPrecondition(
                f"matches/{match_id} is {record.status}: a rematch follows a finished match.",
                "MATCH_NOT_FINISHED", metadata=errors.metadata_of(status=record.status))
        rematch = await self.matches.create_match(
            record.game_id, seats=len(record.seats), options=record.options,
            request_id=rematch_request_id(match_id), turn_timeout=record.turn_timeout, caller=caller,
            seat_holders=rotated_seats(record.seats), visibility=record.visibility, spectators=record.spectators,
            rated=record.rated)
        seat = rematch.seat_of_subject(caller.subject)
        if seat is not None and rematch.record.seats[seat].kind == "open" and rematch.record.status == "open":
            # Asking is agreeing: the caller takes the seat held for them.
            await self.matches.join(rematch.id, seat, "", caller)
        live.log.info("rematch", rematch_id=rematch.id, asked_by=caller.subject)
        return rematch
