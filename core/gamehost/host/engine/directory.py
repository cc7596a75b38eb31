"""The directory of live matches: which matches this host holds in memory,
reading one (restoring it from the store), the cache of finished matches,
and, with a shared store, catching up with and following other replicas.

A part of ``MatchEngine`` (an ``EngineCore``); ``self._live`` is the directory itself.
"""

from __future__ import annotations

from typing import Any, Iterable

import structlog

from gamehost.host import errors
from gamehost.host.errors import shown
from gamehost.host.engine.core import EngineCore
from gamehost.host.engine.live import LiveMatch
from gamehost.host.engine.match_access import Access, check_spectator, invitation_hash, sees_without_invitation
from gamehost.host.plugins import GameEntry
from gamehost.host.store.base import MatchRecord

log = structlog.get_logger("gamehost.engine")

RULES_VERSION_UNAVAILABLE = "RULES_VERSION_UNAVAILABLE"  # the ErrorInfo reason of a match this host cannot play
FINISHED_CACHE = 256  # finished matches kept in memory after a read
STALE_RETRIES = 5  # catch-ups a call may need when other replicas keep moving the match


def match_not_found(match_id: str) -> errors.NotFound:
    """The one answer for a match that does not exist, or that the caller
    may not know exists (a private match): the same status, reason and
    message either way."""
    return errors.NotFound(
        f"No match {shown('matches/' + match_id)}. ListMatches shows the matches on this host.",
        "MATCH_NOT_FOUND", resource=("gamehost.dev/Match", f"matches/{match_id}"))


class MatchDirectory(EngineCore):
    def held_matches(self) -> list[LiveMatch]:
        """Every match this host holds in memory now (for metrics)."""
        return list(self._live.values())

    def held(self, match_id: str) -> LiveMatch | None:
        """The match if this host holds it in memory now, without a store read."""
        return self._live.get(match_id)

    async def live_match(self, match_id: str, access: Access | None = None) -> LiveMatch:
        """The match, restored from the store if this host does not hold it.
        With ``access``, a caller who may not see it gets the answer a
        missing match gets, after the same store reads (the row, and the
        invitation when one is sent), so neither tells a private match apart."""
        live = self._live.get(match_id)
        if live is not None:
            if access is not None and not await self.sees(live.record, access):
                await self.store.get_match("")  # the read a missing match costs: a lookup that finds no row
                raise match_not_found(match_id)
            return live
        record = await self.store.get_match(match_id) if match_id else None
        if record is None:
            if access is not None and access.invitation_code:
                await self.store.invitation_admits(match_id, invitation_hash(access.invitation_code))
            raise match_not_found(match_id)
        if access is not None and not await self.sees(record, access):
            raise match_not_found(match_id)
        live = self._live.get(match_id)  # restored by a concurrent call meanwhile
        if live is None:
            live = await self._restore(record)
            self._live[match_id] = live
            if live.over:
                self.remember_finished(match_id)
            elif not self.shared:  # shared: the host acts where the turn is claimed
                await self._schedule_turns(live)
        return live

    async def restored_copy(self, match_id: str) -> LiveMatch:
        """The match as a host started afresh would restore it from the
        store, for checking that what is stored gives back what is held. The
        held match stays the one this host plays; the rules let go of the
        state they hold, so the copy's state (and the held match's next
        one) is loaded from the store: the same state when the store is sound."""
        copy = await self._restore(await self.stored_match(match_id))
        self.rules.forget(match_id)
        return copy

    async def sees(self, record: MatchRecord, access: Access) -> bool:
        """Whether the call may see the match: the invitation is read from
        the store each time, so a revoked one admits nobody on any replica."""
        if sees_without_invitation(record, access):
            return True
        return bool(access.invitation_code) and \
            await self.store.invitation_admits(record.id, invitation_hash(access.invitation_code))

    async def watched_match(self, match_id: str, access: Access) -> tuple[LiveMatch, int | None]:
        """The match for a read of its view, events or log, and the seat the
        caller reads it as (None: a spectator, whom the match's spectator
        policy must admit)."""
        live = await self.read_match(match_id, access)
        seat = self.viewer_of(live, access.player_token, access.caller)
        if seat is None:
            check_spectator(live.record, access.caller)
        return live, seat

    async def read_match(self, match_id: str, access: Access | None = None) -> LiveMatch:
        """The match for a read: with a shared store, first brought up to
        what other replicas committed, so a client reads its own moves
        whichever replica it asks."""
        live = await self.live_match(match_id, access)
        if self.shared and not live.over:
            async with live.lock:
                await self._catch_up(live)
        return live

    async def locked(self, live: LiveMatch, attempt):
        """Run ``attempt()`` under the match's lock. With a shared store a
        refusal may come from a stale copy (another replica moved): catch up
        and try again while the store has newer steps."""
        async with live.lock:
            for _ in range(STALE_RETRIES):
                try:
                    return await attempt()
                except errors.HostError:
                    if not self.shared or not await self._catch_up(live):
                        raise
            return await attempt()

    async def _catch_up(self, live: LiveMatch) -> bool:
        """Take the steps other replicas committed (the lock is held).
        True if there were any."""
        record = await self.store.get_match(live.id)
        if record is None or record.version <= live.version:
            return False
        events = [e for e in await self.store.events(live.id, live.version) if e["version"] <= record.version]
        await self.rules.advance(live, events)
        live.advance(record, events)
        live.log.debug("caught up", version=record.version, events=len(events))
        if live.over:
            self.remember_finished(live.id)
        return True

    def _on_store_change(self, match_id: str | None, version: int) -> None:
        """A replica committed ``version`` of ``match_id`` (None: some
        notifications were lost). Watched matches catch up at once; the
        others when they are next used."""
        if self._closing:
            return
        if match_id is None:
            followed = [live for live in self._live.values() if live.watchers and not live.over]
        else:
            live = self._live.get(match_id)
            followed = [live] if live is not None and live.watchers and version > live.version else []
        for live in followed:
            if not live.catching_up:
                live.catching_up = True
                self._spawn(self._follow(live))

    async def _follow(self, live: LiveMatch) -> None:
        try:
            async with live.lock:
                live.catching_up = False  # a notification from now on schedules another pass
                await self._catch_up(live)
        except Exception as error:
            live.log.error("catch-up failed", error=str(error))

    def remember_finished(self, match_id: str) -> None:
        """Keep the latest finished matches in memory; forget the oldest
        ones nobody is watching."""
        self._finished_order.append(match_id)
        for _ in range(len(self._finished_order) - FINISHED_CACHE):
            old = self._finished_order.pop(0)
            live = self._live.get(old)
            if live is not None and live.watchers:
                self._finished_order.append(old)  # still watched: look again later
            elif live is not None and live.over:
                del self._live[old]
                self.rules.forget(old)

    def forget(self, match_ids: Iterable[str]) -> None:
        """Drop deleted matches from memory."""
        for match_id in match_ids:
            live = self._live.get(match_id)
            if live is not None and live.over:
                del self._live[match_id]
                if match_id in self._finished_order:
                    self._finished_order.remove(match_id)

    async def _restore(self, record: MatchRecord) -> LiveMatch:
        entry = self.pinned_entry(record)
        bound = log.bind(match_id=record.id, game=record.game_id)
        if record.rules_version != entry.game.version:  # only a match stored without a rules version
            bound.warning("rules version changed since the match began",
                          match_rules=record.rules_version, plugin_rules=entry.game.version)
        # The rules load the state (snapshot and log) when the match is next
        # used, in a worker and under a deadline: a match whose rules hang
        # cannot hold the host here.
        snapshot_version = (await self.store.latest_snapshot(record.id)).version
        if snapshot_version > record.version:  # another replica moved on since the row was read
            newer = await self.store.get_match(record.id)
            assert newer is not None  # a match with a snapshot has its row
            record = newer
        tail = [e for e in await self.store.events(record.id, snapshot_version) if e["version"] <= record.version]
        live = LiveMatch(record, entry, None, snapshot_version, bound)
        live.recent.extend(tail)
        live.requests = await self.store.request_versions(record.id)
        if record.status in ("open", "active") and await self.store.strikes(record.id):
            # Its rules failed before (a restart forgives nothing): held apart
            # from its first load on, so its next failure hurts no other match.
            self.rules.suspect(record.id)
        return live

    def pinned_entry(self, record: MatchRecord) -> GameEntry:
        """The rules the match was created with: a match keeps its rules
        version for good. A host without that version refuses the match
        (FAILED_PRECONDITION naming what to install), and only that match."""
        entry = self.game_entry(record.game_id)
        pinned = entry.at_version(record.rules_version)
        if pinned is not None:
            return pinned
        if not record.rules_version:  # stored without one (not by this host): the current rules, as before
            return entry
        served = entry.versions_text()
        raise errors.FailedPrecondition(
            f"matches/{record.id} was created with {record.game_id} rules version {record.rules_version}; "
            f"this host has {record.game_id} rules version {served} only. Install a release of the "
            f"{entry.plugin!r} plugin that still ships rules version {record.rules_version} "
            f"(in its Game.earlier_versions) to go on with this match.",
            RULES_VERSION_UNAVAILABLE,
            metadata=errors.metadata_of(match=f"matches/{record.id}", game=record.game_id, plugin=entry.plugin,
                                        rules_version=record.rules_version, served_versions=served))

    def rules_available(self, record: MatchRecord) -> bool:
        """Whether this host has the rules version ``record`` was created with."""
        entry = self.catalog.get(record.game_id)
        return entry is not None and (not record.rules_version or entry.at_version(record.rules_version) is not None)

    async def stored_match(self, match_id: str, access: Access | None = None) -> MatchRecord:
        """The match as stored, for listing one this host cannot play."""
        record = await self.store.get_match(match_id)
        if record is None or (access is not None and not await self.sees(record, access)):
            raise match_not_found(match_id)
        return record

    async def _rules_source(self, live: LiveMatch) -> tuple[Any, list[dict]]:
        """What the rules load a match from: the latest snapshot and the
        events after it, up to the live match's version."""
        snapshot = await self.store.latest_snapshot(live.id)
        if snapshot.version > live.version:  # shared store: other replicas moved on; take their steps first
            record = await self.store.get_match(live.id)
            assert record is not None  # a match with a snapshot has its row
            events = [e for e in await self.store.events(live.id, live.version) if e["version"] <= record.version]
            live.advance(record, events)
        tail = [e for e in await self.store.events(live.id, snapshot.version) if e["version"] <= live.version]
        return snapshot.state, tail
