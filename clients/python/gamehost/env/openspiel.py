"""Any game as an OpenSpiel-style game: ``new_initial_state()``, then a
state's ``current_player()``, ``legal_actions()``, ``apply_action()``,
``is_terminal()``, ``returns()``. An action is an index into the current
player's legal moves sorted by id. Chance is no player here: the rules draw
it from the match's seed (OpenSpiel's "sampled stochastic" games), so the
same seed and actions always give the same match.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from gamehost.env.encoding import DEFAULT_OBSERVATION_BYTES, encode_view
from gamehost.env.rewards import rank_rewards
from gamehost.env.rules import LegalMove, MatchRules, view_text

# OpenSpiel's player id of a finished game (pyspiel.PlayerId.TERMINAL).
TERMINAL_PLAYER = -4


class GameState:
    """One position of a match. On the local back end ``clone()`` gives an
    independent copy to search from; a host's match cannot be copied."""

    def __init__(self, rules: MatchRules, observation_bytes: int) -> None:
        self.rules = rules
        self.observation_bytes = observation_bytes
        self.history: list[int] = []

    def current_player(self) -> int:
        """The seat to move (the lowest when several may), or TERMINAL_PLAYER."""
        seats = self.rules.to_move()
        return seats[0] if seats else TERMINAL_PLAYER

    def is_terminal(self) -> bool:
        return not self.rules.to_move()

    def legal_moves(self, player: int | None = None) -> Sequence[LegalMove]:
        seat = self.current_player() if player is None else player
        return [] if seat == TERMINAL_PLAYER else self.rules.legal_moves(seat)

    def legal_actions(self, player: int | None = None) -> list[int]:
        return list(range(len(self.legal_moves(player))))

    def action_to_string(self, action: int, player: int | None = None) -> str:
        return self.legal_moves(player)[action].id

    def apply_action(self, action: int) -> None:
        seat = self.current_player()
        moves = self.legal_moves(seat)
        if not 0 <= action < len(moves):
            raise ValueError(f"action {action} is not legal: seat {seat} has {len(moves)} moves (0 to {len(moves) - 1})")
        self.rules.play(seat, moves[action].id)
        self.history.append(action)

    def returns(self) -> list[float]:
        """Each seat's reward: 0 until the end, then from the ranking."""
        ranking = self.rules.ranking()
        return [0.0] * self.rules.seats if ranking is None else rank_rewards(ranking)

    def rewards(self) -> list[float]:
        return self.returns()

    def observation_string(self, player: int) -> str:
        """What ``player`` sees, as canonical JSON."""
        return view_text(self.rules.view(player))

    def observation_tensor(self, player: int) -> Any:
        """What ``player`` sees, as a fixed-size ``numpy.uint8`` array."""
        return encode_view(self.rules.view(player), self.observation_bytes)

    def clone(self) -> "GameState":
        clone_rules: Callable[[], MatchRules] | None = getattr(self.rules, "clone", None)
        if clone_rules is None:
            raise NotImplementedError("a match at a host cannot be copied; clone the states of a local game")
        twin = GameState(clone_rules(), self.observation_bytes)
        twin.history = list(self.history)
        return twin

    def __str__(self) -> str:
        player = self.current_player()
        return self.observation_string(0 if player == TERMINAL_PLAYER else player)


class Game:
    """A game whose states are matches made by ``make_rules`` (a
    ``LocalRules`` or ``RemoteRules`` factory), seeded from ``seed`` up:
    each new initial state takes the next seed."""

    def __init__(self, make_rules: Callable[[], MatchRules], *, seed: int = 0,
                 observation_bytes: int = DEFAULT_OBSERVATION_BYTES) -> None:
        self.make_rules = make_rules
        self.next_seed = seed
        self.observation_bytes = observation_bytes
        probe = make_rules()
        self.game_id, self.seats = probe.game_id, probe.seats

    def num_players(self) -> int:
        return self.seats

    def min_utility(self) -> float:
        return -1.0

    def max_utility(self) -> float:
        return 1.0

    def new_initial_state(self, seed: int | None = None) -> GameState:
        """A new match with ``seed``, else the game's next seed."""
        if seed is None:
            seed, self.next_seed = self.next_seed, self.next_seed + 1
        rules = self.make_rules()
        rules.start(seed)
        return GameState(rules, self.observation_bytes)


def local_game(game_id: str, seats: int = 0, options: dict[str, Any] | None = None, **kwargs: Any) -> Game:
    """An installed game, played in this process."""
    from gamehost.env.local import LocalRules

    return Game(lambda: LocalRules(game_id, seats, options), **kwargs)
