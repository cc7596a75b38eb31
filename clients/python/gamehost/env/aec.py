"""Any game as a PettingZoo AEC environment.

Agents are "seat_0", "seat_1", ... (the seats the caller plays: every seat
locally, the seats not given to the host's bots at a host). An action is an
index into the acting seat's legal moves sorted by id, masked by
``observation["action_mask"]``; ``observation["observation"]`` is the
seat's view as canonical JSON bytes in a fixed-size array. Rewards come at
the end, from the ranking (``gamehost.env.rewards``); the match's seed is
``reset(seed=...)``'s.
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from gamehost.env.encoding import DEFAULT_OBSERVATION_BYTES, encode_view
from gamehost.env.rewards import rank_rewards
from gamehost.env.rules import LegalMove, MatchRules, view_text

# Over four times the most legal moves of a shipped game's position seen in
# random playouts (Callisto's opening moves: 939 at 4 seats, 774 at 2).
DEFAULT_MAX_ACTIONS = 4096


def agent_name(seat: int) -> str:
    return f"seat_{seat}"


def seat_of(agent: str) -> int:
    return int(agent.removeprefix("seat_"))


class TooManyMoves(ValueError):
    """A position with more legal moves than the action space holds."""


class GameEnv(AECEnv):
    """A PettingZoo AEC environment over one ``MatchRules`` back end."""

    metadata = {"name": "gamehost", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, rules: MatchRules, *, max_actions: int = DEFAULT_MAX_ACTIONS,
                 observation_bytes: int = DEFAULT_OBSERVATION_BYTES, render_mode: str | None = None) -> None:
        super().__init__()
        self.rules = rules
        self.max_actions = max_actions
        self.observation_bytes = observation_bytes
        self.render_mode = render_mode
        self.metadata = {**GameEnv.metadata, "name": f"gamehost_{rules.game_id}"}
        self.possible_agents = [agent_name(seat) for seat in rules.played_seats]
        self._action_spaces = {agent: spaces.Discrete(max_actions) for agent in self.possible_agents}
        self._observation_spaces = {agent: spaces.Dict({
            "observation": spaces.Box(0, 255, (observation_bytes,), np.uint8),
            "action_mask": spaces.Box(0, 1, (max_actions,), np.int8)}) for agent in self.possible_agents}
        self.agents: list[str] = []
        self.seed_used = 0
        self.match_rewards: dict[str, float] = {}
        """Every agent's reward once the match is over (PettingZoo forgets
        each agent's as it leaves the game); empty until then."""

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        self.seed_used = random.SystemRandom().randrange(2**63) if seed is None else seed
        self.rules.start(self.seed_used)
        self.match_rewards = {}
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._after_move()

    def _moves(self, seat: int) -> Sequence[LegalMove]:
        if seat not in self.rules.to_move():
            return []
        moves = self.rules.legal_moves(seat)
        if len(moves) > self.max_actions:
            raise TooManyMoves(f"seat {seat} has {len(moves)} legal moves, more than the {self.max_actions} "
                               f"actions of the action space: pass a larger max_actions")
        return moves

    def observe(self, agent: str) -> dict[str, Any]:
        seat = seat_of(agent)
        mask = np.zeros(self.max_actions, dtype=np.int8)
        mask[:len(self._moves(seat))] = 1
        return {"observation": encode_view(self.rules.view(seat), self.observation_bytes), "action_mask": mask}

    def legal_moves(self, agent: str) -> Sequence[LegalMove]:
        """The agent's legal moves now, in action order."""
        return self._moves(seat_of(agent))

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = seat_of(agent)
        moves = self._moves(seat)
        if action is None:
            raise ValueError(f"{agent} is to move: step() needs an action, an index into its {len(moves)} moves")
        index = int(action)
        if not 0 <= index < len(moves):
            raise ValueError(f"action {index} is not legal for {agent}: it has {len(moves)} moves "
                             f"(the action mask's ones, 0 to {len(moves) - 1})")
        self.rules.play(seat, moves[index].id)
        self._cumulative_rewards[agent] = 0.0
        self._after_move()

    def _after_move(self) -> None:
        """Rewards and terminations once the match is over; the next agent to move."""
        ranking = self.rules.ranking()
        if ranking is not None:
            rewards = rank_rewards(ranking)
            self.match_rewards = {agent: rewards[seat_of(agent)] for agent in self.possible_agents}
            self.rewards = {agent: self.match_rewards[agent] for agent in self.agents}
            self.terminations = {agent: True for agent in self.agents}
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
            return
        self.rewards = {agent: 0.0 for agent in self.agents}
        # Where several seats may move at once, the lowest of the caller's goes first.
        seat = next(seat for seat in self.rules.to_move() if agent_name(seat) in self.agents)
        self.agent_selection = agent_name(seat)
        self.infos = {agent: {} for agent in self.agents}
        self.infos[self.agent_selection] = {"legal_moves": [move.id for move in self._moves(seat)]}

    def render(self) -> str | None:
        """In "ansi" mode, the acting agent's view as canonical JSON."""
        if self.render_mode is None or not self.agents:
            return None
        return view_text(self.rules.view(seat_of(self.agent_selection)))

    def close(self) -> None:
        """Gives up a host's match still being played (a local one needs nothing)."""
        give_up = getattr(self.rules, "give_up", None)
        if give_up is not None:
            give_up()


def local_env(game_id: str, seats: int = 0, options: Mapping[str, Any] | None = None, **kwargs: Any) -> GameEnv:
    """An installed game as an environment, played in this process."""
    from gamehost.env.local import LocalRules

    return GameEnv(LocalRules(game_id, seats, options), **kwargs)


def remote_env(client: Any, game_id: str, seats: int = 0, options: Mapping[str, Any] | None = None, *,
               bot_seats: Sequence[int] = (), bot: str = "", **kwargs: Any) -> GameEnv:
    """A game at the host ``client`` (a ``GameHostClient``) talks to; the
    ``bot_seats`` are the host's bot ``bot``, the others the agents."""
    from gamehost.env.remote import RemoteRules

    return GameEnv(RemoteRules(client, game_id, seats, options, bot_seats=bot_seats, bot=bot), **kwargs)
