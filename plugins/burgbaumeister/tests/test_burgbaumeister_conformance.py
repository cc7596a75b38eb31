"""The conformance kit over every player count and variant: 500 random games
for each, in batches of BATCH seeds so that pytest's
workers share them, plus a shorter run with the memory aid (its views carry
more). BURGBAUMEISTER_PLAYOUTS=N plays N per configuration, for a quick
local run.

Random players make long games here (about 200 to 300 moves, most ended by
the termination guard or by "nobody can take").
"""

import os

import pytest

from gamehost.testing.conformance import run_conformance
from gamehost.testing.sweeps import sampled, seed_batches
from gamehost_burgbaumeister.game import Burgbaumeister

GAME = Burgbaumeister()
PLAYOUTS = os.environ.get("BURGBAUMEISTER_PLAYOUTS")
BATCH = 10  # at 4 seats about 1 s of CPU a game: a batch takes some 10-15 s idle
# A sample (make test) plays half the share: a random game here is 200 to 300
# moves, most of them the same turn-up-and-decline over the few cards still
# face down, so the sample's situations repeat; at 0.1 it was still 315
# games, some 550 of the suite's 2,900 test-seconds (at 4 seats about 1 CPU-s
# a game, three Campanile games). The full sweep (make conformance) plays all.
SAMPLE_WEIGHT = 0.5
CONFIGURATIONS = {variant.id: (dict(variant.options), 500) for variant in GAME.variants} | {
    "points-memory-aid": ({"special_cards": True, "memory_aid": True}, 50),
}


def batches():
    """(seats, options, seeds) for every batch of the run."""
    cases = []
    for name, (options, games) in CONFIGURATIONS.items():
        games = int(PLAYOUTS) if PLAYOUTS else sampled(games, weight=SAMPLE_WEIGHT)
        for seats in (2, 3, 4):
            for batch in seed_batches(games, seed=seats * 1000, size=BATCH):
                cases.append(pytest.param(seats, options, batch, id=f"{seats}p-{name}-{batch.id}"))
    return cases


@pytest.mark.parametrize(("seats", "options", "batch"), batches())
def test_conformance(seats, options, batch):
    report = run_conformance(GAME, seats=seats, options=options, playouts=batch.playouts, seed=batch.seed,
                             legible_text=True, tappable_targets=True)
    assert report.playouts == batch.playouts
