"""The client: one method per RPC, plain arguments, protobuf answers."""

from __future__ import annotations

import json
import uuid
from typing import Any, Iterator, Mapping, Sequence

import grpc

from gamehost.client.errors import GameHostError
from gamehost.client.follower import MatchFollower, RetryPolicy
from gamehost.client.move_requests import move_request
from gamehost.client.access import SpectatorsPolicy, VisibilityLevel, spectators_value, visibility_value
from gamehost.client.names import game_name, match_name, ticket_name
from gamehost.client.session import GameSession
from gamehost.client.structs import to_struct
from gamehost.v1 import gamehost_pb2 as pb
from gamehost.v1 import gamehost_pb2_grpc as pb_grpc

__all__ = ["GameHostClient", "GameHostError", "game_name", "match_name", "move_request", "ticket_name"]


class GameHostClient:
    def __init__(self, target: str = "127.0.0.1:50051", *, channel: grpc.Channel | None = None,
                 timeout: float | None = 30.0, bearer_token: str = "", tls: bool = False,
                 root_certificates: bytes | None = None, locale: str = "") -> None:
        """``bearer_token``: a JWT from the identity provider or an API key,
        sent with every call as ``authorization: Bearer ...``; "" calls
        anonymously. ``tls``: a secure channel, trusting the system's roots,
        or ``root_certificates`` (PEM) when given (a host's own CA).
        ``locale``: a BCP 47 tag ("fr", "fr-CH") asked on every request that
        returns words; the host answers in the best language it has for it
        (English when none fits) and names it in the answer's ``locale``;
        "" asks nothing (English, as before)."""
        if channel is None:
            secure = tls or root_certificates is not None
            channel = (grpc.secure_channel(target, grpc.ssl_channel_credentials(root_certificates)) if secure
                       else grpc.insecure_channel(target))
        self._channel = channel
        self.stub = pb_grpc.GameHostStub(self._channel)
        self.admin = pb_grpc.GameHostAdminStub(self._channel)
        self.timeout = timeout
        self.metadata = (("authorization", f"Bearer {bearer_token}"),) if bearer_token else ()
        self.locale = locale

    def close(self) -> None:
        self._channel.close()

    def __enter__(self) -> "GameHostClient":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _asking(self, request):
        """``request`` with the client's ``locale``, if it returns words and names none itself."""
        if self.locale and "locale" in request.DESCRIPTOR.fields_by_name and not request.locale:
            request.locale = self.locale
        return request

    def _call(self, method, request):
        self._asking(request)
        try:
            return method(request, timeout=self.timeout, metadata=self.metadata or None)
        except grpc.RpcError as error:
            raise GameHostError.from_rpc_error(error) from None

    # ------------------------------------------------------------ catalog

    def games(self) -> list[pb.Game]:
        games, token = [], ""
        while True:
            page = self._call(self.stub.ListGames, pb.ListGamesRequest(page_token=token))
            games += page.games
            token = page.next_page_token
            if not token:
                return games

    def game(self, game: str) -> pb.Game:
        return self._call(self.stub.GetGame, pb.GetGameRequest(name=game_name(game)))

    # ------------------------------------------------------------ matches

    def create_match(self, game: str, *, seats: int = 0, options: Mapping[str, Any] | None = None,
                     seed: int | None = None, bots: Sequence[int] = (), bot: str = "", variant: str = "",
                     request_id: str | None = None, turn_timeout: float = 0.0, clock: float = 0.0,
                     increment: float = 0.0, move_time: float = 0.0,
                     absent_grace: float | None = None, visibility: VisibilityLevel = "",
                     spectators: SpectatorsPolicy = "", reserved_seats: Mapping[int, str] | None = None,
                     rated: bool | None = None, seat_bots: Sequence[str] = ()) -> pb.Match:
        """``turn_timeout``: seconds a player may take per move (0: no limit);
        ``clock``, ``increment``: a chess clock, each seat's seconds and the
        seconds added after each of its moves; ``move_time``: a correspondence
        clock, the seconds each move may take; ``absent_grace``: a player who
        leaves is replaced by a bot after that many seconds (None: leaving
        abandons the match).

        Who may see and watch it: ``visibility`` "public" (the default),
        "unlisted" or "private" (or a ``pb.Visibility`` value); a private or
        unlisted match's answer carries its ``invitation_code``, once.
        ``spectators``: "anyone" (the default), "players" or "none" (or a
        ``pb.Spectators`` value). ``reserved_seats``: seat -> the subject of
        the signed-in user it is held for. ``rated``: False for a casual
        match (None: the host's rule). ``seat_bots``: the bot of each of
        ``bots``' seats, in that order (empty: ``bot`` in each)."""
        request = pb.CreateMatchRequest(game=game_name(game), seats=seats, options=to_struct(options),
                                        bot_seats=list(bots), bot=bot, variant=variant, seat_bots=list(seat_bots),
                                        request_id=request_id or uuid.uuid4().hex,
                                        visibility=visibility_value(visibility),
                                        spectators=spectators_value(spectators), rated=rated,
                                        reserved_seats=[pb.SeatReservation(seat=seat, subject=subject) for seat, subject
                                                        in sorted((reserved_seats or {}).items())])
        if seed is not None:
            request.seed = seed
        if turn_timeout:
            request.turn_timeout.FromNanoseconds(int(turn_timeout * 1e9))
        if clock:
            request.clock_initial.FromNanoseconds(int(clock * 1e9))
        if increment:
            request.clock_increment.FromNanoseconds(int(increment * 1e9))
        if move_time:
            request.correspondence_move_time.FromNanoseconds(int(move_time * 1e9))
        if absent_grace is not None:
            request.absent_grace.FromNanoseconds(int(absent_grace * 1e9))
        return self._call(self.stub.CreateMatch, request)

    def matches(self, *, game: str = "", status: int = 0, limit: int | None = None, mine: bool = False,
                player: str = "", page_size: int = 0, my_turn: bool = False) -> list[pb.Match]:
        """``mine``: only the signed-in caller's matches; ``player``: only this
        user's (admins); ``my_turn``: only those where it is that user's turn."""
        found, token = [], ""
        while True:
            page = self._call(self.stub.ListMatches, pb.ListMatchesRequest(
                game=game_name(game) if game else "", status=status, page_token=token, mine=mine, player=player,
                page_size=page_size, my_turn=my_turn))
            found += page.matches
            token = page.next_page_token
            if not token or (limit and len(found) >= limit):
                return found[:limit] if limit else found

    def match(self, match: str, *, invitation_code: str = "") -> pb.Match:
        """``invitation_code``: a private match's invitation, for a caller who is none of its own."""
        return self._call(self.stub.GetMatch, pb.GetMatchRequest(name=match_name(match),
                                                                 invitation_code=invitation_code))

    def join(self, match: str, *, seat: int | None = None, player_name: str = "",
             invitation_code: str = "") -> pb.JoinMatchResponse:
        """Take a seat (``seat``, else the lowest open seat reserved for nobody
        else); ``invitation_code`` admits the holder of a private match's invitation."""
        request = pb.JoinMatchRequest(name=match_name(match), player_name=player_name,
                                      invitation_code=invitation_code)
        if seat is not None:
            request.seat = seat
        return self._call(self.stub.JoinMatch, request)

    def rematch(self, match: str) -> pb.Match:
        """The rematch of a finished match, seats rotated (the same one for every player who asks)."""
        return self._call(self.stub.Rematch, pb.RematchRequest(name=match_name(match)))

    def leaderboard(self, game: str, *, page_size: int = 0, page_token: str = "") -> pb.ListLeaderboardResponse:
        """One page of a game's rated players, best first."""
        return self._call(self.stub.ListLeaderboard, pb.ListLeaderboardRequest(
            game=game_name(game), page_size=page_size, page_token=page_token))

    def profile(self, player: str = "me") -> pb.PlayerProfile:
        """A player's ratings and record ("me": the signed-in caller)."""
        name = player if player.startswith("players/") else f"players/{player}"
        return self._call(self.stub.GetPlayerProfile, pb.GetPlayerProfileRequest(name=name))

    # ------------------------------------------------------------ matchmaking

    def create_ticket(self, game: str, *, seats: int = 0, variant: str = "",
                      options: Mapping[str, Any] | None = None, min_rating: float | None = None,
                      max_rating: float | None = None, ttl: float = 0.0, bot_wait: float | None = None,
                      bot: str = "", widen_per_second: float | None = None,
                      max_widening: float | None = None, party_size: int = 0, party: str = "") -> pb.Ticket:
        """Queue for a match (signed-in callers). ``ttl``: seconds the ticket
        waits (0: the host's default); ``bot_wait``: seconds after which bots
        may fill the seats (None: never); ``widen_per_second`` and
        ``max_widening``: the rating range's bounds move out this many points
        a second waited, this many at most (None: a fixed range).
        ``party_size``: start a party of that many friends (share the
        ticket's ``party``); ``party``: join one ("parties/..." or its id;
        ``game`` may then be empty: the party's is taken)."""
        if party and not party.startswith("parties/"):
            party = f"parties/{party}"
        request = pb.CreateTicketRequest(game=game_name(game) if game else "", seats=seats, variant=variant,
                                         options=to_struct(options), min_rating=min_rating, max_rating=max_rating,
                                         bot=bot, rating_widen_per_second=widen_per_second,
                                         rating_max_widening=max_widening, party_size=party_size, party=party)
        if ttl:
            request.ttl.FromNanoseconds(int(ttl * 1e9))
        if bot_wait is not None:
            request.bot_wait.FromNanoseconds(int(bot_wait * 1e9))
        return self._call(self.stub.CreateTicket, request)

    def tickets(self, *, states: Sequence[int] = (), page_size: int = 0,
                limit: int | None = None) -> list[pb.Ticket]:
        """The signed-in caller's own tickets, queued ones first (every page,
        or the first ``limit``); ``states``: only these TicketState values."""
        found, token = [], ""
        while True:
            page = self._call(self.stub.ListTickets, pb.ListTicketsRequest(
                states=list(states), page_size=page_size, page_token=token))
            found += page.tickets
            token = page.next_page_token
            if not token or (limit and len(found) >= limit):
                return found[:limit] if limit else found

    def ticket(self, ticket: str) -> pb.Ticket:
        return self._call(self.stub.GetTicket, pb.GetTicketRequest(name=ticket_name(ticket)))

    def cancel_ticket(self, ticket: str) -> pb.Ticket:
        return self._call(self.stub.CancelTicket, pb.CancelTicketRequest(name=ticket_name(ticket)))

    def watch_ticket(self, ticket: str, *, timeout: float | None = None) -> Iterator[pb.Ticket]:
        """The ticket now and at each change, until it is matched, cancelled or
        expired (or ``timeout`` seconds pass: DEADLINE_EXCEEDED)."""
        stream = self.stub.WatchTicket(pb.WatchTicketRequest(name=ticket_name(ticket)), timeout=timeout,
                                       metadata=self.metadata or None)
        try:
            yield from stream
        except grpc.RpcError as error:
            if error.code() != grpc.StatusCode.CANCELLED:
                raise GameHostError.from_rpc_error(error) from None
        finally:
            stream.cancel()

    def leave(self, match: str, token: str) -> pb.Match:
        return self._call(self.stub.LeaveMatch, pb.LeaveMatchRequest(name=match_name(match), player_token=token))

    # ------------------------------------------------------------ play

    def view(self, match: str, token: str = "", *, text: bool = False, svg: bool = False,
             at_version: int | None = None, invitation_code: str = "") -> pb.View:
        """The view now; with ``at_version``, as it was then (a match that is over)."""
        return self._call(self.stub.GetView, pb.GetViewRequest(
            name=match_name(match), player_token=token, render=pb.RenderOptions(text=text, svg=svg),
            at_version=at_version, invitation_code=invitation_code))

    def move(self, match: str, token: str, *, move_id: str = "", move: Mapping[str, Any] | None = None,
             expected_version: int | None = None, request_id: str | None = None,
             view: bool = False, text: bool = False, svg: bool = False) -> pb.SubmitMoveResponse:
        """Play a move. The answer carries the mover's new view when ``view``
        (or a rendering) is asked for."""
        request = move_request(match, token, move_id=move_id, move=move, expected_version=expected_version,
                               request_id=request_id)
        request.render.CopyFrom(pb.RenderOptions(text=text, svg=svg))
        request.include_view = view or text or svg
        return self._call(self.stub.SubmitMove, request)

    def open_watch(self, match: str, token: str = "", *, after_version: int = 0,
                   render: pb.RenderOptions | None = None, invitation_code: str = "", view_patches: bool = False):
        """The WatchMatch stream itself (a grpc call: iterate it, ``cancel()`` it). ``view_patches``: views
        after the first come as changes (``MatchEvent.view_patch``; ``view_patching.PatchedViews`` makes
        them whole)."""
        return self.stub.WatchMatch(self._asking(pb.WatchMatchRequest(
            name=match_name(match), player_token=token, after_version=after_version, render=render,
            invitation_code=invitation_code, view_patches=view_patches)), metadata=self.metadata or None)

    def watch(self, match: str, token: str = "", *, after_version: int = 0, text: bool = False,
              svg: bool = False, invitation_code: str = "") -> Iterator[pb.MatchEvent]:
        """Events after ``after_version`` until the match ends, on one stream.
        A stream that fails raises GameHostError, CANCELLED too: the caller
        cannot cancel this stream but by closing the iterator (``break``),
        which is quiet, so a CANCELLED comes from grpc or the network (grpc's
        queue bounds, docs/security.md). To resume across failures: ``follow``."""
        stream = self.open_watch(match, token, after_version=after_version,
                                 render=pb.RenderOptions(text=text, svg=svg), invitation_code=invitation_code)
        try:
            yield from stream
        except grpc.RpcError as error:
            raise GameHostError.from_rpc_error(error) from None
        finally:
            stream.cancel()

    def follow(self, match: str, token: str = "", *, after_version: int = 0, text: bool = False, svg: bool = False,
               retry=None, on_resume=None, invitation_code: str = "", view_patches: bool = False):
        """A MatchFollower (``gamehost.client.follower``): iterate it for the
        events after ``after_version``, each once, in order, until the match
        ends, resuming after a dropped stream; ``retry``: a RetryPolicy;
        ``on_resume(Resume)``: told before each reopening. ``view_patches``:
        the host sends views as changes, the follower makes them whole again."""
        return MatchFollower(self, match, token, after_version=after_version, text=text, svg=svg,
                             retry=retry or RetryPolicy(), on_resume=on_resume, invitation_code=invitation_code,
                             view_patches=view_patches)

    def session(self):
        """A Session stream (``gamehost.client.session.GameSession``): moves and
        watches of many matches on one stream, each move one message."""
        return GameSession(self.stub, self.metadata)

    def log(self, match: str, token: str = "", *, page_size: int = 0, invitation_code: str = "") -> pb.MatchLog:
        """The match's whole log: every page of GetMatchLog, its events in
        one message, the chat of the first page (the other fields as the
        last page has them)."""
        pages = list(self.log_pages(match, token, page_size=page_size, invitation_code=invitation_code))
        whole = pages[-1]
        events = [event for page in pages for event in page.events]
        del whole.events[:]
        whole.events.extend(events)
        if whole is not pages[0]:
            del whole.chat[:]
            whole.chat.extend(pages[0].chat)
        return whole

    def log_pages(self, match: str, token: str = "", *, page_size: int = 0,
                  invitation_code: str = "") -> Iterator[pb.MatchLog]:
        """GetMatchLog page by page (``page_size`` events each; 0: the host's default), oldest first."""
        page_token = ""
        while True:
            page = self._call(self.stub.GetMatchLog, pb.GetMatchLogRequest(
                name=match_name(match), player_token=token, page_size=page_size, page_token=page_token,
                invitation_code=invitation_code))
            yield page
            page_token = page.next_page_token
            if not page_token:
                return

    # ------------------------------------------------------------ undo by agreement

    def ask_undo(self, match: str, token: str) -> pb.UndoResponse:
        """Ask to take back this seat's move, the last one played."""
        return self._call(self.stub.AskUndo, pb.AskUndoRequest(name=match_name(match), player_token=token))

    def answer_undo(self, match: str, token: str, accept: bool, *,
                    ask_version: int | None = None) -> pb.UndoResponse:
        """Accept or refuse the open ask (``ask_version``: only if it is still that one)."""
        return self._call(self.stub.AnswerUndo, pb.AnswerUndoRequest(
            name=match_name(match), player_token=token, accept=accept, ask_version=ask_version))

    def withdraw_undo(self, match: str, token: str) -> pb.UndoResponse:
        return self._call(self.stub.WithdrawUndo, pb.WithdrawUndoRequest(name=match_name(match), player_token=token))

    # ------------------------------------------------------------ private matches

    def revoke_invitation(self, match: str) -> pb.Match:
        """End the match's invitation: its code admits nobody from now on (the
        signed-in creator or an admin; seated players keep their seats)."""
        return self._call(self.stub.RevokeInvitation, pb.RevokeInvitationRequest(name=match_name(match)))

    # ------------------------------------------------------------ endings

    def resign(self, match: str, token: str = "") -> pb.Match:
        """This seat resigns (``token`` "": the seat the signed-in caller holds); returns the match after it."""
        return self._call(self.stub.Resign, pb.ResignRequest(name=match_name(match), player_token=token))

    def offer_draw(self, match: str, token: str = "") -> pb.DrawResponse:
        """Offer a draw (games whose ``draw_by_agreement`` is true); every other person seated must accept."""
        return self._call(self.stub.OfferDraw, pb.OfferDrawRequest(name=match_name(match), player_token=token))

    def answer_draw(self, match: str, token: str, accept: bool, *,
                    offer_version: int | None = None) -> pb.DrawResponse:
        """Accept or decline the open offer (``offer_version``: only if it is still that one)."""
        return self._call(self.stub.AnswerDraw, pb.AnswerDrawRequest(
            name=match_name(match), player_token=token, accept=accept, offer_version=offer_version))

    def withdraw_draw(self, match: str, token: str = "") -> pb.DrawResponse:
        """The offerer takes its offer back."""
        return self._call(self.stub.WithdrawDraw, pb.WithdrawDrawRequest(name=match_name(match), player_token=token))

    def claim_victory(self, match: str, token: str = "") -> pb.Match:
        """End the match over opponents absent past its grace: they rank last."""
        return self._call(self.stub.ClaimVictory, pb.ClaimVictoryRequest(name=match_name(match), player_token=token))

    # ------------------------------------------------------------ push

    def push_key(self) -> str:
        """The host's VAPID public key (applicationServerKey), base64url."""
        return self._call(self.stub.GetPushKey, pb.GetPushKeyRequest()).application_server_key

    def subscribe_push(self, endpoint: str, p256dh: str, auth: str, locale: str = "") -> pb.PushSubscription:
        """Keep a browser's push subscription for the signed-in caller."""
        return self._call(self.stub.SubscribePush, pb.SubscribePushRequest(endpoint=endpoint, p256dh=p256dh,
                                                                           auth=auth, locale=locale))

    def unsubscribe_push(self, endpoint: str) -> None:
        self._call(self.stub.UnsubscribePush, pb.UnsubscribePushRequest(endpoint=endpoint))

    # ------------------------------------------------------------ identity and admin

    def identity(self) -> pb.Identity:
        """Who the host takes this client to be."""
        return self._call(self.stub.GetIdentity, pb.GetIdentityRequest())

    def export_user_data(self, player: str = "") -> dict:
        """Everything the host holds about a user ("" or "players/{subject}"; "": the signed-in caller), as
        the JSON document the host wrote, decoded. A user exports their own, an admin anyone's."""
        name = player if not player or player.startswith("players/") else f"players/{player}"
        return json.loads(self._call(self.stub.ExportUserData, pb.ExportUserDataRequest(player=name)).json)

    def delete_user_data(self, player: str = "", *, confirm: bool = False) -> pb.DeleteUserDataResponse:
        """Erase a user's data (their identity becomes a pseudonym in matches, chat and ratings); the host
        refuses without ``confirm``."""
        name = player if not player or player.startswith("players/") else f"players/{player}"
        return self._call(self.stub.DeleteUserData, pb.DeleteUserDataRequest(player=name, confirm=confirm))

    def abort(self, match: str, reason: str = "") -> pb.Match:
        return self._call(self.admin.AbortMatch, pb.AbortMatchRequest(name=match_name(match), reason=reason))

    def delete(self, match: str) -> None:
        self._call(self.admin.DeleteMatch, pb.DeleteMatchRequest(name=match_name(match)))

    def assign_bot(self, match: str, seat: int, bot: str = "") -> pb.Match:
        return self._call(self.admin.AssignBot, pb.AssignBotRequest(name=match_name(match), seat=seat, bot=bot))

    def resume(self, match: str) -> pb.Match:
        return self._call(self.admin.ResumeMatch, pb.ResumeMatchRequest(name=match_name(match)))

    def deliveries(self, *, state: int = 0, match: str = "", page_size: int = 0,
                   limit: int | None = None) -> list[pb.Delivery]:
        """The turn notifications' webhook deliveries, newest first (every
        page, or the first ``limit``); ``state``: a DeliveryState, 0 for all."""
        found, token = [], ""
        while True:
            page = self._call(self.admin.ListDeliveries, pb.ListDeliveriesRequest(
                state=state, match=match_name(match) if match else "", page_size=page_size, page_token=token))
            found += page.deliveries
            token = page.next_page_token
            if not token or (limit and len(found) >= limit):
                return found[:limit] if limit else found

    def retry_delivery(self, key: str) -> pb.Delivery:
        """Send a failed delivery again, with a new round of attempts."""
        return self._call(self.admin.RetryDelivery, pb.RetryDeliveryRequest(key=key))

    def plugins(self) -> list[pb.Plugin]:
        """The host's installed plugins, their games and why any was skipped."""
        return list(self._call(self.admin.ListPlugins, pb.ListPluginsRequest()).plugins)

    def pools(self) -> list[pb.MatchmakingPool]:
        """The matchmaking pools with queued tickets, over every replica."""
        return list(self._call(self.admin.ListPools, pb.ListPoolsRequest()).pools)

    def strikes(self, match: str) -> pb.MatchStrikes:
        """A match's rules failures counted so far, and how many suspend it."""
        return self._call(self.admin.GetMatchStrikes, pb.GetMatchStrikesRequest(name=match_name(match)))
