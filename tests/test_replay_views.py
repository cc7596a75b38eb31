"""Past views (GetView with at_version): what the replay page steps through.
The host replays the log in a worker; each version's view must be exactly the
view that viewer was shown live at that version."""

from __future__ import annotations

import random

import grpc
import pytest
from gamehost.client import GameHostError
from gamehost.v1 import gamehost_pb2 as pb


def live_view(client, name: str, token: str = "") -> pb.View:
    """A view as GetView gives it now, without what a replay leaves out (the legal moves)."""
    view = client.view(name, token, svg=True, text=True)
    del view.legal_moves[:]
    return view


def past_view(client, name: str, version: int, token: str = "") -> pb.View:
    return client.view(name, token, svg=True, text=True, at_version=version)


def test_every_version_of_a_finished_match_replays_to_the_view_shown_live_then(client):
    match = client.create_match("tictactoe", seed=3)
    seen = {0: live_view(client, match.name)}
    tokens = [client.join(match.name).player_token for _ in range(2)]
    seen.update({v.version: v for v in [live_view(client, match.name)]})
    for turn, move_id in enumerate(["b2", "a1", "c3", "a3", "a2", "c2", "b3", "b1", "c1"]):
        client.move(match.name, tokens[turn % 2], move_id=move_id)
        shown = live_view(client, match.name)
        seen[shown.version] = shown
    final = client.match(match.name)
    assert final.status == pb.MATCH_STATUS_FINISHED and final.result.summary == "Draw."

    for version, shown in seen.items():
        assert past_view(client, match.name, version) == shown, version
    # Versions with no move (a join, the start) show the board as it was: empty, open then active.
    assert past_view(client, match.name, 1).status == pb.MATCH_STATUS_OPEN
    started = past_view(client, match.name, 3)
    assert started.status == pb.MATCH_STATUS_ACTIVE and list(started.to_move) == [0]
    assert not started.HasField("result") and not started.legal_moves
    last = past_view(client, match.name, final.version)
    assert last.status == pb.MATCH_STATUS_FINISHED and last.result.summary == "Draw."


def test_a_seat_replays_its_own_secrets_and_a_spectator_only_the_public_view(client):
    """Campanile hides each seat's hand: a seat's past views are its own live
    views; a spectator's past views are the spectator's live views."""
    match = client.create_match("campanile", seats=2, seed=11)
    tokens = [client.join(match.name).player_token for _ in range(2)]
    choose = random.Random(5)
    seen: dict[str, dict[int, pb.View]] = {"": {}, tokens[0]: {}, tokens[1]: {}}
    for _ in range(6):
        for token in seen:
            shown = live_view(client, match.name, token)
            seen[token][shown.version] = shown
        to_move = client.match(match.name).to_move[0]
        moves = client.view(match.name, tokens[to_move]).legal_moves
        client.move(match.name, tokens[to_move], move_id=choose.choice(moves).id)
    client.leave(match.name, tokens[1])  # leaving abandons the match: it is over, its past may be shown
    assert client.match(match.name).status == pb.MATCH_STATUS_ABANDONED

    for token, views in seen.items():
        for version, shown in views.items():
            past = past_view(client, match.name, version, token)
            assert (past.state, past.text, past.seat) == (shown.state, shown.text, shown.seat)
            # The live picture of a seat to move marks its move targets; a replay offers no moves.
            if not token:
                assert past.svg == shown.svg
            assert 'data-move=' not in past.svg
    assert seen[""][max(seen[""])].state != seen[tokens[0]][max(seen[""])].state, "the hands are hidden"


def test_past_views_of_a_running_match_or_outside_its_versions_are_refused(client):
    match = client.create_match("tictactoe")
    token = client.join(match.name).player_token
    client.join(match.name)
    client.move(match.name, token, move_id="b2")
    running = client.match(match.name)
    with pytest.raises(GameHostError) as caught:
        client.view(match.name, at_version=1)
    assert caught.value.code == grpc.StatusCode.FAILED_PRECONDITION and caught.value.reason == "MATCH_NOT_OVER"
    assert "once the match is over" in caught.value.message

    client.leave(match.name, token)
    over = client.match(match.name)
    with pytest.raises(GameHostError) as caught:
        client.view(match.name, at_version=over.version + 1)
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT and caught.value.reason == "VERSION_OUT_OF_RANGE"
    assert caught.value.field_violations == [("at_version", f"must be 0 to the match's version ({over.version}), "
                                                            f"not {over.version + 1}.")]
    assert client.match(match.name) == over and over.version == running.version + 2  # left, abandoned


def test_walking_every_past_view_keeps_the_hosts_replay_cache_within_its_budget(start_host):
    """Past views and their pictures are kept for readers stepping through a
    replay, but within --replay-cache-mb host-wide, whoever reads: one reader
    walking every version of many finished matches holds no more."""
    from test_metrics import scrape, value

    host = start_host("--metrics-port", "0", env={"GAMEHOST_REPLAY_CACHE_MB": "1"})
    budget = 1024 * 1024
    read = 0  # bytes of pictures the reader was sent
    peak = 0.0
    with host.client() as client:
        while read < 3 * budget:
            match = client.create_match("tictactoe")
            tokens = [client.join(match.name).player_token for _ in range(2)]
            for turn, move_id in enumerate(["b2", "a1", "c3", "a3", "a2", "c2", "b3", "b1", "c1"]):
                client.move(match.name, tokens[turn % 2], move_id=move_id)
            final = client.match(match.name).version
            for token in ["", *tokens]:
                for version in range(final + 1):
                    view = past_view(client, match.name, version, token)
                    read += len(view.svg) + len(view.text)
            kept = value(scrape(host), "gamehost_replay_cache_bytes")
            assert 0 < kept <= budget
            peak = max(peak, kept)
    assert peak > budget / 2  # the cache was used up to its budget, and held there
