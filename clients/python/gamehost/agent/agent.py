"""The agent's loop: register, answer each offered turn with ``choose``,
hear verdicts; reconnect when the host goes away (a turn still open is
offered again on the new stream)."""

from __future__ import annotations

import logging
import queue
import threading
import time
from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

import grpc

from gamehost.client.errors import GameHostError
from gamehost.client.names import game_name
from gamehost.client.transient import is_transient
from gamehost.v1 import gamehost_pb2 as pb
from gamehost.v1 import gamehost_pb2_grpc as pb_grpc

log = logging.getLogger("gamehost.agent")

RECONNECT_FIRST = 0.2  # seconds before the first reconnection; doubled up to RECONNECT_MOST
RECONNECT_MOST = 5.0


class AgentStopped(Exception):
    """Raised inside ``serve`` by ``Agent.stop``: the loop ends quietly."""


@dataclass(frozen=True)
class Turn:
    """A seat of the agent is to move: ``view`` is the seat's view, with its legal moves."""

    turn_id: str
    match: str
    game: str
    seat: int
    version: int
    view: pb.View
    deadline: float  # wall-clock seconds

    @property
    def legal_moves(self) -> Sequence[pb.LegalMove]:
        return self.view.legal_moves

    @property
    def seconds_left(self) -> float:
        return self.deadline - time.time()


class Agent:
    """Subclass it and define ``choose``; ``name`` is what seats call it
    ("agent:{name}"), ``games`` the games it plays ("tictactoe" or "games/tictactoe")."""

    def __init__(self, name: str, games: Sequence[str]) -> None:
        self.name = name
        self.games = [game_name(game) for game in games]
        self._stopping = threading.Event()

    def choose(self, view: pb.View, legal_moves: Sequence[pb.LegalMove]) -> pb.LegalMove | str:
        """The move for a turn: one of ``legal_moves`` or its id."""
        raise NotImplementedError

    def answer(self, turn: Turn) -> pb.LegalMove | str | None:
        """The answer to ``turn`` (None: no answer; the fallback bot plays it
        at the deadline). By default ``choose(view, legal_moves)``; override
        it to use the turn's match, seat or deadline too."""
        return self.choose(turn.view, turn.legal_moves)

    def registered(self, registration: pb.AgentRegistered) -> None:
        """The host accepted the registration (each time the stream opens)."""
        log.info("agent registered as %s for %s", registration.bot, ", ".join(registration.games))

    def verdict(self, verdict: pb.AgentVerdict) -> None:
        """What became of a turn. By default a late or refused move is logged."""
        if verdict.outcome != pb.AgentVerdict.OUTCOME_PLAYED:
            log.warning("turn %s: %s, %d strikes; %s", verdict.turn_id, pb.AgentVerdict.Outcome.Name(verdict.outcome),
                        verdict.strikes, verdict.error.message or "no answer in time")

    def refused(self, error: pb.SessionError) -> None:
        """A request of the stream was refused (it changed nothing)."""
        log.warning("request refused: %s", error.message)

    def stop(self) -> None:
        """End ``serve`` (from another thread, or from a callback)."""
        self._stopping.set()


class CallbackAgent(Agent):
    """An agent whose choice is a function: ``CallbackAgent("first", ["tictactoe"], lambda view, moves: moves[0])``."""

    def __init__(self, name: str, games: Sequence[str],
                 choose: Callable[[pb.View, Sequence[pb.LegalMove]], pb.LegalMove | str]) -> None:
        super().__init__(name, games)
        self._choose = choose

    def choose(self, view: pb.View, legal_moves: Sequence[pb.LegalMove]) -> pb.LegalMove | str:
        return self._choose(view, legal_moves)


def serve(agent: Agent, target: str = "127.0.0.1:50051", *, bearer_token: str = "", tls: bool = False,
          root_certificates: bytes | None = None, channel: grpc.Channel | None = None,
          reconnect: bool = True) -> None:
    """Play ``agent``'s seats at the host until ``agent.stop()``. A stream
    the host ends for a passing reason (the host restarting, the network) is
    opened again after a backoff when ``reconnect``; a refusal (a bad name,
    an unknown game, a key without the "agent" role) raises GameHostError."""
    if channel is None:
        secure = tls or root_certificates is not None
        channel = (grpc.secure_channel(target, grpc.ssl_channel_credentials(root_certificates)) if secure
                   else grpc.insecure_channel(target))
    stub = pb_grpc.GameHostStub(channel)
    metadata = (("authorization", f"Bearer {bearer_token}"),) if bearer_token else None
    delay = RECONNECT_FIRST
    while not agent._stopping.is_set():
        try:
            if _one_stream(agent, stub, metadata):
                delay = RECONNECT_FIRST  # it served: the next failure starts the backoff afresh
        except grpc.RpcError as failure:
            error = GameHostError.from_rpc_error(failure)
            if not reconnect or not is_transient(error):
                raise error from None
            log.info("agent stream lost (%s); reconnecting in %.1f s", error, delay)
        except AgentStopped:
            return
        if agent._stopping.is_set() or not reconnect:
            return
        time.sleep(delay)
        delay = min(RECONNECT_MOST, delay * 2)


def _one_stream(agent: Agent, stub: pb_grpc.GameHostStub, metadata) -> bool:
    """One ServeAgent stream, until it ends; whether it was registered."""
    outbox: queue.Queue[pb.AgentRequest | None] = queue.Queue()
    outbox.put(pb.AgentRequest(register=pb.AgentRegistration(name=agent.name, games=agent.games)))

    def requests() -> Iterator[pb.AgentRequest]:
        while True:
            request = outbox.get()
            if request is None:
                return
            yield request

    call = stub.ServeAgent(requests(), metadata=metadata)
    watcher = threading.Thread(target=lambda: (agent._stopping.wait(), call.cancel()), daemon=True)
    watcher.start()
    registered = False
    try:
        for event in call:
            kind = event.WhichOneof("kind")
            if kind == "registered":
                registered = True
                agent.registered(event.registered)
            elif kind == "turn":
                turn = _turn(event.turn)
                chosen = agent.answer(turn)
                if chosen is not None:
                    move_id = chosen if isinstance(chosen, str) else chosen.id
                    outbox.put(pb.AgentRequest(move=pb.AgentMove(turn_id=turn.turn_id, move_id=move_id)))
            elif kind == "verdict":
                agent.verdict(event.verdict)
            elif kind == "error":
                agent.refused(event.error)
            if agent._stopping.is_set():
                break
    except grpc.RpcError:
        if agent._stopping.is_set():
            raise AgentStopped() from None
        raise
    finally:
        outbox.put(None)
        call.cancel()
    if agent._stopping.is_set():
        raise AgentStopped()
    return registered


def _turn(message: pb.AgentTurn) -> Turn:
    return Turn(message.turn_id, message.match, message.game, message.seat, message.version, message.view,
                message.deadline.ToNanoseconds() / 1e9)
