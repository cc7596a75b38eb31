"""What a seated player asks of a match: a move; asking, answering or
withdrawing an undo; resigning, offering, answering or withdrawing a draw,
claiming victory. The unary calls (SubmitMove, AskUndo, AnswerUndo,
WithdrawUndo, Resign, OfferDraw, AnswerDraw, WithdrawDraw, ClaimVictory)
and a Session's requests are answered here, the same way."""

from __future__ import annotations

from gamehost.client.structs import from_struct
from gamehost.host import errors
from gamehost.host.auth.principal import Principal
from gamehost.host.engine.match_access import Access
from gamehost.host.engine.match_engine import MatchEngine
from gamehost.host.engine.undo import UndoResult
from gamehost.host.rpc.locales import Locales
from gamehost.host.rpc.match_messages import MatchMessages
from gamehost.host.engine.endings import DrawResult
from gamehost.host.rpc.messages import draw_offer_pb, undo_ask_pb
from gamehost.host.rpc.request_fields import resource_id
from gamehost.v1 import gamehost_pb2 as pb


MAX_REFUSAL_SHOWN = 480  # characters of the rules' reason said to a player (it may quote the move)


class SeatCalls:
    def __init__(self, engine: MatchEngine, messages: MatchMessages, locales: Locales) -> None:
        self.engine = engine
        self.messages = messages
        self.locales = locales

    async def seen_match(self, name: str, token: str, caller: Principal) -> str:
        """The match id of ``name`` once the caller may see the match: to a
        stranger a private match answers NOT_FOUND, as a missing one does,
        before any check of its seats or moves could tell it exists."""
        match_id = resource_id(name, "matches")
        await self.engine.live_match(match_id, Access(caller, token))
        return match_id

    async def submit_move(self, request: pb.SubmitMoveRequest, caller: Principal,
                          wanted: tuple[str, ...] = ()) -> pb.SubmitMoveResponse:
        """``wanted``: the languages asked for the answer's view (rpc/locales.py ``asked``)."""
        answer, _ = await self.submit_move_as_seat(request, caller, wanted)
        return answer

    async def submit_move_as_seat(self, request: pb.SubmitMoveRequest, caller: Principal,
                                  wanted: tuple[str, ...] = ()) -> tuple[pb.SubmitMoveResponse, int]:
        """``submit_move``, and the seat that moved."""
        match_id = await self.seen_match(request.name, request.player_token, caller)
        which = request.WhichOneof("move")
        try:
            result = await self.engine.submit(
                match_id, request.player_token,
                move_id=request.move_id if which == "move_id" else "",
                move=from_struct(request.structured) if which == "structured" else None,
                expected_version=request.expected_version if request.HasField("expected_version") else None,
                request_id=request.request_id, caller=caller)
        except errors.HostError as refusal:
            if refusal.player_text and wanted:
                await self._say_refusal(match_id, refusal, wanted)
            raise
        answer = pb.SubmitMoveResponse(version=result.version, replayed=result.replayed)
        if request.include_view:
            live = await self.engine.live_match(match_id)
            answer.view.CopyFrom(await self.messages.localized_view_message(
                live, result.seat, request.render.text, request.render.svg,
                self.locales.for_game(live.game, wanted)))
        return answer, result.seat

    async def _say_refusal(self, match_id: str, refusal: errors.HostError, wanted: tuple[str, ...]) -> None:
        """Put the rules' reason for refusing a move, in the language negotiated for ``wanted``, in
        ``refusal`` (its LocalizedMessage detail); the status message stays English."""
        live = await self.engine.live_match(match_id)
        locale = self.locales.for_game(live.game, wanted)
        if locale is None or refusal.player_text is None:
            return
        try:
            said = locale.translator.translate(refusal.player_text)
        except (KeyError, IndexError, ValueError, AttributeError):  # a translation naming a placeholder it lacks
            live.log.warning("refusal not translated", locale=locale.tag, reason=str(refusal.player_text))
            said = str(refusal.player_text)
        refusal.localized = (locale.tag, said if len(said) <= MAX_REFUSAL_SHOWN else said[:MAX_REFUSAL_SHOWN] + "...")

    async def ask_undo(self, request: pb.AskUndoRequest, caller: Principal) -> pb.UndoResponse:
        match_id = await self.seen_match(request.name, request.player_token, caller)
        return await self._undo_response(match_id, await self.engine.ask_undo(match_id, request.player_token, caller))

    async def answer_undo(self, request: pb.AnswerUndoRequest, caller: Principal) -> pb.UndoResponse:
        match_id = await self.seen_match(request.name, request.player_token, caller)
        result = await self.engine.answer_undo(
            match_id, request.player_token, request.accept,
            request.ask_version if request.HasField("ask_version") else None, caller)
        return await self._undo_response(match_id, result)

    async def withdraw_undo(self, request: pb.WithdrawUndoRequest, caller: Principal) -> pb.UndoResponse:
        match_id = await self.seen_match(request.name, request.player_token, caller)
        return await self._undo_response(
            match_id, await self.engine.withdraw_undo(match_id, request.player_token, caller))

    async def resign(self, request: pb.ResignRequest, caller: Principal) -> pb.Match:
        match_id = await self.seen_match(request.name, request.player_token, caller)
        live = await self.engine.resign(match_id, request.player_token, caller)
        return await self.messages.live_match_message(live)

    async def claim_victory(self, request: pb.ClaimVictoryRequest, caller: Principal) -> pb.Match:
        match_id = await self.seen_match(request.name, request.player_token, caller)
        live = await self.engine.claim_victory(match_id, request.player_token, caller)
        return await self.messages.live_match_message(live)

    async def offer_draw(self, request: pb.OfferDrawRequest, caller: Principal) -> pb.DrawResponse:
        match_id = await self.seen_match(request.name, request.player_token, caller)
        return await self._draw_response(match_id, await self.engine.offer_draw(match_id, request.player_token,
                                                                                caller))

    async def answer_draw(self, request: pb.AnswerDrawRequest, caller: Principal) -> pb.DrawResponse:
        match_id = await self.seen_match(request.name, request.player_token, caller)
        result = await self.engine.answer_draw(
            match_id, request.player_token, request.accept,
            request.offer_version if request.HasField("offer_version") else None, caller)
        return await self._draw_response(match_id, result)

    async def withdraw_draw(self, request: pb.WithdrawDrawRequest, caller: Principal) -> pb.DrawResponse:
        match_id = await self.seen_match(request.name, request.player_token, caller)
        return await self._draw_response(match_id, await self.engine.withdraw_draw(match_id, request.player_token,
                                                                                   caller))

    async def _draw_response(self, match_id: str, result: DrawResult) -> pb.DrawResponse:
        answer = pb.DrawResponse(version=result.version, agreed=result.agreed)
        if result.offer is not None:
            live = await self.engine.live_match(match_id)
            answer.offer.CopyFrom(draw_offer_pb(live.record.seats, result.offer))
        return answer

    async def _undo_response(self, match_id: str, result: UndoResult) -> pb.UndoResponse:
        answer = pb.UndoResponse(version=result.version, undone=result.undone)
        if result.ask is not None:
            live = await self.engine.live_match(match_id)
            answer.ask.CopyFrom(undo_ask_pb(live.record.seats, result.ask))
        return answer
