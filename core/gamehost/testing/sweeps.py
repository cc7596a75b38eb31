"""A conformance sweep: how many of its random games a run plays, and the
batches of consecutive seeds they are cut into.

A sweep is ``games`` playouts from a first seed on, one seed each. ``make
test`` plays a share of every sweep (GAMEHOST_CONFORMANCE_SHARE), ``make
conformance`` all of it; either way each batch is one test, so that
pytest-xdist's workers share a long sweep and no test runs for minutes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass


def sampled(games: int, *, weight: float = 1.0) -> int:
    """How many of a sweep's ``games`` to play: all of them, or the share
    GAMEHOST_CONFORMANCE_SHARE names (0 to 1; ``make test`` plays a sample,
    ``make conformance`` every game), at least one. ``weight`` scales a
    sample (never a full sweep) for a sweep whose games are long repeats of
    the same few situations: its sample costs what its coverage is worth."""
    share = float(os.environ.get("GAMEHOST_CONFORMANCE_SHARE", "1"))
    if not 0 < share <= 1:
        raise ValueError(f"GAMEHOST_CONFORMANCE_SHARE must be in (0, 1], not {share}")
    if not 0 < weight <= 1:
        raise ValueError(f"a sample's weight must be in (0, 1], not {weight}")
    return games if share == 1 else max(1, round(games * share * weight))


@dataclass(frozen=True)
class SeedBatch:
    """Playouts ``seed``, ``seed + 1``, ... of a sweep: ``playouts`` of them."""

    seed: int
    playouts: int

    @property
    def id(self) -> str:
        """The seeds it plays, for a test id: ``seeds4020-4029`` (``seed4000`` alone)."""
        last = self.seed + self.playouts - 1
        return f"seed{self.seed}" if last == self.seed else f"seeds{self.seed}-{last}"


def seed_batches(games: int, *, seed: int, size: int) -> list[SeedBatch]:
    """The sweep of ``games`` playouts from ``seed`` on, in batches of
    ``size`` (the last one shorter): together they play the same seeds."""
    if size < 1:
        raise ValueError(f"a batch plays at least one game, not {size}")
    return [SeedBatch(seed + first, min(size, games - first)) for first in range(0, games, size)]
