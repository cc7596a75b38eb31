"""The host's conformance kit over both Scalino games: 500 random games per
player count of each game, fewer for the other rule
readings. The long sweeps run in batches of BATCH seeds, so that pytest's
workers share them. SCALINO_PLAYOUTS=N sets every count to N, for a quick local run.
"""

from __future__ import annotations

import os

import pytest

from gamehost.testing.conformance import run_conformance
from gamehost.testing.sweeps import sampled, seed_batches
from gamehost_scalino.game import Scalino, ScalinoPyramid

PLAYOUTS = os.environ.get("SCALINO_PLAYOUTS")
BATCH = 60  # about 0.25 s of CPU a game: a batch takes some 15 s idle


def playouts(default: int) -> int:
    return int(PLAYOUTS) if PLAYOUTS else sampled(default)


def batches(seat_counts, games: int, seed_per_seat: int):
    """(seats, seeds) for every batch of the sweeps."""
    return [pytest.param(seats, batch, id=f"{seats}p-{batch.id}") for seats in seat_counts
            for batch in seed_batches(playouts(games), seed=seed_per_seat * seats, size=BATCH)]


@pytest.mark.parametrize("seats, batch", batches([2, 4], 500, 1000))
def test_scalino_conformance(seats, batch):
    # Text only: a placement's target is one glyph in a cell, too small to tap until moves are composed.
    report = run_conformance(Scalino(), seats=seats, playouts=batch.playouts, seed=batch.seed, legible_text=True)
    assert report.playouts == batch.playouts


@pytest.mark.parametrize("seats", [2, 4])
def test_scalino_diamond_pyramid_conformance(seats):
    report = run_conformance(Scalino(), seats=seats, options={"geometry": "diamonds"}, playouts=playouts(10),
                             seed=50_000 + seats)
    assert report.playouts == playouts(10)


@pytest.mark.parametrize("options", [
    {"pocket_rule": "cell", "staircase_steps": "level-change"},
    {"pocket_rule": "region", "start_player": "first-seat"},
    {"pocket_rule": "off"},
])
def test_scalino_other_readings_conformance(options):
    report = run_conformance(Scalino(), seats=4, options=options, playouts=playouts(6), seed=60_000)
    assert report.playouts == playouts(6)


@pytest.mark.parametrize("seats, batch", batches([2, 3, 4, 5, 6], 500, 2000))
def test_scalino_pyramid_conformance(seats, batch):
    report = run_conformance(ScalinoPyramid(), seats=seats, playouts=batch.playouts, seed=batch.seed,
                             legible_text=True, tappable_targets=True)
    assert report.playouts == batch.playouts


def test_scalino_pyramid_diamonds_any_face_conformance():
    options = {"geometry": "diamonds", "free_side": "any-face"}
    report = run_conformance(ScalinoPyramid(), seats=3, options=options, playouts=playouts(10), seed=70_000)
    assert report.playouts == playouts(10)
