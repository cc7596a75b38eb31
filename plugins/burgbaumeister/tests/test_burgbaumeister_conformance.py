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
CONFIGURATIONS = {variant.id: (dict(variant.options), 500) for variant in GAME.variants} | {
    "points-memory-aid": ({"special_cards": True, "memory_aid": True}, 50),
}


def batches():
    """(seats, options, seeds) for every batch of the run."""
    cases = []
    for name, (options, games) in CONFIGURATIONS.items():
        games = int(PLAYOUTS) if PLAYOUTS else sampled(games)
        for seats in (2, 3, 4):
            for batch in seed_batches(games, seed=seats * 1000, size=BATCH):
                cases.append(pytest.param(seats, options, batch, id=f"{seats}p-{name}-{batch.id}"))
    return cases


@pytest.mark.parametrize(("seats", "options", "batch"), batches())
def test_conformance(seats, options, batch):
    report = run_conformance(GAME, seats=seats, options=options, playouts=batch.playouts, seed=batch.seed,
                             legible_text=True, tappable_targets=True)
    assert report.playouts == batch.playouts
