"""The conformance kit over every player count: 300 random games per player
count with the standard rules, in batches of BATCH seeds
so that pytest's workers share them, and fewer with the other option sets.
KENSINGTON_PLAYOUTS=N plays N per configuration, for a quick local run.

Random players make games of about 200 to 450 moves.
"""

import os

import pytest

from gamehost.testing.conformance import run_conformance
from gamehost.testing.sweeps import sampled, seed_batches
from gamehost_kensington.game import Kensington

GAME = Kensington()
PLAYOUTS = os.environ.get("KENSINGTON_PLAYOUTS")
BATCH = 5  # at 5 seats about 3 s of CPU a game (400 moves): a batch takes some 15 s idle
CONFIGURATIONS = {variant.id: (dict(variant.options), 300 if variant.id == "standard" else 10)
                  for variant in GAME.variants} | {
    "permissive-store-ground-roofs": ({"store_when_free": False, "roof_on_ground": True}, 10),
    "fewest-idle-rounds": ({"idle_rounds": 3}, 10),
}
RULES_1_GAMES = 10  # rules version 1 is still served for the matches begun under it


def batches():
    """(seats, options, seeds) for every batch of the run."""
    cases = []
    for name, (options, games) in CONFIGURATIONS.items():
        games = int(PLAYOUTS) if PLAYOUTS else sampled(games)
        for seats in (2, 3, 4, 5):
            for batch in seed_batches(games, seed=seats * 1000, size=BATCH):
                cases.append(pytest.param(seats, options, batch, id=f"{seats}p-{name}-{batch.id}"))
    return cases


@pytest.mark.parametrize(("seats", "options", "batch"), batches())
def test_conformance(seats, options, batch):
    report = run_conformance(GAME, seats=seats, options=options, playouts=batch.playouts, seed=batch.seed)
    assert report.playouts == batch.playouts


@pytest.mark.parametrize("seats", [2, 5])
def test_conformance_of_rules_version_1(seats):
    (rules_1,) = GAME.earlier_versions
    games = int(PLAYOUTS) if PLAYOUTS else sampled(RULES_1_GAMES)
    report = run_conformance(rules_1, seats=seats, playouts=games, seed=seats * 1000)
    assert report.playouts == games
