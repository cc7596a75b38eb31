"""Rules failures: each time-out or crash of a match's rules is a strike,
counted in the store; at ``max_strikes`` the match is suspended, until an
admin resumes it.

A part of ``MatchEngine`` (an ``EngineCore``); the rules runner reports failures to
``_rules_failed``.
"""

from __future__ import annotations

import time

from gamehost.host import errors
from gamehost.host.engine.core import EngineCore
from gamehost.host.engine.live import LiveMatch
from gamehost.host.engine.match_events import match_event

MAX_STRIKES = 3  # rules failures (time-outs, crashes) before a match is suspended


class RulesFailures(EngineCore):
    def _rules_failed(self, live: LiveMatch, error: errors.HostError) -> None:
        """The rules of ``live`` timed out or crashed (the runner calls this):
        a strike, counted in the store; at ``max_strikes`` the match is
        suspended. Not while the host stops: its workers are stopped then,
        not the rules' fault."""
        if self._closing:
            return
        live.strikes += 1
        self._spawn(self._strike(live, error))

    async def _strike(self, live: LiveMatch, error: errors.HostError) -> None:
        """The store's count, so a restart forgives nothing and replicas
        count together; this process's own count when the store is away."""
        try:
            strikes = await self.store.add_strike(live.id)
        except Exception as failure:
            live.log.error("rules strike not stored", error=str(failure))
            strikes = live.strikes
        live.log.warning("rules strike", strikes=strikes, reason=error.reason, max_strikes=self.max_strikes)
        if strikes >= self.max_strikes and live.record.status in ("open", "active") and live.id in self._live:
            await self._suspend(live, error, strikes)

    async def _suspend(self, live: LiveMatch, error: errors.HostError, strikes: int) -> None:
        """Persist the suspension: status, why and whose rules, in one step
        with a ``suspended`` event. Bots and deadlines stop with it."""
        async with live.lock:
            record = live.record
            if record.status not in ("open", "active"):
                return
            detail = {"reason": error.reason, "message": error.message, "plugin": live.entry.plugin}
            now = time.time()
            events = [match_event(record.version + 1, "suspended", -1, now, **detail)]
            new_record = record.replace(status="suspended", version=record.version + 1, update_time=now,
                                        status_detail=detail)
            try:
                await self.commit(live, new_record, events)
            except Exception as failure:  # the store is away: the next strike tries again
                live.log.error("match not suspended", error=str(failure))
                return
            live.bot_pending.clear()
            live.log.error("match suspended", reason=error.reason, plugin=live.entry.plugin, strikes=strikes)

    async def reset_rules_for_resume(self, live: LiveMatch) -> None:
        """What resuming a suspended match must undo on the rules side,
        before the match goes back to ``active``: forget its strikes and load
        it afresh into a worker (snapshot and log, under the load deadline).
        Raises the rules' error if it cannot be loaded; the match stays
        suspended then. For the admin's ResumeMatch (``resume_match``)."""
        live.strikes = 0
        self.rules.forget(live.id)
        await self.rules.state(live)  # loads it; fails here, not on the first move
        live.strikes = 0  # the load itself may have struck
        await self.store.clear_strikes(live.id)
