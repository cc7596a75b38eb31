"""Bots: strategies the host plays seats with."""

from __future__ import annotations

import random
from typing import Any, Protocol, Sequence

from gamehost.sdk.rules import Game, Move
from gamehost.sdk.search import LEVELS, SEARCH_BOTS


class Bot(Protocol):
    def choose(self, game: Game, state: Any, seat: int, moves: Sequence[Move], rng: random.Random) -> Move: ...


class RandomBot:
    """Plays a uniformly random legal move."""

    def choose(self, game, state, seat, moves, rng):
        return moves[rng.randrange(len(moves))]


BUILTIN_BOTS: dict[str, Bot] = {"random": RandomBot(), **SEARCH_BOTS}

BOT_CATALOG: tuple[tuple[str, str, int], ...] = (
    ("random", "Random moves", 0),
    *((level.name, level.title, level.level) for level in LEVELS),
)
"""(name, title, level) of each built-in bot, weakest first; the catalog lists them for every game."""
