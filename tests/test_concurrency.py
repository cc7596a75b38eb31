"""Many matches at once: bots, players racing on the same match, watchers
joining late. Every log stays gapless and every watcher sees it all once."""

from __future__ import annotations

import threading

from gamehost.client import GameHostError
from gamehost.v1 import gamehost_pb2 as pb


def test_forty_bot_matches_with_three_watchers_each(client, host):
    matches = [client.create_match("tictactoe", bots=[0, 1], seed=seed).name for seed in range(40)]
    seen: dict[tuple[str, int], list[int]] = {}

    def watch(name, index):
        with host.client() as own:
            seen[(name, index)] = [event.version for event in own.watch(name)]

    threads = [threading.Thread(target=watch, args=(name, i), daemon=True) for name in matches for i in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    for name in matches:
        final = client.match(name)
        assert final.status == pb.MATCH_STATUS_FINISHED
        expected = list(range(1, final.version + 1))
        assert [e.version for e in client.log(name).events] == expected
        for index in range(3):
            assert seen[(name, index)] == expected


def test_two_clients_racing_with_the_same_expected_version_apply_exactly_one_move(client, host):
    match = client.create_match("tictactoe")
    x = client.join(match.name).player_token
    client.join(match.name)
    view = client.view(match.name, x)
    results: list[object] = []
    barrier = threading.Barrier(8)

    def submit(move_id):
        with host.client() as own:
            barrier.wait()
            try:
                results.append(own.move(match.name, x, move_id=move_id, expected_version=view.version))
            except GameHostError as error:
                results.append(error)

    moves = [m.id for m in view.legal_moves][:8]
    threads = [threading.Thread(target=submit, args=(move_id,)) for move_id in moves]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    applied = [r for r in results if not isinstance(r, GameHostError)]
    refused = [r for r in results if isinstance(r, GameHostError)]
    assert len(applied) == 1 and len(refused) == 7
    assert all(error.reason == "STALE_VERSION" for error in refused)
    assert [e.kind for e in client.log(match.name).events].count(pb.EVENT_KIND_MOVED) == 1
