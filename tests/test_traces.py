"""Traces: one move sent through the web port is one OpenTelemetry trace,
from the browser's span (its W3C ``traceparent`` header) through the web
port, the servicer, the engine and the rules worker to the PostgreSQL
commit, exported over OTLP/gRPC to a receiver the test runs
(opentelemetry-proto's TraceService, as a collector serves it); the turn
webhook's delivery continues that trace and passes it on in its
``traceparent`` header; log lines under a span name its trace. Tracing is
off unless the OTEL_* variables ask for it."""

from __future__ import annotations

import http.client
import json
import os
import secrets

import grpc
import pytest

from databases import create_database, drop_database
from hosts import HostProcess
from identities import write_api_keys
from otlp_receiver import ReceivedSpan, RunningReceiver
from webhook_receiver import SECRET, running_receiver

SERVICE = "gamehost-traced"
SERVER, CLIENT = 2, 3  # OTLP's SpanKind numbers


@pytest.fixture(scope="module")
def otlp():
    running = RunningReceiver()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def webhook_receiver():
    yield from running_receiver()


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    path = tmp_path_factory.mktemp("keys") / "api-keys.json"
    return path, write_api_keys(path, ("ada", []), ("bo", []))


@pytest.fixture(scope="module")
def traced_host(otlp, webhook_receiver, keys):
    database = create_database()
    host = HostProcess("--store", database, "--api-keys", str(keys[0]), env={
        "OTEL_EXPORTER_OTLP_ENDPOINT": otlp.endpoint, "OTEL_EXPORTER_OTLP_INSECURE": "true",
        "OTEL_SERVICE_NAME": SERVICE, "OTEL_BSP_SCHEDULE_DELAY": "50",
        "GAMEHOST_WEBHOOK_URL": f"http://127.0.0.1:{webhook_receiver.server_port}/hook",
        "GAMEHOST_WEBHOOK_SECRET": SECRET}).start()
    yield host
    host.stop()
    drop_database(database)


def connect_call(host: HostProcess, method: str, message: dict, headers: dict[str, str]) -> tuple[int, dict]:
    connection = http.client.HTTPConnection("127.0.0.1", host.web_port, timeout=30)
    try:
        connection.request("POST", f"/gamehost.v1.GameHost/{method}", json.dumps(message).encode(),
                           {"Content-Type": "application/json", **headers})
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read() or b"{}")
    finally:
        connection.close()


def new_traceparent() -> tuple[str, str, str]:
    trace_id, span_id = secrets.token_hex(16), secrets.token_hex(8)
    return f"00-{trace_id}-{span_id}-01", trace_id, span_id


def one_named(spans: list[ReceivedSpan], name: str) -> ReceivedSpan:
    found = [span for span in spans if span.name == name]
    assert len(found) == 1, (name, [(s.name, s.span_id, s.parent_id) for s in spans])
    return found[0]


def a_match_for_ada_and_bo(host: HostProcess, keys) -> tuple[str, str]:
    """A tic-tac-toe match where ada (seat 0) is to move and bo, signed in, moves next: ada's token."""
    ada, bo = keys[1]["ada"], keys[1]["bo"]
    status, created = connect_call(host, "CreateMatch", {"game": "games/tictactoe"}, {"Authorization": f"Bearer {ada}"})
    assert status == 200, created
    status, joined = connect_call(host, "JoinMatch", {"name": created["name"]}, {"Authorization": f"Bearer {ada}"})
    assert status == 200, joined
    status, other = connect_call(host, "JoinMatch", {"name": created["name"]}, {"Authorization": f"Bearer {bo}"})
    assert status == 200, other
    return created["name"], joined["playerToken"]


def test_one_move_through_the_web_port_is_one_trace_to_the_worker_and_the_commit(traced_host, otlp, keys,
                                                                                   webhook_receiver):
    match, token = a_match_for_ada_and_bo(traced_host, keys)
    traceparent, trace_id, browser_span = new_traceparent()
    status, answer = connect_call(traced_host, "SubmitMove", {"name": match, "playerToken": token, "moveId": "b2"},
                                  {"Authorization": f"Bearer {keys[1]['ada']}", "traceparent": traceparent})
    assert status == 200, answer
    version = int(answer["version"])

    names = {"web gamehost.v1.GameHost/SubmitMove", "grpc SubmitMove", "engine submit move", "worker apply",
             "store commit", "webhook delivery"}
    spans = otlp.receiver.wait_for(lambda received: names <= {s.name for s in received if s.trace_id == trace_id})
    spans = [span for span in spans if span.trace_id == trace_id]
    web = one_named(spans, "web gamehost.v1.GameHost/SubmitMove")
    servicer = one_named(spans, "grpc SubmitMove")
    engine = one_named(spans, "engine submit move")
    worker = one_named(spans, "worker apply")
    commit = one_named(spans, "store commit")
    delivery = one_named(spans, "webhook delivery")
    # The browser's span is the web span's parent; each span then the next one's.
    assert (web.parent_id, web.kind) == (browser_span, SERVER)
    assert (servicer.parent_id, servicer.kind) == (web.span_id, SERVER)
    assert servicer.attributes["rpc.method"] == "SubmitMove"
    assert engine.parent_id == servicer.span_id
    assert engine.attributes["gamehost.match_id"] == match.removeprefix("matches/")
    assert worker.parent_id == engine.span_id
    assert worker.attributes["gamehost.worker.pid"] != traced_host.process.pid  # timed in the worker process
    assert commit.parent_id == engine.span_id
    assert commit.attributes["gamehost.store"] == "PostgresStore" and commit.attributes["gamehost.version"] == version
    assert (delivery.parent_id, delivery.kind) == (engine.span_id, CLIENT)
    # Every span of the trace hangs from one of its own, or from the browser's.
    ids = {span.span_id for span in spans} | {browser_span}
    assert all(span.parent_id in ids for span in spans), [(s.name, s.parent_id) for s in spans]
    assert {span.service for span in spans} == {SERVICE}
    # Nested in time as in the tree: the worker's clock is the host's.
    assert web.start <= servicer.start <= engine.start <= worker.start <= worker.end <= commit.start
    assert commit.end <= engine.end <= servicer.end <= web.end

    # The webhook's receiver gets the delivery span's context, to continue the trace.
    key = f"turn:{match.removeprefix('matches/')}:{version}:1"
    deliveries = webhook_receiver.wait_for(lambda found: any(d[0]["key"] == key for d in found))
    headers = {name.lower(): value for name, value in next(d[2] for d in deliveries if d[0]["key"] == key).items()}
    assert headers["traceparent"] == f"00-{trace_id}-{delivery.span_id}-01"
    # Log lines written under a span name it.
    delivered = traced_host.wait_for_log("notification delivered", match, notification=key)
    assert delivered and delivered[0]["trace_id"] == trace_id and delivered[0]["span_id"] == delivery.span_id


def test_a_grpc_client_s_traceparent_is_the_parent_and_a_malformed_one_starts_a_trace(traced_host, otlp):
    traceparent, trace_id, client_span = new_traceparent()
    channel = grpc.insecure_channel(traced_host.target)
    from gamehost.v1 import gamehost_pb2 as pb, gamehost_pb2_grpc

    stub = gamehost_pb2_grpc.GameHostStub(channel)
    try:
        stub.GetGame(pb.GetGameRequest(name="games/tictactoe"), metadata=(("traceparent", traceparent),))
        spans = otlp.receiver.wait_for(lambda received: any(s.trace_id == trace_id for s in received))
        servicer = one_named([s for s in spans if s.trace_id == trace_id], "grpc GetGame")
        assert (servicer.parent_id, servicer.kind) == (client_span, SERVER)

        # A refused call: the span says why, the trace goes on.
        traceparent, trace_id, client_span = new_traceparent()
        with pytest.raises(grpc.RpcError) as refused:
            stub.GetGame(pb.GetGameRequest(name="games/chess"), metadata=(("traceparent", traceparent),))
        assert refused.value.code() == grpc.StatusCode.NOT_FOUND
        spans = otlp.receiver.wait_for(lambda received: any(s.trace_id == trace_id for s in received))
        failed = one_named([s for s in spans if s.trace_id == trace_id], "grpc GetGame")
        assert failed.status_code == 2 and failed.attributes["gamehost.error"] == "GAME_NOT_FOUND"

        # Malformed trace context is ignored, as W3C says: the call is served, in a trace of its own.
        before = len(otlp.receiver.spans)
        marker = "00-" + "0" * 32 + "-" + secrets.token_hex(8) + "-01"  # an all-zero trace id is invalid
        game = stub.GetGame(pb.GetGameRequest(name="games/tictactoe"), metadata=(("traceparent", marker),))
        assert game.name == "games/tictactoe"
        spans = otlp.receiver.wait_for(lambda received: any(s.name == "grpc GetGame" for s in received[before:]))
        fresh = next(s for s in spans[before:] if s.name == "grpc GetGame")
        assert fresh.parent_id == "" and fresh.trace_id != "0" * 32
    finally:
        channel.close()


@pytest.mark.parametrize("otel", [{}, {"OTEL_SDK_DISABLED": "true"}], ids=["no OTEL variable", "OTEL_SDK_DISABLED"])
def test_tracing_is_off_unless_the_otel_variables_ask(keys, webhook_receiver, otlp, tmp_path, otel):
    env = {name: "" for name in os.environ if name.startswith("OTEL_")}
    if otel:  # an endpoint would turn tracing on; the SDK's own switch keeps it off
        env.update(otel, OTEL_EXPORTER_OTLP_ENDPOINT=otlp.endpoint, OTEL_SERVICE_NAME="gamehost-disabled",
                   OTEL_BSP_SCHEDULE_DELAY="50")
    host = HostProcess("--api-keys", str(keys[0]), data_dir=tmp_path, env={
        **env, "GAMEHOST_WEBHOOK_URL": f"http://127.0.0.1:{webhook_receiver.server_port}/hook",
        "GAMEHOST_WEBHOOK_SECRET": SECRET}).start()
    try:
        match, token = a_match_for_ada_and_bo(host, keys)
        traceparent, trace_id, _ = new_traceparent()
        status, answer = connect_call(host, "SubmitMove", {"name": match, "playerToken": token, "moveId": "b2"},
                                      {"Authorization": f"Bearer {keys[1]['ada']}", "traceparent": traceparent})
        assert status == 200, answer
        key = f"turn:{match.removeprefix('matches/')}:{int(answer['version'])}:1"
        deliveries = webhook_receiver.wait_for(lambda found: any(d[0]["key"] == key for d in found))
        headers = next(d[2] for d in deliveries if d[0]["key"] == key)
        assert "traceparent" not in {name.lower() for name in headers}
        assert not host.log_lines("tracing on")
        assert all("trace_id" not in line for line in host.logs)
    finally:
        host.stop()  # a traced host sends its queued spans as it stops: none may come
    assert not [span for span in otlp.receiver.spans if span.service == "gamehost-disabled" or span.trace_id == trace_id]


def test_a_bot_s_reply_is_a_trace_of_its_own_and_a_session_s_move_too(traced_host, otlp, keys):
    ada = keys[1]["ada"]
    status, created = connect_call(traced_host, "CreateMatch", {"game": "games/tictactoe", "botSeats": [1]},
                                   {"Authorization": f"Bearer {ada}"})
    assert status == 200, created
    match = created["name"]
    status, joined = connect_call(traced_host, "JoinMatch", {"name": match}, {"Authorization": f"Bearer {ada}"})
    assert status == 200, joined
    traceparent, trace_id, _ = new_traceparent()
    status, answer = connect_call(traced_host, "SubmitMove",
                                  {"name": match, "playerToken": joined["playerToken"], "moveId": "b2"},
                                  {"Authorization": f"Bearer {ada}", "traceparent": traceparent})
    assert status == 200, answer
    match_id = match.removeprefix("matches/")

    def bot_move(spans: list[ReceivedSpan]) -> list[ReceivedSpan]:
        return [s for s in spans if s.name == "engine host move" and s.attributes.get("gamehost.match_id") == match_id]

    spans = otlp.receiver.wait_for(lambda received: bot_move(received) and any(
        s.name == "store commit" and s.trace_id == bot_move(received)[0].trace_id for s in received))
    bot = bot_move(spans)[0]
    assert bot.trace_id != trace_id and bot.parent_id == "" and bot.attributes["gamehost.seat"] == 1
    bot_trace = [s for s in spans if s.trace_id == bot.trace_id]
    assert one_named(bot_trace, "store commit").parent_id == bot.span_id
    assert any(s.name == "worker choose" and s.parent_id == bot.span_id for s in bot_trace)
    # The player's trace holds the player's commit alone.
    one_named([s for s in spans if s.trace_id == trace_id], "store commit")

    # A move on the Session stream: a trace per request, with the same tree below it.
    from gamehost.v1 import gamehost_pb2 as pb, gamehost_pb2_grpc

    with grpc.insecure_channel(traced_host.target) as channel:
        stub = gamehost_pb2_grpc.GameHostStub(channel)
        # The bot has moved: the player's turn, on a square the bot left free.
        view = stub.GetView(pb.GetViewRequest(name=match, player_token=joined["playerToken"]),
                            metadata=(("authorization", f"Bearer {ada}"),))
        requests = iter([pb.SessionRequest(tag=7, move=pb.SubmitMoveRequest(
            name=match, player_token=joined["playerToken"], move_id=view.legal_moves[0].id,
            expected_version=view.version))])
        events = list(stub.Session(requests, metadata=(
            ("authorization", f"Bearer {ada}"),)))
    assert events[0].tag == 7 and events[0].WhichOneof("event") == "moved", events
    spans = otlp.receiver.wait_for(lambda received: any(
        s.name == "session move" and any(c.name == "store commit" and c.trace_id == s.trace_id for c in received)
        for s in received))
    session = next(s for s in spans if s.name == "session move")
    below = [s for s in spans if s.trace_id == session.trace_id]
    engine = one_named(below, "engine submit move")
    assert engine.parent_id == session.span_id and session.parent_id == ""
    assert one_named(below, "store commit").parent_id == engine.span_id
