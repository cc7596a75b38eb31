"""The Session stream: a player's moves in, the events of the matches it
follows out, on one bidirectional gRPC stream.

It does what SubmitMove and WatchMatch (and the undo calls: AskUndo,
AnswerUndo, WithdrawUndo; the endings: Resign, OfferDraw, AnswerDraw,
WithdrawDraw, ClaimVictory) do, through the same calls (``SeatCalls``),
the same gate and the same event encodings (``event_frames``); only the transport differs: a
move costs one message each way on a stream already open instead of a call.

- One reader takes the requests in order. Each passes the gate
  (``Gate.admit_message``: the input limits, and one call of the caller's
  budget, as SubmitMove or WatchMatch would spend), then is answered with a
  SessionEvent carrying its tag. A refused request is answered with an error
  (the google.rpc.Status a call would have ended with) and the stream goes on.
- Each followed match has a task that puts its events in the outbox, from
  ``MatchEngine.watch``: in order, with no gap and no repeat. A watch holds
  one of the caller's WatchMatch streams (quotas) until it ends.
- The writer (the servicer's generator) sends what the outbox holds, in
  order; a full outbox holds the watch tasks back, so a slow client slows
  only its own stream.

The stream ends when the client has closed its side and no watch is left,
when the client cancels, or when the host closes (after the request in hand
is answered). A stream that follows no match and sends no request for the
quotas' ``session_idle`` seconds is closed with DEADLINE_EXCEEDED: an open
stream holds the host's memory and one of its caller's Session streams.
"""

from __future__ import annotations

import asyncio
from typing import AsyncIterable, AsyncIterator, Callable

import structlog

from gamehost.host import errors, traces
from gamehost.host.auth.principal import Principal
from gamehost.host.engine.live import LiveMatch
from gamehost.host.engine.match_engine import MatchEngine
from gamehost.host.engine.renderings import asked_kinds
from gamehost.host.rpc import event_frames
from gamehost.host.rpc.chat_calls import ChatCalls
from gamehost.host.rpc.gate import Gate
from gamehost.host.rpc.grpc_handlers import Undecodable
from gamehost.host.rpc.match_messages import MatchMessages
from gamehost.host.rpc.request_fields import resource_id
from gamehost.host.rpc.locales import Locale, asked
from gamehost.host.rpc.match_messages import localized_match
from gamehost.host.rpc.seat_calls import SeatCalls
from gamehost.host.engine.match_access import Access
from gamehost.host.rpc.status import to_rpc_status
from gamehost.host.rpc.view_patches import ViewPatches
from gamehost.host.codec.length_delimited import field, field_tag
from gamehost.v1 import gamehost_pb2 as pb

log = structlog.get_logger("gamehost.session")

OUTBOX = 256  # messages waiting for the client before the watch tasks wait


class _Wake:
    """In the outbox: the writer looks again whether the stream is done."""


_WAKE = _Wake()

# The fields written around a move's answer and its event, both encoded already.
_SESSION_MOVED = field_tag(pb.SessionEvent.DESCRIPTOR.fields_by_name["moved"])
_MOVED_EVENT = field_tag(pb.SubmitMoveResponse.DESCRIPTOR.fields_by_name["event"])


def _moved_with_event(tag: int, match: str, answer: pb.SubmitMoveResponse, event: bytes) -> bytes:
    """The SessionEvent answering a move with its event (a serialized MatchEvent) inside."""
    return (pb.SessionEvent(tag=tag, match=match).SerializeToString()
            + field(_SESSION_MOVED, answer.SerializeToString() + field(_MOVED_EVENT, event)))


# The call each kind of request is counted as, at the gate and in the quotas.
METHOD_OF = {"move": "SubmitMove", "watch": "WatchMatch", "unwatch": "Session", "ask_undo": "AskUndo",
             "answer_undo": "AnswerUndo", "withdraw_undo": "WithdrawUndo", "resign": "Resign",
             "offer_draw": "OfferDraw", "answer_draw": "AnswerDraw", "withdraw_draw": "WithdrawDraw",
             "claim_victory": "ClaimVictory", "send_chat": "SendChat", None: "Session"}
# Undo requests, each answered by SeatCalls' method of the same name (as the unary call is).
UNDO_REQUESTS = ("ask_undo", "answer_undo", "withdraw_undo")
# Endings, answered the same way: by the match after it (`ended`) or the draw offer's answer (`draw`).
ENDING_REQUESTS = ("resign", "claim_victory")
DRAW_REQUESTS = ("offer_draw", "answer_draw", "withdraw_draw")


class _Watch:
    """One followed match: the task that sends its events, and the last version sent."""

    def __init__(self, after_version: int, release: Callable[[], None], seat: int | None = None,
                 own_events_in_answers: bool = False) -> None:
        self.sent = after_version  # the last version sent, or taken to be sent (see _follow)
        self.task: asyncio.Task | None = None
        self.release = release  # gives the caller's watch stream back (idempotent)
        self.seat = seat
        self.own_events_in_answers = own_events_in_answers
        # Move answers waiting to carry their event: version -> (tag, answer, settled when sent).
        self.answers: dict[int, tuple[int, pb.SubmitMoveResponse, asyncio.Future[bool]]] = {}

    def carries(self, seat: int, answer: pb.SubmitMoveResponse) -> bool:
        """Whether ``seat``'s move answer should carry its event from this watch: it
        asked for that, follows as that seat, and has not sent the event yet."""
        return (self.own_events_in_answers and self.seat == seat and not answer.replayed
                and answer.version > self.sent and self.task is not None and not self.task.done())

    def stop(self) -> None:
        """End it now: its stream is given back at once, not when the task
        gets round to its clean-up (a watch asked for next must not find
        the caller's streams still taken)."""
        self.release()
        if self.task is not None:
            self.task.cancel()


class SessionStream:
    def __init__(self, engine: MatchEngine, gate: Gate, messages: MatchMessages, calls: SeatCalls,
                 caller: Principal, languages: tuple[str, ...] = (), chat: ChatCalls | None = None,
                 view_patches: ViewPatches | None = None) -> None:
        self.engine = engine
        self.chat = chat or ChatCalls(engine)
        self.view_patches = view_patches or ViewPatches()
        self.languages = languages  # the stream's Accept-Language, for requests that name no locale
        self.gate = gate
        self.messages = messages
        self.calls = calls
        self.caller = caller
        self.outbox: asyncio.Queue[pb.SessionEvent | bytes | _Wake] = asyncio.Queue(OUTBOX)
        self.watches: dict[str, _Watch] = {}
        self.reading = True
        self.busy = False  # the reader is answering a request
        self.answered = 0
        self.idle_since = asyncio.get_running_loop().time()  # the last request, or the last watch's end
        self.ended_by: errors.HostError | None = None  # why the host closed the stream, sent as its status

    async def run(self, requests: AsyncIterable[pb.SessionRequest | Undecodable]
                  ) -> AsyncIterator[pb.SessionEvent | bytes]:
        """What the stream sends: answers and events, as messages or bytes."""
        reader = asyncio.ensure_future(self._read(requests))
        closer = asyncio.ensure_future(self._end_with_host(reader))
        idler = asyncio.ensure_future(self._end_when_idle(reader, self.gate.quotas.limits.session_idle))
        sent = 0
        try:
            while True:
                if self.outbox.empty() and self._done():
                    if self.ended_by is not None:
                        raise self.ended_by
                    return
                item = await self.outbox.get()
                if not isinstance(item, _Wake):
                    yield item
                    sent += 1
        finally:
            reader.cancel()
            closer.cancel()
            idler.cancel()
            for watch in list(self.watches.values()):
                watch.stop()
            log.debug("session ended", subject=self.caller.subject, requests=self.answered, sent=sent)

    def _done(self) -> bool:
        if self.watches:
            return False
        return not self.reading or (self.engine.closed.is_set() and not self.busy)

    def _wake(self) -> None:
        try:
            self.outbox.put_nowait(_WAKE)
        except asyncio.QueueFull:  # the writer has messages to send and looks again once they are out
            pass

    async def _end_with_host(self, reader: asyncio.Task) -> None:
        """When the host closes: stop reading (after the request in hand), so
        the stream ends once its watches have (the engine ends them)."""
        await self.engine.closed.wait()
        if not self.busy:
            reader.cancel()
        self._wake()

    async def _end_when_idle(self, reader: asyncio.Task, idle: float) -> None:
        """Stop reading once the stream has followed no match and sent no
        request for ``idle`` seconds (0: never)."""
        if idle <= 0:
            return
        loop = asyncio.get_running_loop()
        while True:
            left = self.idle_since + idle - loop.time()
            if left > 0 or self.watches or self.busy:
                await asyncio.sleep(max(left, idle if self.watches or self.busy else 0))
                continue
            self.ended_by = errors.DeadlineExceeded(
                f"This Session stream sent no request and followed no match for {idle:g} s, so the host closed "
                "it; open a new one when you need it.", "SESSION_IDLE",
                metadata=errors.metadata_of(idle_seconds=f"{idle:g}"))
            reader.cancel()
            self._wake()
            return

    # ------------------------------------------------------------ requests

    async def _read(self, requests: AsyncIterable[pb.SessionRequest | Undecodable]) -> None:
        try:
            async for request in requests:
                self.idle_since = asyncio.get_running_loop().time()
                self.busy = True
                try:
                    await self._answer(request)
                finally:
                    self.busy = False
                    self.answered += 1
                    self.idle_since = asyncio.get_running_loop().time()
                if self.engine.closed.is_set():
                    return
        except asyncio.CancelledError:
            raise
        except Exception as error:  # grpcio failed the call (e.g. a message past the size limit): it ends
            log.debug("session stopped reading", error=f"{type(error).__name__}: {error}")
        finally:
            self.reading = False
            self._wake()

    async def _answer(self, request: pb.SessionRequest | Undecodable) -> None:
        if not traces.on() or isinstance(request, Undecodable):
            await self._answer_request(request)
            return
        # Each request on the stream is a trace of its own: the stream may stay open for hours.
        kind = request.WhichOneof("request") or "none"
        with traces.span(f"session {kind}", {"rpc.system": "grpc", "rpc.method": "Session",
                                              "gamehost.session_request": kind}):
            await self._answer_request(request)

    async def _answer_request(self, request: pb.SessionRequest | Undecodable) -> None:
        if isinstance(request, Undecodable):  # refused as the gate's input check refuses it (Gate.check_input)
            await self._refuse(0, "", request.error())
            return
        tag = request.tag
        kind = request.WhichOneof("request")
        method = METHOD_OF[kind]
        match = ""
        try:
            self.gate.admit_message(method, request, self.caller)
            if kind == "move":
                match = request.move.name
                answer, seat = await self.calls.submit_move_as_seat(request.move, self.caller,
                                                                    asked(request.move, header=self.languages))
                if not await self._answer_with_event(tag, match, seat, answer):
                    await self.outbox.put(pb.SessionEvent(tag=tag, match=match, moved=answer))
            elif kind == "watch":
                match = request.watch.name
                await self._watch(tag, request.watch)
            elif kind == "unwatch":
                match = request.unwatch
                await self._unwatch(tag, request.unwatch)
            elif kind in UNDO_REQUESTS:
                undo_request = getattr(request, kind)
                match = undo_request.name
                answer = await getattr(self.calls, kind)(undo_request, self.caller)
                await self.outbox.put(pb.SessionEvent(tag=tag, match=match, undo=answer))
            elif kind in ENDING_REQUESTS:
                ending_request = getattr(request, kind)
                match = ending_request.name
                ended = await getattr(self.calls, kind)(ending_request, self.caller)
                await self.outbox.put(pb.SessionEvent(tag=tag, match=match, ended=ended))
            elif kind in DRAW_REQUESTS:
                draw_request = getattr(request, kind)
                match = draw_request.name
                drawn = await getattr(self.calls, kind)(draw_request, self.caller)
                await self.outbox.put(pb.SessionEvent(tag=tag, match=match, draw=drawn))
            elif kind == "send_chat":
                match = request.send_chat.name
                sent = await self.chat.send(request.send_chat, self.caller)
                await self.outbox.put(pb.SessionEvent(tag=tag, match=match, chat_sent=sent))
            else:
                raise errors.invalid_field("request", "send watch, move, unwatch, ask_undo, answer_undo, "
                                           "withdraw_undo, resign, offer_draw, answer_draw, withdraw_draw, "
                                           "claim_victory or send_chat.", "REQUEST_MISSING")
        except errors.HostError as error:
            await self._refuse(tag, match, error)
        except Exception as error:  # the host's own failure: logged, and answered as the calls answer it
            log.exception("rpc failed", method=f"Session/{kind}", error=str(error))
            await self._refuse(tag, match, errors.Internal(
                f"The host failed on Session ({kind}): {type(error).__name__}. It has been logged.", "HOST_ERROR"))

    async def _answer_with_event(self, tag: int, match: str, seat: int, answer: pb.SubmitMoveResponse) -> bool:
        """Hand a move's answer to the watch that will send its event, which
        sends the two as one message (the stream's answers stay in order:
        the next request waits). False: no such watch, the answer goes alone."""
        watch = self.watches.get(resource_id(match, "matches"))
        if watch is None or not watch.carries(seat, answer):
            return False
        sent: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        watch.answers[answer.version] = (tag, answer, sent)
        assert watch.task is not None  # carries() checked it runs
        await asyncio.wait((sent, watch.task), return_when=asyncio.FIRST_COMPLETED)
        watch.answers.pop(answer.version, None)
        return sent.done() and sent.result()

    async def _refuse(self, tag: int, match: str, error: errors.HostError) -> None:
        traces.failed(error)
        await self.outbox.put(self._error_event(tag, match, error))

    @staticmethod
    def _error_event(tag: int, match: str, error: errors.HostError) -> pb.SessionEvent:
        status = to_rpc_status(error)
        return pb.SessionEvent(tag=tag, match=match if len(match) <= 128 else "",  # not the client's megabyte back
                               error=pb.SessionError(code=status.code, message=status.message, details=status.details))

    # ------------------------------------------------------------ watches

    async def _watch(self, tag: int, request: pb.WatchMatchRequest) -> None:
        wanted = asked(request, header=self.languages)
        live, seat = await self.engine.watched_match(
            resource_id(request.name, "matches"), Access(self.caller, request.player_token, request.invitation_code))
        locale = self.calls.locales.for_game(live.game, wanted)
        # Checked before the watch it would replace stops: a refused watch changes nothing.
        self.engine.check_watch(live, request.after_version)
        replaced = self.watches.pop(live.id, None)
        if replaced is not None:  # a resume on the same stream: the new watch takes over
            replaced.stop()
        watch = self.watches[live.id] = _Watch(request.after_version, self.gate.quotas.watch(self.caller), seat,
                                               request.own_events_in_answers)
        try:
            await self.outbox.put(pb.SessionEvent(tag=tag, match=request.name, watching=localized_match(
                await self.messages.match_message(live), live.record.result, locale)))
        except BaseException:
            self.watches.pop(live.id, None)
            watch.release()
            raise
        watch.task = asyncio.ensure_future(self._follow(live, seat, request, tag, watch, locale))

    async def _follow(self, live: LiveMatch, seat: int | None, request: pb.WatchMatchRequest, tag: int,
                      watch: _Watch, locale: Locale | None = None) -> None:
        text, svg = request.render.text, request.render.svg
        chat: asyncio.Future | None = None
        patched = event_frames.PatchedFrames(self.view_patches) if request.view_patches else None
        try:  # a cancel (replaced, unwatched, the stream gone) goes straight to the clean-up: answered elsewhere
            try:
                if request.with_chat:  # the backlog first, so a match that is over sends it too
                    batches = self.chat.events(live, seat, self.caller, request.chat_after_sequence)
                    for chat_event in await anext(batches):
                        await self.outbox.put(pb.SessionEvent(match=request.name, match_event=chat_event))
                    chat = asyncio.ensure_future(self._follow_chat(batches, request.name))
                async for batch in self.engine.watch(live, request.after_version, seat, asked_kinds(text, svg)):
                    for event in batch:  # encoded once per viewer and shared (event_frames.py)
                        encoded = await event_frames.match_event_bytes(
                            self.messages, live, event, seat, text, svg, locale, patched)
                        # Taken and marked sent in one step: a move's answer arriving now
                        # either finds its slot here or sees the event sent (_answer_with_event).
                        answer = watch.answers.pop(event["version"], None)
                        watch.sent = event["version"]
                        if answer is None:
                            await self.outbox.put(event_frames.session_wrapped(
                                live, event, seat, text, svg, encoded, locale is not None or patched is not None))
                            continue
                        answer_tag, moved, settled = answer
                        await self.outbox.put(_moved_with_event(answer_tag, request.name, moved, encoded))
                        if not settled.done():
                            settled.set_result(True)
                last = pb.SessionEvent(match=request.name, watch_ended=pb.WatchEnded(version=watch.sent))
            except errors.HostError as error:  # e.g. the store failed to read a resuming watcher's events
                last = self._error_event(tag, request.name, error)
            except Exception as error:
                live.log.exception("session watch failed", error=str(error))
                last = self._error_event(tag, request.name, errors.Internal(
                    f"The host failed on Session (watch): {type(error).__name__}. It has been logged.", "HOST_ERROR"))
            finally:
                watch.release()
                if chat is not None:  # the chat goes as long as the match's events do
                    chat.cancel()
                    await asyncio.gather(chat, return_exceptions=True)
            await self.outbox.put(last)
        finally:  # the watch leaves the table only once its last message is queued: the writer ends after it
            if self.watches.get(live.id) is watch:
                del self.watches[live.id]
            self.idle_since = asyncio.get_running_loop().time()
            live.log.debug("watch ended", seat=seat, last_version=watch.sent, via="session")
            self._wake()

    async def _follow_chat(self, batches: AsyncIterator[list[pb.MatchEvent]], name: str) -> None:
        """A followed match's chat after its backlog, as match events nobody asked for (tag 0), beside its events."""
        try:
            async for batch in batches:
                for event in batch:
                    await self.outbox.put(pb.SessionEvent(match=name, match_event=event))
        except errors.HostError as error:
            await self.outbox.put(self._error_event(0, name, error))

    async def _unwatch(self, tag: int, name: str) -> None:
        match_id = resource_id(name, "matches", "unwatch")
        watch = self.watches.pop(match_id, None)
        if watch is None:
            raise errors.FailedPrecondition(f"This stream does not follow {name}.", "NOT_WATCHING",
                                            resource=("gamehost.dev/Match", name))
        watch.stop()
        await self.outbox.put(pb.SessionEvent(tag=tag, match=name, watch_ended=pb.WatchEnded(version=watch.sent)))
