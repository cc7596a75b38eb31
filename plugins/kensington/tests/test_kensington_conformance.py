"""The conformance kit over every player count: 300 random games per player
count with the standard rules, in batches of BATCH games
so that pytest's workers share them, and fewer with the other option sets.
KENSINGTON_PLAYOUTS=N plays N per configuration, for a quick local run.

Random players make games of about 200 to 450 moves.
"""

import os

import pytest

from gamehost.sdk.conformance import run_conformance, sampled
from gamehost_kensington.game import Kensington

GAME = Kensington()
PLAYOUTS = os.environ.get("KENSINGTON_PLAYOUTS")
BATCH = 50
CONFIGURATIONS = {variant.id: (dict(variant.options), 300 if variant.id == "standard" else 10)
                  for variant in GAME.variants} | {
    "permissive-store-ground-roofs": ({"store_when_free": False, "roof_on_ground": True}, 10),
}


def batches():
    """(seats, options, first game, games) for every batch of the run."""
    cases = []
    for name, (options, games) in CONFIGURATIONS.items():
        games = int(PLAYOUTS) if PLAYOUTS else sampled(games)
        for seats in (2, 3, 4, 5):
            for first in range(0, games, BATCH):
                cases.append(pytest.param(seats, options, first, min(BATCH, games - first),
                                          id=f"{seats}p-{name}-{first}"))
    return cases


@pytest.mark.parametrize(("seats", "options", "first", "games"), batches())
def test_conformance(seats, options, first, games):
    report = run_conformance(GAME, seats=seats, options=options, playouts=games, seed=seats * 1000 + first)
    assert report.playouts == games
