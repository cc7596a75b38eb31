"""The turns of seats a remote agent plays: offered to the agent through the
``AgentDirectory``, due by the agent deadline; its answer is played as a
person's move would be. No answer by the deadline, or one that is not a
legal move, has the fallback bot play that move instead and counts a strike
for the agent, as a plugin's bot that overruns gets the random bot and a
strike. The strike is the agent's, not the match's rules': a match is never
suspended because an agent failed it.

A part of ``MatchEngine`` (an ``EngineCore``).
"""

from __future__ import annotations

import time

from gamehost.host import errors
from gamehost.host.due_timers import sleep_until
from gamehost.host.engine.agents import FALLBACK_BOT, TurnOffer, Verdict, agent_name, error_fields
from gamehost.host.engine.core import EngineCore
from gamehost.host.engine.live import LiveMatch

# What playing a move id that is no legal move raises: the agent's fault, never the host's.
REFUSALS = ("UNKNOWN_MOVE", "ILLEGAL_MOVE", "MALFORMED_MOVE", "MOVE_MISSING")


class AgentTurns(EngineCore):
    async def _agent_turn(self, live: LiveMatch, seat: int) -> None:
        bot = live.record.seats[seat].bot
        name = agent_name(bot)
        assert name is not None  # scheduled for agents' seats only
        await sleep_until(max(time.time() + self._bot_delay(live.record), live.record.seats[seat].away_until))
        version = live.version
        if self._closing or not await self._agent_still_to_move(live, seat, bot, version):
            live.bot_pending.discard(seat)
            return
        offer = TurnOffer(name, live.id, version, seat, live.record.game_id, time.time() + self.agent_timeout)
        live.log.debug("agent offered a turn", agent=name, seat=seat, version=version)
        answer = await self.agents.turn(offer)
        outcome: list[Verdict] = []

        async def attempt(retry: int) -> None:
            live.bot_pending.discard(seat)
            if self.shared:  # the agent's move may have been played on another replica meanwhile
                await self._catch_up(live)
            if not await self._agent_still_to_move(live, seat, bot, version):
                return
            if answer is not None and not outcome:
                try:
                    if not answer:
                        raise errors.InvalidArgument("The answer names no move: send one of the turn's legal "
                                                     "move ids.", "MOVE_MISSING",
                                                     field_violations=[("move_id", "must not be empty.")])
                    await self._play(live, seat, answer, None, "")
                    live.log.debug("agent's move played", agent=name, seat=seat, version=version + 1)
                    outcome.append(Verdict(name, offer.turn_id, "played", self.agents.strikes.get(name, 0)))
                    return
                except errors.HostError as error:
                    if error.reason not in REFUSALS:
                        raise
                    outcome.append(Verdict(name, offer.turn_id, "refused", self.agents.strike(name), FALLBACK_BOT,
                                           error_fields(error)))
                    live.log.warning("agent's move refused; the fallback bot plays it", agent=name, seat=seat,
                                     reason=error.reason, strikes=outcome[0].strikes)
            elif not outcome:
                outcome.append(Verdict(name, offer.turn_id, "timed_out", self.agents.strike(name), FALLBACK_BOT))
                live.log.warning("agent did not answer in time; the fallback bot plays", agent=name, seat=seat,
                                 timeout=self.agent_timeout, strikes=outcome[0].strikes)
            await self._play_for(live, seat, FALLBACK_BOT, retry=retry)

        await self._host_move(live, attempt, lambda error: live.bot_pending.add(seat), seat=seat, agent=name)
        if outcome:
            self.agents.tell(outcome[0])

    async def _agent_still_to_move(self, live: LiveMatch, seat: int, bot: str, version: int) -> bool:
        """Nothing changed the turn: same version, still active, the seat still the agent's and to move."""
        record = live.record
        return record.version == version and record.status == "active" and record.seats[seat].kind == "bot" \
            and record.seats[seat].bot == bot and seat in await self.to_move(live)
