"""The GameHostAdmin servicer: operators' calls, protobuf in and out.

Every method needs the admin role; the gate refuses other callers before
the method runs (``gate.REQUIRED_ROLES``). The engine decides what each
call may change (``engine_admin.py``).
"""

from __future__ import annotations

import structlog

from gamehost.host.engine import MatchEngine
from gamehost.host.gate import Gate
from gamehost.host.service import GameHostService, resource_id, unary
from gamehost.v1 import gamehost_pb2 as pb
from gamehost.v1 import gamehost_pb2_grpc as pb_grpc

log = structlog.get_logger("gamehost.admin")

MAX_REASON = 200  # characters of an abort's reason kept


class GameHostAdminService(pb_grpc.GameHostAdminServicer):
    def __init__(self, engine: MatchEngine, gate: Gate, matches: GameHostService) -> None:
        self.engine = engine
        self.gate = gate
        self.matches = matches  # builds the Match messages, as GameHost answers them

    @unary
    async def AbortMatch(self, request, context, caller):
        match_id = resource_id(request.name, "matches")
        live = await self.engine.abort_match(match_id, "ADMIN_ABORT",
                                             request.reason[:MAX_REASON] or f"aborted by {caller.subject}")
        log.info("admin aborted a match", match_id=match_id, admin=caller.subject)
        return await self.matches.match_message(live)

    @unary
    async def DeleteMatch(self, request, context, caller):
        match_id = resource_id(request.name, "matches")
        await self.engine.delete_match(match_id)
        log.info("admin deleted a match", match_id=match_id, admin=caller.subject)
        return pb.DeleteMatchResponse()

    @unary
    async def AssignBot(self, request, context, caller):
        match_id = resource_id(request.name, "matches")
        live = await self.engine.assign_bot(match_id, request.seat, request.bot)
        log.info("admin gave a seat to a bot", match_id=match_id, seat=request.seat, admin=caller.subject)
        return await self.matches.match_message(live)

    @unary
    async def ResumeMatch(self, request, context, caller):
        match_id = resource_id(request.name, "matches")
        live = await self.engine.resume_match(match_id)
        log.info("admin resumed a match", match_id=match_id, admin=caller.subject)
        return await self.matches.match_message(live)
