"""The local back end: the installed plugins' rules, played in this process.

The host's packages (``gamehost.sdk`` and the games' plugins) are imported
only when a local match is made, so the rest of the client works without
them. Chance comes from ``gamehost.sdk.chance.rng_for`` with the versions a
host gives the same events, so a seed and a list of moves end the same here
as at a host.
"""

from __future__ import annotations

import copy
import functools
from typing import Any, Mapping, Sequence

from gamehost.env.rules import LegalMove

# The entry point group the host loads games from (gamehost.host.plugins).
GAMES_ENTRY_POINT_GROUP = "gamehost.games"


@functools.cache
def installed_games() -> dict[str, Any]:
    """Each installed game's ``gamehost.sdk.Game`` by id, as the host's
    catalog finds them (the ``gamehost.games`` entry points' hook), loaded
    once per process."""
    from importlib.metadata import entry_points

    import pluggy
    from gamehost.sdk import hookspecs

    manager = pluggy.PluginManager("gamehost")
    manager.add_hookspecs(hookspecs)
    for entry_point in sorted(entry_points(group=GAMES_ENTRY_POINT_GROUP), key=lambda ep: ep.name):
        manager.register(entry_point.load(), name=entry_point.name)
    return {game.id: game for games in manager.hook.gamehost_games() for game in games or []}


def first_move_version(seats: int) -> int:
    """The version a host gives a match's first move when every seat is
    taken by a player who joins: creation is version 0, each join one
    more, the start one more; each move then produces the next version."""
    return seats + 2


class LocalRules:
    """One match of an installed game, in this process."""

    def __init__(self, game_id: str, seats: int = 0, options: Mapping[str, Any] | None = None, *,
                 first_version: int | None = None) -> None:
        games = installed_games()
        if game_id not in games:
            raise ValueError(f"no installed game {game_id!r}; installed: {', '.join(sorted(games)) or 'none'}")
        self.game = games[game_id]
        self.game_id = game_id
        self.seats = seats or self.game.min_players
        if self.seats not in self.game.allowed_player_counts():
            raise ValueError(f"{game_id} is played by {self.game.player_counts_text()}, not {self.seats}")
        self.options = {**self.game.default_options(), **(options or {})}
        self.played_seats = list(range(self.seats))
        self.first_version = first_move_version(self.seats) if first_version is None else first_version
        self.seed = 0
        self.version = self.first_version - 1  # the version the next move follows
        self.state: Any = None
        self.moves: list[tuple[int, int, str]] = []  # (version, seat, move id) as played

    def start(self, seed: int) -> None:
        from gamehost.sdk.chance import rng_for

        self.seed = seed
        self.state = self.game.setup(self.seats, self.options, rng_for(seed, 0))
        self.version = self.first_version - 1
        self.moves = []

    def to_move(self) -> Sequence[int]:
        return [] if self.game.outcome(self.state) is not None else sorted(self.game.to_move(self.state))

    def legal_moves(self, seat: int) -> Sequence[LegalMove]:
        moves = self.game.legal_moves(self.state, seat)
        return [LegalMove(move.id, str(move.label), move.args) for move in sorted(moves, key=lambda m: m.id)]

    def play(self, seat: int, move_id: str) -> None:
        from gamehost.sdk.chance import rng_for

        chosen = next((move for move in self.game.legal_moves(self.state, seat) if move.id == move_id), None)
        if chosen is None:
            raise ValueError(f"{move_id!r} is not a legal move of seat {seat} now")
        self.version += 1
        self.state = self.game.apply(self.state, seat, chosen.args, rng_for(self.seed, self.version))
        self.moves.append((self.version, seat, move_id))

    def view(self, seat: int) -> Mapping[str, Any]:
        return self.game.view(self.state, seat)

    def ranking(self) -> Sequence[int] | None:
        outcome = self.game.outcome(self.state)
        return None if outcome is None else list(outcome.ranking)

    def scores(self) -> Sequence[float] | None:
        outcome = self.game.outcome(self.state)
        return None if outcome is None else list(outcome.scores)

    def clone(self) -> "LocalRules":
        """An independent copy of this match at this point (rules never
        mutate a state, but a copy must not share one with its original
        should a caller change a view)."""
        twin = copy.copy(self)
        twin.state = copy.deepcopy(self.state)
        twin.moves = list(self.moves)
        return twin
