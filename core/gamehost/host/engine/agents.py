"""Remote agents: programs outside the host that play bot seats named
``agent:{name}``, over the ServeAgent stream (rpc/agent_stream.py).

``AgentDirectory`` is what the engine and the streams share:

- the agents connected to this process (one ``AgentLink`` per stream), and,
  with a store shared by replicas, the agents connected to the others, as
  they announce them, so every replica's catalog and CreateMatch know them;
- the turns this process waits on (``turn``): the offer goes to a local
  stream of the agent, else to the other replicas, again every
  ``OFFER_AGAIN`` seconds until the deadline, so an agent that reconnects
  (here or elsewhere) hears of a turn still open; the first answer wins;
- what became of a turn (``tell``), sent to the stream that was offered it.

Across replicas, announcements, offers, answers and verdicts are small JSON
messages on the store's agents channel (``AgentRelay``: PostgreSQL's NOTIFY).
An offer carries no view: the replica holding the agent's stream reads the
match itself and builds the view there.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Coroutine, Protocol

import structlog

from gamehost.host import errors
from gamehost.host.bots import Bot

log = structlog.get_logger("gamehost.agents")

AGENT_PREFIX = "agent:"
AGENT_NAME = re.compile(r"[a-z][a-z0-9-]{0,31}")
FALLBACK_BOT = "random"  # plays an agent's turn that timed out or was refused
OFFER_AGAIN = 1.0  # seconds between offers of a turn still open: how soon an agent that reconnects hears of it
PRESENCE_EVERY = 2.0  # seconds between a replica's announcements of its agents
PRESENCE_LAPSE = 3 * PRESENCE_EVERY  # an agent not announced for this long has left that replica
OFFERED_KEPT = 1024  # turn ids a stream remembers having been offered


def agent_name(bot: str) -> str | None:
    """The agent a seat's bot name names, or None for a bot of the host."""
    return bot[len(AGENT_PREFIX):] if bot.startswith(AGENT_PREFIX) else None


def error_fields(error: errors.HostError) -> dict[str, Any]:
    """A refusal as a verdict carries it, in JSON, to the replica holding the agent's stream."""
    return {"code": error.code, "message": error.message, "reason": error.reason, "metadata": error.metadata,
            "field_violations": [list(violation) for violation in error.field_violations]}


def error_of(fields: dict[str, Any]) -> errors.HostError:
    """The refusal ``error_fields`` described, as the error class of its code."""
    kinds = {kind.code: kind for kind in errors.HostError.__subclasses__()}
    kind = kinds.get(str(fields.get("code")), errors.FailedPrecondition)
    return kind(str(fields.get("message", "")), str(fields.get("reason", "")),
                metadata={str(k): str(v) for k, v in dict(fields.get("metadata") or {}).items()},
                field_violations=[(str(f), str(d)) for f, d in fields.get("field_violations") or ()])


@dataclass(frozen=True)
class TurnOffer:
    """A seat of an agent is to move at ``version``; its answer is due by ``deadline`` (wall clock)."""

    agent: str
    match_id: str
    version: int
    seat: int
    game_id: str
    deadline: float

    @property
    def turn_id(self) -> str:
        return f"{self.match_id}/{self.version}/{self.seat}"

    def to_json(self) -> dict[str, Any]:
        return {"agent": self.agent, "match": self.match_id, "version": self.version, "seat": self.seat,
                "game": self.game_id, "deadline": self.deadline}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "TurnOffer":
        return cls(str(data["agent"]), str(data["match"]), int(data["version"]), int(data["seat"]),
                   str(data["game"]), float(data["deadline"]))


@dataclass(frozen=True)
class Verdict:
    """What became of a turn: ``outcome`` is "played", "timed_out" or
    "refused"; a refusal's ``error`` holds its status (code, message,
    reason, metadata) as the stream sends it."""

    agent: str
    turn_id: str
    outcome: str
    strikes: int
    fallback: str = ""
    error: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"agent": self.agent, "turn": self.turn_id, "outcome": self.outcome, "strikes": self.strikes,
                "fallback": self.fallback, "error": self.error}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Verdict":
        return cls(str(data["agent"]), str(data["turn"]), str(data["outcome"]), int(data["strikes"]),
                   str(data.get("fallback") or ""), data.get("error"))


@dataclass(eq=False)
class AgentLink:
    """One ServeAgent stream: the agent's name, its games, the turns it was
    offered (the latest ``OFFERED_KEPT``: a turn another replica played
    leaves no verdict to forget it by)."""

    name: str
    games: frozenset[str]
    subject: str
    outbox: asyncio.Queue[Any] = field(default_factory=asyncio.Queue)  # offers, verdicts, the stream's own refusals
    offered: dict[str, None] = field(default_factory=dict)  # turn ids, oldest first

    def offer(self, offer: TurnOffer) -> None:
        if offer.turn_id not in self.offered:
            self.offered[offer.turn_id] = None
            while len(self.offered) > OFFERED_KEPT:
                del self.offered[next(iter(self.offered))]
            self.outbox.put_nowait(offer)

    def forget(self, turn_id: str) -> None:
        self.offered.pop(turn_id, None)


class AgentRelay(Protocol):
    """A store shared with other replicas, as the agents use it: one channel of JSON messages."""

    def subscribe_agents(self, on_message: Callable[[str], None]) -> None: ...

    async def publish_agents(self, payload: str) -> None: ...


class AgentBot:
    """Stands for an agent in the host's bot table: its moves never come from
    here (the directory asks the agent), so choosing with it is an error."""

    def choose(self, game, state, seat, moves, rng):
        raise RuntimeError("a remote agent's moves come from its stream, not from a bot in the host")


class HostBots(dict):
    """The host's bots by name, where "agent:{name}" is also known while
    that agent is connected to a replica: what CreateMatch, tickets and
    AssignBot check a bot name against."""

    def __init__(self, bots: dict[str, Bot], agents: "AgentDirectory") -> None:
        super().__init__(bots)
        self.agents = agents

    def __contains__(self, name: object) -> bool:
        if isinstance(name, str) and agent_name(name) is not None:
            return self.agents.known(name)
        return super().__contains__(name)

    def __missing__(self, name: str) -> Bot:
        if agent_name(name) is not None and self.agents.known(name):
            return AgentBot()
        raise KeyError(name)


class AgentDirectory:
    def __init__(self, replica: str, spawn: Callable[[Coroutine[Any, Any, Any]], None]) -> None:
        self.replica = replica  # this process's name among the replicas
        self._spawn = spawn
        self.relay: AgentRelay | None = None
        self.links: dict[str, list[AgentLink]] = {}
        self.elsewhere: dict[tuple[str, str], tuple[frozenset[str], float]] = {}  # (name, replica): games, until
        self.waits: dict[str, asyncio.Future[str]] = {}  # turn id -> the answer's move id
        self.strikes: dict[str, int] = {}  # strikes per agent, counted by this process

    def start(self, relay: AgentRelay | None) -> None:
        """With a shared store: hear the other replicas and announce this one's agents."""
        if relay is None:
            return
        self.relay = relay
        relay.subscribe_agents(self._heard)
        self._spawn(self._announce_regularly())

    # ------------------------------------------------------------ who is connected

    def attach(self, link: AgentLink) -> None:
        self.links.setdefault(link.name, []).append(link)
        log.info("agent connected", agent=link.name, games=sorted(link.games), subject=link.subject)
        self._publish({"kind": "present", "replica": self.replica, "agent": link.name,
                       "games": sorted(self.local_games(link.name))})

    def detach(self, link: AgentLink) -> None:
        links = self.links.get(link.name, [])
        if link in links:
            links.remove(link)
        if not links:
            self.links.pop(link.name, None)
            self._publish({"kind": "absent", "replica": self.replica, "agent": link.name})
        log.info("agent disconnected", agent=link.name, offered=len(link.offered))

    def local_games(self, name: str) -> frozenset[str]:
        return frozenset().union(*(link.games for link in self.links.get(name, [])))

    def games_of(self, name: str) -> frozenset[str]:
        """The games agent ``name`` plays on this replica or another, now."""
        now = time.time()
        return self.local_games(name).union(
            *(games for (agent, _), (games, until) in self.elsewhere.items() if agent == name and until > now))

    def known(self, bot: str) -> bool:
        name = agent_name(bot)
        return name is not None and bool(self.games_of(name))

    def plays(self, bot: str, game_id: str) -> bool:
        name = agent_name(bot)
        return name is not None and game_id in self.games_of(name)

    def for_game(self, game_id: str) -> list[str]:
        """The bot names of the agents playing ``game_id`` now, sorted."""
        now = time.time()
        names = set(self.links) | {agent for (agent, _), (_, until) in self.elsewhere.items() if until > now}
        return sorted(AGENT_PREFIX + name for name in names if game_id in self.games_of(name))

    # ------------------------------------------------------------ turns

    async def turn(self, offer: TurnOffer) -> str | None:
        """The move id the agent answers ``offer`` with, or None when no
        answer came by its deadline."""
        future: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.waits[offer.turn_id] = future
        try:
            while True:
                self._offer(offer)
                left = offer.deadline - time.time()
                if left <= 0:
                    return None
                done, _ = await asyncio.wait([future], timeout=min(OFFER_AGAIN, left))
                if done:
                    return future.result()
        finally:
            self.waits.pop(offer.turn_id, None)

    def _offer(self, offer: TurnOffer) -> None:
        """To one local stream of the agent, else to the replicas."""
        if not self._offer_here(offer):
            self._publish({"kind": "offer", "replica": self.replica, **offer.to_json()})

    def _offer_here(self, offer: TurnOffer) -> bool:
        """To the local stream already offered it, if still connected, else
        to the first one playing the game; False when none is here."""
        links = [link for link in self.links.get(offer.agent, []) if offer.game_id in link.games]
        if links and not any(offer.turn_id in link.offered for link in links):
            links[0].offer(offer)
        return bool(links)

    def answer(self, turn_id: str, move_id: str) -> None:
        """A stream's answer: to the turn waiting here, else to the replica waiting on it."""
        future = self.waits.get(turn_id)
        if future is not None:
            if not future.done():
                future.set_result(move_id)
            return
        self._publish({"kind": "answer", "replica": self.replica, "turn": turn_id, "move": move_id})

    def strike(self, agent: str) -> int:
        self.strikes[agent] = self.strikes.get(agent, 0) + 1
        return self.strikes[agent]

    def tell(self, verdict: Verdict) -> None:
        """To the local streams offered the turn, else to the replicas."""
        if not self._tell_here(verdict):
            self._publish({"kind": "verdict", "replica": self.replica, **verdict.to_json()})

    def _tell_here(self, verdict: Verdict) -> bool:
        told = False
        for link in self.links.get(verdict.agent, []):
            if verdict.turn_id in link.offered:
                link.forget(verdict.turn_id)
                link.outbox.put_nowait(verdict)
                told = True
        return told

    # ------------------------------------------------------------ other replicas

    async def _announce_regularly(self) -> None:
        while True:
            for name in list(self.links):
                self._publish({"kind": "present", "replica": self.replica, "agent": name,
                               "games": sorted(self.local_games(name))})
            await asyncio.sleep(PRESENCE_EVERY)

    def _publish(self, message: dict[str, Any]) -> None:
        if self.relay is not None:
            self._spawn(self._send(json.dumps(message, separators=(",", ":"))))

    async def _send(self, payload: str) -> None:
        assert self.relay is not None
        try:
            await self.relay.publish_agents(payload)
        except Exception as error:  # the database away: offers are sent again, announcements too
            log.warning("agent message not sent to the replicas", error=str(error))

    def _heard(self, payload: str) -> None:
        try:
            message = json.loads(payload)
            kind = message["kind"]
            if message.get("replica") == self.replica:
                return
            if kind == "present":
                self.elsewhere[(str(message["agent"]), str(message["replica"]))] = (
                    frozenset(map(str, message["games"])), time.time() + PRESENCE_LAPSE)
            elif kind == "absent":
                self.elsewhere.pop((str(message["agent"]), str(message["replica"])), None)
            elif kind == "offer":
                self._offer_here(TurnOffer.from_json(message))
            elif kind == "answer":
                future = self.waits.get(str(message["turn"]))
                if future is not None and not future.done():
                    future.set_result(str(message["move"]))
            elif kind == "verdict":
                self._tell_here(Verdict.from_json(message))
        except (KeyError, TypeError, ValueError) as error:  # another version's message: not ours to read
            log.warning("agent message from a replica not understood", error=str(error), payload=payload[:200])
