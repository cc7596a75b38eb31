"""The GameHostAdmin servicer: operators' calls, protobuf in and out.

Every method needs the admin role; the gate refuses other callers before
the method runs (``gate.REQUIRED_ROLES``). The engine decides what each
call may change (``engine/administration.py``).
"""

from __future__ import annotations

import json

import structlog

from gamehost.client.structs import to_struct
from gamehost.host import errors
from gamehost.host.auth.principal import Principal
from gamehost.host.rpc import page_tokens
from gamehost.host.rpc.chat_calls import ban_pb, chat_pb, player_subject, report_pb
from gamehost.host.rpc.delivery_admin import DeliveryAdministration, time_and_key_position
from gamehost.host.engine.directory import match_not_found
from gamehost.host.engine.match_engine import MatchEngine
from gamehost.host.rpc.gate import Gate
from gamehost.host.rpc.gated_methods import Context, unary
from gamehost.host.rpc.messages import timestamp
from gamehost.host.rpc.request_fields import TICKET_PAGE, page_size, resource_id
from gamehost.host.engine.chat import MAX_REASON_CHARS
from gamehost.host.rpc.service import GameHostService
from gamehost.host.store.base import DeliveryRecord
from gamehost.v1 import gamehost_pb2 as pb
from gamehost.v1 import gamehost_pb2_grpc as pb_grpc

log = structlog.get_logger("gamehost.admin")

MAX_REASON = 200  # characters of an abort's reason kept
DELIVERY_PAGE = TICKET_PAGE  # 50 a page unless asked, at most 100
REPORT_PAGE = TICKET_PAGE
DELIVERY_STATE_TO_PB = {"pending": pb.DELIVERY_STATE_PENDING, "delivered": pb.DELIVERY_STATE_DELIVERED,
                        "failed": pb.DELIVERY_STATE_FAILED}
DELIVERY_STATE_FROM_PB = {value: state for state, value in DELIVERY_STATE_TO_PB.items()}


def delivery_pb(record: DeliveryRecord) -> pb.Delivery:
    return pb.Delivery(
        key=record.key, match=f"matches/{record.match_id}", state=DELIVERY_STATE_TO_PB[record.state],
        create_time=timestamp(record.create_time),
        next_attempt_time=None if record.next_attempt is None else timestamp(record.next_attempt),
        attempts=[pb.DeliveryAttempt(attempt=attempt, time=timestamp(when), http_status=status, error=error)
                  for attempt, when, status, error in record.attempts],
        body=to_struct(json.loads(record.body)))


class GameHostAdminService(pb_grpc.GameHostAdminServicer):
    def __init__(self, engine: MatchEngine, gate: Gate, matches: GameHostService,
                 deliveries: DeliveryAdministration | None = None) -> None:
        self.engine = engine
        self.gate = gate
        self.messages = matches.messages  # builds the Match messages, as GameHost answers them
        self.deliveries = deliveries or DeliveryAdministration(engine.store)

    @unary
    async def AbortMatch(self, request: pb.AbortMatchRequest, context: Context, caller: Principal) -> pb.Match:
        match_id = resource_id(request.name, "matches")
        live = await self.engine.abort_match(match_id, "ADMIN_ABORT",
                                             request.reason[:MAX_REASON] or f"aborted by {caller.subject}")
        log.info("admin aborted a match", match_id=match_id, admin=caller.subject)
        return await self.messages.match_message(live)

    @unary
    async def DeleteMatch(self, request: pb.DeleteMatchRequest, context: Context,
                          caller: Principal) -> pb.DeleteMatchResponse:
        match_id = resource_id(request.name, "matches")
        await self.engine.delete_match(match_id)
        log.info("admin deleted a match", match_id=match_id, admin=caller.subject)
        return pb.DeleteMatchResponse()

    @unary
    async def AssignBot(self, request: pb.AssignBotRequest, context: Context, caller: Principal) -> pb.Match:
        match_id = resource_id(request.name, "matches")
        live = await self.engine.assign_bot(match_id, request.seat, request.bot)
        log.info("admin gave a seat to a bot", match_id=match_id, seat=request.seat, admin=caller.subject)
        return await self.messages.match_message(live)

    @unary
    async def ResumeMatch(self, request: pb.ResumeMatchRequest, context: Context, caller: Principal) -> pb.Match:
        match_id = resource_id(request.name, "matches")
        live = await self.engine.resume_match(match_id)
        log.info("admin resumed a match", match_id=match_id, admin=caller.subject)
        return await self.messages.match_message(live)

    @unary
    async def ListDeliveries(self, request: pb.ListDeliveriesRequest, context: Context,
                             caller: Principal) -> pb.ListDeliveriesResponse:
        size = page_size(request.page_size, DELIVERY_PAGE)
        state = None
        if request.state:
            if request.state not in DELIVERY_STATE_FROM_PB:
                raise errors.invalid_field("state", f"{request.state} is not a delivery state (DELIVERY_STATE_"
                                                    "PENDING, _DELIVERED or _FAILED).")
            state = DELIVERY_STATE_FROM_PB[request.state]
        match_id = resource_id(request.match, "matches", "match") if request.match else None
        query = {"deliveries": [state or "", match_id or ""]}
        after = page_tokens.decode(request.page_token, query, time_and_key_position) if request.page_token else None
        page, last = await self.deliveries.list(state, match_id, after, size)
        return pb.ListDeliveriesResponse(deliveries=[delivery_pb(record) for record in page],
                                         next_page_token=page_tokens.encode(query, list(last)) if last else "")

    @unary
    async def RetryDelivery(self, request: pb.RetryDeliveryRequest, context: Context, caller: Principal) -> pb.Delivery:
        record = await self.deliveries.retry(request.key)
        log.info("admin retried a delivery", match_id=record.match_id, notification=record.key, admin=caller.subject)
        return delivery_pb(record)

    # ------------------------------------------------------------ chat moderation

    @unary
    async def HideMessage(self, request: pb.HideMessageRequest, context: Context,
                          caller: Principal) -> pb.ChatMessage:
        record = await self.engine.chat.hide(resource_id(request.name, "matches"), request.sequence, caller)
        return chat_pb(record, admin=True)

    @unary
    async def BanUser(self, request: pb.BanUserRequest, context: Context, caller: Principal) -> pb.Ban:
        record = await self.engine.chat.ban(player_subject(request.player), request.reason[:MAX_REASON_CHARS],
                                            caller)
        return ban_pb(record, active=True)

    @unary
    async def UnbanUser(self, request: pb.UnbanUserRequest, context: Context, caller: Principal) -> pb.Ban:
        return ban_pb(await self.engine.chat.unban(player_subject(request.player), caller), active=False)

    @unary
    async def ListReports(self, request: pb.ListReportsRequest, context: Context,
                          caller: Principal) -> pb.ListReportsResponse:
        size = page_size(request.page_size, REPORT_PAGE)
        reported = player_subject(request.reported, "reported") if request.reported else ""
        query = {"reports": reported}
        after = page_tokens.decode(request.page_token, query, time_and_key_position) if request.page_token else None
        reports = await self.engine.chat.reports(reported, after, size + 1)
        page = reports[:size]
        messages = [await self.engine.store.chat.message(r.match_id, r.sequence) if r.sequence else None
                    for r in page]
        token = page_tokens.encode(query, [page[-1].create_time, page[-1].id]) if len(reports) > size else ""
        return pb.ListReportsResponse(reports=[report_pb(r, m) for r, m in zip(page, messages)],
                                      next_page_token=token)

    # ------------------------------------------------------------ the console's reads

    @unary
    async def ListPlugins(self, request: pb.ListPluginsRequest, context: Context,
                          caller: Principal) -> pb.ListPluginsResponse:
        return pb.ListPluginsResponse(plugins=[
            pb.Plugin(name=report.name, distribution=report.distribution, version=report.version,
                      games=report.games, errors=report.errors)
            for report in self.engine.catalog.reports])

    @unary
    async def ListPools(self, request: pb.ListPoolsRequest, context: Context,
                        caller: Principal) -> pb.ListPoolsResponse:
        return pb.ListPoolsResponse(pools=[
            pb.MatchmakingPool(pool=pool.pool, game=f"games/{pool.game_id}", seats=pool.seats,
                               queued_tickets=pool.queued, oldest_queue_time=timestamp(pool.oldest))
            for pool in await self.engine.store.queued_pools()])

    @unary
    async def GetMatchStrikes(self, request: pb.GetMatchStrikesRequest, context: Context,
                              caller: Principal) -> pb.MatchStrikes:
        match_id = resource_id(request.name, "matches")
        if await self.engine.store.get_match(match_id) is None:  # a row read: a suspended match is not restored
            raise match_not_found(match_id)
        return pb.MatchStrikes(name=f"matches/{match_id}", strikes=await self.engine.store.strikes(match_id),
                               max_strikes=self.engine.max_strikes)
