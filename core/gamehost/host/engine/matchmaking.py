"""Matchmaking: signed-in players queue with tickets; the host matches the
tickets of a pool into a match with every player already seated.

An object the engine holds (``engine.matchmaking``). A match forms inside ``store.form_match``: the
pool's queued tickets are held (one replica at a time on a shared store)
while the match is created, then the tickets placed are marked matched in
the same transaction, so a ticket is in one match at most and a cancel
either wins before or finds the ticket matched. Forming is tried when a
ticket is queued, when a ticket's bot wait ends on the replica that queued
it, and by a sweep every ``sweep_interval`` on every replica (which also
expires tickets and picks up what another replica left). Which tickets go
together is matchmaking.py's business.

A WatchTicket stream reads its ticket again only when told it changed: by
this replica at once, by another replica through the shared store's
notifications (PostgreSQL: NOTIFY gamehost_tickets, sent in the changing
transaction), and at its expire time. A change to one ticket of a party
(a friend joining, cancelling or expiring) is told to the party's queued
tickets too: their party_queued changed.
"""

from __future__ import annotations

import asyncio
import dataclasses
import math
import secrets
import time
import uuid
from typing import Any, AsyncIterator, Callable, Coroutine, Mapping, Protocol, Sequence

import structlog

from gamehost.host import errors

from gamehost.host.engine import ticket_matching as matchmaking
from gamehost.host.errors import shown
from gamehost.host.auth import Principal
from gamehost.host.due_timers import sleep_until
from gamehost.host.bots import Bot
from gamehost.host.engine.live import LiveMatch
from gamehost.host.engine.ratings import BotRatings
from gamehost.host.engine.ticket_stats import TicketStats
from gamehost.host.plugins import GameEntry
from gamehost.host.store.base import PartyFull, SeatRecord, Store, TicketRecord
from gamehost.host.store.ticket_rows import FORGET_AFTER

log = structlog.get_logger("gamehost.matchmaking")

OPEN_TICKETS_PER_PLAYER = 4  # queued tickets one player may hold at once, over every game
DEFAULT_TTL = 300.0
MIN_TTL, MAX_TTL = 1.0, 3600.0
# The sweep tries the pools of tickets queued this recently (seconds): one
# queued while another replica held its pool may not have been seen there.
# Older tickets only make a match when a new one comes or a bot wait ends.
RECENT = 10.0


# Where a ticket stands in ListTickets: queued ones first, newest first; then
# those over, the most recently closed first; the id breaks ties.
ListingKey = tuple[int, float, str]


def listing_key(ticket: TicketRecord) -> ListingKey:
    if ticket.state == "queued":
        return 0, -ticket.create_time, ticket.id
    return 1, -ticket.update_time, ticket.id


def _check_widening(per_second: float | None, most: float | None, min_rating: float | None,
                    max_rating: float | None) -> None:
    """A widening names its pace and its most, and has a bound to move (the
    gate, limits.py, bounds each number)."""
    if (per_second is None) != (most is None):
        given, missing = ("rating_widen_per_second", "rating_max_widening") if most is None else \
            ("rating_max_widening", "rating_widen_per_second")
        raise errors.invalid_field(missing, f"a widening range needs both its pace and its most; {given} is set, "
                                            f"{missing} is not.")
    if per_second is None or most is None:
        return
    for field, value in (("rating_widen_per_second", per_second), ("rating_max_widening", most)):
        if not (math.isfinite(value) and value > 0):
            raise errors.invalid_field(field, f"a positive number of rating points, not {value:g}.")
    if min_rating is None and max_rating is None:
        raise errors.invalid_field("rating_widen_per_second", "there is no range to widen: set min_rating or "
                                                              "max_rating (a ticket without them accepts anyone).")


def _signed_in(caller: Principal, method: str) -> None:
    if caller.anonymous:
        raise errors.Unauthenticated(
            f"{method}: matchmaking is for signed-in players, so that each is seated as themselves; sign in "
            "(authorization: Bearer ...) or create a match (CreateMatch) and share its name.",
            "SIGN_IN_REQUIRED")


def _party_full(party: str, size: int) -> errors.FailedPrecondition:
    return errors.FailedPrecondition(
        f"parties/{party} has all its {size} players queued already: start a party of your own (party_size) or "
        "queue alone.", "PARTY_FULL", metadata=errors.metadata_of(party=f"parties/{party}", party_size=size))


class MatchForming(Protocol):
    """What matchmaking needs of the engine: the games and their options
    checked as a match would check them, and the match made."""

    def game_entry(self, game_id: str) -> GameEntry: ...

    def merged_options(self, entry: GameEntry, variant: str, options: Mapping[str, Any]) -> dict: ...

    async def create_match(self, game_id: str, *, seats: int = 0, options: Mapping[str, Any] | None = None,
                           request_id: str = "", seat_holders: Sequence[SeatRecord] | None = None) -> LiveMatch: ...

    def check_player_quota(self, caller: Principal) -> None: ...

    def check_agent_plays(self, bot: str, game_id: str) -> None: ...


class Matchmaking:
    def __init__(self, matches: MatchForming, store: Store, bots: Mapping[str, Bot], stats: TicketStats, *,
                 bot_ratings: BotRatings, sweep_interval: float, closing: Callable[[], bool],
                 spawn: Callable[[Coroutine[Any, Any, Any]], None]) -> None:
        self.matches = matches
        self.store = store
        self.bots = bots  # the host's bots by name, the engine's own mapping
        self.bot_ratings = bot_ratings  # the levels' ratings, for the bot fill of tickets that name no bot
        self.ticket_stats = stats  # matchmaking's figures, for the metrics
        self.sweep_interval = sweep_interval
        self._closing = closing  # whether the host is closing: loops and streams end
        self._spawn = spawn  # run in the background until the engine closes
        self._ticket_watchers: dict[str, set[asyncio.Event]] = {}  # WatchTicket streams by ticket

    # ------------------------------------------------------------ tickets

    async def create_ticket(self, caller: Principal, game_id: str, *, seats: int = 0, variant: str = "",
                            options: Mapping[str, Any] | None = None, min_rating: float | None = None,
                            max_rating: float | None = None, ttl: float | None = None,
                            bot_wait: float | None = None, bot: str = "", widen_per_second: float | None = None,
                            max_widening: float | None = None, party_size: int = 0, party: str = "") -> TicketRecord:
        """Queue the caller. ``party_size`` starts a party with this ticket;
        ``party`` (an id) joins one, whose game, player count and options the
        ticket takes."""
        _signed_in(caller, "CreateTicket")
        # A ticket becomes a match this player sits in: it counts against the same limit as a seat taken.
        self.matches.check_player_quota(caller)
        if party and party_size:
            raise errors.invalid_field("party_size", "start a party (party_size) or join one (party), not both.",
                                       "PARTY_CONFLICT")
        if party:
            joined = await self._party_to_join(caller, party, game_id, seats, variant, options)
            game, seats, merged = self.matches.game_entry(joined.game_id).game, joined.seats, joined.options
            party_size = joined.party_size
        else:
            game, seats, merged = self._pool_terms(game_id, seats, variant, options)
        if party_size and not 2 <= party_size <= seats:
            raise errors.invalid_field("party_size", f"a party of {game.title} with {seats} players has 2 to "
                                                     f"{seats} players, not {party_size}.")
        ttl, bot = self._ticket_terms(ttl, bot_wait, bot, min_rating, max_rating)
        if bot_wait is not None:
            self.matches.check_agent_plays(bot, game.id)
        _check_widening(widen_per_second, max_widening, min_rating, max_rating)
        rating = next((r.rating for r in await self.store.player_ratings(caller.subject) if r.game_id == game.id),
                      0.0)
        now = time.time()
        ticket = TicketRecord(
            id=uuid.uuid4().hex[:16], subject=caller.subject, player_name=caller.display_name or caller.subject,
            game_id=game.id, seats=seats, options=merged, pool=matchmaking.pool_key(game.id, seats, merged),
            rating=rating, min_rating=min_rating, max_rating=max_rating, bot=bot, bot_wait=bot_wait,
            create_time=now, expire_time=now + ttl, update_time=now, widen_per_second=widen_per_second,
            max_widening=max_widening, party=party or (secrets.token_urlsafe(12) if party_size else ""),
            party_size=party_size)
        try:
            added = await self.store.add_ticket(ticket, OPEN_TICKETS_PER_PLAYER)
        except PartyFull:
            raise _party_full(party, party_size) from None
        if not added:
            raise errors.ResourceExhausted(
                f"You have {OPEN_TICKETS_PER_PLAYER} queued tickets already, the most one player may hold: cancel "
                "one (CancelTicket) or wait for it to be matched or to expire.", "TICKET_LIMIT",
                metadata=errors.metadata_of(limit=OPEN_TICKETS_PER_PLAYER),
                quota_violations=[(caller.quota_key, f"at most {OPEN_TICKETS_PER_PLAYER} queued tickets")])
        log.info("ticket queued", ticket_id=ticket.id, game=game.id, seats=seats, subject=caller.subject,
                 rating=rating, ttl=ttl, bot_wait=bot_wait, widen_per_second=widen_per_second,
                 party=ticket.party or None, party_size=party_size or None)
        self.ticket_stats.queued(game.id)
        if party:  # the party's other players see one more of them queued
            self.tickets_changed([t.id for t in await self.store.party_tickets(party)])
        await self._match_pool(ticket.pool)
        if bot_wait is not None:
            self._spawn(self._match_pool_later(ticket.pool, ticket.create_time + bot_wait))
        queued = await self.store.get_ticket(ticket.id)
        assert queued is not None  # a ticket just added is kept an hour after it ends
        return await self._with_party(queued)

    def _pool_terms(self, game_id: str, seats: int, variant: str,
                    options: Mapping[str, Any] | None) -> tuple[Any, int, dict[str, Any]]:
        """The game, player count and merged options a ticket asks for, checked."""
        entry = self.matches.game_entry(game_id)
        game = entry.game
        seats = seats or game.min_players
        if seats not in game.allowed_player_counts():
            raise errors.invalid_field("seats", f"{game.title} is played by {game.player_counts_text()}, not {seats}.")
        return game, seats, self.matches.merged_options(entry, variant, options or {})

    async def _party_to_join(self, caller: Principal, party: str, game_id: str, seats: int, variant: str,
                             options: Mapping[str, Any] | None) -> TicketRecord:
        """The oldest queued ticket of the party the caller joins, whose game,
        player count and options the request may leave empty or must match."""
        members = await self.store.party_tickets(party)
        if not members:
            raise errors.NotFound(
                f"No party parties/{party} is gathering: its tickets were matched, cancelled or expired, or the "
                "name is mistyped. Ask for the name again, or start a party of your own (party_size).",
                "PARTY_NOT_FOUND", resource=("gamehost.dev/Party", f"parties/{party}"))
        first = members[0]
        if any(member.subject == caller.subject for member in members):
            raise errors.FailedPrecondition(f"You have a queued ticket in parties/{party} already.",
                                            "ALREADY_IN_PARTY", metadata=errors.metadata_of(party=f"parties/{party}"))
        if len(members) >= first.party_size:
            raise _party_full(party, first.party_size)
        mismatch = (("game", bool(game_id) and game_id != first.game_id, f"games/{first.game_id}"),
                    ("seats", bool(seats) and seats != first.seats, f"{first.seats} players"))
        for field, differs, theirs in mismatch:
            if differs:
                raise errors.invalid_field(field, f"parties/{party} queues for {theirs}: leave {field} empty to "
                                                  "take the party's, or name the same.", "PARTY_MISMATCH")
        if (variant or options) and self._pool_terms(first.game_id, first.seats, variant, options)[2] != first.options:
            raise errors.invalid_field("options", f"parties/{party} queues with other options: leave variant and "
                                                  "options empty to take the party's.", "PARTY_MISMATCH")
        return first

    async def _with_party(self, ticket: TicketRecord) -> TicketRecord:
        """The ticket with how many of its party's tickets are queued now."""
        if not ticket.party:
            return ticket
        return dataclasses.replace(ticket, party_queued=len(await self.store.party_tickets(ticket.party)))

    def _ticket_terms(self, ttl: float | None, bot_wait: float | None, bot: str, min_rating: float | None,
                      max_rating: float | None) -> tuple[float, str]:
        """The ticket's ttl and bot, defaults applied, once every term is checked."""
        ttl = DEFAULT_TTL if ttl is None else ttl
        if not MIN_TTL <= ttl <= MAX_TTL:
            raise errors.invalid_field("ttl", f"a ticket waits {MIN_TTL:g} s to {MAX_TTL:g} s (1 hour), not {ttl:g} s.")
        if bot_wait is not None and not 0 <= bot_wait < ttl:
            raise errors.invalid_field("bot_wait", f"bots may fill seats after 0 s up to the ttl ({ttl:g} s), "
                                                   f"not {bot_wait:g} s.")
        if bot and bot not in self.bots:
            raise errors.invalid_field("bot", f"no bot {shown(bot)} on this host (the game's bots: "
                                              f"{', '.join(sorted(self.bots))}).")
        for field, bound in (("min_rating", min_rating), ("max_rating", max_rating)):
            if bound is not None and not math.isfinite(bound):
                raise errors.invalid_field(field, f"a rating bound is a finite number, not {bound}.")
        if min_rating is not None and max_rating is not None and min_rating > max_rating:
            raise errors.invalid_field("min_rating", f"the range is empty: min_rating {min_rating:g} is above "
                                                     f"max_rating {max_rating:g}.")
        return ttl, bot

    async def ticket(self, ticket_id: str, caller: Principal, method: str = "GetTicket") -> TicketRecord:
        """The caller's ticket now (an admin may read anyone's); a queued
        ticket past its expire time is expired here, not at the next sweep."""
        _signed_in(caller, method)
        ticket = await self.store.get_ticket(ticket_id)
        if ticket is None:
            raise errors.NotFound(f"No ticket tickets/{ticket_id} on this host (tickets over are kept an hour).",
                                  "TICKET_NOT_FOUND", resource=("gamehost.dev/Ticket", f"tickets/{ticket_id}"))
        if ticket.subject != caller.subject and not caller.admin:
            raise errors.PermissionDenied(f"tickets/{ticket_id} is another player's ticket: only they may use it.",
                                          "NOT_TICKET_HOLDER")
        if ticket.state == "queued" and ticket.expire_time <= time.time():
            await self._expire_tickets()
            ticket = await self.store.get_ticket(ticket_id) or ticket
        return await self._with_party(ticket)

    async def cancel_ticket(self, ticket_id: str, caller: Principal) -> TicketRecord:
        """Leave the queue. Cancelling a cancelled ticket answers it again (a
        retry is safe); a matched or expired one cannot be cancelled."""
        ticket = await self.ticket(ticket_id, caller, "CancelTicket")
        if ticket.state == "queued" and await self.store.cancel_ticket(ticket_id, time.time()):
            log.info("ticket cancelled", ticket_id=ticket_id, game=ticket.game_id)
            self.ticket_stats.ended(ticket.game_id, "cancelled")
            party = await self.store.party_tickets(ticket.party) if ticket.party else []
            self.tickets_changed([ticket_id, *(t.id for t in party)])  # its friends see one fewer queued
            ticket = await self._with_party(await self.store.get_ticket(ticket_id) or ticket)
        if ticket.state == "matched":
            raise errors.FailedPrecondition(
                f"tickets/{ticket_id} is matched already: you hold seat {ticket.seat} of matches/{ticket.match_id}. "
                "To give it up, leave the match (LeaveMatch).", "TICKET_MATCHED",
                metadata=errors.metadata_of(match=f"matches/{ticket.match_id}", seat=ticket.seat))
        if ticket.state == "expired":
            raise errors.FailedPrecondition(f"tickets/{ticket_id} has expired: it is out of the queue already.",
                                            "TICKET_EXPIRED")
        return ticket

    async def list_tickets(self, caller: Principal, states: frozenset[str], after: ListingKey | None,
                           size: int) -> tuple[list[TicketRecord], ListingKey | None]:
        """A page of the caller's own tickets in ``states`` (empty: all),
        in listing order after ``after``, and the key to go on from (None:
        the last page). A player holds few tickets (a few queued, those over
        for an hour), so the page is cut here, not in the store."""
        _signed_in(caller, "ListTickets")
        tickets = await self.store.player_tickets(caller.subject)
        if any(t.state == "queued" and t.expire_time <= time.time() for t in tickets):
            await self._expire_tickets()  # listed as expired now, not at the next sweep
            tickets = await self.store.player_tickets(caller.subject)
        listed = sorted((t for t in tickets if not states or t.state in states), key=listing_key)
        if after is not None:
            listed = [t for t in listed if listing_key(t) > after]
        page = [await self._with_party(ticket) for ticket in listed[:size]]
        return page, listing_key(page[-1]) if len(listed) > size else None

    async def watch_ticket(self, ticket_id: str, caller: Principal) -> AsyncIterator[TicketRecord]:
        """The ticket now, then at each change, until it is over or the host
        closes. It is read again when told it changed (``tickets_changed``:
        this replica's changes, other replicas' through the store's
        notifications) and at its expire time."""
        signal = asyncio.Event()
        watchers = self._ticket_watchers.setdefault(ticket_id, set())
        watchers.add(signal)
        try:
            sent = None
            while not self._closing():
                signal.clear()  # before the read: a change after it wakes us
                ticket = await self.ticket(ticket_id, caller, "WatchTicket")
                if ticket != sent:
                    yield ticket
                    sent = ticket
                if ticket.state != "queued":
                    return
                try:
                    await asyncio.wait_for(signal.wait(), max(ticket.expire_time - time.time(), 0.001))
                except TimeoutError:
                    pass
        finally:
            watchers.discard(signal)
            if not watchers and self._ticket_watchers.get(ticket_id) is watchers:
                del self._ticket_watchers[ticket_id]

    # ------------------------------------------------------------ forming matches

    def tickets_changed(self, ticket_ids: list[str] | None) -> None:
        """Wake this replica's WatchTicket streams of these tickets (None:
        all of them), which read their ticket again."""
        if ticket_ids is None:
            woken = list(self._ticket_watchers.values())
        else:
            woken = [self._ticket_watchers[i] for i in ticket_ids if i in self._ticket_watchers]
        for watchers in woken:
            for signal in watchers:
                signal.set()

    async def _match_pool(self, pool: str) -> None:
        """Form every match the pool's queued tickets make now. A failure is
        logged and leaves the tickets queued: the sweep tries again."""
        while not self._closing():
            grouped: list[TicketRecord] = []  # the group offered, counted once the store has marked it
            now = time.time()  # one moment: the ranges are judged at the time the tickets record
            try:
                placed = await self.store.form_match(pool, now, lambda queued: self._form_match(queued, grouped, now))
            except Exception as error:
                log.error("match not formed", pool=pool, error=f"{type(error).__name__}: {error}")
                return
            if not placed:
                return
            for ticket in grouped:
                if ticket.id in placed:
                    self.ticket_stats.matched(ticket.game_id, now - ticket.create_time)
            self.tickets_changed(list(placed))

    async def _form_match(self, queued: list[TicketRecord], grouped: list[TicketRecord],
                          now: float) -> dict[str, tuple[str, int]]:
        """Choose a group at ``now`` and create its match; ``grouped`` gets the group."""
        blocked = await self.store.chat.blocked_pairs(sorted({ticket.subject for ticket in queued}))
        chosen = matchmaking.choose_group(queued, now, blocked)
        if chosen is None:
            return {}
        group, bots = chosen
        grouped[:] = group
        first = group[0]
        levels = {} if first.bot or not bots else \
            {bot: rating.rating for bot, rating in (await self.bot_ratings.read_game(first.game_id)).items()
             if rating.games}
        fill = matchmaking.fill_bots(group, bots, levels)
        live = await self.matches.create_match(first.game_id, seats=first.seats, options=first.options,
                                       request_id=matchmaking.group_request_id(group),
                                       seat_holders=matchmaking.seat_holders(group, first.seats, fill))
        placed = {}
        for ticket in group:
            seat = live.seat_of_subject(ticket.subject)
            assert seat is not None  # the match was made with the group's players seated
            placed[ticket.id] = (live.id, seat)
        live.log.info("match made", tickets=sorted(placed), bots=fill)
        return placed

    async def _match_pool_later(self, pool: str, due: float) -> None:
        """On the replica that queued it, a ticket's bot wait ends on time
        (the sweep is the fallback): not a moment early, since the pool is
        judged at the time it wakes and bots would not fill it yet."""
        await sleep_until(due)
        await self._match_pool(pool)

    async def _expire_tickets(self) -> None:
        """Expire the due tickets and wake their watchers, and their friends'
        (whose party_queued fell; a shared store tells the other replicas)."""
        now = time.time()
        expired = await self.store.expire_tickets(now, now - FORGET_AFTER)
        if not expired:
            return
        log.info("tickets expired", ticket_ids=sorted(ticket.id for ticket in expired))
        for ticket in expired:
            self.ticket_stats.ended(ticket.game_id, "expired")
        friends = [friend.id for party in sorted({ticket.party for ticket in expired if ticket.party})
                   for friend in await self.store.party_tickets(party)]
        self.tickets_changed([ticket.id for ticket in expired] + friends)

    async def sweep(self) -> None:
        """Every replica, every sweep_interval: expire due tickets and form the
        matches that may have become possible (bot waits that ended, tickets
        another replica's forming did not see, a forming that failed)."""
        try:
            while not self._closing():
                await asyncio.sleep(self.sweep_interval)
                try:
                    await self._expire_tickets()
                    now = time.time()
                    for pool in await self.store.pools_to_match(now, now - RECENT):
                        await self._match_pool(pool)
                    self.ticket_stats.open_by_game = await self.store.queued_ticket_counts()
                except Exception as error:  # the database may be away: sweep again later
                    log.warning("matchmaking sweep failed", error=str(error))
        finally:  # the host is closing: watch streams end
            self.tickets_changed(None)
