"""Random playouts of Callisto through the conformance kit (the real match engine).

At least 300 random games per player count: the standard game gets them. Those 900 games already take most of the
time the plugin's tests may use, so the variants, whose move generation is the same code, get a few each (a
match plays one game per player). Each sweep runs in batches of BATCH seeds, so
that pytest's workers share them. The kit also checks every word of every listed
move and picture in French at every step (the game declares French): that more
than doubles a game's cost (4 seats: about 0.7 s of CPU without, 1.7 s with).

The game plays with the compiled placement search when gamehost-callisto-native is installed (as make installs it
wherever cargo is), and the kit then holds it at every position of the sweep to the Python rules, the reference: the
same legal moves in the same order, the same next states, the same bot hints (check (r)).
"""

from __future__ import annotations

import pytest
from gamehost.testing.conformance import run_conformance
from gamehost.testing.sweeps import sampled, seed_batches

from gamehost_callisto import compiled, rules
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
REFERENCE = Callisto(rules.PYTHON_SEARCH) if compiled.COMPILED_SEARCH is not None else None
BATCH = 10  # at 4 seats about 1.7 s of CPU a game: a batch takes some 17 s idle, far from pytest's timeout


def batches():
    """(seats, options, seeds) for every batch of the run."""
    return [pytest.param(seats, options, batch, id=f"{seats}p-{'-'.join(options) or 'standard'}-{batch.id}")
            for seats, options, playouts in CASES
            for batch in seed_batches(sampled(playouts), seed=1000 * seats, size=BATCH)]


@pytest.mark.parametrize("seats, options, batch", batches())
def test_callisto_passes_the_conformance_kit(seats, options, batch):
    report = run_conformance(Callisto(), seats=seats, options=options, playouts=batch.playouts, seed=batch.seed,
                             reference=REFERENCE)
    assert report.playouts == batch.playouts
    if REFERENCE is not None:
        # Every position: one before each move, and the final one of each playout.
        assert report.compared == report.moves + report.playouts
    if not options.get("match"):
        # §2.7: the tie-break always leaves exactly one winner of a single game.
        assert sum(report.wins) == batch.playouts
