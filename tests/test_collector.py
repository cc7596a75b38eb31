"""The garbage collector's settings for a serving process (collector.py)."""

from __future__ import annotations

import gc

import pytest

from gamehost.host.collector import THRESHOLDS, settle_after_start


@pytest.fixture
def collector_as_it_was():
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_start_up_objects_are_frozen_and_full_collections_are_rare(collector_as_it_was):
    made_at_start_up = {"a match": [1, 2, 3]}
    settle_after_start()
    assert gc.get_threshold() == THRESHOLDS
    assert gc.get_freeze_count() > 0
    assert not gc.is_finalized(made_at_start_up)
    assert all(tracked is not made_at_start_up for tracked in gc.get_objects())  # frozen: walked no more
    # Full collections come after many more allocations than the interpreter's (700, 10, 10).
    assert THRESHOLDS[0] * THRESHOLDS[1] * THRESHOLDS[2] >= 20 * 700 * 10 * 10
