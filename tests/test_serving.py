"""The host as an operator and a generic gRPC tool see it: the catalog,
reflection, health, plugin isolation and graceful shutdown."""

from __future__ import annotations

import time
from importlib.metadata import entry_points

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase

from gamehost.host.plugins import ENTRY_POINT_GROUP
from gamehost.v1 import gamehost_pb2 as pb


def installed_game_plugins() -> set[str]:
    return {ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)}


def test_host_serves_tictactoe_and_every_installed_plugin(client):
    served = {game.id for game in client.games()}
    assert "tictactoe" in served
    # Every installed plugin's entry point name is its game id by convention.
    assert installed_game_plugins() <= served


def test_catalog_entry_describes_the_game(client):
    game = client.game("games/tictactoe")
    assert (game.name, game.title, game.min_players, game.max_players) == ("games/tictactoe", "Tic-tac-toe", 2, 2)
    assert game.rules_version == "1" and game.summary
    assert game.options_schema.fields["type"].string_value == "object"
    assert not game.hidden_information and not game.chance
    assert game.plugin.startswith("gamehost-tictactoe")


def test_list_games_pages_with_tokens(host):
    from gamehost.v1 import gamehost_pb2 as pb, gamehost_pb2_grpc as pb_grpc

    with host.channel() as channel:
        stub = pb_grpc.GameHostStub(channel)
        names, token = [], ""
        while True:
            page = stub.ListGames(pb.ListGamesRequest(page_size=1, page_token=token))
            assert len(page.games) <= 1
            names += [game.name for game in page.games]
            token = page.next_page_token
            if not token:
                break
        everything = [game.name for game in stub.ListGames(pb.ListGamesRequest()).games]
    assert names == everything and len(names) >= 2


def test_reflection_lists_the_gamehost_services(host):
    with host.channel() as channel:
        database = ProtoReflectionDescriptorDatabase(channel)
        services = set(database.get_services())
        assert {"gamehost.v1.GameHost", "grpc.health.v1.Health", "grpc.reflection.v1alpha.ServerReflection"} <= services
        described = database.FindFileContainingSymbol("gamehost.v1.GameHost")
        assert described.package == "gamehost.v1"
        assert {m.name for m in described.service[0].method} >= {
            "ListGames", "GetGame", "CreateMatch", "ListMatches", "GetMatch", "JoinMatch", "LeaveMatch",
            "GetView", "SubmitMove", "WatchMatch", "GetMatchLog"}


def test_the_host_serves_on_uvloop_unless_told_asyncio(host, start_host):
    assert host.log_lines("host serving")[0]["event_loop"] == "uvloop"  # installed with the host on Linux
    on_asyncio = start_host(env={"GAMEHOST_EVENT_LOOP": "asyncio"})
    assert on_asyncio.log_lines("host serving")[0]["event_loop"] == "asyncio"
    with on_asyncio.client() as client:
        assert "tictactoe" in {game.id for game in client.games()}


def test_health_is_serving(host):
    with host.channel() as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        for service in ("", "gamehost.v1.GameHost"):
            answer = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=5)
            assert answer.status == health_pb2.HealthCheckResponse.SERVING


def test_broken_plugins_are_skipped_with_a_clear_log_line(host, client):
    skipped = {line["plugin"]: line for line in host.log_lines("plugin skipped")}
    assert "ModuleNotFoundError" in skipped["fixture-broken-import"]["error"]
    assert "gamehost_module_that_does_not_exist" in skipped["fixture-broken-import"]["error"]
    invalid = [line for line in host.log_lines("game skipped") if line["plugin"] == "fixture-invalid-game"]
    assert invalid and any("must match" in error for error in invalid[0]["errors"])
    served = {game.id for game in client.games()}
    assert "crashy" in served and "tictactoe" in served


def test_gamehost_plugins_command_lists_each_plugin_with_its_error(tmp_path):
    import os
    import subprocess
    import sys

    from hosts import FIXTURE_SITE

    result = subprocess.run([sys.executable, "-m", "gamehost.cli.main", "plugins"], capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": str(FIXTURE_SITE)}, timeout=60)
    assert result.returncode == 1  # some plugin failed
    lines = result.stdout.splitlines()
    broken = next(i for i, line in enumerate(lines) if line.startswith("fixture-broken-import"))
    assert "FAILED" in lines[broken] and "gamehost-fixture-plugins" in lines[broken]
    assert "import failed: ModuleNotFoundError" in lines[broken + 1]
    tictactoe = next(line for line in lines if line.startswith("tictactoe"))
    assert " ok " in tictactoe


def test_graceful_shutdown_reports_not_serving_ends_streams_and_exits_cleanly(start_host):
    import threading

    host = start_host()
    statuses = []
    with host.client() as client, host.channel() as channel:
        health_stream = health_pb2_grpc.HealthStub(channel).Watch(health_pb2.HealthCheckRequest(service=""))
        statuses.append(next(health_stream).status)

        def follow_health():
            try:
                statuses.extend(answer.status for answer in health_stream)
            except grpc.RpcError:
                pass  # the connection closes once the host is gone

        follower = threading.Thread(target=follow_health, daemon=True)
        follower.start()
        match = client.create_match("tictactoe")
        client.join(match.name)
        stream = client.watch(match.name)
        assert next(stream).version == 1  # the stream is established
        host.process.terminate()
        # The stream ends cleanly (no error) when the host shuts down.
        assert list(stream) == []
        follower.join(15)
    assert host.process.wait(15) == 0
    assert statuses[0] == health_pb2.HealthCheckResponse.SERVING
    assert health_pb2.HealthCheckResponse.NOT_SERVING in statuses[1:]
    assert host.log_lines("host stopped")


def test_plugin_bots_play_and_failing_observers_are_contained(host, client):
    match = client.create_match("crashy", bots=[1], bot="first")
    me = client.join(match.name, seat=0).player_token
    while client.view(match.name, me).status == pb.MATCH_STATUS_ACTIVE:
        view = client.view(match.name, me)
        if view.legal_moves:
            client.move(match.name, me, move_id="add1", expected_version=view.version)
        else:
            next(iter(client.watch(match.name, me, after_version=view.version)), None)
    bot_labels = {e.label for e in client.log(match.name).events if e.kind == pb.EVENT_KIND_MOVED and e.seat == 1}
    assert bot_labels == {"add 1"}, "the plugin's bot always plays the first legal move"
    assert client.match(match.name).status == pb.MATCH_STATUS_FINISHED
    assert host.wait_for_log("match observer failed", match.name)
    refused = host.log_lines("plugin bot skipped: the name is taken")
    assert refused and refused[0]["bot"] == "random"


def finished_log(client, name: str, timeout: float = 30.0):
    """The match's log once it has finished."""
    deadline = time.monotonic() + timeout
    while client.match(name).status != pb.MATCH_STATUS_FINISHED and time.monotonic() < deadline:
        time.sleep(0.05)
    assert client.match(name).status == pb.MATCH_STATUS_FINISHED, "the bots played the match to the end"
    return client.log(name).events


@pytest.mark.parametrize("bot", ["broken", "cheat"])
def test_a_bot_that_fails_or_cheats_is_replaced_by_the_random_bot_for_that_move(host, client, bot):
    match = client.create_match("crashy", bots=[0, 1], bot=bot, seed=7)
    moves = [e for e in finished_log(client, match.name) if e.kind == pb.EVENT_KIND_MOVED]
    assert {e.label for e in moves} == {"add 1"}, "only legal moves, and none the rules crashed on, are in the log"
    replaced = host.wait_for_log("bot failed; a random move is played instead", match.name, at_least=len(moves))
    assert len(replaced) >= len(moves) and replaced[0]["bot"] == bot


def test_a_bot_move_the_rules_crash_on_is_tried_again_with_another_choice(host, client):
    # Crashy's rules crash on "add 3", which the random bot picks half the time:
    # each crash is retried with a fresh draw until the match is over.
    match = client.create_match("crashy", bots=[0, 1], seed=7)
    moves = [e for e in finished_log(client, match.name) if e.kind == pb.EVENT_KIND_MOVED]
    assert {e.label for e in moves} == {"add 1"} and len(moves) == 5
    retried = host.wait_for_log("host move failed; trying again", match.name)
    assert retried and "ZeroDivisionError" in retried[0]["error"] and retried[0]["retry"] == 1
