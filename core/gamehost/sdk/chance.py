"""The only source of chance a ruleset gets.

The engine never keeps an RNG's internal state: it derives a fresh generator
from the match seed and the version being produced. A match therefore replays
exactly from its log, and a host restarted mid-match rolls the same dice.
"""

from __future__ import annotations

import random


def rng_for(seed: int, version: int, purpose: str = "rules") -> random.Random:
    """The generator for the event that produces ``version`` of a match.

    ``purpose`` separates streams that must not influence each other (the
    rules and a bot choosing its move at the same version).
    """
    # String seeds are hashed with SHA-512 by random.seed: stable across runs
    # and Python builds, unlike hash().
    return random.Random(f"{seed}/{version}/{purpose}")
