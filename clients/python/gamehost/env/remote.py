"""The remote back end: a match at a live host, played over gRPC.

The caller's seats are joined (one player token each); the others are the
host's bots. Moves go through SubmitMove; while a bot is to move, the
match's own event stream (WatchMatch) is followed until it is one of the
caller's seats' turn or the match is over.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from gamehost.client import GameHostClient, from_struct
from gamehost.env.rules import LegalMove
from gamehost.v1 import gamehost_pb2 as pb

OVER = {pb.MATCH_STATUS_FINISHED, pb.MATCH_STATUS_ABANDONED, pb.MATCH_STATUS_ABORTED}


class MatchEndedEarly(RuntimeError):
    """The host ended the match without a result of the game (aborted, abandoned)."""


class RemoteRules:
    """One match of ``game_id`` at the host ``client`` talks to; the seats
    in ``bot_seats`` are played by the host's bot named ``bot`` ("": the
    host's default), every other seat by the caller."""

    def __init__(self, client: GameHostClient, game_id: str, seats: int = 0,
                 options: Mapping[str, Any] | None = None, *, bot_seats: Sequence[int] = (), bot: str = "",
                 player_name: str = "env") -> None:
        self.client = client
        self.game_id = game_id
        game = client.game(game_id)
        self.seats = seats or game.min_players
        self.options = dict(options or {})
        self.bot_seats = sorted(bot_seats)
        self.bot = bot
        self.player_name = player_name
        self.played_seats = [seat for seat in range(self.seats) if seat not in self.bot_seats]
        self.match = ""
        self.tokens: dict[int, str] = {}
        self.latest: pb.View = pb.View()  # the newest view seen, any seat's: status, version, to_move
        self._views: dict[int, pb.View] = {}  # each played seat's view at latest.version

    def start(self, seed: int) -> None:
        self.give_up()
        created = self.client.create_match(self.game_id, seats=self.seats, options=self.options, seed=seed,
                                           bots=self.bot_seats, bot=self.bot)
        self.match = created.name
        self.tokens = {seat: self.client.join(self.match, seat=seat, player_name=f"{self.player_name}-{seat}")
                       .player_token for seat in self.played_seats}
        self._views = {}
        self.latest = self._view_of(self.played_seats[0]) if self.played_seats else pb.View()
        self._until_ours()

    def give_up(self) -> None:
        """Leave the current match if it is not over, so the host does not
        keep it waiting for moves that will never come: one player leaving
        abandons a match that has no grace for absent players, as ours."""
        if self.match and self.tokens and self.latest.status not in OVER:
            self.client.leave(self.match, next(iter(self.tokens.values())))
        self.latest = pb.View()

    def _view_of(self, seat: int) -> pb.View:
        view = self._views.get(seat)
        if view is None or view.version != self.latest.version:
            view = self.client.view(self.match, self.tokens[seat])
            self._views[seat] = view
        return view

    def _ours_or_over(self, view: pb.View) -> bool:
        return view.status in OVER or (view.status == pb.MATCH_STATUS_ACTIVE
                                       and any(seat in self.tokens for seat in view.to_move))

    def _until_ours(self) -> None:
        """Follow the match until one of the caller's seats is to move or it is over."""
        if self._ours_or_over(self.latest):
            return
        seat = self.played_seats[0]
        follower = self.client.follow(self.match, self.tokens[seat], after_version=self.latest.version)
        try:
            for event in follower:
                if event.HasField("view") and event.view.version >= self.latest.version:
                    self.latest = event.view
                    self._views = {seat: event.view}
                    if self._ours_or_over(self.latest):
                        return
        finally:
            follower.stop()
        self.latest = self.client.view(self.match, self.tokens[seat])
        self._views = {seat: self.latest}

    def to_move(self) -> Sequence[int]:
        return [] if self.latest.status in OVER else sorted(self.latest.to_move)

    def legal_moves(self, seat: int) -> Sequence[LegalMove]:
        if seat not in self.tokens:
            return []
        moves = self._view_of(seat).legal_moves
        return [LegalMove(move.id, move.label, from_struct(move.move)) for move in sorted(moves, key=lambda m: m.id)]

    def play(self, seat: int, move_id: str) -> None:
        answer = self.client.move(self.match, self.tokens[seat], move_id=move_id,
                                  expected_version=self.latest.version, view=True)
        self.latest = answer.view
        self._views = {seat: answer.view}
        self._until_ours()

    def view(self, seat: int) -> Mapping[str, Any]:
        return from_struct(self._view_of(seat).state) if seat in self.tokens else {}

    def ranking(self) -> Sequence[int] | None:
        if self.latest.status == pb.MATCH_STATUS_FINISHED:
            return list(self.latest.result.ranking)
        if self.latest.status in OVER:
            raise MatchEndedEarly(f"{self.match} ended without a result: {pb.MatchStatus.Name(self.latest.status)}")
        return None

    def scores(self) -> Sequence[float] | None:
        return list(self.latest.result.scores) if self.latest.status == pb.MATCH_STATUS_FINISHED else None
