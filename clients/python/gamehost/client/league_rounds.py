"""A league's schedule: which bot levels play which seats, match by match.

One round seats every ordered choice of distinct levels (every
permutation), so each level plays each seat equally often against each set
of opponents: who moves first favours nobody. A rated match seats each
level once (a level is one rated player), so a round needs at least as many
levels as seats.
"""

from __future__ import annotations

import itertools
from typing import Iterator, Sequence


def league_round(levels: Sequence[str], seats: int) -> list[tuple[str, ...]]:
    """Every match of one round: the level of each seat, seat 0 first."""
    if len(set(levels)) != len(levels):
        raise ValueError(f"levels repeat: {', '.join(levels)}")
    if seats < 2:
        raise ValueError(f"a league match has 2 seats or more, not {seats}")
    if seats > len(levels):
        raise ValueError(f"{seats} seats need {seats} levels or more (one level a seat), not {len(levels)}")
    return list(itertools.permutations(levels, seats))


def league_matches(levels: Sequence[str], seats: int) -> Iterator[tuple[str, ...]]:
    """Round after round, without end: the scheduled league takes what its budget allows."""
    matches = league_round(levels, seats)
    while True:
        yield from matches
