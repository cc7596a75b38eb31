"""A conformance sweep cut into batches plays the same seeds, each batch a
test of its own; the restore check reads the match afresh from the store
and leaves the one the host plays in place."""

from __future__ import annotations

import pytest

from gamehost.testing.pytest_plugin import conformance_test
from gamehost.testing.sweeps import SeedBatch, sampled, seed_batches
from gamehost_tictactoe import TicTacToe


def test_batches_play_the_sweeps_seeds_once_each():
    batches = seed_batches(45, seed=4000, size=20)
    assert batches == [SeedBatch(4000, 20), SeedBatch(4020, 20), SeedBatch(4040, 5)]
    assert [seed for batch in batches for seed in range(batch.seed, batch.seed + batch.playouts)] == \
        list(range(4000, 4045))
    assert [batch.id for batch in batches] == ["seeds4000-4019", "seeds4020-4039", "seeds4040-4044"]
    assert seed_batches(1, seed=7, size=20)[0].id == "seed7"


def test_a_batch_plays_at_least_one_game():
    with pytest.raises(ValueError):
        seed_batches(10, seed=0, size=0)


def test_the_share_samples_the_sweep_before_it_is_cut(monkeypatch):
    monkeypatch.setenv("GAMEHOST_CONFORMANCE_SHARE", "0.3")
    assert sampled(500) == 150 and sampled(1) == 1
    assert sum(batch.playouts for batch in seed_batches(sampled(500), seed=0, size=10)) == 150


def test_a_weight_scales_the_sample_but_never_the_full_sweep(monkeypatch):
    monkeypatch.setenv("GAMEHOST_CONFORMANCE_SHARE", "0.1")
    assert sampled(500, weight=0.5) == 25 and sampled(500) == 50 and sampled(3, weight=0.5) == 1
    monkeypatch.setenv("GAMEHOST_CONFORMANCE_SHARE", "1")
    assert sampled(500, weight=0.5) == 500
    with pytest.raises(ValueError):
        sampled(500, weight=0)


def _cases(test) -> list[str]:
    (mark,) = [mark for mark in test.pytestmark if mark.name == "parametrize"]
    return [case.id for case in mark.args[1]]


def test_conformance_test_cuts_each_case_with_batch(monkeypatch):
    monkeypatch.setenv("GAMEHOST_CONFORMANCE_SHARE", "1")
    assert _cases(conformance_test(TicTacToe(), playouts=30)) == ["2-seats"]
    assert _cases(conformance_test(TicTacToe(), playouts=30, batch=12)) == [
        "2-seats-seeds2000-2011", "2-seats-seeds2012-2023", "2-seats-seeds2024-2029"]


async def test_a_restored_copy_leaves_the_held_match_in_place():
    from gamehost.host.engine.match_engine import MatchEngine
    from gamehost.host.plugins import load_catalog
    from gamehost.host.store.memory import MemoryStore

    engine = MatchEngine(load_catalog(), MemoryStore(), snapshot_every=2)
    try:
        live = await engine.create_match("tictactoe", seats=2, seed=5)
        tokens = [(await engine.join(live.id, seat, f"p{seat}"))[2] for seat in (0, 1)]
        for seat in (0, 1, 0):
            move = (await engine.legal_moves(live, seat))[0]
            await engine.submit(live.id, tokens[seat], move_id=move.id)
        held_state = await engine.state_of(live)
        copy = await engine.restored_copy(live.id)
        assert copy is not live and await engine.live_match(live.id) is live
        assert copy.version == live.version and await engine.state_of(copy) == held_state
        move = (await engine.legal_moves(live, 1))[0]
        assert (await engine.submit(live.id, tokens[1], move_id=move.id)).version == live.version
    finally:
        await engine.close()
