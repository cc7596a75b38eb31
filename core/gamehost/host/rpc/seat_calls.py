"""What a seated player asks of a match: a move, and asking, answering or
withdrawing an undo. The unary calls (SubmitMove, AskUndo, AnswerUndo,
WithdrawUndo) and a Session's requests are answered here, the same way."""

from __future__ import annotations

from gamehost.client.structs import from_struct
from gamehost.host.auth.principal import Principal
from gamehost.host.engine.match_engine import MatchEngine
from gamehost.host.engine.undo import UndoResult
from gamehost.host.rpc.locales import Locales
from gamehost.host.rpc.match_messages import MatchMessages
from gamehost.host.rpc.messages import undo_ask_pb
from gamehost.host.rpc.request_fields import resource_id
from gamehost.v1 import gamehost_pb2 as pb


class SeatCalls:
    def __init__(self, engine: MatchEngine, messages: MatchMessages, locales: Locales) -> None:
        self.engine = engine
        self.messages = messages
        self.locales = locales

    async def submit_move(self, request: pb.SubmitMoveRequest, caller: Principal,
                          wanted: tuple[str, ...] = ()) -> pb.SubmitMoveResponse:
        """``wanted``: the languages asked for the answer's view (rpc/locales.py ``asked``)."""
        match_id = resource_id(request.name, "matches")
        which = request.WhichOneof("move")
        result = await self.engine.submit(
            match_id, request.player_token,
            move_id=request.move_id if which == "move_id" else "",
            move=from_struct(request.structured) if which == "structured" else None,
            expected_version=request.expected_version if request.HasField("expected_version") else None,
            request_id=request.request_id, caller=caller)
        answer = pb.SubmitMoveResponse(version=result.version, replayed=result.replayed)
        if request.include_view:
            live = await self.engine.live_match(match_id)
            answer.view.CopyFrom(await self.messages.localized_view_message(
                live, result.seat, request.render.text, request.render.svg,
                self.locales.for_game(live.game, wanted)))
        return answer

    async def ask_undo(self, request: pb.AskUndoRequest, caller: Principal) -> pb.UndoResponse:
        match_id = resource_id(request.name, "matches")
        return await self._undo_response(match_id, await self.engine.ask_undo(match_id, request.player_token, caller))

    async def answer_undo(self, request: pb.AnswerUndoRequest, caller: Principal) -> pb.UndoResponse:
        match_id = resource_id(request.name, "matches")
        result = await self.engine.answer_undo(
            match_id, request.player_token, request.accept,
            request.ask_version if request.HasField("ask_version") else None, caller)
        return await self._undo_response(match_id, result)

    async def withdraw_undo(self, request: pb.WithdrawUndoRequest, caller: Principal) -> pb.UndoResponse:
        match_id = resource_id(request.name, "matches")
        return await self._undo_response(
            match_id, await self.engine.withdraw_undo(match_id, request.player_token, caller))

    async def _undo_response(self, match_id: str, result: UndoResult) -> pb.UndoResponse:
        answer = pb.UndoResponse(version=result.version, undone=result.undone)
        if result.ask is not None:
            live = await self.engine.live_match(match_id)
            answer.ask.CopyFrom(undo_ask_pb(live.record.seats, result.ask))
        return answer
