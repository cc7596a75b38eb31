"""The only source of chance a ruleset gets.

The engine never keeps an RNG's internal state: it derives a fresh generator
from the match seed and the version being produced. A match therefore replays
exactly from its log, and a host restarted mid-match rolls the same dice.
"""

from __future__ import annotations

import random
from typing import Any


class DerivedRandom(random.Random):
    """A ``random.Random`` seeded with ``key`` on first use.

    Most moves of most games draw nothing, and seeding costs more than a whole
    tic-tac-toe move. The sequence is exactly that of ``random.Random(key)``.
    """

    def __init__(self, key: str) -> None:  # no super().__init__: it would seed now
        self._key = key
        self._seeded = False
        self.gauss_next = None

    def _ready(self) -> None:
        if not self._seeded:
            self._seeded = True
            super().seed(self._key)
            # Later draws skip this check and go straight to the C methods.
            self.random = super().random  # type: ignore[method-assign]
            self.getrandbits = super().getrandbits  # type: ignore[method-assign, assignment]

    def seed(self, *args: Any, **kwargs: Any) -> None:
        self._seeded = True
        super().seed(*args, **kwargs)

    def random(self) -> float:
        self._ready()
        return super().random()

    def getrandbits(self, k: int) -> int:
        self._ready()
        return super().getrandbits(k)

    def getstate(self) -> tuple[Any, ...]:
        self._ready()
        return super().getstate()

    def setstate(self, state: tuple[Any, ...]) -> None:
        self._seeded = True
        super().setstate(state)


def rng_for(seed: int, version: int, purpose: str = "rules") -> random.Random:
    """The generator for the event that produces ``version`` of a match.

    ``purpose`` separates streams that must not influence each other (the
    rules and a bot choosing its move at the same version).
    """
    # String seeds are hashed with SHA-512 by random.seed: stable across runs
    # and Python builds, unlike hash().
    return DerivedRandom(f"{seed}/{version}/{purpose}")
