"""Undo by agreement: the player whose move was the last one asks to take
it back, every other person seated answers (bots accept), and the last
acceptance takes it back. Each ask, answer and undo is one step in the log.

The undo is an ``undone`` event naming the version of the move it takes
back: the log is never rewritten, the match's version keeps growing, and
replaying the moves that still stand, each with its own version's chance,
gives exactly the position before that move (``gamehost.sdk.replay``). The
undo's step writes a snapshot of that position, so loading a match never
replays across an undo.

Asks are what a seat can repeat without advancing the game, so they are
bounded: a move may be asked back at most ``max_asks_per_move`` times,
and once a match's log holds ``max_match_events`` events no new ask is
taken (moves, answers and withdrawals still are, so the game and an open
ask can always end). An ask reads the log from its end, a page at a time,
only back to the last move still standing.

A part of ``MatchEngine`` (an ``EngineCore``); the open ask is read from the log (``undo.py``).
"""

from __future__ import annotations

import dataclasses
import time

from gamehost.host.engine import clocks

from gamehost.host import errors
from gamehost.host.auth import Principal
from gamehost.host.due_timers import DueTimer
from gamehost.host.engine.core import EngineCore
from gamehost.host.engine.live import LiveMatch
from gamehost.host.engine.log_pages import LOG_PAGE, whole_log
from gamehost.host.engine.undo_asks import UndoAsk, open_ask
from gamehost.sdk.replay import RecordedMove, recorded_moves
from gamehost.sdk.rules import offers_undo
from gamehost.host.engine.match_events import match_event


@dataclasses.dataclass(frozen=True)
class UndoResult:
    version: int  # the match's version after the call
    ask: UndoAsk | None  # the ask still open
    undone: bool  # this call took the move back


class MatchUndo(EngineCore):
    def undo_ask(self, live: LiveMatch) -> UndoAsk | None:
        """The match's open ask, if any."""
        if live.record.status != "active":
            return None
        return open_ask(live.recent, time.time())

    async def ask_undo(self, match_id: str, token: str, caller: Principal | None = None) -> UndoResult:
        live = await self.live_match(match_id)

        async def attempt() -> UndoResult:
            seat = self._seat_of(live, token, action="ask to take a move back", caller=caller)
            self._check_undo_offered(live)
            now = time.time()
            ask = open_ask(live.recent, now)
            if ask is not None:
                raise errors.FailedPrecondition(
                    f"Seat {ask.seat} has already asked to take back the move at version {ask.undoes}: "
                    "that ask must be answered or withdrawn first.", "UNDO_ALREADY_ASKED",
                    metadata=errors.metadata_of(asker=ask.seat, ask_version=ask.version))
            if live.version >= self.max_match_events:
                raise errors.ResourceExhausted(
                    f"matches/{live.id} has {live.version} events, the most this host keeps for asks: "
                    "no more moves may be asked back in it; play on.", "MATCH_LOG_FULL",
                    metadata=errors.metadata_of(limit=self.max_match_events, version=live.version))
            last, asked = await self._last_standing(live)
            if last is None:
                raise errors.FailedPrecondition("No move has been played: there is nothing to take back.",
                                                "NOTHING_TO_UNDO")
            if last.seat != seat:
                raise errors.FailedPrecondition(
                    f"The last move (version {last.version}) is seat {last.seat}'s: only the player who made it "
                    "may ask to take it back.", "UNDO_NOT_YOURS",
                    metadata=errors.metadata_of(seat=seat, last_mover=last.seat, undoes=last.version))
            if asked >= self.max_asks_per_move:
                raise errors.FailedPrecondition(
                    f"The move at version {last.version} has been asked back {asked} times, the most allowed: "
                    "play on.", "UNDO_ASKS_EXHAUSTED",
                    metadata=errors.metadata_of(undoes=last.version, asks=asked, limit=self.max_asks_per_move))
            if not await self.rules.can_undo(live, seat, last.args):
                raise errors.FailedPrecondition(
                    f"{live.game.title} does not let this move be taken back (it drew chance or showed what the "
                    "game hides; the game's rules page says which moves may be).", "UNDO_NOT_ALLOWED",
                    metadata=errors.metadata_of(undoes=last.version, rule="undo-not-allowed"))
            record = live.record
            version = record.version + 1
            ask = UndoAsk(seat, last.version, version, now + self.undo_ask_lifetime)
            events = [match_event(version, "undo_asked", seat, now, undoes=last.version,
                                  expire_time=ask.expire_time)]
            if not ask.waiting(record.seats):  # nobody to ask: bots accept
                return await self._take_back(live, ask, events, recorded_moves(await self._log_now(live)), now)
            # update_time stays: an ask is no move, and the turn's deadline keeps running
            await self.commit(live, record.replace(version=version), events)
            live.log.info("undo asked", seat=seat, undoes=last.version)
            return UndoResult(version, ask, False)

        return await self.locked(live, attempt)

    async def answer_undo(self, match_id: str, token: str, accept: bool, ask_version: int | None = None,
                          caller: Principal | None = None) -> UndoResult:
        live = await self.live_match(match_id)

        async def attempt() -> UndoResult:
            seat = self._seat_of(live, token, action="answer an undo", caller=caller)
            self._check_undo_offered(live)
            now = time.time()
            ask = self._asked(live, now)
            if ask_version is not None and ask_version != ask.version:
                raise errors.Aborted(
                    f"The open ask is at version {ask.version}, not {ask_version}: fetch the match again.",
                    "STALE_UNDO_ASK", metadata=errors.metadata_of(ask_version=ask.version))
            if seat == ask.seat:
                raise errors.FailedPrecondition("This is your own ask: withdraw it (WithdrawUndo) instead.",
                                                "UNDO_OWN_ASK", metadata=errors.metadata_of(seat=seat))
            record = live.record
            if seat not in ask.waiting(record.seats):
                raise errors.FailedPrecondition(f"Seat {seat} has already accepted this ask.",
                                                "UNDO_ALREADY_ANSWERED", metadata=errors.metadata_of(seat=seat))
            version = record.version + 1
            if not accept:
                await self.commit(live, record.replace(version=version),
                                   [match_event(version, "undo_refused", seat, now)])
                live.log.info("undo refused", seat=seat, undoes=ask.undoes)
                return UndoResult(version, None, False)
            ask = dataclasses.replace(ask, accepted=tuple(sorted((*ask.accepted, seat))))
            events = [match_event(version, "undo_accepted", seat, now)]
            if not ask.waiting(record.seats):
                return await self._take_back(live, ask, events, recorded_moves(await self._log_now(live)), now)
            await self.commit(live, record.replace(version=version), events)
            live.log.info("undo accepted", seat=seat, undoes=ask.undoes)
            return UndoResult(version, ask, False)

        return await self.locked(live, attempt)

    async def withdraw_undo(self, match_id: str, token: str, caller: Principal | None = None) -> UndoResult:
        live = await self.live_match(match_id)

        async def attempt() -> UndoResult:
            seat = self._seat_of(live, token, action="withdraw an undo", caller=caller)
            self._check_undo_offered(live)
            now = time.time()
            ask = self._asked(live, now)
            if seat != ask.seat:
                raise errors.FailedPrecondition(f"Only the asker (seat {ask.seat}) may withdraw the ask.",
                                                "UNDO_NOT_YOURS", metadata=errors.metadata_of(asker=ask.seat))
            record = live.record
            version = record.version + 1
            await self.commit(live, record.replace(version=version),
                               [match_event(version, "undo_withdrawn", seat, now)])
            live.log.info("undo withdrawn", seat=seat, undoes=ask.undoes)
            return UndoResult(version, None, False)

        return await self.locked(live, attempt)

    def _arm_undo_lapse(self, live: LiveMatch) -> None:
        """After each step: an open ask lapses at its ``expire_time`` with an
        ``undo_lapsed`` event, so every client sees it close without a clock
        of its own. The process holding the match writes it; with replicas
        the first to commit it wins, the others find the ask closed."""
        ask = open_ask(live.recent, 0.0)  # expired too: a restarted host writes the lapse it missed
        if ask is None:
            return
        live.undo_lapse = DueTimer(ask.expire_time, lambda: self._spawn(self._undo_lapsed(live, ask.version)))

    async def _undo_lapsed(self, live: LiveMatch, ask_version: int) -> None:
        async def attempt() -> None:
            record = live.record
            ask = open_ask(live.recent, 0.0) if record.status == "active" else None
            if ask is None or ask.version != ask_version:
                return  # answered, withdrawn or closed meanwhile (here or by a replica)
            if time.time() < ask.expire_time:  # the wall clock stepped back since the timer was armed
                live.disarm_undo_lapse()
                self._arm_undo_lapse(live)
                return
            version = record.version + 1
            # update_time stays: the turn's deadline keeps running, as with the ask itself
            await self.commit(live, record.replace(version=version),
                               [match_event(version, "undo_lapsed", ask.seat, time.time(), undoes=ask.undoes)])
            live.log.info("undo lapsed", seat=ask.seat, undoes=ask.undoes, waiting=ask.waiting(record.seats))

        try:
            await self.locked(live, attempt)
        except Exception as error:  # the store is away: the ask is closed anyway by its time
            live.log.warning("undo lapse not recorded", error=str(error))

    def _check_undo_offered(self, live: LiveMatch) -> None:
        record = live.record
        if record.status != "active":
            raise errors.FailedPrecondition(
                f"matches/{live.id} is {record.status}: moves are taken back only while it is active.",
                "MATCH_NOT_ACTIVE", metadata=errors.metadata_of(status=record.status))
        if not offers_undo(live.game):
            raise errors.FailedPrecondition(f"{live.game.title} does not let players take moves back.",
                                            "UNDO_NOT_SUPPORTED", metadata=errors.metadata_of(game=live.game.id))

    @staticmethod
    def _asked(live: LiveMatch, now: float) -> UndoAsk:
        ask = open_ask(live.recent, now)
        if ask is None:
            raise errors.FailedPrecondition(
                "No undo is asked now: it was answered or withdrawn, a move or another change closed it, "
                "or it lapsed.", "NO_UNDO_ASKED")
        return ask

    async def _log_now(self, live: LiveMatch) -> list[dict]:
        """The match's log up to the live version (a replica's store may be
        ahead: its commit would fail), read a page at a time. Only an undo
        that is taken back reads it whole: the rules replay every move
        still standing."""
        return await whole_log(self.store, live.id, live.version)

    async def _last_standing(self, live: LiveMatch) -> tuple[RecordedMove | None, int]:
        """The last move still standing and how often it has been asked
        back: the log read from its end, a page at a time, to that move."""
        taken_back: set[int] = set()
        asks: dict[int, int] = {}
        before = live.version + 1
        size = 16  # the last move is nearly always among the last few events: read more only if not
        while before > 1:
            page = [e for e in await self.store.events_before(live.id, before, size) if e["version"] <= live.version]
            size = min(size * 4, LOG_PAGE)
            if not page:
                break
            for event in reversed(page):
                kind = event["kind"]
                if kind == "undone":
                    taken_back.add(event["undoes"])
                elif kind == "undo_asked":
                    asks[event["undoes"]] = asks.get(event["undoes"], 0) + 1
                elif kind == "moved" and event["version"] not in taken_back:
                    return RecordedMove(event["version"], event["seat"], event["move"]), asks.get(event["version"], 0)
            before = page[0]["version"]
        return None, 0

    async def _take_back(self, live: LiveMatch, ask: UndoAsk, events: list[dict], standing: list[RecordedMove],
                         now: float) -> UndoResult:
        """The step that takes the move back: the position before it,
        recomputed by the rules, with a snapshot of it."""
        record = live.record
        version = events[-1]["version"] + 1
        changes: dict = {"version": version, "update_time": now}  # a new position: the turn starts again
        if record.clock is not None:
            changes["clock"] = clocks.charged_without_move(record.clock, record.update_time,
                                                           await self.to_move(live), now)
        kept = [[m.version, m.seat, dict(m.args)] for m in standing if m.version != ask.undoes]
        applied = await self.rules.rewind(live, kept, version)
        events.append(match_event(version, "undone", ask.seat, now, undoes=ask.undoes))
        await self.commit(live, record.replace(**changes), events, applied=applied, snapshot_state=applied.state)
        live.log.info("move taken back", seat=ask.seat, undoes=ask.undoes, version=version)
        return UndoResult(version, None, True)
