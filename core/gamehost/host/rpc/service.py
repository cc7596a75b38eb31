"""The gRPC servicer: protobuf in, engine calls, protobuf out.

No game logic and no storage logic here. The messages are built by
``messages`` (plain conversions) and ``match_messages`` (those that take the
engine); a seated player's calls, shared with the Session stream, are in
``seat_calls``. Engine errors become status codes with google.rpc details
(``gated_methods``, ``status.py``).
"""

from __future__ import annotations

from typing import AsyncIterable, AsyncIterator, TypedDict

from gamehost.client.structs import from_struct, to_struct
from gamehost.host import errors
from gamehost.host.auth.principal import Principal
from gamehost.host.engine.directory import RULES_VERSION_UNAVAILABLE
from gamehost.host.engine.match_access import Access
from gamehost.host.engine.match_engine import MatchEngine, caller_request_id
from gamehost.host.engine.rematches import REMATCH_REQUEST_PREFIX
from gamehost.host.engine.renderings import asked_kinds
from gamehost.host.engine.ticket_matching import MATCHMAKING_REQUEST_PREFIX
from gamehost.host.rpc import event_frames, list_etags, page_tokens
from gamehost.host.rpc.agent_stream import AgentStream
from gamehost.host.rpc.catalog_messages import CatalogMessages, with_agents, with_bot_ratings
from gamehost.host.rpc.chat_calls import ChatCalls, flattened, merged
from gamehost.host.rpc.gate import Gate
from gamehost.host.rpc.gated_methods import Context, bidirectional, streaming, unary
from gamehost.host.rpc.grpc_handlers import Undecodable
from gamehost.host.rpc.locales import Locale, Locales, asked, header_languages
from gamehost.host.rpc.match_messages import MatchMessages, localized_match
from gamehost.host.rpc.messages import (
    SPECTATORS_FROM_PB, STATUS_FROM_PB, TICKET_STATE_FROM_PB, VISIBILITY_FROM_PB, player_rating_pb, result_pb,
    ticket_pb, user_match_pb)
from gamehost.host.rpc.people_rpcs import PeopleRpcs
from gamehost.host.rpc.push_calls import PushCalls
from gamehost.host.rpc.request_fields import (
    GAME_PAGE, LOG_PAGE, MATCH_PAGE, TICKET_PAGE, optional_number, optional_seconds, page_size, resource_id)
from gamehost.host.rpc.seat_calls import SeatCalls
from gamehost.host.rpc.user_data_calls import UserDataCalls
from gamehost.host.rpc.session import SessionStream
from gamehost.host.rpc.view_patches import ViewPatches
from gamehost.v1 import gamehost_pb2 as pb
from gamehost.v1 import gamehost_pb2_grpc as pb_grpc


class MatchListing(TypedDict):
    """Which matches ListMatches reads (the engine's ``list_matches`` and ``list_match_keys``)."""

    game_id: str | None
    status: str | None
    limit: int
    before: tuple[float, str] | None
    player: str | None
    my_turn: bool
    public_only: bool


class GameHostService(PeopleRpcs):
    def __init__(self, engine: MatchEngine, gate: Gate, push: PushCalls | None = None) -> None:
        self.engine = engine
        self.gate = gate
        self.push = push  # None: the host sends no push
        self.messages = MatchMessages(engine)
        self.locales = Locales()
        self.seat_calls = SeatCalls(engine, self.messages, self.locales)
        self.catalog = CatalogMessages(engine.catalog, engine.bots, self.locales)
        self.chat = ChatCalls(engine)
        self.user_data = UserDataCalls(engine, gate.authenticator.api_keys)
        self.view_patches = ViewPatches()  # recent views' JSON, for watchers who asked for views as changes

    def _match_locale(self, game_id: str, wanted: tuple[str, ...]) -> Locale | None:
        entry = self.engine.catalog.games.get(game_id)
        return self.locales.for_game(None if entry is None else entry.game, wanted)

    # ------------------------------------------------------------ catalog

    @unary
    async def ListGames(self, request: pb.ListGamesRequest, context: Context,
                        caller: Principal) -> pb.ListGamesResponse:
        size = page_size(request.page_size, GAME_PAGE)
        games = with_bot_ratings(with_agents(self.catalog.games(asked(request, context)), self.engine.agents.for_game),
                                 await self.engine.ratings.bots.by_game())
        start = page_tokens.decode(request.page_token, {}, page_tokens.offset_position(len(games))) \
            if request.page_token else 0
        page = games[start:start + size]
        more = start + size < len(games)
        return pb.ListGamesResponse(games=page, next_page_token=page_tokens.encode({}, start + size) if more else "")

    @unary
    async def GetGame(self, request: pb.GetGameRequest, context: Context, caller: Principal) -> pb.Game:
        game_id = resource_id(request.name, "games")
        self.engine.game_entry(game_id)
        game = next(game for game in self.catalog.games(asked(request, context)) if game.id == game_id)
        return with_bot_ratings(with_agents([game], self.engine.agents.for_game),
                                await self.engine.ratings.bots.by_game())[0]

    # ------------------------------------------------------------ matches

    @unary
    async def CreateMatch(self, request: pb.CreateMatchRequest, context: Context, caller: Principal) -> pb.Match:
        game_id = resource_id(request.game, "games", "game")
        if request.request_id.startswith(REMATCH_REQUEST_PREFIX):
            raise errors.invalid_field("request_id", f"request ids starting {REMATCH_REQUEST_PREFIX!r} name "
                                                     "rematches (Rematch): choose another.")
        if request.request_id.startswith(MATCHMAKING_REQUEST_PREFIX):
            raise errors.invalid_field("request_id", f"request ids starting {MATCHMAKING_REQUEST_PREFIX!r} name "
                                                     "matches made from tickets (CreateTicket): choose another.")
        if request.visibility not in VISIBILITY_FROM_PB:
            raise errors.invalid_field("visibility", f"unknown visibility {request.visibility}: send "
                                                     "VISIBILITY_PUBLIC, _UNLISTED or _PRIVATE.")
        if request.spectators not in SPECTATORS_FROM_PB:
            raise errors.invalid_field("spectators", f"unknown spectator policy {request.spectators}: send "
                                                     "SPECTATORS_ANYONE, _PLAYERS or _NONE.")
        live, invitation = await self.engine.open_match(
            game_id, seats=request.seats, options=from_struct(request.options),
            seed=request.seed if request.HasField("seed") else None, bot_seats=tuple(request.bot_seats),
            seat_bots=tuple(request.seat_bots),
            request_id=caller_request_id(caller, request.request_id), variant=request.variant, bot=request.bot,
            turn_timeout=request.turn_timeout.ToNanoseconds() / 1e9,
            clock_initial=request.clock_initial.ToNanoseconds() / 1e9,
            clock_increment=request.clock_increment.ToNanoseconds() / 1e9,
            clock_per_move=request.correspondence_move_time.ToNanoseconds() / 1e9,
            absent_grace=request.absent_grace.ToNanoseconds() / 1e9 if request.HasField("absent_grace") else None,
            visibility=VISIBILITY_FROM_PB[request.visibility], spectators=SPECTATORS_FROM_PB[request.spectators],
            rated=request.rated if request.HasField("rated") else None,
            reservations=[(held.seat, held.subject) for held in request.reserved_seats], caller=caller)
        message = await self.messages.live_match_message(live)
        if not invitation:
            return message
        shown = pb.Match()  # the cached message is every caller's: the code goes on a copy for this answer only
        shown.CopyFrom(message)
        shown.invitation_code = invitation
        return shown

    @unary
    async def Rematch(self, request: pb.RematchRequest, context: Context, caller: Principal) -> pb.Match:
        live = await self.engine.rematch(resource_id(request.name, "matches"), caller)
        return await self.messages.live_match_message(live)

    @unary
    async def ListLeaderboard(self, request: pb.ListLeaderboardRequest, context: Context,
                              caller: Principal) -> pb.ListLeaderboardResponse:
        game_id = resource_id(request.game, "games", "game")
        size = page_size(request.page_size, MATCH_PAGE)
        query = {"leaderboard": game_id}
        after = page_tokens.decode(request.page_token, query, page_tokens.rating_and_subject_position) \
            if request.page_token else None
        rows = await self.engine.leaderboard(game_id, size + 1, after)
        token = page_tokens.encode(query, [rows[size - 1].rating, rows[size - 1].subject]) \
            if len(rows) > size else ""
        return pb.ListLeaderboardResponse(ratings=[player_rating_pb(r) for r in rows[:size]],
                                          next_page_token=token)

    @unary
    async def GetPlayerProfile(self, request: pb.GetPlayerProfileRequest, context: Context,
                               caller: Principal) -> pb.PlayerProfile:
        subject = resource_id(request.name, "players")
        if subject == "me":
            if caller.anonymous:
                raise errors.Unauthenticated("players/me is the signed-in caller: sign in "
                                             "(authorization: Bearer ...).", "SIGN_IN_REQUIRED")
            subject = caller.subject
        rows = await self.engine.player_ratings(subject)
        return pb.PlayerProfile(name=f"players/{subject}", games=sum(r.games for r in rows),
                                wins=sum(r.wins for r in rows), losses=sum(r.losses for r in rows),
                                draws=sum(r.draws for r in rows), ratings=[player_rating_pb(r) for r in rows])

    # ------------------------------------------------------------ matchmaking

    @unary
    async def CreateTicket(self, request: pb.CreateTicketRequest, context: Context, caller: Principal) -> pb.Ticket:
        # Joining a party, the game may be left empty: the party's is taken.
        game_id = resource_id(request.game, "games", "game") if request.game or not request.party else ""
        ticket = await self.engine.create_ticket(
            caller, game_id, seats=request.seats, variant=request.variant, options=from_struct(request.options),
            min_rating=request.min_rating if request.HasField("min_rating") else None,
            max_rating=request.max_rating if request.HasField("max_rating") else None,
            ttl=optional_seconds(request, "ttl") or None, bot_wait=optional_seconds(request, "bot_wait"),
            bot=request.bot, widen_per_second=optional_number(request, "rating_widen_per_second"),
            max_widening=optional_number(request, "rating_max_widening"), party_size=request.party_size,
            party=resource_id(request.party, "parties", "party") if request.party else "")
        return ticket_pb(ticket)

    @unary
    async def ListTickets(self, request: pb.ListTicketsRequest, context: Context,
                          caller: Principal) -> pb.ListTicketsResponse:
        size = page_size(request.page_size, TICKET_PAGE)
        states = set()
        for state in request.states:
            if state not in TICKET_STATE_FROM_PB:
                raise errors.invalid_field("states", f"{state} is not a ticket state (TICKET_STATE_QUEUED, "
                                                     "_MATCHED, _CANCELLED or _EXPIRED).")
            states.add(TICKET_STATE_FROM_PB[state])
        query = {"tickets": sorted(states)}
        after = page_tokens.decode(request.page_token, query, page_tokens.rank_time_and_id_position) \
            if request.page_token else None
        tickets, last = await self.engine.list_tickets(caller, frozenset(states), after, size)
        return pb.ListTicketsResponse(tickets=[ticket_pb(t) for t in tickets],
                                      next_page_token=page_tokens.encode(query, list(last)) if last else "")

    @unary
    async def GetTicket(self, request: pb.GetTicketRequest, context: Context, caller: Principal) -> pb.Ticket:
        return ticket_pb(await self.engine.ticket(resource_id(request.name, "tickets"), caller))

    @streaming
    async def WatchTicket(self, request: pb.WatchTicketRequest, context: Context,
                          caller: Principal) -> AsyncIterator[pb.Ticket]:
        async for ticket in self.engine.watch_ticket(resource_id(request.name, "tickets"), caller):
            yield ticket_pb(ticket)

    @unary
    async def CancelTicket(self, request: pb.CancelTicketRequest, context: Context, caller: Principal) -> pb.Ticket:
        return ticket_pb(await self.engine.cancel_ticket(resource_id(request.name, "tickets"), caller))

    @unary
    async def ListMatches(self, request: pb.ListMatchesRequest, context: Context,
                          caller: Principal) -> pb.ListMatchesResponse:
        size = page_size(request.page_size, MATCH_PAGE)
        game_id = resource_id(request.game, "games", "game") if request.game else None
        if request.status and request.status not in STATUS_FROM_PB:
            raise errors.invalid_field("status", f"unknown match status {request.status}.")
        status = STATUS_FROM_PB.get(request.status)
        player = self._player_filter(request, caller)
        public_only = player is None and not caller.admin  # a user's own listing shows its unlisted and private ones
        if request.my_turn:
            if status not in (None, "active"):
                raise errors.invalid_field("status", "my_turn lists active matches only: leave status unset "
                                                     "or send MATCH_STATUS_ACTIVE.")
            status = "active"
        if len(request.if_none_match) > list_etags.MAX_ETAG_CHARS:
            raise errors.invalid_field("if_none_match", "is not an etag this host issued; send the etag of an "
                                                        "earlier answer unchanged, or nothing.")
        query = {"game": game_id, "status": status, **({"player": player} if player else {}),
                 **({"my_turn": True} if request.my_turn else {}), **({} if public_only else {"every": True})}
        before = page_tokens.decode(request.page_token, query, page_tokens.time_and_id_position) \
            if request.page_token else None
        listing = MatchListing(game_id=game_id, status=status, limit=size + 1, before=before, player=player,
                               my_turn=request.my_turn, public_only=public_only)
        if request.if_none_match:  # a poll: the page's keys name it; the rows are read only if it changed
            keys = await self.engine.list_match_keys(**listing)
            page = [(match_id, version) for match_id, version, _ in keys[:size]]
            turns = await self.engine.player_turns(player, [match_id for match_id, _ in page]) if player else {}
            etag = list_etags.page_etag(query, request.page_token, page, len(keys) > size, turns)
            if request.if_none_match == etag:
                token = page_tokens.encode(query, [keys[size - 1][2], keys[size - 1][0]]) if len(keys) > size else ""
                return pb.ListMatchesResponse(next_page_token=token, etag=etag, not_modified=True)
        records = await self.engine.list_matches(**listing)
        more = len(records) > size
        records = records[:size]
        token = page_tokens.encode(query, [records[-1].create_time, records[-1].id]) if more else ""
        turns = await self.engine.player_turns(player, [r.id for r in records]) if player else {}
        etag = list_etags.page_etag(query, request.page_token, [(r.id, r.version) for r in records], more, turns)
        wanted = asked(request, context)
        matches = [localized_match(await self.messages.listed_match_message(r), r.result,
                                   self._match_locale(r.game_id, wanted)) for r in records]
        if player:
            matches = [user_match_pb(message, record, player, turns.get(record.id))
                       for message, record in zip(matches, records)]
        return pb.ListMatchesResponse(matches=matches, next_page_token=token, etag=etag)

    @staticmethod
    def _player_filter(request: pb.ListMatchesRequest, caller: Principal) -> str | None:
        """The user whose matches ListMatches keeps: the caller (``mine``), or
        ``player`` for an admin; None for every match."""
        if request.mine and request.player:
            raise errors.invalid_field("player", "send mine or player, not both.")
        if request.mine or (request.my_turn and not request.player):
            if caller.anonymous:
                which = "mine" if request.mine else "my_turn"
                raise errors.Unauthenticated(f"{which} lists the signed-in caller's matches: sign in "
                                             "(authorization: Bearer ...).", "AUTHENTICATION_REQUIRED")
            return caller.subject
        if request.player:
            if not caller.admin:
                raise (errors.Unauthenticated if caller.anonymous else errors.PermissionDenied)(
                    "Only an admin may list another user's matches; use mine for your own.", "ROLE_REQUIRED",
                    metadata=errors.metadata_of(role="admin"))
            if len(request.player) > 256:
                raise errors.invalid_field("player", "a user id is at most 256 characters.")
            return request.player
        return None

    @unary
    async def GetMatch(self, request: pb.GetMatchRequest, context: Context, caller: Principal) -> pb.Match:
        match_id = resource_id(request.name, "matches")
        access = Access(caller, "", request.invitation_code)
        wanted = asked(request, context)
        try:
            live = await self.engine.read_match(match_id, access)
        except errors.FailedPrecondition as error:
            if error.reason != RULES_VERSION_UNAVAILABLE:
                raise
            # shown, marked rules_unavailable
            record = await self.engine.stored_match(match_id, access)
            return localized_match(self.messages.record_message(record), record.result,
                                   self.locales.for_game(None, wanted))
        return localized_match(await self.messages.live_match_message(live), live.record.result,
                               self.locales.for_game(live.game, wanted))

    @unary
    async def JoinMatch(self, request: pb.JoinMatchRequest, context: Context,
                        caller: Principal) -> pb.JoinMatchResponse:
        match_id = resource_id(request.name, "matches")
        live, seat, token = await self.engine.join(
            match_id, request.seat if request.HasField("seat") else None, request.player_name, caller,
            request.invitation_code)
        return pb.JoinMatchResponse(match=await self.messages.live_match_message(live), seat=seat,
                                    player_token=token)

    @unary
    async def LeaveMatch(self, request: pb.LeaveMatchRequest, context: Context, caller: Principal) -> pb.Match:
        match_id = await self.seat_calls.seen_match(request.name, request.player_token, caller)
        live = await self.engine.leave(match_id, request.player_token, caller)
        return await self.messages.live_match_message(live)

    # ------------------------------------------------------------ views and moves

    @unary
    async def GetView(self, request: pb.GetViewRequest, context: Context, caller: Principal) -> pb.View:
        wanted = asked(request, context)
        live, seat = await self.engine.watched_match(
            resource_id(request.name, "matches"), Access(caller, request.player_token, request.invitation_code))
        text, svg = request.render.text, request.render.svg
        locale = self.locales.for_game(live.game, wanted)
        if request.HasField("at_version"):
            return await self.messages.past_view_message(live, seat, request.at_version, text, svg, locale)
        return await self.messages.localized_view_message(live, seat, text, svg, locale)

    @unary
    async def SubmitMove(self, request: pb.SubmitMoveRequest, context: Context,
                         caller: Principal) -> pb.SubmitMoveResponse:
        return await self.seat_calls.submit_move(request, caller, asked(request, context))

    # ------------------------------------------------------------ events

    @streaming
    async def WatchMatch(self, request: pb.WatchMatchRequest, context: Context,
                         caller: Principal) -> AsyncIterator[bytes]:
        wanted = asked(request, context)
        live, seat = await self.engine.watched_match(
            resource_id(request.name, "matches"), Access(caller, request.player_token, request.invitation_code))
        text, svg = request.render.text, request.render.svg
        locale = self.locales.for_game(live.game, wanted)
        patched = event_frames.PatchedFrames(self.view_patches) if request.view_patches else None
        sent = 0

        chat_only = request.with_chat and request.chat_only

        async def events() -> AsyncIterator[bytes]:
            async for batch in self.engine.watch(live, request.after_version, seat, asked_kinds(text, svg)):
                if chat_only:  # followed only to end with the match
                    continue
                for event in batch:  # encoded once per viewer and shared by every watcher (event_frames.py)
                    yield await event_frames.match_event_bytes(self.messages, live, event, seat, text, svg, locale,
                                                               patched)

        async def chat(batches: AsyncIterator[list[pb.MatchEvent]]) -> AsyncIterator[bytes]:
            async for event in flattened(batches):
                yield event.SerializeToString()

        try:
            if not request.with_chat:
                async for frame in events():
                    yield frame
                    sent += 1
                return
            chat_batches = self.chat.events(live, seat, caller, request.chat_after_sequence)
            for event in await anext(chat_batches):  # the backlog first: a match that is over sends it too
                yield event.SerializeToString()
            async for frame in merged(events(), chat(chat_batches)):
                yield frame
                sent += 1
        finally:  # also when the watcher cancels: operators see streams end
            live.log.debug("watch ended", seat=seat, events_sent=sent)

    @bidirectional
    async def Session(self, requests: AsyncIterable[pb.SessionRequest | Undecodable], context: Context,
                      caller: Principal) -> AsyncIterator[pb.SessionEvent | bytes]:
        session = SessionStream(self.engine, self.gate, self.messages, self.seat_calls, caller,
                                header_languages(context), self.chat, self.view_patches)
        async for message in session.run(requests):
            yield message

    @bidirectional
    async def ServeAgent(self, requests: AsyncIterable[pb.AgentRequest | Undecodable], context: Context,
                         caller: Principal) -> AsyncIterator[pb.AgentEvent]:
        async for message in AgentStream(self.engine, self.gate, self.messages, caller).run(requests):
            yield message

    @unary
    async def GetMatchLog(self, request: pb.GetMatchLogRequest, context: Context, caller: Principal) -> pb.MatchLog:
        wanted = asked(request, context)
        live, seat = await self.engine.watched_match(
            resource_id(request.name, "matches"), Access(caller, request.player_token, request.invitation_code))
        locale = self.locales.for_game(live.game, wanted)
        size = page_size(request.page_size, LOG_PAGE)
        query = {"log": live.id}
        after = page_tokens.decode(request.page_token, query, page_tokens.version_position(live.version)) \
            if request.page_token else 0
        # One page more than asked shows whether another follows; the live
        # version bounds it (a replica's store may be ahead of this host).
        events = [e for e in await self.engine.log_events(live, after, size + 1) if e["version"] <= live.version]
        token = page_tokens.encode(query, events[size - 1]["version"]) if len(events) > size else ""
        record = live.record
        message = pb.MatchLog(match=f"matches/{record.id}", game=f"games/{record.game_id}",
                              rules_version=record.rules_version, seats=len(record.seats),
                              options=to_struct(record.options), complete=live.over,
                              events=await self.messages.event_messages(live, events[:size], seat, locale),
                              result=result_pb(record.result), next_page_token=token)
        if locale is not None:
            message.locale = locale.tag
            if record.result is not None and not locale.english:
                message.result.summary = locale.say(record.result["summary"], record.result.get("summary_text"))
        if record.seed_commitment is not None:
            message.seed_commitment = record.seed_commitment
        if live.over:  # revealed only now: while it runs, the seed would tell what chance holds
            message.seed = record.seed
            if record.seed_salt is not None:
                message.seed_salt = record.seed_salt
        if not request.page_token:
            message.chat.extend(await self.chat.log(live, seat, caller))
        return message

    # ------------------------------------------------------------ undo

    @unary
    async def AskUndo(self, request: pb.AskUndoRequest, context: Context, caller: Principal) -> pb.UndoResponse:
        return await self.seat_calls.ask_undo(request, caller)

    @unary
    async def AnswerUndo(self, request: pb.AnswerUndoRequest, context: Context,
                         caller: Principal) -> pb.UndoResponse:
        return await self.seat_calls.answer_undo(request, caller)

    @unary
    async def WithdrawUndo(self, request: pb.WithdrawUndoRequest, context: Context,
                           caller: Principal) -> pb.UndoResponse:
        return await self.seat_calls.withdraw_undo(request, caller)

    # ------------------------------------------------------------ private matches

    @unary
    async def RevokeInvitation(self, request: pb.RevokeInvitationRequest, context: Context,
                               caller: Principal) -> pb.Match:
        live = await self.engine.revoke_invitation(resource_id(request.name, "matches"), caller)
        return await self.messages.live_match_message(live)

    # ------------------------------------------------------------ endings

    @unary
    async def Resign(self, request: pb.ResignRequest, context: Context, caller: Principal) -> pb.Match:
        return await self.seat_calls.resign(request, caller)

    @unary
    async def OfferDraw(self, request: pb.OfferDrawRequest, context: Context, caller: Principal) -> pb.DrawResponse:
        return await self.seat_calls.offer_draw(request, caller)

    @unary
    async def AnswerDraw(self, request: pb.AnswerDrawRequest, context: Context,
                         caller: Principal) -> pb.DrawResponse:
        return await self.seat_calls.answer_draw(request, caller)

    @unary
    async def WithdrawDraw(self, request: pb.WithdrawDrawRequest, context: Context,
                           caller: Principal) -> pb.DrawResponse:
        return await self.seat_calls.withdraw_draw(request, caller)

    @unary
    async def ClaimVictory(self, request: pb.ClaimVictoryRequest, context: Context, caller: Principal) -> pb.Match:
        return await self.seat_calls.claim_victory(request, caller)

    # ------------------------------------------------------------ identity

    @unary
    async def GetIdentity(self, request: pb.GetIdentityRequest, context: Context, caller: Principal) -> pb.Identity:
        return pb.Identity(subject=caller.subject, display_name=caller.display_name, roles=sorted(caller.roles),
                           method=caller.method)
