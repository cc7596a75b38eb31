"""What a match's log shows, from the game alone (no held state): its
views at past versions (the replay page) and its moves as a viewer may see
them."""

from __future__ import annotations

from typing import Any, Mapping

from gamehost.host.workers import messages
from gamehost.host.workers.plugin_calls import PluginFailed, call_plugin
from gamehost.sdk.chance import rng_for
from gamehost.sdk.replay import RecordedMove, replay


class MatchHistory:
    def __init__(self, games: Mapping[str, Any]) -> None:
        self.games = games  # rules key -> Game

    def replay_views(self, request: messages.ReplayViews) -> messages.PastViews:
        """A finished match's views at past versions (the replay page): set
        up from the seed, apply the recorded moves, and take the viewer's
        view and the seats to move at each version asked for (ascending).
        Nothing is held afterwards."""
        game = self.games[request["game"]]
        seed, viewer = request["seed"], request["seat"]
        try:
            state = game.setup(request["seats"], request["options"], rng_for(seed, 0))
        except MemoryError:
            raise
        except Exception as error:
            raise PluginFailed("setup (replaying the log)", error) from None
        first = state
        recorded = [RecordedMove(v, seat, args) for v, seat, args in request["moves"]]
        undone_at = {taken_back: at for at, taken_back in request.get("undos", ())}  # move version -> undo version
        applied: list[RecordedMove] = []
        views: list[messages.PastView] = []
        for version in request["versions"]:
            standing = [move for move in recorded if move.version <= version
                        and undone_at.get(move.version, version + 1) > version]
            if standing[:len(applied)] != applied:  # a move was taken back: replay from the start
                state, applied = first, []
            try:
                state = replay(game, state, seed, standing[len(applied):])
            except MemoryError:
                raise
            except Exception as error:
                raise PluginFailed("apply (replaying the log)", error) from None
            applied = standing
            views.append({"version": version, "view": dict(call_plugin("view", game.view, state, viewer)),
                          "to_move": [int(s) for s in call_plugin("to_move", game.to_move, state)]})
        return {"views": views}

    def public_move(self, request: messages.PublicMove) -> messages.ShownMove:
        game = self.games[request["game"]]
        shown = call_plugin("public_move", game.public_move, request["seat"], request["move"], request["viewer"])
        return {"move": None if shown is None else dict(shown)}

    def public_moves(self, request: messages.PublicMoves) -> messages.ShownMoves:
        game, viewer = self.games[request["game"]], request["viewer"]
        shown = [call_plugin("public_move", game.public_move, seat, move, viewer) for seat, move in request["moves"]]
        return {"moves": [None if move is None else dict(move) for move in shown]}
