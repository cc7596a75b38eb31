"""Endings the players decide: resigning, a draw by agreement (offer,
accept or decline, withdraw, lapse) and claiming victory over absent
opponents. Each is one step through ``commit``, logged and replayable
(``gamehost.sdk.endings`` holds the rankings, shared with ``gamehost
replay``).

- A resignation hands the seat to the random bot for good and marks it
  resigned (its order among the resigned). A game's ``gamehost_seat_resigned``
  hook may end the match there with its own ranking; else, once one seat
  is left in play it wins, and with more the match goes on and the
  resigned seats rank last when it ends (``resigned_last``). In a match
  that would be rated, leaving an active match is a resignation
  (``seats.py``): quitting never avoids a rating change.
- A draw offer is open until every other person seated accepts (bots
  accept), one declines, the offerer withdraws it, any other event closes
  it, or it lapses after the host's agreement lifetime (the undo ask's).
- A claim of victory ends the match when every opponent still in play is
  absent past the match's grace (``absent_grace``, else ``CLAIM_GRACE``):
  gone (it left, and the grace has run) or to move with no act of its
  own in the log for the grace. The absent rank last.

A part of ``MatchEngine`` (an ``EngineCore``).
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any, Sequence

from gamehost.host import errors
from gamehost.host.auth import Principal
from gamehost.host.due_timers import DueTimer
from gamehost.host.engine import clocks
from gamehost.host.engine.core import EngineCore
from gamehost.host.engine.draw_offers import DrawOffer, offers_since_last_move, open_offer
from gamehost.host.engine.live import LiveMatch
from gamehost.host.engine.match_events import match_event
from gamehost.host.store.base import MatchRecord, SeatRecord
from gamehost.host.workers.moves_on_wire import summary_fields
from gamehost.sdk.endings import claim_ranking, draw_ranking, ranked_with_resigned, resignation_ranking
from gamehost.sdk.i18n import Text

CLAIM_GRACE = 120.0  # seconds an opponent must be absent before a claim, in a match without absent_grace


@dataclasses.dataclass(frozen=True)
class DrawResult:
    version: int  # the match's version after the call
    offer: DrawOffer | None  # the offer still open
    agreed: bool  # this call ended the match drawn


def resign_order(seats: Sequence[SeatRecord]) -> list[int]:
    """The resigned seats, the first to resign first."""
    return [s.index for s in sorted((s for s in seats if s.resigned), key=lambda s: s.resigned)]


def resigned_last(result: dict, seats: Sequence[SeatRecord]) -> dict:
    """A result the rules gave, with the resigned seats ranked last (their
    scores stay the game's)."""
    order = resign_order(seats)
    if not order:
        return result
    ranking = ranked_with_resigned(result["ranking"], order)
    return {**result, "ranking": ranking, "winners": [s for s, place in enumerate(ranking) if place == 1]}


def _result(ranking: list[int], summary: Text) -> dict:
    """A result the host decides; its summary kept with its message, so that each reader gets it in
    their language (the host's catalogue, gamehost/host/locale)."""
    return {"scores": [0.0] * len(ranking), "ranking": ranking,
            "winners": [seat for seat, place in enumerate(ranking) if place == 1], **summary_fields(summary)}


class MatchEndings(EngineCore):
    # ------------------------------------------------------------ resigning

    async def resign(self, match_id: str, token: str, caller: Principal | None = None) -> LiveMatch:
        live = await self.live_match(match_id)

        async def attempt() -> LiveMatch:
            seat = self._seat_of(live, token, action="resign", caller=caller)
            self._check_active(live, "resign")
            await self._resign_seat(live, seat, left=False)
            return live

        return await self.locked(live, attempt)

    async def _resign_seat(self, live: LiveMatch, seat: int, *, left: bool) -> None:
        record = live.record
        now = time.time()
        resigned = [*resign_order(record.seats), seat]
        count = len(record.seats)
        ranking = await self._resign_rule(live, count, resigned)
        if ranking is None and sum(1 for s in range(count) if s not in resigned) <= 1:
            ranking = resignation_ranking(count, resigned)
        seats = list(record.seats)
        seats[seat] = dataclasses.replace(seats[seat], kind="bot", bot="random", token_hash="", away_until=0.0,
                                          resigned=len(resigned))
        version = record.version + 1
        events = [match_event(version, "resigned", seat, now, **({"left": True} if left else {}))]
        if ranking is None:  # the bot plays the seat to the end; update_time stays (the turn's clock)
            await self.commit(live, record.replace(seats=seats, version=version), events)
            live.log.info("seat resigned; the bot plays it to the end", seat=seat, left=left)
            return
        summary = Text("Seat {seat} left." if left else "Seat {seat} resigned.", seat=seat + 1)
        await self._finish(live, record.replace(seats=seats), events, _result(ranking, summary), now)
        live.log.info("seat resigned; match finished", seat=seat, left=left, ranking=ranking)

    async def _resign_rule(self, live: LiveMatch, seats: int, resigned: list[int]) -> list[int] | None:
        """A ``gamehost_seat_resigned`` hook's ranking, in the game's worker;
        one that fails or answers no ranking is logged and passed over."""
        if self._resign_hook is None:
            return None
        try:
            ranking = await self.rules.resign_ranking(live, resigned)
        except errors.HostError as error:  # timed out, crashed (a strike) or raised
            live.log.error("resignation rule failed; the host's rule applies", error=str(error))
            return None
        if ranking is not None and len(ranking) == seats and all(
                type(place) is int and 1 <= place <= seats for place in ranking):
            return list(ranking)
        if ranking is not None:
            live.log.error("resignation rule gave no ranking; the host's rule applies", ranking=ranking)
        return None

    # ------------------------------------------------------------ draws

    def draw_offer(self, live: LiveMatch) -> DrawOffer | None:
        """The match's open draw offer, if any."""
        if live.record.status != "active":
            return None
        return open_offer(live.recent, time.time())

    async def offer_draw(self, match_id: str, token: str, caller: Principal | None = None) -> DrawResult:
        live = await self.live_match(match_id)

        async def attempt() -> DrawResult:
            seat = self._seat_of(live, token, action="offer a draw", caller=caller)
            self._check_draws_offered(live)
            self._check_offers_left(live)
            now = time.time()
            offer = open_offer(live.recent, now)
            if offer is not None:
                raise errors.FailedPrecondition(
                    f"Seat {offer.seat} has already offered a draw: that offer must be answered or withdrawn "
                    "first.", "DRAW_ALREADY_OFFERED",
                    metadata=errors.metadata_of(offerer=offer.seat, offer_version=offer.version))
            record = live.record
            version = record.version + 1
            offer = DrawOffer(seat, version, now + self.undo_ask_lifetime)
            events = [match_event(version, "draw_offered", seat, now, expire_time=offer.expire_time)]
            if not offer.waiting(record.seats):  # nobody to ask: bots accept
                return await self._agree_draw(live, events, now)
            # update_time stays: an offer is no move, and the turn's deadline keeps running
            await self.commit(live, record.replace(version=version), events)
            live.log.info("draw offered", seat=seat)
            return DrawResult(version, offer, False)

        return await self.locked(live, attempt)

    async def answer_draw(self, match_id: str, token: str, accept: bool, offer_version: int | None = None,
                          caller: Principal | None = None) -> DrawResult:
        live = await self.live_match(match_id)

        async def attempt() -> DrawResult:
            seat = self._seat_of(live, token, action="answer a draw offer", caller=caller)
            self._check_draws_offered(live)
            now = time.time()
            offer = self._offered(live, now)
            if offer_version is not None and offer_version != offer.version:
                raise errors.Aborted(
                    f"The open draw offer is at version {offer.version}, not {offer_version}: fetch the match "
                    "again.", "STALE_DRAW_OFFER", metadata=errors.metadata_of(offer_version=offer.version))
            if seat == offer.seat:
                raise errors.FailedPrecondition("This is your own offer: withdraw it (WithdrawDraw) instead.",
                                                "DRAW_OWN_OFFER", metadata=errors.metadata_of(seat=seat))
            record = live.record
            if seat not in offer.waiting(record.seats):
                raise errors.FailedPrecondition(f"Seat {seat} has already accepted this offer.",
                                                "DRAW_ALREADY_ANSWERED", metadata=errors.metadata_of(seat=seat))
            version = record.version + 1
            if not accept:
                await self.commit(live, record.replace(version=version),
                                  [match_event(version, "draw_declined", seat, now)])
                live.log.info("draw declined", seat=seat, offerer=offer.seat)
                return DrawResult(version, None, False)
            offer = dataclasses.replace(offer, accepted=tuple(sorted((*offer.accepted, seat))))
            events = [match_event(version, "draw_accepted", seat, now)]
            if not offer.waiting(record.seats):
                return await self._agree_draw(live, events, now)
            await self.commit(live, record.replace(version=version), events)
            live.log.info("draw accepted", seat=seat, waiting=offer.waiting(record.seats))
            return DrawResult(version, offer, False)

        return await self.locked(live, attempt)

    async def withdraw_draw(self, match_id: str, token: str, caller: Principal | None = None) -> DrawResult:
        live = await self.live_match(match_id)

        async def attempt() -> DrawResult:
            seat = self._seat_of(live, token, action="withdraw a draw offer", caller=caller)
            self._check_draws_offered(live)
            offer = self._offered(live, time.time())
            if seat != offer.seat:
                raise errors.FailedPrecondition(f"Only the offerer (seat {offer.seat}) may withdraw the offer.",
                                                "DRAW_NOT_YOURS", metadata=errors.metadata_of(offerer=offer.seat))
            record = live.record
            version = record.version + 1
            await self.commit(live, record.replace(version=version),
                              [match_event(version, "draw_withdrawn", seat, time.time())])
            live.log.info("draw offer withdrawn", seat=seat)
            return DrawResult(version, None, False)

        return await self.locked(live, attempt)

    async def _agree_draw(self, live: LiveMatch, events: list[dict], now: float) -> DrawResult:
        record = live.record
        version = events[-1]["version"] + 1
        events.append(match_event(version, "draw_agreed", -1, now))
        ranking = ranked_with_resigned(draw_ranking(len(record.seats)), resign_order(record.seats))
        await self._finish(live, record.replace(version=version), events,
                           _result(ranking, Text("Drawn by agreement.")), now)
        live.log.info("draw agreed; match finished")
        return DrawResult(live.version, None, True)

    def _arm_draw_lapse(self, live: LiveMatch) -> None:
        """After each step: an open offer lapses at its ``expire_time`` with
        a ``draw_lapsed`` event (as an undo ask does); with replicas the
        first to commit it wins, the others find the offer closed."""
        offer = open_offer(live.recent, 0.0)  # expired too: a restarted host writes the lapse it missed
        if offer is None:
            return
        live.draw_lapse = DueTimer(offer.expire_time, lambda: self._spawn(self._draw_lapsed(live, offer.version)))

    async def _draw_lapsed(self, live: LiveMatch, offer_version: int) -> None:
        async def attempt() -> None:
            record = live.record
            offer = open_offer(live.recent, 0.0) if record.status == "active" else None
            if offer is None or offer.version != offer_version:
                return  # answered, withdrawn or closed meanwhile (here or by a replica)
            if time.time() < offer.expire_time:  # the wall clock stepped back since the timer was armed
                live.disarm_draw_lapse()
                self._arm_draw_lapse(live)
                return
            version = record.version + 1
            await self.commit(live, record.replace(version=version),
                              [match_event(version, "draw_lapsed", offer.seat, time.time())])
            live.log.info("draw offer lapsed", seat=offer.seat, waiting=offer.waiting(record.seats))

        try:
            await self.locked(live, attempt)
        except Exception as error:  # the store is away: the offer is closed anyway by its time
            live.log.warning("draw lapse not recorded", error=str(error))

    def _check_draws_offered(self, live: LiveMatch) -> None:
        self._check_active(live, "draw")
        if not live.game.can_draw_by_agreement:
            raise errors.FailedPrecondition(
                f"{live.game.title} does not let players agree on a draw (Game.draw_by_agreement is false).",
                "DRAW_NOT_SUPPORTED", metadata=errors.metadata_of(game=live.game.id))

    def _check_offers_left(self, live: LiveMatch) -> None:
        """Each offer and its answer are events in the log, so offers are
        bounded as asks to take a move back are: a few between two moves,
        none once the log is long."""
        if live.version >= self.max_match_events:
            raise errors.ResourceExhausted(
                f"matches/{live.id} has {live.version} events, the most this host keeps for offers: no more "
                "draws may be offered in it; play on.", "MATCH_LOG_FULL",
                metadata=errors.metadata_of(limit=self.max_match_events, version=live.version))
        offers = offers_since_last_move(live.recent)
        if offers >= self.max_asks_per_move:
            raise errors.FailedPrecondition(
                f"A draw has been offered {offers} times since the last move, the most allowed: play on.",
                "DRAW_OFFERS_EXHAUSTED", metadata=errors.metadata_of(offers=offers, limit=self.max_asks_per_move))

    @staticmethod
    def _offered(live: LiveMatch, now: float) -> DrawOffer:
        offer = open_offer(live.recent, now)
        if offer is None:
            raise errors.FailedPrecondition(
                "No draw is offered now: it was declined or withdrawn, a move or another change closed it, "
                "or it lapsed.", "NO_DRAW_OFFERED")
        return offer

    # ------------------------------------------------------------ claims

    async def claim_victory(self, match_id: str, token: str, caller: Principal | None = None) -> LiveMatch:
        live = await self.live_match(match_id)

        async def attempt() -> LiveMatch:
            seat = self._seat_of(live, token, action="claim victory", caller=caller)
            self._check_active(live, "claim victory")
            record = live.record
            now = time.time()
            grace = record.absent_grace if record.absent_grace is not None else CLAIM_GRACE
            opponents = [s for s in record.seats if s.index != seat and not s.resigned]
            playing = [s.index for s in opponents if s.kind == "bot" and not s.away_until]
            if playing or not opponents:
                raise errors.FailedPrecondition(
                    "Only a match whose every opponent still in play is a person may be claimed"
                    + (f": seat {', '.join(map(str, playing))} is played by a bot." if playing else
                       ": every opponent has resigned."), "NOTHING_TO_CLAIM",
                    metadata=errors.metadata_of(bot_seats=",".join(map(str, playing))))
            since = await self._absent_since(live, [s.index for s in opponents])
            present = {s: t for s, t in since.items() if t is None or now - t < grace}
            if present:
                claimable = [t + grace for t in present.values() if t is not None]
                raise errors.FailedPrecondition(
                    f"Seat {', '.join(map(str, sorted(present)))} is not absent past the match's grace "
                    f"({grace:g} s): a claim needs every opponent gone, or to move without acting, that long.",
                    "CLAIM_TOO_EARLY", metadata=errors.metadata_of(
                        present=",".join(map(str, sorted(present))), grace_seconds=f"{grace:g}",
                        **({"claimable_time": f"{max(claimable):.3f}"}
                           if len(claimable) == len(present) else {})))
            absent = sorted(since)
            ranking = ranked_with_resigned(claim_ranking(len(record.seats), absent), resign_order(record.seats))
            version = record.version + 1
            events = [match_event(version, "victory_claimed", seat, now, absent=absent)]
            summary = Text("Seat {seat} claimed victory: seat {absent} absent.", seat=seat + 1,
                           absent=", ".join(str(s + 1) for s in absent))
            await self._finish(live, record, events, _result(ranking, summary), now)
            live.log.info("victory claimed; match finished", seat=seat, absent=absent)
            return live

        return await self.locked(live, attempt)

    async def _absent_since(self, live: LiveMatch, opponents: list[int]) -> dict[int, float | None]:
        """Since when each of ``opponents`` has been absent: gone since it
        left (its seat's grace then runs to ``away_until``), or to move since
        its turn began or its last act, whichever is later; None: present
        (it waits for others)."""
        record = live.record
        to_move = set(await self.to_move(live))
        last_act: dict[int, float] = {}
        for event in await self.store.events(live.id, 0):
            if event["version"] <= live.version and event["seat"] >= 0 and not event.get("timed_out"):
                last_act[event["seat"]] = event["time"]
        grace = record.absent_grace if record.absent_grace is not None else CLAIM_GRACE
        since: dict[int, float | None] = {}
        for seat in opponents:
            held = record.seats[seat]
            if held.away_until:
                since[seat] = held.away_until - grace
            elif seat in to_move:
                since[seat] = max(record.update_time, last_act.get(seat, 0.0))
            else:
                since[seat] = None
        return since

    # ------------------------------------------------------------ shared

    async def _finish(self, live: LiveMatch, record: MatchRecord, events: list[dict], result: dict,
                      now: float) -> None:
        """The step that ends the match with ``result``: a ``finished`` event
        after ``events``, the clocks stopped, a snapshot of the last state."""
        version = events[-1]["version"] + 1
        changes: dict[str, Any] = {"status": "finished", "result": result, "version": version, "update_time": now}
        if record.clock is not None:
            changes["clock"] = clocks.charged_without_move(record.clock, record.update_time,
                                                           await self.to_move(live), now)
        events.append(match_event(version, "finished", -1, now, result=result))
        await self.commit(live, record.replace(**changes), events, snapshot_state=await self.final_state(live))
        self.remember_finished(live.id)

    @staticmethod
    def _check_active(live: LiveMatch, action: str) -> None:
        record = live.record
        if record.status != "active":
            raise errors.FailedPrecondition(
                f"matches/{live.id} is {record.status}: players may {action} only while it is active.",
                "MATCH_NOT_ACTIVE", metadata=errors.metadata_of(status=record.status))
