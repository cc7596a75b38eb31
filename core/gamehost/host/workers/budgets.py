"""How long a rules call may take."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping


@dataclass
class RulesBudgets:
    """Seconds a call may take: rules calls per game (``per_game`` overrides
    ``rules``), a bot's choice, and loading a match (replaying its log)."""

    rules: float = 2.0
    bot: float = 5.0
    load: float = 30.0
    per_game: Mapping[str, float] = field(default_factory=dict)

    def for_call(self, game_id: str, op: str) -> float:
        if op == "choose":
            return max(self.bot, self.per_game.get(game_id, 0.0))
        if op in ("load", "replay_views", "rewind", "public_moves"):  # each goes over a whole log
            return max(self.load, self.per_game.get(game_id, 0.0))
        return self.per_game.get(game_id, self.rules)
