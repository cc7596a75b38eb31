"""The ServeAgent stream: a remote agent registers, is offered its seats'
turns and answers them, on one bidirectional gRPC stream.

- The first request registers the agent (``AgentRegistration``): a name and
  the games it plays. A refused registration ends the stream with its status;
  an accepted one is answered with ``registered`` and puts the stream in the
  ``AgentDirectory`` (engine/agents.py) until it ends.
- Turns come from the directory: each is read here, on the match as this
  replica holds it (caught up first with a shared store), and sent with the
  seat's view and legal moves; a turn the match has moved past is dropped.
- Each move answers a turn (``AgentMove``) and passes the gate as a
  SubmitMove would (input limits, the caller's budget). What became of the
  turn comes back as a ``verdict``.

The stream ends when the agent closes its side or cancels, or when the host
closes. Turns offered and unanswered then stay open until their deadline:
the agent may come back on another stream, here or on another replica.
"""

from __future__ import annotations

import asyncio
from typing import AsyncIterable, AsyncIterator

import structlog
from google.protobuf.timestamp_pb2 import Timestamp

from gamehost.host import errors
from gamehost.host.auth.principal import Principal
from gamehost.host.engine.agents import AGENT_NAME, AGENT_PREFIX, AgentLink, TurnOffer, Verdict, error_of
from gamehost.host.engine.match_engine import MatchEngine
from gamehost.host.errors import shown
from gamehost.host.rpc.gate import Gate
from gamehost.host.rpc.grpc_handlers import Undecodable
from gamehost.host.rpc.match_messages import MatchMessages
from gamehost.host.rpc.request_fields import resource_id
from gamehost.host.rpc.status import to_rpc_status
from gamehost.v1 import gamehost_pb2 as pb

log = structlog.get_logger("gamehost.agents")

MAX_GAMES = 64  # games one registration may name
OUTCOMES = {"played": pb.AgentVerdict.OUTCOME_PLAYED, "timed_out": pb.AgentVerdict.OUTCOME_TIMED_OUT,
            "refused": pb.AgentVerdict.OUTCOME_REFUSED}


class AgentStream:
    def __init__(self, engine: MatchEngine, gate: Gate, messages: MatchMessages, caller: Principal) -> None:
        self.engine = engine
        self.gate = gate
        self.messages = messages
        self.caller = caller

    async def run(self, requests: AsyncIterable[pb.AgentRequest | Undecodable]) -> AsyncIterator[pb.AgentEvent]:
        incoming = requests.__aiter__()
        try:
            first = await incoming.__anext__()
        except StopAsyncIteration:
            return
        link = self._registration(first)
        agents = self.engine.agents
        agents.attach(link)
        reader = asyncio.ensure_future(self._read(incoming, link))
        closing = asyncio.ensure_future(self.engine.closed.wait())
        try:
            yield pb.AgentEvent(registered=pb.AgentRegistered(
                bot=AGENT_PREFIX + link.name, games=[f"games/{game}" for game in sorted(link.games)]))
            while True:
                outgoing = asyncio.ensure_future(link.outbox.get())
                done, _ = await asyncio.wait([outgoing, reader, closing], return_when=asyncio.FIRST_COMPLETED)
                if outgoing not in done:
                    outgoing.cancel()  # a queue's get gives nothing up when cancelled
                    return
                event = await self._event(link, outgoing.result())
                if event is not None:
                    yield event
        finally:
            reader.cancel()
            closing.cancel()
            agents.detach(link)

    def _registration(self, request: pb.AgentRequest | Undecodable) -> AgentLink:
        """The stream's agent, from its first request; refused with INVALID_ARGUMENT otherwise."""
        self.gate.check_input(request)
        assert isinstance(request, pb.AgentRequest)
        if request.WhichOneof("kind") != "register":
            raise errors.invalid_field("register", "the first request of ServeAgent registers the agent: send "
                                                   "register (its name and games) before any move.",
                                       "AGENT_NOT_REGISTERED")
        registration = request.register
        if not AGENT_NAME.fullmatch(registration.name):
            raise errors.invalid_field("register.name", f"{shown(registration.name)} is not an agent name: 1 to 32 "
                                                        "characters of a-z, 0-9 and '-', starting with a letter.")
        if not 0 < len(registration.games) <= MAX_GAMES:
            raise errors.invalid_field("register.games", f"name 1 to {MAX_GAMES} games the agent plays, as "
                                                         "games/{game}.")
        games = frozenset(resource_id(name, "games", "register.games") for name in registration.games)
        for game in sorted(games):
            self.engine.game_entry(game)  # NOT_FOUND naming the games served
        return AgentLink(registration.name, games, self.caller.subject)

    async def _read(self, incoming: AsyncIterator[pb.AgentRequest | Undecodable], link: AgentLink) -> None:
        try:
            async for request in incoming:
                try:
                    self.gate.admit_message("SubmitMove", request, self.caller)
                    assert isinstance(request, pb.AgentRequest)
                    if request.WhichOneof("kind") != "move":
                        raise errors.invalid_field("move", "after the registration, send moves only.",
                                                   "AGENT_MOVE_EXPECTED")
                    if not request.move.turn_id:
                        raise errors.invalid_field("move.turn_id", "name the turn answered (AgentTurn.turn_id).")
                    self.engine.agents.answer(request.move.turn_id, request.move.move_id)
                except errors.HostError as error:
                    status = to_rpc_status(error)
                    link.outbox.put_nowait(pb.AgentEvent(error=pb.SessionError(
                        code=status.code, message=status.message, details=status.details)))
        except asyncio.CancelledError:
            raise
        except Exception as error:  # grpcio failed the call (a message past the size limit): it ends
            log.debug("agent stream stopped reading", error=f"{type(error).__name__}: {error}")

    async def _event(self, link: AgentLink, item: TurnOffer | Verdict | pb.AgentEvent) -> pb.AgentEvent | None:
        if isinstance(item, pb.AgentEvent):
            return item
        if isinstance(item, Verdict):
            verdict = pb.AgentVerdict(turn_id=item.turn_id, outcome=OUTCOMES[item.outcome], strikes=item.strikes,
                                      fallback=item.fallback)
            if item.error is not None:
                status = to_rpc_status(error_of(item.error))
                verdict.error.CopyFrom(pb.SessionError(code=status.code, message=status.message,
                                                       details=status.details))
            return pb.AgentEvent(verdict=verdict)
        return await self._turn(link, item)

    async def _turn(self, link: AgentLink, offer: TurnOffer) -> pb.AgentEvent | None:
        """The turn with the seat's view, read on this replica; None when the match moved past it."""
        try:
            live = await self.engine.read_match(offer.match_id)
            if live.version != offer.version or live.record.status != "active":
                link.forget(offer.turn_id)
                return None
            view = await self.messages.view_message(live, offer.seat, False, False)
        except errors.HostError as error:  # the match gone, or its rules failing: the fallback bot plays
            log.warning("agent turn not sent", agent=link.name, match_id=offer.match_id, game=offer.game_id,
                        error=str(error))
            return None
        deadline = Timestamp()
        deadline.FromNanoseconds(int(offer.deadline * 1e9))
        live.log.debug("agent turn sent", agent=link.name, seat=offer.seat, version=offer.version)
        return pb.AgentEvent(turn=pb.AgentTurn(
            turn_id=offer.turn_id, match=f"matches/{offer.match_id}", game=f"games/{offer.game_id}", seat=offer.seat,
            version=offer.version, view=view, deadline=deadline))
