"""Who may see, join and watch a match: its visibility, the seats it
reserves for signed-in users, its invitation and its spectator policy,
decided from the match row and the caller.

A private match exists only for its own users (players, the users it
reserves seats for, its signed-in creator), holders of its invitation and
admins: to anyone else the directory answers exactly as for a match that
never existed (directory.py). An unlisted match is only left out of
listings. Spectating is decided after visibility, so a closed match's
PERMISSION_DENIED tells only those who may see it that it exists.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Sequence

from gamehost.host import errors
from gamehost.host.auth import Principal
from gamehost.host.auth.principal import MATCHMAKER
from gamehost.host.engine.live import token_hash
from gamehost.host.store.base import MatchRecord

VISIBILITIES = ("public", "unlisted", "private")
SPECTATOR_POLICIES = ("anyone", "players", "none")
INVITATION_PREFIX = "ghi_"  # marks an invitation code, so it is not mistaken for a player token
MAX_SUBJECT = 256


@dataclass(frozen=True)
class Access:
    """What a call shows of its caller for one match: who it is (None: the
    host itself), the player token and the invitation code it sends."""

    caller: Principal | None
    player_token: str = ""
    invitation_code: str = ""


def new_invitation_code() -> str:
    return INVITATION_PREFIX + secrets.token_urlsafe(24)


def invitation_hash(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def own_user(record: MatchRecord, caller: Principal | None) -> bool:
    """The signed-in caller is one of the match's users: it holds a seat,
    a seat is reserved for it, or it created the match."""
    if caller is None or not caller.subject:
        return False
    subject = caller.subject
    return record.creator == caller.quota_key or \
        any(seat.subject == subject or seat.reserved_for == subject for seat in record.seats)


def sees_without_invitation(record: MatchRecord, access: Access) -> bool:
    """Whether the call may see the match without an invitation: any match
    but a private one; a private one only as its own user, with a player
    token of one of its seats, or as an admin."""
    caller = access.caller
    if record.visibility != "private" or caller is None or caller.admin or own_user(record, caller):
        return True
    if access.player_token:
        hashed = token_hash(access.player_token)
        return any(seat.token_hash == hashed for seat in record.seats)
    return False


def check_spectator(record: MatchRecord, caller: Principal | None) -> None:
    """Refuse a caller who may see the match but not watch it without a seat."""
    policy = record.spectators
    if policy == "anyone" or caller is None or caller.admin or (policy == "players" and own_user(record, caller)):
        return
    who = "its players" if policy == "players" else "nobody without a seat"
    raise errors.PermissionDenied(
        f"matches/{record.id} may be watched by {who}: send the player token of your seat "
        "(JoinMatch returns it), or sign in as one of its players.", "SPECTATORS_CLOSED",
        metadata=errors.metadata_of(spectators=policy))


def reserved_seats(reservations: Sequence[tuple[int, str]], seats: int, bot_seats: Sequence[int],
                   caller: Principal | None) -> dict[int, str]:
    """The seats a new match holds for signed-in users, by seat, once the
    request and the caller's right to make them are checked. A matchmaker
    or an admin reserves any seats for anyone; another signed-in caller only
    when one of the seats is for itself (a player challenging friends)."""
    if not reservations:
        return {}
    if caller is None or caller.anonymous:
        raise errors.Unauthenticated("Only a signed-in caller may reserve seats (authorization: Bearer ...).",
                                     "AUTHENTICATION_REQUIRED", metadata=errors.metadata_of(field="reserved_seats"))
    held: dict[int, str] = {}
    for seat, subject in reservations:
        if not 0 <= seat < seats:
            raise errors.invalid_field("reserved_seats", f"a reserved seat is 0 to {seats - 1}, not {seat}.")
        if seat in bot_seats:
            raise errors.invalid_field("reserved_seats", f"seat {seat} is a bot seat: it cannot be reserved.")
        if seat in held:
            raise errors.invalid_field("reserved_seats", f"seat {seat} is reserved twice.")
        if not subject or len(subject) > MAX_SUBJECT:
            raise errors.invalid_field("reserved_seats", "a reserved seat's subject is 1 to 256 characters.")
        if subject in held.values():
            raise errors.invalid_field("reserved_seats", "each user may hold one reserved seat of a match.")
        held[seat] = subject
    if not (caller.admin or MATCHMAKER in caller.roles or caller.subject in held.values()):
        raise errors.PermissionDenied(
            "Reserving seats for other users needs the 'matchmaker' or 'admin' role; a player may reserve "
            "seats for friends only when one of the reserved seats is for itself.", "RESERVATION_NOT_ALLOWED",
            metadata=errors.metadata_of(role=MATCHMAKER))
    return held


def check_reserved_seat(record: MatchRecord, seat: int, caller: Principal | None) -> None:
    """Refuse to seat anyone but the user a seat is reserved for."""
    holder = record.seats[seat].reserved_for
    if holder and (caller is None or caller.subject != holder):
        raise errors.PermissionDenied(
            f"Seat {seat} of matches/{record.id} is reserved for another user: take a seat that is not "
            "reserved, or sign in as the user it is held for.", "SEAT_RESERVED",
            metadata=errors.metadata_of(seat=seat))
