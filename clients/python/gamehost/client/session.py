"""A Session stream (GameHost.Session): moves in, the events of the matches
it follows out, on one gRPC stream.

    with host.session() as session:
        session.watch(match, token)                   # events follow
        answer = session.move(match, token, move_id="b2", expected_version=3)
        for event in session.events(timeout=30):       # SessionEvent messages
            ...

``move``, ``watch`` and ``unwatch`` wait for their answer (an error answer
raises GameHostError, and the stream goes on); the events that arrive
meanwhile are kept for ``events``/``next_event``. ``send`` only sends.
"""

from __future__ import annotations

import collections
import itertools
import queue
import threading
from typing import Any, Iterator, Mapping

import grpc

from gamehost.client.errors import GameHostError
from gamehost.client.move_requests import move_request
from gamehost.client.names import match_name
from gamehost.v1 import gamehost_pb2 as pb

_END = object()  # the stream ended (cleanly, or with the error kept in ``failure``)


def session_error(event: pb.SessionEvent) -> GameHostError:
    """The GameHostError an error answer stands for (its google.rpc details unpacked)."""
    code = next(code for code in grpc.StatusCode if code.value[0] == event.error.code)
    return GameHostError.from_details(code, event.error.message, event.error.details)


class GameSession:
    """One open Session stream. Not for several threads at once."""

    def __init__(self, stub, metadata=()) -> None:
        self._requests: queue.SimpleQueue = queue.SimpleQueue()
        self._tags = itertools.count(1)
        self._received: queue.SimpleQueue = queue.SimpleQueue()
        self._kept: collections.deque[pb.SessionEvent] = collections.deque()  # events read while awaiting an answer
        self.failure: grpc.RpcError | None = None  # how the stream ended, when it did not end cleanly
        self._call = stub.Session(iter(self._requests.get, _END), metadata=metadata or None)
        self._pump = threading.Thread(target=self._receive, daemon=True)
        self._pump.start()

    def _receive(self) -> None:
        try:
            for event in self._call:
                self._received.put(event)
        except grpc.RpcError as error:
            if error.code() != grpc.StatusCode.CANCELLED:
                self.failure = error
        finally:
            self._received.put(_END)

    # ------------------------------------------------------------ sending

    def send(self, **request) -> int:
        """Send one SessionRequest (watch=, move=, unwatch=, ask_undo=, answer_undo=,
        withdraw_undo=, resign=, offer_draw=, answer_draw=, withdraw_draw= or
        claim_victory=); returns its tag."""
        tag = next(self._tags)
        self._requests.put(pb.SessionRequest(tag=tag, **request))
        return tag

    def send_move(self, match: str, token: str, *, move_id: str = "", move: Mapping[str, Any] | None = None,
                  expected_version: int | None = None, request_id: str | None = None) -> int:
        return self.send(move=move_request(match, token, move_id=move_id, move=move,
                                           expected_version=expected_version, request_id=request_id))

    def send_watch(self, match: str, token: str = "", *, after_version: int = 0, text: bool = False,
                   svg: bool = False, invitation_code: str = "", own_events_in_answers: bool = False) -> int:
        """``own_events_in_answers``: this seat's own moves' events come in the moves' answers
        (``SubmitMoveResponse.event``), not again as match events."""
        return self.send(watch=pb.WatchMatchRequest(name=match_name(match), player_token=token,
                                                    after_version=after_version,
                                                    render=pb.RenderOptions(text=text, svg=svg),
                                                    invitation_code=invitation_code,
                                                    own_events_in_answers=own_events_in_answers))

    # ------------------------------------------------------------ waiting for answers

    def move(self, match: str, token: str, *, timeout: float | None = 30.0, **move) -> pb.SubmitMoveResponse:
        """Play a move and wait for its answer; an error answer raises GameHostError."""
        return self.answer(self.send_move(match, token, **move), timeout).moved

    def watch(self, match: str, token: str = "", *, timeout: float | None = 30.0, **options) -> pb.Match:
        """Follow a match (events after ``after_version``); returns the match as it is now."""
        return self.answer(self.send_watch(match, token, **options), timeout).watching

    def unwatch(self, match: str, *, timeout: float | None = 30.0) -> int:
        """Stop following a match; returns the last version sent for it."""
        return self.answer(self.send(unwatch=match_name(match)), timeout).watch_ended.version

    def ask_undo(self, match: str, token: str, *, timeout: float | None = 30.0) -> pb.UndoResponse:
        """Ask to take back this seat's move, the last one played (as AskUndo)."""
        return self.answer(self.send(ask_undo=pb.AskUndoRequest(name=match_name(match), player_token=token)),
                           timeout).undo

    def answer_undo(self, match: str, token: str, accept: bool, *, ask_version: int | None = None,
                    timeout: float | None = 30.0) -> pb.UndoResponse:
        """Accept or refuse the open ask (``ask_version``: only if it is still that one)."""
        return self.answer(self.send(answer_undo=pb.AnswerUndoRequest(
            name=match_name(match), player_token=token, accept=accept, ask_version=ask_version)), timeout).undo

    def withdraw_undo(self, match: str, token: str, *, timeout: float | None = 30.0) -> pb.UndoResponse:
        return self.answer(self.send(withdraw_undo=pb.WithdrawUndoRequest(name=match_name(match), player_token=token)),
                           timeout).undo

    def resign(self, match: str, token: str = "", *, timeout: float | None = 30.0) -> pb.Match:
        """This seat resigns (as Resign); returns the match after it."""
        return self.answer(self.send(resign=pb.ResignRequest(name=match_name(match), player_token=token)),
                           timeout).ended

    def claim_victory(self, match: str, token: str = "", *, timeout: float | None = 30.0) -> pb.Match:
        """End the match over opponents absent past its grace (as ClaimVictory)."""
        return self.answer(self.send(claim_victory=pb.ClaimVictoryRequest(name=match_name(match),
                                                                          player_token=token)), timeout).ended

    def offer_draw(self, match: str, token: str = "", *, timeout: float | None = 30.0) -> pb.DrawResponse:
        return self.answer(self.send(offer_draw=pb.OfferDrawRequest(name=match_name(match), player_token=token)),
                           timeout).draw

    def answer_draw(self, match: str, token: str, accept: bool, *, offer_version: int | None = None,
                    timeout: float | None = 30.0) -> pb.DrawResponse:
        """Accept or decline the open offer (``offer_version``: only if it is still that one)."""
        return self.answer(self.send(answer_draw=pb.AnswerDrawRequest(
            name=match_name(match), player_token=token, accept=accept, offer_version=offer_version)), timeout).draw

    def withdraw_draw(self, match: str, token: str = "", *, timeout: float | None = 30.0) -> pb.DrawResponse:
        return self.answer(self.send(withdraw_draw=pb.WithdrawDrawRequest(name=match_name(match),
                                                                          player_token=token)), timeout).draw

    def answer(self, tag: int, timeout: float | None = 30.0) -> pb.SessionEvent:
        """The answer to request ``tag``; other events read meanwhile are kept."""
        while True:
            event = self._next(timeout)
            if event.tag == tag:
                if event.HasField("error"):
                    raise session_error(event)
                return event
            self._kept.append(event)

    # ------------------------------------------------------------ reading events

    def next_event(self, timeout: float | None = 30.0) -> pb.SessionEvent:
        """The next message of the stream (events, answers, errors), in order."""
        return self._kept.popleft() if self._kept else self._next(timeout)

    def events(self, timeout: float | None = 30.0) -> Iterator[pb.SessionEvent]:
        """Messages until the stream ends (StopIteration), each within ``timeout``."""
        while True:
            try:
                yield self.next_event(timeout)
            except EOFError:
                return

    def _next(self, timeout: float | None) -> pb.SessionEvent:
        try:
            event = self._received.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"nothing from the session stream in {timeout} s") from None
        if event is _END:
            self._received.put(_END)  # every later read ends too
            if self.failure is not None:
                raise GameHostError.from_rpc_error(self.failure)
            raise EOFError("the session stream ended")
        return event

    # ------------------------------------------------------------ ending

    def close_requests(self) -> None:
        """Send no more requests: the host ends the stream once its watches end."""
        self._requests.put(_END)

    def cancel(self) -> None:
        """Drop the stream at once (as a lost connection would)."""
        self._call.cancel()
        self._pump.join(10)

    def close(self) -> None:
        self.close_requests()
        self.cancel()

    def __enter__(self) -> "GameSession":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
