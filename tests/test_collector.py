"""The garbage collector's settings for a serving process (collector.py)."""

from __future__ import annotations

import gc

import pytest

from gamehost.client import GameHostClient
from gamehost.host.collector import THRESHOLDS, settle_after_start
from hosts import HostProcess


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


def test_a_served_host_sets_its_collector_and_collects_when_a_busy_spell_ends():
    """``gamehost serve`` is the host's own process: its collector is set
    (a host started inside another program, as tests do, leaves it alone);
    once a busy spell is over, it runs one full collection and gives glibc's
    free memory back."""
    host = HostProcess().start()
    try:
        line = host.wait_for_log("garbage collector set for serving")
        assert line, "the serving process did not set its collector"
        assert tuple(line[0]["thresholds"]) == THRESHOLDS
        assert line[0]["frozen_objects"] > 10_000  # the modules and the catalog at least
        assert not host.log_lines("quiet after a busy spell: full collection")
        with GameHostClient(host.target) as client:  # a busy spell: matches held, with their seats and logs
            for _ in range(100):
                match = client.create_match("tictactoe").name
                token = client.join(match).player_token
                client.join(match)
                client.move(match, token, move_id="b2")
        quiet = host.wait_for_log("quiet after a busy spell: full collection", timeout=30)
        assert quiet, "no full collection after the busy spell"
        assert quiet[0]["collected_objects"] >= 0 and quiet[0]["memory_returned"] in (True, False)
    finally:
        host.stop()


def test_a_rules_worker_waiting_for_requests_looks_whether_to_collect(monkeypatch):
    """A worker blocked on the host's pipe looks at its collector's counts
    every QUIET_CHECK seconds that no request comes (where a busy spell's
    end is collected), and reads the request that then comes."""
    import os

    from gamehost.host.workers import wire, worker

    monkeypatch.setattr(worker, "QUIET_CHECK", 0.01)
    read_end, write_end = os.pipe()
    looks = []

    def look() -> None:
        looks.append(True)
        if len(looks) == 3:  # quiet three times over: now the host asks something
            os.write(write_end, wire.frame({"op": "ping", "id": 1}))

    with os.fdopen(read_end, "rb", buffering=0) as stream:
        frames = worker.FrameReader(stream).frames(wait=True, quiet=look)
    os.close(write_end)
    assert len(looks) == 3
    assert [wire.decode(body)["op"] for body in frames] == ["ping"]
