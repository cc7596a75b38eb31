"""The conformance kit over Campanile, for every player count and variant.

500 random games per player count (2000 games), split
60/20/20 over the standard rules, the official variant and exact bets, in
batches of at most BATCH games (one test each, so pytest's workers share
them). CAMPANILE_CONFORMANCE_PLAYOUTS=N plays N per count, for a quick local run.
"""

from __future__ import annotations

import os

import pytest

from gamehost.testing.conformance import run_conformance
from gamehost.testing.sweeps import sampled, seed_batches
from gamehost_campanile.game import Campanile

PLAYOUTS_PER_COUNT = int(os.environ.get("CAMPANILE_CONFORMANCE_PLAYOUTS") or sampled(500))
SHARE = {"standard": 0.6, "official-variant": 0.2, "exact-bets": 0.2}
BATCH = 30  # at 5 seats about 0.5 s of CPU a game: a batch takes some 15 s idle
VARIANTS = {variant.id: variant for variant in Campanile.variants}


def playouts(variant: str) -> int:
    """This variant's share; the standard rules take the rounding remainder."""
    others = sum(round(PLAYOUTS_PER_COUNT * share) for name, share in SHARE.items() if name != "standard")
    return PLAYOUTS_PER_COUNT - others if variant == "standard" else round(PLAYOUTS_PER_COUNT * SHARE[variant])


def batches():
    """(seats, variant, seeds) for every batch of the run."""
    return [pytest.param(seats, variant, batch, id=f"{seats}p-{variant}-{batch.id}")
            for seats in (2, 3, 4, 5) for variant in SHARE
            for batch in seed_batches(playouts(variant), seed=10_000 * seats + 1_000 * list(SHARE).index(variant),
                                      size=BATCH)]


@pytest.mark.parametrize("seats, variant, batch", batches())
def test_campanile_conformance(seats, variant, batch):
    report = run_conformance(Campanile(), seats=seats, options=dict(VARIANTS[variant].options),
                             playouts=batch.playouts, seed=batch.seed, legible_text=True, tappable_targets=True)
    assert report.playouts == batch.playouts
    assert sum(report.wins) >= batch.playouts
