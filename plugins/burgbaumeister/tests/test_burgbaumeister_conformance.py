"""The conformance kit over every player count and variant: 500 random games
for each, in batches of BATCH games so that pytest's
workers share them, plus a shorter run with the memory aid (its views carry
more). BURGBAUMEISTER_PLAYOUTS=N plays N per configuration, for a quick
local run.

Random players make long games here (about 200 to 300 moves, most ended by
the termination guard or by "nobody can take").
"""

import os

import pytest

from gamehost.sdk.conformance import run_conformance, sampled
from gamehost_burgbaumeister.game import Burgbaumeister

GAME = Burgbaumeister()
PLAYOUTS = os.environ.get("BURGBAUMEISTER_PLAYOUTS")
BATCH = 100
CONFIGURATIONS = {variant.id: (dict(variant.options), 500) for variant in GAME.variants} | {
    "points-memory-aid": ({"special_cards": True, "memory_aid": True}, 50),
}


def batches():
    """(seats, options, first game, games) for every batch of the run."""
    cases = []
    for name, (options, games) in CONFIGURATIONS.items():
        games = int(PLAYOUTS) if PLAYOUTS else sampled(games)
        for seats in (2, 3, 4):
            for first in range(0, games, BATCH):
                cases.append(pytest.param(seats, options, first, min(BATCH, games - first),
                                          id=f"{seats}p-{name}-{first}"))
    return cases


@pytest.mark.parametrize(("seats", "options", "first", "games"), batches())
def test_conformance(seats, options, first, games):
    report = run_conformance(GAME, seats=seats, options=options, playouts=games, seed=seats * 1000 + first,
                             legible_text=True, tappable_targets=True)
    assert report.playouts == games
