"""Prometheus metrics: scraped over HTTP from a real host while it plays."""

from __future__ import annotations

import socket
import threading
import time
import urllib.request

import grpc
import pytest
from gamehost.client import GameHostError
from gamehost.v1 import gamehost_pb2 as pb
from gamehost.v1 import gamehost_pb2_grpc as pb_grpc
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase
from prometheus_client.parser import text_string_to_metric_families

X_WINS_TOP_ROW = ["a3", "a2", "b3", "b2", "c3"]


def scrape(host) -> dict[tuple[str, frozenset], float]:
    """Every sample of the host's /metrics, by (name, labels)."""
    with urllib.request.urlopen(f"http://127.0.0.1:{host.metrics_port}/metrics", timeout=10) as response:
        assert response.status == 200
        text = response.read().decode()
    return {(sample.name, frozenset(sample.labels.items())): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples}


def value(samples, name: str, **labels) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def rpc(method: str, code: str = "OK", service: str = "gamehost.v1.GameHost", kind: str = "unary") -> dict:
    return {"grpc_service": service, "grpc_method": method, "grpc_type": kind, "grpc_code": code}


def wait_for(predicate, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_metrics_are_off_unless_asked_for(host):
    assert host.metrics_port is None
    assert host.log_lines("host serving")[0]["metrics_port"] is None


def test_rpcs_moves_matches_and_watchers_are_counted(start_host):
    host = start_host("--metrics-port", "0")
    assert host.metrics_port and host.metrics_port != host.port
    with host.client() as client:
        match = client.create_match("tictactoe", seed=3)
        tokens = [client.join(match.name).player_token for _ in range(2)]
        events, ended = [], threading.Event()

        def watch():
            events.extend(client.watch(match.name))
            ended.set()

        threading.Thread(target=watch, daemon=True).start()
        wait_for(lambda: value(scrape(host), "gamehost_watchers", game="tictactoe") == 1)
        during = scrape(host)
        assert value(during, "gamehost_matches", game="tictactoe", status="active") == 1
        assert value(during, "gamehost_matches", game="campanile", status="active") == 0

        for turn, move_id in enumerate(X_WINS_TOP_ROW[:-1]):
            client.move(match.name, tokens[turn % 2], move_id=move_id)
        with pytest.raises(GameHostError) as refused:
            client.move(match.name, tokens[1], move_id="c3")  # X is to move, not O
        assert refused.value.code == grpc.StatusCode.FAILED_PRECONDITION
        with pytest.raises(GameHostError):
            client.match("matches/nosuchmatch")
        client.move(match.name, tokens[0], move_id="c3")
        assert ended.wait(10), "the watch stream ends with the match"

        bot_match = client.create_match("tictactoe", bots=(0, 1))
        wait_for(lambda: client.match(bot_match.name).status == pb.MATCH_STATUS_FINISHED)
        bot_moves = len([e for e in client.log(bot_match.name).events if e.kind == pb.EVENT_KIND_MOVED])

    after = scrape(host)
    assert value(after, "gamehost_grpc_server_handled_total", **rpc("SubmitMove")) == 5
    assert value(after, "gamehost_grpc_server_handled_total", **rpc("SubmitMove", "FAILED_PRECONDITION")) == 1
    assert value(after, "gamehost_grpc_server_handled_total", **rpc("GetMatch", "NOT_FOUND")) == 1
    assert value(after, "gamehost_grpc_server_handled_total", **rpc("JoinMatch")) == 2
    assert value(after, "gamehost_grpc_server_handled_total", **rpc("WatchMatch", kind="server_stream")) == 1
    assert value(after, "gamehost_grpc_server_handling_seconds_count", **rpc("SubmitMove")) == 5
    assert value(after, "gamehost_grpc_server_handling_seconds_bucket", le="+Inf", **rpc("SubmitMove")) == 5
    assert 0 < value(after, "gamehost_grpc_server_handling_seconds_sum", **rpc("SubmitMove")) < 5
    assert value(after, "gamehost_moves_applied_total", game="tictactoe") == 5 + bot_moves
    assert bot_moves >= 5
    assert value(after, "gamehost_watchers", game="tictactoe") == 0
    assert value(after, "gamehost_matches", game="tictactoe", status="active") == 0
    assert value(after, "gamehost_store_up") == 1
    build = [labels for name, labels in after if name == "gamehost_build_info"]
    assert len(build) == 1 and dict(build[0])["version"] == "0.1.0"
    assert any(name == "gamehost_game_info" and dict(labels)["game"] == "tictactoe"
               and dict(labels)["plugin"] == "tictactoe" for name, labels in after)
    assert any(name == "gamehost_plugin_info" and dict(labels)["plugin"] == "tictactoe"
               and dict(labels)["loaded"] == "true" for name, labels in after)
    assert value(after, "process_resident_memory_bytes") > 0


def test_a_cancelled_stream_is_counted_when_it_ends(start_host):
    host = start_host("--metrics-port", "0")
    with host.client() as client:
        match = client.create_match("tictactoe")
        with host.channel() as channel:
            stream = pb_grpc.GameHostStub(channel).WatchMatch(pb.WatchMatchRequest(name=match.name))
            wait_for(lambda: value(scrape(host), "gamehost_watchers", game="tictactoe") == 1)
            assert value(scrape(host), "gamehost_grpc_server_handled_total",
                         **rpc("WatchMatch", "CANCELLED", kind="server_stream")) == 0
            stream.cancel()
        wait_for(lambda: value(scrape(host), "gamehost_grpc_server_handled_total",
                               **rpc("WatchMatch", "CANCELLED", kind="server_stream")) == 1)
        assert value(scrape(host), "gamehost_watchers", game="tictactoe") == 0


def test_metrics_port_from_the_environment_and_bidi_streams_counted(start_host):
    host = start_host(env={"GAMEHOST_METRICS_PORT": "0"})
    assert host.metrics_port
    assert value(scrape(host), "gamehost_store_up") == 1
    with host.channel() as channel:  # server reflection is a bidirectional stream
        services = ProtoReflectionDescriptorDatabase(channel).get_services()
    assert "gamehost.v1.GameHost" in services

    def reflection_streams_ended():  # closing the channel ends the stream: OK or CANCELLED, whichever wins
        return sum(count for (name, labels), count in scrape(host).items()
                   if name == "gamehost_grpc_server_handled_total" and dict(labels)["grpc_type"] == "bidi_stream"
                   and dict(labels)["grpc_method"] == "ServerReflectionInfo")

    wait_for(lambda: reflection_streams_ended() == 1)


def test_a_taken_metrics_port_stops_the_host_with_a_clear_error(start_host):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(RuntimeError) as failed:
            start_host("--metrics-port", str(port))
    assert f"cannot serve metrics on 127.0.0.1:{port}: Address already in use" in str(failed.value)
