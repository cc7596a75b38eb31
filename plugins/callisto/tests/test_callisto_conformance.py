"""Random playouts of Callisto through the conformance kit (the real match engine).

At least 300 random games per player count: the standard game gets them. Those 900 games already take most of the ~90 s the plugin's tests may
use, so the variants, whose move generation is the same code, get a few each (a
match plays one game per player).
"""

from __future__ import annotations

import pytest
from gamehost.sdk.conformance import run_conformance, sampled

from gamehost_callisto.game import Callisto

CASES = [
    # (seats, options, playouts)
    (2, {}, 300),
    (3, {}, 300),
    (4, {}, 300),
    (2, {"one_sided": True}, 4),
    (3, {"one_sided": True}, 3),
    (4, {"one_sided": True}, 3),
    (2, {"match": True}, 2),
    (3, {"match": True}, 1),
    (4, {"match": True}, 1),
]


@pytest.mark.parametrize("seats, options, playouts", CASES,
                         ids=[f"{seats}p-{'-'.join(options) or 'standard'}" for seats, options, _ in CASES])
def test_callisto_passes_the_conformance_kit(seats, options, playouts):
    playouts = sampled(playouts)
    report = run_conformance(Callisto(), seats=seats, options=options, playouts=playouts, seed=1000 * seats)
    assert report.playouts == playouts
    if not options.get("match"):
        # §2.7: the tie-break always leaves exactly one winner of a single game.
        assert sum(report.wins) == playouts
