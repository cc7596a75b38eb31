"""The gRPC servicer: protobuf in, engine calls, protobuf out.

No game logic and no storage logic here. Engine errors become status codes
with google.rpc details (see ``status.py``).
"""

from __future__ import annotations

import functools
import json
import struct
import time

import grpc
import structlog
from google.protobuf import duration_pb2, timestamp_pb2
from google.protobuf.message import DecodeError

from gamehost.client.structs import from_struct, to_struct
from gamehost.host.engine import clocks
from gamehost.host import errors
from gamehost.host.rpc import event_frames, limits, list_etags, page_tokens
from gamehost.host.codec import struct_encoding
from gamehost.host.bots import BOT_CATALOG
from gamehost.host.engine.match_engine import MatchEngine, ViewData
from gamehost.host.engine.renderings import asked_kinds
from gamehost.host.engine.views import EncodedView
from gamehost.host.engine.directory import RULES_VERSION_UNAVAILABLE
from gamehost.host.engine.rematches import REMATCH_REQUEST_PREFIX
from gamehost.host.engine.undo import UndoResult
from gamehost.host.engine.ticket_matching import MATCHMAKING_REQUEST_PREFIX, rating_range
from gamehost.host.rpc.gate import Gate
from gamehost.host.codec.legal_move_encodings import LegalMoveEncodings
from gamehost.host.engine.live import LiveMatch
from gamehost.host.rpc.session import SessionStream
from gamehost.host.rpc.status import to_grpc_status
from gamehost.host.store.base import MatchRecord, TicketRecord
from gamehost.host.engine.undo_asks import UndoAsk
from gamehost.host.rpc.grpc_handlers import send_status
from gamehost.v1 import gamehost_pb2 as pb
from gamehost.v1 import gamehost_pb2_grpc as pb_grpc
from gamehost.sdk.rules import offers_undo

log = structlog.get_logger("gamehost.service")

STATUS_TO_PB = {"open": pb.MATCH_STATUS_OPEN, "active": pb.MATCH_STATUS_ACTIVE,
                "finished": pb.MATCH_STATUS_FINISHED, "abandoned": pb.MATCH_STATUS_ABANDONED,
                "aborted": pb.MATCH_STATUS_ABORTED, "suspended": pb.MATCH_STATUS_SUSPENDED}
STATUS_FROM_PB = {value: key for key, value in STATUS_TO_PB.items()}
SEAT_KIND_TO_PB = {"open": pb.SEAT_KIND_OPEN, "human": pb.SEAT_KIND_HUMAN, "bot": pb.SEAT_KIND_BOT}
EVENT_KIND_TO_PB = {"joined": pb.EVENT_KIND_JOINED, "left": pb.EVENT_KIND_LEFT, "started": pb.EVENT_KIND_STARTED,
                    "moved": pb.EVENT_KIND_MOVED, "finished": pb.EVENT_KIND_FINISHED,
                    "abandoned": pb.EVENT_KIND_ABANDONED, "aborted": pb.EVENT_KIND_ABORTED,
                    "suspended": pb.EVENT_KIND_SUSPENDED, "resumed": pb.EVENT_KIND_RESUMED,
                    "bot_assigned": pb.EVENT_KIND_BOT_ASSIGNED, "clock_ran_out": pb.EVENT_KIND_CLOCK_RAN_OUT,
                    "undo_asked": pb.EVENT_KIND_UNDO_ASKED, "undo_accepted": pb.EVENT_KIND_UNDO_ACCEPTED,
                    "undo_refused": pb.EVENT_KIND_UNDO_REFUSED, "undo_withdrawn": pb.EVENT_KIND_UNDO_WITHDRAWN,
                    "undone": pb.EVENT_KIND_UNDONE, "undo_lapsed": pb.EVENT_KIND_UNDO_LAPSED}
TICKET_STATE_TO_PB = {"queued": pb.TICKET_STATE_QUEUED, "matched": pb.TICKET_STATE_MATCHED,
                      "cancelled": pb.TICKET_STATE_CANCELLED, "expired": pb.TICKET_STATE_EXPIRED}
TICKET_STATE_FROM_PB = {value: key for key, value in TICKET_STATE_TO_PB.items()}
VIEW_STATE_TAG = b"\x32"  # View.state: field 6, length-delimited
_state_text = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False).encode
GAME_PAGE = (100, 1000)    # default and maximum page sizes
MATCH_PAGE = (50, 500)
TICKET_PAGE = (50, 100)


async def _abort(context, method_name: str, error: Exception):
    """End the call with the status for ``error``; an unexpected one is logged
    and becomes INTERNAL without internals in the message."""
    if not isinstance(error, errors.HostError):
        log.exception("rpc failed", method=method_name, error=str(error))
        error = errors.Internal(f"The host failed on {method_name}: {type(error).__name__}. It has been logged.",
                                "HOST_ERROR")
    await send_status(context, to_grpc_status(error))  # quiet if the caller has gone


def unary(method):
    """Admit the caller through the gate, then run the method with it;
    translate the errors into statuses."""
    @functools.wraps(method)
    async def wrapper(self, request, context):
        try:
            caller = await self.gate.admit(method.__name__, request, context)
            return await method(self, request, context, caller)
        except grpc.aio.AbortError:
            raise
        except Exception as error:
            await _abort(context, method.__name__, error)
    return wrapper


def streaming(method):
    """The same for a server-streaming method."""
    return _streamed(method, lambda request: request)


def bidirectional(method):
    """The same for a stream of requests: the caller is admitted once, when
    the stream opens (each message then passes ``Gate.admit_message``)."""
    return _streamed(method, lambda requests: pb.SessionRequest())


def _streamed(method, admitted_as):
    """``admitted_as(request)``: the message the gate checks to admit the call."""
    @functools.wraps(method)
    async def wrapper(self, request, context):
        try:
            caller = await self.gate.admit(method.__name__, admitted_as(request), context)
            async for message in method(self, request, context, caller):
                yield message
        except grpc.aio.AbortError:
            raise
        except Exception as error:
            await _abort(context, method.__name__, error)
    return wrapper


def resource_id(name: str, collection: str, field: str = "name") -> str:
    prefix = f"{collection}/"
    if not name.startswith(prefix) or len(name) == len(prefix) or "/" in name[len(prefix):]:
        raise errors.invalid_field(
            field, f"expected a resource name like '{collection}/{{id}}', got {limits.shown(name)}.", "INVALID_NAME")
    return name[len(prefix):]


def timestamp(seconds: float) -> timestamp_pb2.Timestamp:
    stamp = timestamp_pb2.Timestamp()
    stamp.FromNanoseconds(int(seconds * 1e9))
    return stamp


def clock_pb(record: MatchRecord, to_move) -> pb.ChessClock | None:
    clock = record.clock
    if clock is None:
        return None
    running = [s for s in to_move if record.seats[s].kind == "human"] if record.status == "active" else []
    due = clocks.deadline(clock, record.update_time, running)
    return pb.ChessClock(initial=duration(clock["initial"]), increment=duration(clock["increment"]),
                         remaining=[duration(max(0.0, left)) for left in clock["remaining"]],
                         since=timestamp(clocks.since(clock, record.update_time)), running=running,
                         deadline=None if due is None else timestamp(due),
                         per_move=duration(clock["per_move"]) if clock.get("per_move") else None)


def duration(seconds: float) -> duration_pb2.Duration:
    span = duration_pb2.Duration()
    span.FromNanoseconds(int(seconds * 1e9))
    return span


def page_size(requested: int, sizes: tuple[int, int]) -> int:
    if requested < 0:
        raise errors.invalid_field("page_size", "must not be negative.")
    return min(requested or sizes[0], sizes[1])


def player_rating_pb(rating) -> pb.PlayerRating:
    return pb.PlayerRating(player=f"players/{rating.subject}", player_name=rating.player_name,
                           game=f"games/{rating.game_id}", rating=rating.rating, mu=rating.mu, sigma=rating.sigma,
                           games=rating.games, wins=rating.wins, losses=rating.losses, draws=rating.draws)


def ticket_pb(ticket: TicketRecord) -> pb.Ticket:
    matched = ticket.state == "matched"
    return pb.Ticket(
        name=f"tickets/{ticket.id}", game=f"games/{ticket.game_id}", seats=ticket.seats,
        options=to_struct(ticket.options), state=TICKET_STATE_TO_PB[ticket.state], rating=ticket.rating,
        min_rating=ticket.min_rating, max_rating=ticket.max_rating,
        bot_wait=None if ticket.bot_wait is None else duration(ticket.bot_wait), bot=ticket.bot,
        create_time=timestamp(ticket.create_time), expire_time=timestamp(ticket.expire_time),
        match=f"matches/{ticket.match_id}" if matched else "", seat=ticket.seat if matched else -1,
        update_time=timestamp(ticket.update_time), **widening_fields(ticket),
        party=f"parties/{ticket.party}" if ticket.party else "", party_size=ticket.party_size,
        party_queued=ticket.party_queued)


def widening_fields(ticket: TicketRecord) -> dict:
    """Part "mmextras": a ticket's widening and its range as widened by
    now (queued) or by when it left the queue."""
    low, high = rating_range(ticket, time.time() if ticket.state == "queued" else ticket.update_time)
    return {"rating_widen_per_second": ticket.widen_per_second, "rating_max_widening": ticket.max_widening,
            "current_min_rating": low, "current_max_rating": high}


def optional_number(request, field: str) -> float | None:
    """An optional number field, None when unset."""
    return getattr(request, field) if request.HasField(field) else None


def optional_seconds(request, field: str) -> float | None:
    """A Duration field in seconds, None when unset; a negative one is refused."""
    if not request.HasField(field):
        return None
    seconds = getattr(request, field).ToNanoseconds() / 1e9
    if seconds < 0:
        raise errors.invalid_field(field, f"must not be negative, not {seconds:g} s.")
    return seconds


def legal_move(move) -> pb.LegalMove:
    """A legal move on the wire, with its parts when the plugin offers it in parts."""
    return pb.LegalMove(id=move.id, label=move.label, move=to_struct(dict(move.args)),
                        parts=[pb.MovePart(id=part.id, label=part.label) for part in move.parts])


def view_state(message: pb.View, state, live: LiveMatch | None = None) -> None:
    """Set the View's state: encoded in one pass (struct_encoding.py), or by
    protobuf's ``Struct.update`` for what that pass does not take (a value
    of another type, nesting beyond protobuf's parse depth). With ``live``,
    viewers whose states have the same JSON text (every viewer, in a game
    without secrets) share one encoding in its per-version cache: the text,
    not ``==``, decides, since ``True == 1`` but a Struct tells them apart."""
    try:
        if live is None:
            field = struct_encoding.struct_field(VIEW_STATE_TAG, state)
        else:
            field = live.cache.view_state_field(_state_text(state),
                                               lambda: struct_encoding.struct_field(VIEW_STATE_TAG, state))
        message.MergeFromString(field)
    except (ValueError, TypeError, OverflowError, RecursionError, DecodeError, struct.error):
        # NotPlainJson is a ValueError; an int beyond a double is a struct.error
        message.ClearField("state")  # a merge that failed half-way
        message.MergeFrom(pb.View(state=to_struct(dict(state))))  # as before: it raises where it raised


def result_pb(result: dict | None) -> pb.Result | None:
    if result is None:
        return None
    return pb.Result(scores=result["scores"], ranking=result["ranking"], winners=result["winners"],
                     summary=result["summary"])


class GameHostService(pb_grpc.GameHostServicer):
    def __init__(self, engine: MatchEngine, gate: Gate) -> None:
        self.engine = engine
        self.gate = gate
        self._games = self._catalog_messages()
        self._legal_moves = LegalMoveEncodings(lambda move: legal_move(move).SerializeToString())

    def _catalog_messages(self) -> list[pb.Game]:
        messages = []
        for game_id in sorted(self.engine.catalog.games):
            entry = self.engine.catalog.games[game_id]
            game = entry.game
            report = next((r for r in self.engine.catalog.reports if r.name == entry.plugin), None)
            plugin = " ".join(filter(None, [report.distribution or report.name, report.version])) if report else ""
            messages.append(pb.Game(
                name=f"games/{game.id}", id=game.id, title=game.title, summary=game.summary,
                rules_version=game.version, min_players=game.min_players, max_players=game.max_players,
                options_schema=to_struct(dict(game.options_schema)), default_options=to_struct(game.default_options()),
                variants=[pb.Variant(id=v.id, title=v.title, description=v.description,
                                     options=to_struct(dict(v.options))) for v in game.variants],
                hidden_information=game.hidden_information, chance=game.chance, plugin=plugin,
                bots=self._bots_pb(), undo=offers_undo(game)))
        return messages

    def _bots_pb(self) -> list:
        """The built-in bots (each plays every game), then the plugins' bots by name."""
        known = {name for name, _, _ in BOT_CATALOG}
        return [pb.GameBot(name=name, title=title, level=level) for name, title, level in BOT_CATALOG] + \
            [pb.GameBot(name=name, title=name) for name in sorted(self.engine.bots) if name not in known]

    # ------------------------------------------------------------ catalog

    @unary
    async def ListGames(self, request, context, caller):
        size = page_size(request.page_size, GAME_PAGE)
        start = page_tokens.decode(request.page_token, {}, page_tokens.offset_position(len(self._games))) \
            if request.page_token else 0
        page = self._games[start:start + size]
        more = start + size < len(self._games)
        return pb.ListGamesResponse(games=page, next_page_token=page_tokens.encode({}, start + size) if more else "")

    @unary
    async def GetGame(self, request, context, caller):
        game_id = resource_id(request.name, "games")
        self.engine.game_entry(game_id)
        return next(game for game in self._games if game.id == game_id)

    # ------------------------------------------------------------ matches

    def _match_pb(self, record: MatchRecord, to_move=()) -> pb.Match:
        timed = record.turn_timeout > 0
        player_to_move = timed and any(record.seats[seat].kind == "human" for seat in to_move)
        return pb.Match(
            name=f"matches/{record.id}", game=f"games/{record.game_id}", rules_version=record.rules_version,
            status=STATUS_TO_PB[record.status], version=record.version,
            seats=[pb.Seat(index=s.index, kind=SEAT_KIND_TO_PB[s.kind], player_name=s.player_name, bot=s.bot,
                           verified=bool(s.subject), away_until=timestamp(s.away_until) if s.away_until else None)
                   for s in record.seats],
            options=to_struct(record.options), to_move=to_move, result=result_pb(record.result),
            create_time=timestamp(record.create_time), update_time=timestamp(record.update_time),
            turn_timeout=duration(record.turn_timeout) if timed else None,
            turn_deadline=timestamp(record.update_time + record.turn_timeout) if player_to_move else None,
            seed_chosen=record.seed_chosen,
            status_detail=pb.StatusDetail(**record.status_detail) if record.status_detail else None,
            rules_unavailable=not self.engine.rules_available(record),
            clock=clock_pb(record, to_move),
            absent_grace=None if record.absent_grace is None else duration(record.absent_grace))

    async def _live_match_pb(self, live: LiveMatch) -> pb.Match:
        async def build() -> pb.Match:
            message = self._match_pb(live.record, await self.engine.to_move(live))
            ask = self.engine.undo_ask(live)  # kept with the version: clients also check its expire_time
            if ask is not None:
                message.undo_ask.CopyFrom(self._undo_ask_pb(live, ask))
            return message

        return await live.cache.match_message(build)

    async def match_message(self, match: LiveMatch | MatchRecord) -> pb.Match:
        """The Match message of ``match`` as GameHost answers it (for the admin
        service and Session), built once per version: do not modify it. A
        stored row is a match whose rules this host lacks, shown as GetMatch
        shows it."""
        if isinstance(match, MatchRecord):
            return self._match_pb(match)
        return await self._live_match_pb(match)

    @unary
    async def CreateMatch(self, request, context, caller):
        game_id = resource_id(request.game, "games", "game")
        if request.request_id.startswith(REMATCH_REQUEST_PREFIX):
            raise errors.invalid_field("request_id", f"request ids starting {REMATCH_REQUEST_PREFIX!r} name "
                                                     "rematches (Rematch): choose another.")
        if request.request_id.startswith(MATCHMAKING_REQUEST_PREFIX):
            raise errors.invalid_field("request_id", f"request ids starting {MATCHMAKING_REQUEST_PREFIX!r} name "
                                                     "matches made from tickets (CreateTicket): choose another.")
        live = await self.engine.create_match(
            game_id, seats=request.seats, options=from_struct(request.options),
            seed=request.seed if request.HasField("seed") else None, bot_seats=tuple(request.bot_seats),
            request_id=request.request_id, variant=request.variant, bot=request.bot,
            turn_timeout=request.turn_timeout.ToNanoseconds() / 1e9,
            clock_initial=request.clock_initial.ToNanoseconds() / 1e9,
            clock_increment=request.clock_increment.ToNanoseconds() / 1e9,
            clock_per_move=request.correspondence_move_time.ToNanoseconds() / 1e9,
            absent_grace=request.absent_grace.ToNanoseconds() / 1e9 if request.HasField("absent_grace") else None,
            caller=caller)
        return await self._live_match_pb(live)

    @unary
    async def Rematch(self, request, context, caller):
        live = await self.engine.rematch(resource_id(request.name, "matches"), caller)
        return await self._live_match_pb(live)

    @unary
    async def ListLeaderboard(self, request, context, caller):
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
    async def GetPlayerProfile(self, request, context, caller):
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

    # ------------------------------------------------------------ matchmaking (issue 17)

    @unary
    async def CreateTicket(self, request, context, caller):
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
    async def ListTickets(self, request, context, caller):
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
    async def GetTicket(self, request, context, caller):
        return ticket_pb(await self.engine.ticket(resource_id(request.name, "tickets"), caller))

    @streaming
    async def WatchTicket(self, request, context, caller):
        async for ticket in self.engine.watch_ticket(resource_id(request.name, "tickets"), caller):
            yield ticket_pb(ticket)

    @unary
    async def CancelTicket(self, request, context, caller):
        return ticket_pb(await self.engine.cancel_ticket(resource_id(request.name, "tickets"), caller))

    @unary
    async def ListMatches(self, request, context, caller):
        size = page_size(request.page_size, MATCH_PAGE)
        game_id = resource_id(request.game, "games", "game") if request.game else None
        if request.status and request.status not in STATUS_FROM_PB:
            raise errors.invalid_field("status", f"unknown match status {request.status}.")
        status = STATUS_FROM_PB.get(request.status)
        player = self._player_filter(request, caller)
        if request.my_turn:
            if status not in (None, "active"):
                raise errors.invalid_field("status", "my_turn lists active matches only: leave status unset "
                                                     "or send MATCH_STATUS_ACTIVE.")
            status = "active"
        if len(request.if_none_match) > list_etags.MAX_ETAG_CHARS:
            raise errors.invalid_field("if_none_match", "is not an etag this host issued; send the etag of an "
                                                        "earlier answer unchanged, or nothing.")
        query = {"game": game_id, "status": status, **({"player": player} if player else {}),
                 **({"my_turn": True} if request.my_turn else {})}
        before = page_tokens.decode(request.page_token, query, page_tokens.time_and_id_position) \
            if request.page_token else None
        listing = {"game_id": game_id, "status": status, "limit": size + 1, "before": before, "player": player,
                   "my_turn": request.my_turn}
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
        matches = [await self._listed_match_pb(r) for r in records]
        if player:
            matches = [self._user_match_pb(message, record, player, turns.get(record.id))
                       for message, record in zip(matches, records)]
        return pb.ListMatchesResponse(matches=matches, next_page_token=token, etag=etag)

    @staticmethod
    def _user_match_pb(shared: pb.Match, record: MatchRecord, user: str, turn_since: float | None) -> pb.Match:
        """A listed match marked for the user whose matches are listed: their
        seats, and since when it is their turn (a copy: ``shared`` is cached)."""
        message = pb.Match()
        message.CopyFrom(shared)
        message.user_seats.extend(seat.index for seat in record.seats if seat.subject == user)
        if turn_since is not None:
            message.user_turn_since.CopyFrom(timestamp(turn_since))
        return message

    @staticmethod
    def _player_filter(request, caller) -> str | None:
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

    async def _listed_match_pb(self, record: MatchRecord) -> pb.Match:
        live = self.engine.held(record.id)
        if live is None or live.version < record.version:  # another replica moved it on
            return self._match_pb(record)
        try:
            return await self._live_match_pb(live)
        except errors.HostError:  # its rules are failing: list it without the seats to move
            return self._match_pb(live.record)

    @unary
    async def GetMatch(self, request, context, caller):
        match_id = resource_id(request.name, "matches")
        try:
            live = await self.engine.read_match(match_id)
        except errors.FailedPrecondition as error:
            if error.reason != RULES_VERSION_UNAVAILABLE:
                raise
            return self._match_pb(await self.engine.stored_match(match_id))  # shown, marked rules_unavailable
        return await self._live_match_pb(live)

    @unary
    async def JoinMatch(self, request, context, caller):
        match_id = resource_id(request.name, "matches")
        live, seat, token = await self.engine.join(
            match_id, request.seat if request.HasField("seat") else None, request.player_name, caller)
        return pb.JoinMatchResponse(match=await self._live_match_pb(live), seat=seat, player_token=token)

    @unary
    async def LeaveMatch(self, request, context, caller):
        live = await self.engine.leave(resource_id(request.name, "matches"), request.player_token, caller)
        return await self._live_match_pb(live)

    # ------------------------------------------------------------ views

    async def _view_pb(self, live: LiveMatch, seat: int | None, render: pb.RenderOptions) -> pb.View:
        return await self.view_message(live, seat, render.text, render.svg)

    async def view_message(self, live: LiveMatch, seat: int | None, text: bool, svg: bool) -> pb.View:
        """``seat``'s View now (None: a spectator's), built once per version; do not modify it."""
        async def build() -> pb.View:
            if not text and not svg:
                message = await self._encoded_view_message(live, seat)
            else:
                message = await self._rendered_view_message(live, seat, text, svg)
            if message is not None:
                return message
            view: ViewData = await self.engine.view(live, seat)
            message = pb.View(
                match=f"matches/{live.id}", version=view.version, status=STATUS_TO_PB[view.status],
                seat=-1 if seat is None else seat, to_move=view.to_move,
                result=result_pb(view.result),
                text=await self.engine.render(live, view, "text") if text else "",
                svg=await self.engine.render(live, view, "svg") if svg else "")
            view_state(message, view.state, live)
            message.MergeFromString(self._legal_moves.view_field(view.moves))  # encodings shared between views
            return message

        return await live.cache.view_message(seat, text, svg, build)

    async def _encoded_view_message(self, live: LiveMatch, seat: int | None) -> pb.View | None:
        """The View from the fields the rules worker encoded (view_bytes.py),
        merged by protobuf's C parser; None when there are none, or the
        parser refuses them (nesting beyond its depth): the View is then
        built from the view's data, which raises where it raised before."""
        encoded: EncodedView | None = await self.engine.encoded_view(live, seat)
        return None if encoded is None else self._encoded_view_pb(live, seat, encoded)

    def _encoded_view_pb(self, live: LiveMatch, seat: int | None, encoded: EncodedView) -> pb.View | None:
        message = self.view_header(live, encoded)
        try:
            message.MergeFromString(encoded.fields)
        except DecodeError:
            live.log.warning("encoded view refused by protobuf's parser: built from the view", seat=seat)
            return None
        return message

    @staticmethod
    def view_header(live: LiveMatch, encoded: EncodedView) -> pb.View:
        """The View's fields the rules worker does not encode (all but state and legal moves)."""
        return pb.View(match=f"matches/{live.id}", version=encoded.version, status=STATUS_TO_PB[encoded.status],
                       seat=-1 if encoded.seat is None else encoded.seat, to_move=encoded.to_move,
                       result=result_pb(encoded.result))

    async def _rendered_view_message(self, live: LiveMatch, seat: int | None, text: bool, svg: bool
                                     ) -> pb.View | None:
        """The View from the worker's fields and its renderings, made in the
        worker from the viewer's view of the same state
        (engine_renderings.py); None where the View is built and rendered
        from the view's data (rules run in the host, a view the encoding
        does not take)."""
        if not self.engine.renders_in_workers(live):
            return None
        made = await self.engine.rendered_view(live, seat, asked_kinds(text, svg))
        if made is None:
            return None
        message = self._encoded_view_pb(live, seat, made.encoded)
        if message is not None:
            message.text, message.svg = made.texts.get("text", ""), made.texts.get("svg", "")
        return message

    @unary
    async def GetView(self, request, context, caller):
        live = await self.engine.read_match(resource_id(request.name, "matches"))
        seat = self.engine.viewer_of(live, request.player_token, caller)
        if request.HasField("at_version"):
            return await self._past_view_pb(live, seat, request.at_version, request.render)
        return await self._view_pb(live, seat, request.render)

    async def _past_view_pb(self, live: LiveMatch, seat: int | None, version: int,
                            render: pb.RenderOptions) -> pb.View:
        view: ViewData = await self.engine.view_at(live, seat, version)
        return pb.View(
            match=f"matches/{live.id}", version=view.version, status=STATUS_TO_PB[view.status],
            seat=-1 if seat is None else seat, to_move=view.to_move, state=to_struct(dict(view.state)),
            result=result_pb(view.result),
            text=await self.engine.render_at(live, view, "text") if render.text else "",
            svg=await self.engine.render_at(live, view, "svg") if render.svg else "")

    @unary
    async def SubmitMove(self, request, context, caller):
        return await self.submit_move(request, caller)

    async def submit_move(self, request: pb.SubmitMoveRequest, caller) -> pb.SubmitMoveResponse:
        """SubmitMove's answer (also a Session's answer to a move)."""
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
            answer.view.CopyFrom(await self._view_pb(await self.engine.live_match(match_id), result.seat,
                                                     request.render))
        return answer

    # ------------------------------------------------------------ events

    async def event_message(self, live: LiveMatch, event: dict, viewer: int | None) -> pb.MatchEvent:
        return self.shown_event_message(await self.engine.public_event(live, event, viewer))

    @staticmethod
    def shown_event_message(shown: dict) -> pb.MatchEvent:
        """The MatchEvent of an event as a viewer may see it (``public_event``), without the view."""
        message = pb.MatchEvent(version=shown["version"], kind=EVENT_KIND_TO_PB[shown["kind"]],
                                time=timestamp(shown["time"]), seat=shown["seat"],
                                label=shown.get("label", ""), timed_out=shown.get("timed_out", False),
                                reason=shown.get("reason", ""))
        if shown.get("move") is not None:
            message.move.CopyFrom(to_struct(shown["move"]))
        if "undoes" in shown:
            message.undoes = shown["undoes"]
        if "expire_time" in shown:
            message.undo_expire_time.CopyFrom(timestamp(shown["expire_time"]))
        return message

    @streaming
    async def WatchMatch(self, request, context, caller):
        live = await self.engine.read_match(resource_id(request.name, "matches"))
        seat = self.engine.viewer_of(live, request.player_token, caller)
        text, svg = request.render.text, request.render.svg
        sent = 0
        try:
            async for batch in self.engine.watch(live, request.after_version, seat, asked_kinds(text, svg)):
                for event in batch:  # encoded once per viewer and shared by every watcher (event_frames.py)
                    yield await event_frames.match_event_bytes(self, live, event, seat, text, svg)
                    sent += 1
        finally:  # also when the watcher cancels: operators see streams end
            live.log.debug("watch ended", seat=seat, events_sent=sent)

    @bidirectional
    async def Session(self, requests, context, caller):
        async for message in SessionStream(self, caller).run(requests):
            yield message

    @unary
    async def GetMatchLog(self, request, context, caller):
        live = await self.engine.read_match(resource_id(request.name, "matches"))
        seat = self.engine.viewer_of(live, request.player_token, caller)
        events = await self.engine.log_events(live)
        record = live.record
        message = pb.MatchLog(match=f"matches/{record.id}", game=f"games/{record.game_id}",
                              rules_version=record.rules_version, seats=len(record.seats),
                              options=to_struct(record.options), complete=live.over,
                              events=[self.shown_event_message(shown)
                                      for shown in await self.engine.public_events(live, events, seat)],
                              result=result_pb(record.result))
        if live.over:
            message.seed = record.seed
        return message

    # ------------------------------------------------------------ undo

    @unary
    async def AskUndo(self, request, context, caller):
        return await self.ask_undo(request, caller)

    @unary
    async def AnswerUndo(self, request, context, caller):
        return await self.answer_undo(request, caller)

    @unary
    async def WithdrawUndo(self, request, context, caller):
        return await self.withdraw_undo(request, caller)

    # The undo calls' answers (also a Session's answers to its undo requests).

    async def ask_undo(self, request: pb.AskUndoRequest, caller) -> pb.UndoResponse:
        match_id = resource_id(request.name, "matches")
        return await self._undo_pb(match_id, await self.engine.ask_undo(match_id, request.player_token, caller))

    async def answer_undo(self, request: pb.AnswerUndoRequest, caller) -> pb.UndoResponse:
        match_id = resource_id(request.name, "matches")
        result = await self.engine.answer_undo(
            match_id, request.player_token, request.accept,
            request.ask_version if request.HasField("ask_version") else None, caller)
        return await self._undo_pb(match_id, result)

    async def withdraw_undo(self, request: pb.WithdrawUndoRequest, caller) -> pb.UndoResponse:
        match_id = resource_id(request.name, "matches")
        return await self._undo_pb(match_id, await self.engine.withdraw_undo(match_id, request.player_token, caller))

    async def _undo_pb(self, match_id: str, result: UndoResult) -> pb.UndoResponse:
        answer = pb.UndoResponse(version=result.version, undone=result.undone)
        if result.ask is not None:
            answer.ask.CopyFrom(self._undo_ask_pb(await self.engine.live_match(match_id), result.ask))
        return answer

    @staticmethod
    def _undo_ask_pb(live: LiveMatch, ask: UndoAsk) -> pb.UndoAsk:
        return pb.UndoAsk(seat=ask.seat, undoes=ask.undoes, ask_version=ask.version,
                          expire_time=timestamp(ask.expire_time), accepted=ask.accepted,
                          waiting=ask.waiting(live.record.seats))

    # ------------------------------------------------------------ identity

    @unary
    async def GetIdentity(self, request, context, caller):
        return pb.Identity(subject=caller.subject, display_name=caller.display_name, roles=sorted(caller.roles),
                           method=caller.method)
