"""The step commit every change goes through: events, match row and
sometimes a snapshot written as one step; the live match, the rules' cache
and the observers take it only once it is committed.

A part of ``MatchEngine`` (an ``EngineCore``).
"""

from __future__ import annotations

import time
from typing import Any

from gamehost.host.engine import clocks

from gamehost.host import errors, traces
from gamehost.host.engine.view_data import EncodedView, ViewData
from gamehost.host.engine.core import EngineCore
from gamehost.host.engine.live import LiveMatch
from gamehost.host.store.base import Append, MatchRecord, Snapshot, VersionConflict
from gamehost.host.store.records import tracks_turns
from gamehost.host.workers.runner import Applied


class MatchSteps(EngineCore):
    async def commit(self, live: LiveMatch, record: MatchRecord, events: list[dict], *,
                      applied: Applied | None = None, snapshot_state: Any = None) -> None:
        """Write one step; only once it is committed does the live match take
        it (and the rules the state ``applied`` brought)."""
        if snapshot_state is None and applied is not None and applied.state is not None and (
                record.status == "finished" or record.version - live.snapshot_version >= self.snapshot_every):
            snapshot_state = applied.state
        snapshot = None if snapshot_state is None else Snapshot(record.version, snapshot_state)
        # A shared store records when the host must act next, and a match
        # with signed-in players whose turn it is (ListMatches' my_turn), so
        # the seats to move are known before the commit; they seed the new
        # version's cache.
        to_move = None
        if applied is not None and record.status == "active":
            to_move = applied.to_move
        elif self.shared and record.status == "active":
            to_move = await self.rules.to_move(live)
        elif tracks_turns(record) and record.status == "active":
            try:
                to_move = await self.rules.to_move(live)
            except errors.HostError as error:  # failing rules: the step goes on, the turn index waits for the next
                live.log.warning("seats to move unknown for the turn index", error=str(error))
        due_in = None if to_move is None or not self.shared else self._due_in(record, to_move)
        step = Append(record, events, snapshot, record.seats is not live.record.seats, due_in,
                      record.status_detail != live.record.status_detail, record.clock is not live.record.clock,
                      to_move=to_move)
        try:
            if traces.on():
                with traces.span("store commit", {"gamehost.store": type(self.store).__name__,
                                                  "gamehost.match_id": live.id, "gamehost.version": record.version,
                                                  "gamehost.events": len(events),
                                                  "gamehost.snapshot": snapshot is not None}):
                    await self.store.append(step)
            else:
                await self.store.append(step)
        except VersionConflict:
            raise errors.Aborted(f"matches/{live.id} changed while this call was applied; fetch the view again.",
                                 "CONCURRENT_UPDATE") from None
        finishing = record.status == "finished" and live.record.status != "finished"
        live.advance(record, events, None, None if snapshot is None else snapshot.version)
        if finishing:
            await self.ratings.count_result(live, record)
        if applied is not None:
            self.rules.committed(live, applied)
            to_move = applied.to_move
            for seat, moves in applied.moves.items():
                live.cache.settle_legal_moves(seat, moves)
        if to_move is not None:
            live.cache.settle_to_move(to_move)
        if applied is not None and live.record is record:  # not passed by a replica's later step
            if applied.views:
                self._settle_views(live, applied)
            if applied.encoded:
                self._settle_encoded_views(live, applied)
            self.renderings.render_after_step(live, applied)
        self._notify_observers(live, events)
        await self._schedule_turns(live)

    @staticmethod
    def _settle_views(live: LiveMatch, applied: Applied) -> None:
        """Seed the new version's views with those the move's answer brought
        (as ``MatchViews.view`` would build them): the watchers it wakes find
        them ready. A seat to move whose legal moves failed is left to fail
        when asked."""
        record = live.record
        to_move = applied.to_move if record.status == "active" else ()
        for viewer, state in applied.views.items():
            if viewer in to_move and viewer not in applied.moves:
                continue
            moves = applied.moves[viewer] if viewer in to_move else ()
            live.cache.settle_view(viewer, ViewData(record.version, record.status, viewer, to_move, state, moves,
                                                   record.result))

    @staticmethod
    def _settle_encoded_views(live: LiveMatch, applied: Applied) -> None:
        """The same for views the rules answered as View fields
        (view_bytes.py; the rules left out what failed)."""
        record = live.record
        to_move = applied.to_move if record.status == "active" else ()
        for viewer, fields in applied.encoded.items():
            live.cache.settle_encoded_view(viewer, EncodedView(record.version, record.status, viewer, to_move, fields, record.result))

    def _due_in(self, record: MatchRecord, to_move: tuple[int, ...]) -> float | None:
        """Seconds until the host must act after this step: a bot's move or
        a player's deadline (the committing replica claims it in the same
        transaction), or None."""
        kinds = {record.seats[s].kind for s in to_move}
        due = [self._bot_delay(record)] if "bot" in kinds else []
        if "human" in kinds and record.turn_timeout:  # from the turn's start: an undo's ask keeps update_time
            due.append(max(0.0, record.update_time + record.turn_timeout - time.time()))
        if "human" in kinds and record.clock is not None:
            deadline = clocks.deadline(record.clock, record.update_time,
                                       [s for s in to_move if record.seats[s].kind == "human"])
            assert deadline is not None  # a person to move on a clock has a deadline
            due.append(max(0.0, deadline - time.time()))
        return min(due, default=None)

    def _notify_observers(self, live: LiveMatch, events: list[dict]) -> None:
        for impl in self._observers:
            for event in events:
                try:
                    impl.function(match_id=live.id, game_id=live.game.id, event=event)
                except Exception as error:  # observers cannot break a match
                    live.log.error("match observer failed", plugin=impl.plugin_name, error=str(error))
