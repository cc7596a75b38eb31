"""Rules versions pinned per match: a plugin upgraded
under a live match. The fixture plugin "pile" comes in three releases
(tests/fixtures/site/gamehost_fixture_plugins/pile_releases.py): 1.0 plays
rules "1" (take 1 or 2), 2.0 plays rules "2" (take 1 or 3) and still ships
"1", 3.0 plays "2" only. One data directory is served by a host of each
release in turn."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import grpc
import pytest
from gamehost.client import GameHostError
from gamehost.v1 import gamehost_pb2 as pb

from hosts import FIXTURE_SITE

RELEASES = Path(__file__).parent / "fixtures" / "pile_releases"


def start_release(start_host, data_dir: Path | None, release: str, *args: str):
    path = os.pathsep.join([str(FIXTURE_SITE), str(RELEASES / release)])
    return start_host(*args, data_dir=data_dir, env={"PYTHONPATH": path, "GAMEHOST_WORKERS": "1"})


def take(client, match: str, token: str, amount: int) -> pb.SubmitMoveResponse:
    return client.move(match, token, move={"take": amount})


def refusal(call) -> GameHostError:
    with pytest.raises(GameHostError) as caught:
        call()
    return caught.value


def new_match(client) -> tuple[str, list[str]]:
    match = client.create_match("pile")
    return match.name, [client.join(match.name).player_token, client.join(match.name).player_token]


def test_an_upgraded_plugin_plays_each_match_under_the_rules_it_began_with(start_host, tmp_path, admin_key):
    host = start_release(start_host, tmp_path, "1.0")
    with host.client() as client:
        (old, old_tokens), (orphan, orphan_tokens) = new_match(client), new_match(client)
        assert client.match(old).rules_version == "1"
        take(client, old, old_tokens[0], 2)
        take(client, orphan, orphan_tokens[0], 2)
    host.stop()

    # Release 2.0 ships rules "1" beside its new rules "2".
    host = start_release(start_host, tmp_path, "2.0")
    with host.client() as client:
        assert next(g for g in client.games() if g.id == "pile").rules_version == "2"
        # Its rules run in the worker processes, which load both versions.
        assert "pile" in host.wait_for_log("rules isolation")[0]["isolated"]
        listed = client.match(old)
        assert (listed.rules_version, listed.rules_unavailable) == ("1", False)
        # The old match goes on under rules "1": taking 2 is legal there, taking 3 is not.
        assert [m.id for m in client.view(old, old_tokens[1]).legal_moves] == ["take-1", "take-2"]
        take(client, old, old_tokens[1], 2)
        refused = refusal(lambda: take(client, old, old_tokens[0], 3))
        assert refused.code == grpc.StatusCode.FAILED_PRECONDITION and "take 1 or 2" in refused.message
        # A new match takes the newest rules.
        new, new_tokens = new_match(client)
        assert client.match(new).rules_version == "2"
        take(client, new, new_tokens[0], 3)
        assert "take 1 or 3" in refusal(lambda: take(client, new, new_tokens[1], 2)).message
        # The old match plays to its end under rules "1" (12 - 2 - 2 = 8 left) and replays under them.
        for seat, amount in ((0, 2), (1, 2), (0, 2), (1, 2)):
            take(client, old, old_tokens[seat], amount)
        finished = client.match(old)
        assert finished.status == pb.MATCH_STATUS_FINISHED and list(finished.result.winners) == [1]
        assert client.view(old, at_version=finished.version - 2).state.fields["left"].number_value == 2
    host.stop()

    # Release 3.0 changes no rule (still "2") and drops rules "1".
    keys, key = admin_key
    host = start_release(start_host, tmp_path, "3.0", "--api-keys", str(keys))
    with host.client() as client:
        # A match begun under 2.0 plays on: the distribution changed, its rules did not.
        take(client, new, new_tokens[1], 1)
        calls = {"GetView": lambda: client.view(orphan, orphan_tokens[1]),
                 "SubmitMove": lambda: take(client, orphan, orphan_tokens[1], 2),
                 "GetMatchLog": lambda: client.log(orphan),
                 "WatchMatch": lambda: next(client.watch(orphan))}
        for rpc, call in calls.items():
            error = refusal(call)
            assert error.code == grpc.StatusCode.FAILED_PRECONDITION, rpc
            assert error.reason == "RULES_VERSION_UNAVAILABLE", rpc
            assert error.metadata["rules_version"] == "1" and error.metadata["served_versions"] == "2", rpc
            assert "created with pile rules version 1" in error.message and "Install" in error.message, rpc
        # The orphaned match is still listed, marked unplayable; the others are not.
        shown = {m.name: m.rules_unavailable for m in client.matches(game="pile")}
        assert shown == {old: True, orphan: True, new: False}
        assert client.match(orphan).rules_unavailable
        assert client.view(new, new_tokens[0]).state.fields["left"].number_value == 12 - 3 - 1
        # An operator can still clear what the dropped version left: abort and
        # delete need no rules.
        with host.client(key) as operator:
            error = refusal(lambda: operator.delete(orphan))
            assert (error.code, error.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "MATCH_NOT_OVER")
            before = client.match(orphan).version
            aborted = operator.abort(orphan, "rules 1 retired")
            assert (aborted.status, aborted.rules_unavailable) == (pb.MATCH_STATUS_ABORTED, True)
            assert aborted.version == client.match(orphan).version == before + 1
            assert refusal(lambda: operator.abort(orphan)).reason == "MATCH_OVER"
            for match in (orphan, old):
                operator.delete(match)
                assert refusal(lambda: client.match(match)).code == grpc.StatusCode.NOT_FOUND
            assert [m.name for m in client.matches(game="pile")] == [new]


def test_replicas_of_two_releases_on_postgresql_each_play_the_rules_they_have(start_host, postgres_url):
    # A rolling upgrade: replica a still runs release 1.0, replica b already runs 2.0.
    old_host, new_host = (start_release(start_host, None, release, "--store", postgres_url, "--claim-lease", "1",
                                        "--replica-id", name) for name, release in (("a", "1.0"), ("b", "2.0")))
    with old_host.client() as a, new_host.client() as b:
        old, old_tokens = new_match(a)
        take(a, old, old_tokens[0], 1)
        # Replica b catches up and plays the match under its rules "1".
        take(b, old, old_tokens[1], 2)
        assert "take 1 or 2" in refusal(lambda: take(b, old, old_tokens[0], 3)).message
        take(a, old, old_tokens[0], 2)
        assert b.view(old, old_tokens[1]).state.fields["left"].number_value == 12 - 1 - 2 - 2
        # A match begun on b has rules "2", which replica a lacks: a refuses it clearly and serves on.
        new, new_tokens = new_match(b)
        take(b, new, new_tokens[0], 3)
        error = refusal(lambda: a.view(new, new_tokens[1]))
        assert (error.code, error.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "RULES_VERSION_UNAVAILABLE")
        assert error.metadata["rules_version"] == "2" and error.metadata["served_versions"] == "1"
        assert a.match(new).rules_unavailable and not b.match(new).rules_unavailable
        take(a, old, old_tokens[1], 1)


def test_an_invalid_earlier_version_is_reported_and_skipped_while_the_game_is_served(monkeypatch):
    monkeypatch.syspath_prepend(str(FIXTURE_SITE))
    from gamehost.host.plugins import load_catalog
    from gamehost_fixture_plugins.pile_releases import PileRules1, PileRules2, Release

    class OtherId(PileRules1):
        id = "heap"
        version = "0"

    class Shipping(PileRules2):
        earlier_versions = (PileRules1(), OtherId(), PileRules2())

    catalog = load_catalog([("fixture-pile", Release(Shipping()))], use_entry_points=False)
    entry = catalog.get("pile")
    assert sorted(entry.versions) == ["1", "2"] and entry.at_version("1").game.takes == (1, 2)
    assert sorted(catalog.all_rules()) == ["pile@1", "pile@2"]
    [report] = catalog.reports
    assert report.games == ["pile"] and report.errors == [
        "game 'pile': earlier version '0': has id 'heap', not 'pile'",
        "game 'pile': earlier version '2': rules version '2' is given twice"]


def test_gamehost_plugins_names_every_rules_version_a_release_ships():
    path = os.pathsep.join([str(FIXTURE_SITE), str(RELEASES / "2.0")])
    listed = subprocess.run([sys.executable, "-m", "gamehost.cli.main", "plugins"], capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": path}, timeout=60)
    assert "gamehost-fixture-pile 2.0\n    games: pile (rules 2, 1)\n" in listed.stdout, listed.stdout


def test_the_conformance_test_covers_every_rules_version_a_game_ships(monkeypatch):
    monkeypatch.syspath_prepend(str(FIXTURE_SITE))
    from gamehost.testing.pytest_plugin import conformance_cases
    from gamehost_fixture_plugins.pile_releases import PileRules2Shipping1

    cases = {case.id: case.values[0].version for case in conformance_cases(PileRules2Shipping1())}
    assert cases == {"2-seats": "2", "rules-1-2-seats": "1"}
