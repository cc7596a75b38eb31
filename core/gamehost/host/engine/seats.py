"""Seats: joining (and a signed-in user's rejoin), leaving, and which seat
a token or a signed-in caller acts for.

A part of ``MatchEngine`` (an ``EngineCore``): each change is one step through ``commit``.
"""

from __future__ import annotations

import dataclasses
import time

from gamehost.host import errors
from gamehost.host.auth import Principal
from gamehost.host.engine.core import EngineCore
from gamehost.host.engine.live import LiveMatch, new_seat_token, token_hash
from gamehost.host.engine.match_access import Access, check_reserved_seat
from gamehost.host.store.base import SeatRecord
from gamehost.host.engine.match_events import match_event
from gamehost.host.engine.rating_rules import plays_rated


class MatchSeats(EngineCore):
    async def join(self, match_id: str, seat: int | None, player_name: str,
                   caller: Principal | None = None, invitation_code: str = "") -> tuple[LiveMatch, int, str]:
        live = await self.live_match(match_id, Access(caller, "", invitation_code))
        return await self.locked(live, lambda: self._join(live, seat, player_name, caller))

    async def _join(self, live: LiveMatch, seat: int | None, player_name: str,
                    caller: Principal | None = None) -> tuple[LiveMatch, int, str]:
        match_id = live.id
        record = live.record
        held = live.seat_of_subject(caller.subject) if caller and caller.subject else None
        if held is not None and not live.over and record.seats[held].kind != "open":
            return await self._rejoin(live, held)
        if record.status != "open":
            raise errors.FailedPrecondition(
                f"matches/{match_id} is {record.status}: seats can only be taken while it is open.",
                "MATCH_NOT_OPEN", metadata=errors.metadata_of(status=record.status))
        # A seat held for a signed-in player (a rematch's) is theirs alone, whatever seat they name.
        open_seats = [s.index for s in record.seats if s.kind == "open" and not s.subject]
        if held is not None:
            seat = held
        elif not open_seats:
            raise errors.FailedPrecondition(
                f"Every open seat of matches/{match_id} is held for a player of the match it follows.",
                "SEAT_TAKEN", metadata=errors.metadata_of(open_seats=""))
        elif seat is None:
            seat = self._seat_for(live, open_seats, caller)
        elif not 0 <= seat < len(record.seats):
            raise errors.invalid_field("seat", f"seat must be 0 to {len(record.seats) - 1}, not {seat}.")
        elif seat not in open_seats:
            raise errors.FailedPrecondition(
                f"Seat {seat} is taken. Open seats: {', '.join(map(str, open_seats))}.", "SEAT_TAKEN",
                metadata=errors.metadata_of(seat=seat, open_seats=",".join(map(str, open_seats))))
        if held is None:  # a seat held for the caller is theirs, and counted already
            check_reserved_seat(record, seat, caller)
            self.quotas.check_player(caller, self._live)
        token = new_seat_token()
        seats = list(record.seats)
        reserved_for = seats[seat].reserved_for
        if caller and caller.subject:  # the name comes from the identity, and the seat is bound to it
            seats[seat] = SeatRecord(seat, "human", caller.display_name or caller.subject, token_hash(token),
                                     subject=caller.subject, reserved_for=reserved_for)
        else:
            seats[seat] = SeatRecord(seat, "human", player_name or f"player {seat}", token_hash(token))
        now = time.time()
        events = [match_event(record.version + 1, "joined", seat, now, player_name=seats[seat].player_name)]
        status = record.status
        if all(s.kind != "open" for s in seats):
            status = "active"
            events.append(match_event(record.version + 2, "started", -1, now))
        new_record = record.replace(seats=seats, status=status, version=events[-1]["version"], update_time=now)
        await self.commit(live, new_record, events)
        if caller is not None:
            self._live.seated(live, caller.quota_key)
        live.log.info("seat taken", seat=seat, player=seats[seat].player_name)
        return live, seat, token

    @staticmethod
    def _seat_for(live: LiveMatch, open_seats: list[int], caller: Principal | None) -> int:
        """The seat JoinMatch gives a caller who names none: the one reserved
        for it, else the lowest seat neither taken nor reserved."""
        seats = live.record.seats
        if caller and caller.subject:
            mine = next((i for i in open_seats if seats[i].reserved_for == caller.subject), None)
            if mine is not None:
                return mine
        free = [i for i in open_seats if not seats[i].reserved_for]
        if not free:
            raise errors.FailedPrecondition(
                f"Every open seat of matches/{live.id} is reserved for other users.", "SEATS_RESERVED",
                metadata=errors.metadata_of(open_seats=",".join(map(str, open_seats))))
        return free[0]

    async def _rejoin(self, live: LiveMatch, seat: int) -> tuple[LiveMatch, int, str]:
        """A signed-in user back for the seat they hold (another device):
        a fresh token replaces the old one, which stops working; the user
        may also act by identity alone, without any token."""
        record = live.record
        token = new_seat_token()
        seats = list(record.seats)
        away = seats[seat].away_until > 0
        seats[seat] = dataclasses.replace(seats[seat], token_hash=token_hash(token))
        if away:  # back from absence: the seat is theirs again, the bot stops
            seats[seat] = dataclasses.replace(seats[seat], kind="human", bot="", away_until=0.0)
        now = time.time()
        events = [match_event(record.version + 1, "joined", seat, now, player_name=seats[seat].player_name,
                              rejoined=True, **({"returned": True} if away else {}))]
        # update_time stays: it is the turn clock, which a rejoin must not restart
        await self.commit(live, record.replace(seats=seats, version=record.version + 1), events)
        live.log.info("seat taken again", seat=seat)
        return live, seat, token

    async def leave(self, match_id: str, token: str, caller: Principal | None = None) -> LiveMatch:
        live = await self.live_match(match_id)
        return await self.locked(live, lambda: self._leave(live, token, caller))

    async def _leave(self, live: LiveMatch, token: str, caller: Principal | None = None) -> LiveMatch:
        match_id = live.id
        seat = self._seat_of(live, token, action="leave", caller=caller)
        record = live.record
        now = time.time()
        if record.status == "open":
            seats = list(record.seats)
            seats[seat] = SeatRecord(seat, reserved_for=seats[seat].reserved_for)  # held for its user still
            events = [match_event(record.version + 1, "left", seat, now)]
            new_record = record.replace(seats=seats, version=record.version + 1, update_time=now)
        elif record.status == "active" and record.absent_grace is not None:  # away: the player may come back
            return await self._leave_to_bot(live, seat)
        elif record.status == "active" and plays_rated(record):  # quitting never avoids a rating change
            await self._resign_seat(live, seat, left=True)
            return live
        elif record.status == "active":
            return await self._abandon(live, seat)
        else:
            raise errors.FailedPrecondition(f"matches/{match_id} is already {record.status}.",
                                            "MATCH_OVER", metadata=errors.metadata_of(status=record.status))
        await self.commit(live, new_record, events)
        live.log.info("seat left", seat=seat, status=new_record.status)
        return live

    async def _abandon(self, live: LiveMatch, seat: int) -> LiveMatch:
        """``seat`` leaves the running match for good: it ends, abandoned."""
        record = live.record
        now = time.time()
        events = [match_event(record.version + 1, "left", seat, now),
                  match_event(record.version + 2, "abandoned", seat, now)]
        new_record = record.replace(status="abandoned", version=record.version + 2, update_time=now)
        await self.commit(live, new_record, events, snapshot_state=await self.final_state(live))
        live.log.info("seat left", seat=seat, status=new_record.status)
        self.remember_finished(live.id)
        return live

    async def _leave_to_bot(self, live: LiveMatch, seat: int) -> LiveMatch:
        """Absent players (BGA's zombie mode): the seat goes to the random
        bot, which waits the match's grace before its first move; the match
        goes on, and a signed-in owner who joins again takes the seat back.
        The old token stops working."""
        record = live.record
        assert record.absent_grace is not None  # only a match with a grace hands an absent seat to a bot
        others_host_played = all(s.kind == "bot" for s in record.seats if s.index != seat)
        if others_host_played and self.quotas.host_plays_too_many(
                record.creator, live, self._live.created_by(record.creator)):
            # The host would play every seat, and its creator already has as many such matches as
            # allowed: leaving ends the match, as it does in a match without a grace.
            return await self._abandon(live, seat)
        now = time.time()
        seats = list(record.seats)
        seats[seat] = dataclasses.replace(seats[seat], kind="bot", bot="random", token_hash="",
                                          away_until=now + record.absent_grace)
        events = [match_event(record.version + 1, "left", seat, now, away=True,
                              away_until=seats[seat].away_until)]
        # update_time stays: it is the turn clock, which leaving must not restart
        await self.commit(live, record.replace(seats=seats, version=record.version + 1), events)
        live.log.info("seat left; a bot plays for it after the grace", seat=seat, grace=record.absent_grace)
        return live

    def viewer_of(self, live: LiveMatch, token: str, caller: Principal | None = None) -> int | None:
        """The seat a token acts for; without a token, the seat the signed-in
        caller holds; None for a spectator."""
        if not token:
            return live.seat_of_subject(caller.subject) if caller and caller.subject else None
        seat = live.seat_of_token(token)
        if seat is None:
            raise errors.Unauthenticated(
                f"The player token does not belong to any seat of matches/{live.id}. Use the token "
                "JoinMatch returned for this match, or no token to watch as a spectator.", "INVALID_TOKEN")
        return seat

    def _seat_of(self, live: LiveMatch, token: str, action: str, caller: Principal | None = None) -> int:
        seat = self.viewer_of(live, token, caller)
        if seat is None:
            raise errors.PermissionDenied(
                f"Spectators cannot {action}: join the match (JoinMatch) and send its player token.",
                "SPECTATOR_FORBIDDEN", metadata=errors.metadata_of(action=action))
        if live.record.seats[seat].resigned:
            raise errors.FailedPrecondition(
                f"Seat {seat} has resigned: the bot plays it to the end, and its player can only watch.",
                "SEAT_RESIGNED", metadata=errors.metadata_of(seat=seat, action=action))
        return seat
