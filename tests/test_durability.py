"""Matches outlive the host: SIGKILL mid-match, restart on the same data
directory, and play on from the last acknowledged move."""

from __future__ import annotations

import threading
import time

from gamehost.client import GameHostError
from gamehost.v1 import gamehost_pb2 as pb


def board(client, name, token=""):
    return client.view(name, token).state.fields["board"]


def test_match_continues_after_sigkill_from_the_last_acknowledged_move(start_host, tmp_path):
    host = start_host(data_dir=tmp_path)
    with host.client() as client:
        match = client.create_match("tictactoe", seed=5)
        x = client.join(match.name).player_token
        o = client.join(match.name).player_token
        client.move(match.name, x, move_id="a3", request_id="x1")
        acknowledged = client.move(match.name, o, move_id="a2", request_id="o1")
        before = client.view(match.name, x)
    host.kill()

    host = start_host(data_dir=tmp_path)
    with host.client() as client:
        after = client.view(match.name, x)
        assert (after.version, after.state) == (before.version, before.state) == (acknowledged.version, before.state)
        # A client retrying its last call after the crash gets the first answer back.
        retry = client.move(match.name, o, move_id="a2", request_id="o1")
        assert retry.replayed and retry.version == acknowledged.version
        for token, move_id in ((x, "b3"), (o, "b2"), (x, "c3")):
            client.move(match.name, token, move_id=move_id)
        final = client.match(match.name)
        assert final.status == pb.MATCH_STATUS_FINISHED and list(final.result.winners) == [0]
        assert [e.version for e in client.log(match.name).events] == list(range(1, final.version + 1))


def test_no_acknowledged_move_is_lost_or_applied_twice_when_killed_under_load(start_host, tmp_path):
    host = start_host(data_dir=tmp_path)
    matches = []
    with host.client() as client:
        for _ in range(8):
            match = client.create_match("tictactoe")
            tokens = [client.join(match.name).player_token, client.join(match.name).player_token]
            matches.append((match.name, tokens))

    acknowledged: dict[str, list[tuple[int, str]]] = {name: [] for name, _ in matches}
    in_flight: dict[str, tuple[int, str, str] | None] = {name: None for name, _ in matches}

    def play(name, tokens):
        with host.client() as client:
            client.timeout = 5
            number = 0
            try:
                while True:
                    view = client.view(name, tokens[0])
                    if view.status != pb.MATCH_STATUS_ACTIVE:
                        return
                    seat = view.to_move[0]
                    seat_view = client.view(name, tokens[seat])
                    request_id = f"{name}-{number}"
                    in_flight[name] = (seat, request_id, seat_view.legal_moves[0].id)
                    answer = client.move(name, tokens[seat], move_id=seat_view.legal_moves[0].id,
                                         request_id=request_id)
                    acknowledged[name].append((answer.version, request_id))
                    in_flight[name] = None
                    number += 1
                    time.sleep(0.01)
            except GameHostError:
                return  # the host died under us

    threads = [threading.Thread(target=play, args=m, daemon=True) for m in matches]
    for thread in threads:
        thread.start()
    time.sleep(0.15)
    host.kill()
    for thread in threads:
        thread.join(10)
    assert sum(len(acks) for acks in acknowledged.values()) > 0

    host = start_host(data_dir=tmp_path)
    with host.client() as client:
        for name, tokens in matches:
            log = client.log(name)
            versions = [e.version for e in log.events]
            assert versions == list(range(1, len(versions) + 1)), "the log has no gap"
            moved = {e.version for e in log.events if e.kind == pb.EVENT_KIND_MOVED}
            for version, _ in acknowledged[name]:
                assert version in moved, f"acknowledged move at version {version} of {name} was lost"
            pending = in_flight[name]
            if pending is not None:
                seat, request_id, move_id = pending
                view = client.view(name, tokens[seat])
                if view.status != pb.MATCH_STATUS_ACTIVE:
                    continue
                try:
                    answer = client.move(name, tokens[seat], move_id=move_id, request_id=request_id)
                except GameHostError as error:
                    # Not committed before the kill, and no longer this seat's move: refused cleanly.
                    assert error.code.name in ("FAILED_PRECONDITION",)
                    continue
                after = client.log(name)
                # Either replayed (it was committed) or applied now, exactly once.
                assert answer.replayed == (answer.version in moved)
                assert len([e for e in after.events if e.kind == pb.EVENT_KIND_MOVED]) == \
                    len(moved) + (0 if answer.replayed else 1)


def test_bot_matches_resume_after_a_restart(start_host, tmp_path):
    host = start_host("--bot-delay", "0.05", data_dir=tmp_path)
    with host.client() as client:
        match = client.create_match("tictactoe", bots=[0, 1], seed=9)
        for event in client.watch(match.name):
            if event.version >= 3:
                break
    host.kill()
    host = start_host(data_dir=tmp_path)
    with host.client() as client:
        list(client.watch(match.name))
        final = client.match(match.name)
        assert final.status == pb.MATCH_STATUS_FINISHED
        assert [e.version for e in client.log(match.name).events] == list(range(1, final.version + 1))


def test_finished_matches_are_kept_exactly_as_they_were(start_host, tmp_path):
    host = start_host(data_dir=tmp_path)
    with host.client() as client:
        match = client.create_match("tictactoe", bots=[0, 1], seed=21)
        list(client.watch(match.name))
        before = client.log(match.name), client.view(match.name)
    host.stop()
    host = start_host(data_dir=tmp_path)
    with host.client() as client:
        assert (client.log(match.name), client.view(match.name)) == before
