"""Matchmaking's rules: which queued tickets play together, and
how the match they make is seated. Pure functions over ticket records; the
engine (matchmaking.py) and the store do the rest.

- Tickets are matched only within one pool: the same game, player count and
  options (a variant is its options).
- A party's tickets (friends queuing together) are matched
  whole, once all its players have queued, into one match.
- A group's players are distinct, and each one's rating is within every
  other one's range (a ticket without a range accepts anyone). A range may
  widen while its ticket waits: each bound set moves outward at the
  ticket's pace, up to its most.
- The longest-waiting ticket is served first. A full group of players goes
  before bots; bots fill a group only of tickets whose bot wait is over.
- Seats are drawn at random, so nobody can queue for the first move.
- A ticket that names no bot is filled with the rated bot levels nearest
  its players' ratings (the random bot while no level is rated in the game).
"""

from __future__ import annotations

import hashlib
import random
from typing import Any, Collection, Mapping, Sequence

from gamehost.host.store.base import SeatRecord, TicketRecord
from gamehost.host.store.records import dumps

# CreateMatch refuses request ids with this prefix: they name matchmade matches.
MATCHMAKING_REQUEST_PREFIX = "matchmaking/"
_seat_draw = random.SystemRandom()
FALLBACK_BOT = "random"  # fills seats while no bot level is rated in the game


def pool_key(game_id: str, seats: int, options: dict[str, Any]) -> str:
    """Tickets with the same key may play together. The options' canonical
    JSON is hashed: keys sorted, so key order never splits a pool."""
    digest = hashlib.sha256(dumps(_sorted(options)).encode()).hexdigest()[:20]
    return f"{game_id}/{seats}/{digest}"


def _sorted(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _sorted(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [_sorted(item) for item in value]
    return value


def widening(ticket: TicketRecord, now: float) -> float:
    """How far each bound of the ticket's range has moved out by ``now``."""
    if ticket.widen_per_second is None or ticket.max_widening is None:
        return 0.0
    return min(max(now - ticket.create_time, 0.0) * ticket.widen_per_second, ticket.max_widening)


def rating_range(ticket: TicketRecord, now: float) -> tuple[float | None, float | None]:
    """The ticket's (min, max) rating range at ``now``; None: no bound."""
    widened = widening(ticket, now)
    return (None if ticket.min_rating is None else ticket.min_rating - widened,
            None if ticket.max_rating is None else ticket.max_rating + widened)


def accepts(ticket: TicketRecord, other: TicketRecord, now: float) -> bool:
    """``other``'s player is within ``ticket``'s rating range at ``now``."""
    low, high = rating_range(ticket, now)
    return (low is None or other.rating >= low) and (high is None or other.rating <= high)


def fits(group: Sequence[TicketRecord], ticket: TicketRecord, now: float,
         blocked: Collection[frozenset[str]] = ()) -> bool:
    """``ticket`` may join ``group``: another player, within each other's
    ranges, and neither has blocked the other (``blocked``: such pairs)."""
    return all(member.subject != ticket.subject and accepts(member, ticket, now) and accepts(ticket, member, now)
               and frozenset((member.subject, ticket.subject)) not in blocked for member in group)


def bots_allowed(unit: Sequence[TicketRecord], now: float) -> bool:
    """Every player of the unit accepts bots by now."""
    return all(ticket.bot_wait is not None and now >= ticket.create_time + ticket.bot_wait for ticket in unit)


def units(queued: Sequence[TicketRecord]) -> list[list[TicketRecord]]:
    """The pool's queued tickets (oldest first) as the units matched whole,
    oldest first: a ticket alone, or a party once all its players have
    queued (its ``party_size`` oldest tickets: two friends who joined at
    once on two replicas cannot both be counted in)."""
    found: list[list[TicketRecord]] = []
    parties: dict[str, list[TicketRecord]] = {}
    for ticket in queued:
        if not ticket.party:
            found.append([ticket])
        elif ticket.party in parties:
            parties[ticket.party].append(ticket)
        else:
            parties[ticket.party] = [ticket]
            found.append(parties[ticket.party])
    return [unit[:unit[0].party_size] if unit[0].party else unit
            for unit in found if not unit[0].party or len(unit) >= unit[0].party_size]


def _grow(anchor: list[TicketRecord], candidates: Sequence[list[TicketRecord]], size: int,
          now: float, blocked: Collection[frozenset[str]]) -> list[TicketRecord]:
    group = list(anchor)
    for unit in candidates:
        if len(group) == size:
            break
        if unit is not anchor and len(group) + len(unit) <= size and all(fits(group, t, now, blocked)
                                                                         for t in unit):
            group += unit
    return group


def choose_group(queued: Sequence[TicketRecord], now: float,
                 blocked: Collection[frozenset[str]] = ()) -> tuple[list[TicketRecord], int] | None:
    """One group to seat from a pool's queued tickets (oldest first), with
    how many bots fill it; None when no group can be made now. No group
    holds two players of a pair in ``blocked`` (one blocked the other)."""
    if not queued:
        return None
    seats = queued[0].seats
    whole = units(queued)
    for anchor in whole:
        group = _grow(anchor, whole, seats, now, blocked)
        if len(group) == seats:
            return group, 0
    waiting = [unit for unit in whole if bots_allowed(unit, now)]
    if waiting:
        group = _grow(waiting[0], waiting, seats, now, blocked)
        return group, seats - len(group)
    return None


def fill_bots(group: Sequence[TicketRecord], count: int, level_ratings: Mapping[str, float]) -> list[str]:
    """The ``count`` bots that fill the group's empty seats. The
    longest-waiting ticket's bot when it named one; else the rated levels
    nearest the group's mean rating (``level_ratings``: the shown rating of
    each level that has played rated matches of the game), distinct while
    there are enough (a level is one rated player, seated once), the
    nearest again after that; "random" when no level is rated yet."""
    if group[0].bot or count == 0:
        return [group[0].bot or FALLBACK_BOT] * count
    if not level_ratings:
        return [FALLBACK_BOT] * count
    target = sum(ticket.rating for ticket in group) / len(group)
    nearest = sorted(level_ratings, key=lambda bot: (abs(level_ratings[bot] - target), bot))
    return [nearest[n] if n < len(nearest) else nearest[0] for n in range(count)]


def seat_holders(group: Sequence[TicketRecord], seats: int, bots: Sequence[str] = ()) -> list[SeatRecord]:
    """The match's seats: the group's players at seats drawn at random,
    ``bots`` (``fill_bots``) in the others, in seat order."""
    order = list(range(seats))
    _seat_draw.shuffle(order)
    taken = set(order[:len(group)])
    empty = [index for index in range(seats) if index not in taken]
    fill = dict(zip(empty, bots or [group[0].bot or FALLBACK_BOT] * len(empty)))
    holders = [SeatRecord(index, "bot", f"bot {index}", bot=fill.get(index, FALLBACK_BOT)) for index in range(seats)]
    for ticket, index in zip(group, order):
        holders[index] = SeatRecord(index, "human", ticket.player_name, subject=ticket.subject)
    return holders


def group_request_id(group: Sequence[TicketRecord]) -> str:
    """The match's create request id: the same group always names the same
    match, so forming it again (after a failure half-way) finds it."""
    digest = hashlib.sha256(" ".join(sorted(t.id for t in group)).encode()).hexdigest()[:32]
    return MATCHMAKING_REQUEST_PREFIX + digest
