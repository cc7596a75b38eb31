"""Every input is bounded before the engine: each known attack that
concerns input, replayed on a real host over real sockets (gRPC, Connect and
gRPC-Web), refused with INVALID_ARGUMENT and a BadRequest naming the field,
with the match and its log unchanged and the host still serving others."""

from __future__ import annotations

import base64
import gzip
import http.client
import json
import struct

import grpc
import pytest
from google.protobuf import struct_pb2
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from gamehost.client import GameHostClient, to_struct
from gamehost.client.structs import from_struct
from gamehost.host.rpc.service import GameHostService
from gamehost.v1 import gamehost_pb2 as pb
from gamehost.v1 import gamehost_pb2_grpc as pb_grpc
from hand_encoded import deep_struct_bytes, varint
from hosts import HostProcess

MEGABYTE = 1_000_000
SHORT_PREFIX = 40  # the most of a sent value an error message may repeat (limits.SHOWN_CHARS)
# The methods this host's servicer implements (a method only declared answers UNIMPLEMENTED before decoding).
# Methods with one request; Session's per-message refusals are tests/test_session.py's.
GAME_METHODS = [(method.name, method.server_streaming)
                for method in pb.DESCRIPTOR.services_by_name["GameHost"].methods
                if method.name in GameHostService.__dict__ and not method.client_streaming]


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    """One host on SQLite: refused input must not reach the store either."""
    process = HostProcess(data_dir=tmp_path_factory.mktemp("limits")).start()
    yield process
    process.stop()


@pytest.fixture()
def stub(host):
    with host.channel() as channel:
        yield pb_grpc.GameHostStub(channel)


def refusal(rpc_error: grpc.RpcError) -> tuple[grpc.StatusCode, str, list[tuple[str, str]], dict]:
    """(code, ErrorInfo reason, BadRequest violations, ErrorInfo metadata) of a refused call."""
    status = rpc_status.from_call(rpc_error)
    reason, violations, metadata = "", [], {}
    for detail in status.details if status else ():
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            reason, metadata = info.reason, dict(info.metadata)
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            violations = [(v.field, v.description) for v in bad.field_violations]
    return rpc_error.code(), reason, violations, metadata


def assert_invalid(call, field: str, reason: str | None = None) -> str:
    """``call()`` refused with INVALID_ARGUMENT and a violation on ``field`` (or
    a part of it, e.g. "structured.cell"); the message, short."""
    with pytest.raises(grpc.RpcError) as caught:
        call()
    code, found_reason, violations, _ = refusal(caught.value)
    assert code == grpc.StatusCode.INVALID_ARGUMENT, caught.value.details()
    assert any(name == field or name.startswith((field + ".", field + "[")) for name, _ in violations), violations
    if reason:
        assert found_reason == reason
    message = caught.value.details()
    assert len(message) < 400, f"the error repeats what was sent: {len(message)} chars"
    return message


def state_of(stub, name: str, token: str = "") -> tuple:
    """What a refusal must leave as it was: the match row, its view and its whole log."""
    match = stub.GetMatch(pb.GetMatchRequest(name=name))
    view = stub.GetView(pb.GetViewRequest(name=name, player_token=token))
    log = stub.GetMatchLog(pb.GetMatchLogRequest(name=name, player_token=token))
    return match.SerializeToString(), view.SerializeToString(), log.SerializeToString()


def still_serving(client: GameHostClient) -> None:
    """Another client can list, create, join and move."""
    assert client.matches(limit=500)
    created = client.create_match("tictactoe", bots=[1])
    token = client.join(created.name, player_name="someone else").player_token
    assert client.move(created.name, token, move_id="b2").version >= 2


def nested(depth: int) -> struct_pb2.Struct:
    """A Struct with objects nested ``depth`` deep: {"a": {"a": ... {"leaf": 1}}}."""
    inner = struct_pb2.Struct()
    inner.fields["leaf"].number_value = 1
    for _ in range(depth - 1):
        outer = struct_pb2.Struct()
        outer.fields["a"].struct_value.CopyFrom(inner)
        inner = outer
    return inner


# ------------------------------------------------------------------ names and ids


def test_a_megabyte_player_name_is_refused_and_listings_keep_working(client, stub, host):
    created = client.create_match("tictactoe")
    before = state_of(stub, created.name)
    message = assert_invalid(lambda: stub.JoinMatch(pb.JoinMatchRequest(name=created.name, player_name="n" * MEGABYTE)),
                             "player_name", "INPUT_TOO_LARGE")
    assert "n" * (SHORT_PREFIX + 1) not in message and "64" in message
    assert state_of(stub, created.name) == before
    listed = stub.ListMatches(pb.ListMatchesRequest(page_size=500))
    assert created.name in [m.name for m in listed.matches]
    assert connect_json(host, "ListMatches", {"pageSize": 500})[0] == 200  # and for browsers
    still_serving(client)


def test_join_and_leave_churn_with_big_names_changes_nothing(client, stub):
    created = client.create_match("tictactoe")
    before = state_of(stub, created.name)
    for attempt in range(40):
        assert_invalid(lambda: stub.JoinMatch(pb.JoinMatchRequest(name=created.name,
                                                                  player_name=f"{attempt}" + "z" * 200_000)),
                       "player_name")
    assert state_of(stub, created.name) == before
    joined = client.join(created.name, player_name="p" * 64)  # the longest name allowed
    assert joined.match.seats[joined.seat].player_name == "p" * 64


@pytest.mark.parametrize(("request_message", "call", "field"), [
    (pb.GetMatchRequest(name="matches/" + "m" * 5000), "GetMatch", "name"),
    (pb.GetGameRequest(name="games/" + "g" * 5000), "GetGame", "name"),
    (pb.CreateMatchRequest(game="games/tictactoe", request_id="r" * 5000), "CreateMatch", "request_id"),
    (pb.CreateMatchRequest(game="games/tictactoe", variant="v" * 5000), "CreateMatch", "variant"),
    (pb.CreateMatchRequest(game="games/tictactoe", bot="b" * 5000), "CreateMatch", "bot"),
    (pb.CreateMatchRequest(game="games/tictactoe", bot_seats=list(range(100))), "CreateMatch", "bot_seats"),
    (pb.ListMatchesRequest(page_size=10**6), "ListMatches", "page_size"),
    (pb.GetViewRequest(name="matches/x", player_token="t" * 5000), "GetView", "player_token"),
])
def test_long_names_ids_and_counts_are_refused_before_the_engine(stub, request_message, call, field):
    matches_before = len(stub.ListMatches(pb.ListMatchesRequest(page_size=500)).matches)
    assert_invalid(lambda: getattr(stub, call)(request_message), field, None)
    assert len(stub.ListMatches(pb.ListMatchesRequest(page_size=500)).matches) == matches_before


@pytest.mark.parametrize(("request_message", "call", "field"), [
    (pb.GetMatchRequest(name="x" * 100), "GetMatch", "name"),
    (pb.CreateMatchRequest(game="games/tictactoe", variant="w" * 100), "CreateMatch", "variant"),
    (pb.CreateMatchRequest(game="games/tictactoe", bot="w" * 100), "CreateMatch", "bot"),
])
def test_errors_repeat_only_a_short_prefix_of_what_was_sent(stub, request_message, call, field):
    message = assert_invalid(lambda: getattr(stub, call)(request_message), field)
    assert ("x" * (SHORT_PREFIX + 1)) not in message and ("w" * (SHORT_PREFIX + 1)) not in message


def test_an_unknown_move_id_is_echoed_only_in_part(client, stub):
    created = client.create_match("tictactoe", bots=[1])
    token = client.join(created.name).player_token
    with pytest.raises(grpc.RpcError) as caught:
        stub.SubmitMove(pb.SubmitMoveRequest(name=created.name, player_token=token, move_id="q" * 200))
    code, reason, _, metadata = refusal(caught.value)
    assert code == grpc.StatusCode.FAILED_PRECONDITION and reason == "UNKNOWN_MOVE"
    assert "q" * (SHORT_PREFIX + 1) not in caught.value.details()
    assert metadata["move_id"] and all(len(value) <= 120 for value in metadata.values())


# ------------------------------------------------------------------ options and structured moves


def test_nan_and_infinity_in_options_are_refused(stub):
    for number in (float("nan"), float("inf"), float("-inf")):
        options = struct_pb2.Struct()
        options.fields["start"].number_value = number
        assert_invalid(lambda: stub.CreateMatch(pb.CreateMatchRequest(game="games/tictactoe", options=options)),
                       "options.start", "NON_FINITE_NUMBER")


def test_options_past_the_size_depth_and_key_limits_are_refused(stub):
    big = struct_pb2.Struct()
    big.fields["blob"].string_value = "o" * 20_000
    assert_invalid(lambda: stub.CreateMatch(pb.CreateMatchRequest(game="games/tictactoe", options=big)), "options")
    assert_invalid(lambda: stub.CreateMatch(pb.CreateMatchRequest(game="games/tictactoe", options=nested(9))),
                   "options.a.a.a.a.a.a.a.a")
    many = to_struct({f"k{index}": index for index in range(100)})
    assert_invalid(lambda: stub.CreateMatch(pb.CreateMatchRequest(game="games/tictactoe", options=many)), "options")
    long_list = to_struct({"items": list(range(300))})
    assert_invalid(lambda: stub.CreateMatch(pb.CreateMatchRequest(game="games/tictactoe", options=long_list)),
                   "options.items")


def test_schema_errors_on_options_repeat_only_a_prefix(stub):
    options = to_struct({"first": "f" * 10_000})
    with pytest.raises(grpc.RpcError) as caught:
        stub.CreateMatch(pb.CreateMatchRequest(game="games/tictactoe", options=options))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert len(caught.value.details()) < 1000 and "f" * 200 not in caught.value.details()


@pytest.fixture()
def x_to_move(client):
    """A tictactoe match where X (the caller's seat 0) is to move; O is a second player."""
    created = client.create_match("tictactoe")
    x = client.join(created.name).player_token
    o = client.join(created.name).player_token
    return created.name, x, o


@pytest.mark.parametrize("move", [
    {"cell": 4, "unused": "u" * (MEGABYTE // 2)},    # a 1 MB unused key, past the size limit
    {"cell": 4, "unused": "u" * 8_000},            # within the size limit: not a listed move either
    {"cell": 4, "unused": float("inf")},
    {"cell": float("nan")},
    {"cell": 4, "deep": json.loads("[" * 12 + "]" * 12)},
])
def test_a_structured_move_beyond_the_listed_one_is_refused_and_not_recorded(client, stub, x_to_move, move):
    name, x, _ = x_to_move
    before = state_of(stub, name, x)
    assert_invalid(lambda: stub.SubmitMove(pb.SubmitMoveRequest(name=name, player_token=x, structured=to_struct(move))),
                   "structured")
    assert state_of(stub, name, x) == before


def test_moves_are_recorded_as_listed_and_the_log_stays_readable(client, stub, x_to_move):
    name, x, o = x_to_move
    for _ in range(17):  # 17 moves with a big unused key once made GetMatchLog fail for good
        assert_invalid(lambda: stub.SubmitMove(pb.SubmitMoveRequest(
            name=name, player_token=x, structured=to_struct({"cell": 4, "unused": "u" * 10_000}))),
            "structured", "UNLISTED_MOVE")
    client.move(name, x, move={"cell": 4.0})  # a listed move, a number as the wire carries it
    client.move(name, o, move={"cell": 0})
    log = client.log(name)
    moves = [from_struct(event.move) for event in log.events if event.kind == pb.EVENT_KIND_MOVED]
    assert moves == [{"cell": 4}, {"cell": 0}]
    assert [e.label for e in log.events if e.kind == pb.EVENT_KIND_MOVED] == ["X on b2", "O on a3"]


def test_a_struct_nested_past_protobufs_limit_is_invalid_argument(client, stub, host, x_to_move):
    name, x, _ = x_to_move
    before = state_of(stub, name, x)
    options = deep_struct_bytes(120)
    create = b"\x0a\x0fgames/tictactoe\x1a" + varint(len(options)) + options
    with host.channel() as channel:
        call = channel.unary_unary("/gamehost.v1.GameHost/CreateMatch")
        assert_invalid(lambda: call(create), "request", "UNDECODABLE_REQUEST")
        move = pb.SubmitMoveRequest(name=name, player_token=x).SerializeToString()
        move += b"\x22" + varint(len(options)) + options  # field 4: structured
        submit = channel.unary_unary("/gamehost.v1.GameHost/SubmitMove")
        assert_invalid(lambda: submit(move), "request", "UNDECODABLE_REQUEST")
    status, error = connect_proto(host, "SubmitMove", move)
    assert status == 400 and error["code"] == "invalid_argument"
    assert state_of(stub, name, x) == before


# ------------------------------------------------------------------ page tokens


def forged_tokens() -> list[str]:
    def b64(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).decode()

    return ["not base64!", "%%%", b64(b"\xff\xfe garbage"), b64(b"[]"), b64(b"null"), b64(b'"text"'),
            b64(b'{"q": {}}'), b64(b'{"q": {}, "at": "x"}'), b64(b'{"q": {}, "at": 1e999}'),
            b64(b'{"q": {}, "at": 99999999999999999999999}'), b64(b'{"q": {}, "at": -5}'),
            b64(b'{"q": {}, "at": [1, 2, 3]}'), b64(b'{"q": {"game": null, "status": null}, "at": [1e400, "x"]}'),
            b64(b'{"q": {"game": null, "status": null}, "at": ["x", 1]}'),
            b64(b'{"q": {"game": null, "status": null}, "at": [NaN, "x"]}'),
            b64(b'{"q": {"game": null, "status": null}, "at": {"a": 1}}'),
            b64(b'{"q": {"game": null, "status": null}, "before": [1, "x"]}'),
            b64(b"[" * 400 + b"]" * 400), "A" * 600, b64(json.dumps({"q": {}, "at": True}).encode())]


def test_forged_page_tokens_are_invalid_argument_and_log_no_traceback(stub, host):
    for token in forged_tokens():
        assert_invalid(lambda: stub.ListGames(pb.ListGamesRequest(page_token=token)), "page_token")
        assert_invalid(lambda: stub.ListMatches(pb.ListMatchesRequest(page_token=token)), "page_token")
    assert not host.log_lines("rpc failed")
    assert not [line for line in host.logs if "Traceback" in str(line.get("exception", ""))]


def _every_page(list_page, request_for, names_on) -> list[str]:
    """The names on every page of a listing, following the tokens the host issues."""
    names, token = [], ""
    while True:
        page = list_page(request_for(token))
        names += names_on(page)
        token = page.next_page_token
        if not token:
            return names


def test_issued_page_tokens_page_through_every_listing(client, stub):
    names = [client.create_match("tictactoe").name for _ in range(3)]
    seen = _every_page(stub.ListMatches, lambda token: pb.ListMatchesRequest(page_size=2, page_token=token),
                       lambda page: [m.name for m in page.matches])
    assert set(names) <= set(seen) and len(seen) == len(set(seen))
    games = _every_page(stub.ListGames, lambda token: pb.ListGamesRequest(page_size=1, page_token=token),
                        lambda page: [g.id for g in page.games])
    assert "tictactoe" in games and len(games) == len(set(games))


# ------------------------------------------------------------------ bytes that do not decode


GARBAGE = b"\xff\xff\xff\xff\x0f\x12\x34 not a protobuf message"


@pytest.mark.parametrize(("method", "streaming"), GAME_METHODS)
def test_undecodable_bytes_are_invalid_argument_on_the_grpc_port(host, method, streaming):
    with host.channel() as channel:
        path = f"/gamehost.v1.GameHost/{method}"
        call = channel.unary_stream(path) if streaming else channel.unary_unary(path)
        message = assert_invalid(lambda: list(call(GARBAGE, timeout=10)) if streaming else call(GARBAGE, timeout=10),
                                 "request", "UNDECODABLE_REQUEST")
    assert "not a gamehost.v1." in message


def test_undecodable_bytes_are_invalid_argument_on_the_health_service_too(host):
    with host.channel() as channel:
        check = channel.unary_unary("/grpc.health.v1.Health/Check")
        assert_invalid(lambda: check(GARBAGE, timeout=10), "request", "UNDECODABLE_REQUEST")
        watch = channel.unary_stream("/grpc.health.v1.Health/Watch")
        assert_invalid(lambda: list(watch(GARBAGE, timeout=10)), "request", "UNDECODABLE_REQUEST")
        assert check(b"", timeout=10) == b"\x08\x01"  # and an empty request still reads SERVING


@pytest.mark.parametrize(("method", "streaming"), GAME_METHODS)
def test_undecodable_bytes_are_invalid_argument_on_the_browser_port(host, method, streaming):
    if not streaming:
        status, error = connect_proto(host, method, GARBAGE)
        assert status == 400 and error["code"] == "invalid_argument", error
        assert "google.rpc.BadRequest" in [detail["type"] for detail in error["details"]]
    answer = http_post(host, f"/gamehost.v1.GameHost/{method}", envelope(GARBAGE),
                       {"Content-Type": "application/grpc-web+proto"})
    trailers = answer.body[answer.body.rindex(b"\x80") + 5:].decode()
    assert "grpc-status: 3\r\n" in trailers, trailers


def test_a_connect_call_declaring_gzip_with_a_plain_body_is_invalid_argument(host):
    answer = http_post(host, "/gamehost.v1.GameHost/ListGames", b"{}",
                       {"Content-Type": "application/json", "Content-Encoding": "gzip"})
    error = json.loads(answer.body)
    assert answer.status == 400 and error["code"] == "invalid_argument", error
    assert "google.rpc.BadRequest" in [detail["type"] for detail in error["details"]]
    truncated = gzip.compress(b'{"pageSize": 1}')[:-6]
    answer = http_post(host, "/gamehost.v1.GameHost/ListGames", truncated,
                       {"Content-Type": "application/json", "Content-Encoding": "gzip"})
    assert answer.status == 400 and json.loads(answer.body)["code"] == "invalid_argument"
    answer = http_post(host, "/gamehost.v1.GameHost/ListGames", gzip.compress(b'{"pageSize": 1}'),
                       {"Content-Type": "application/json", "Content-Encoding": "gzip"})
    assert answer.status == 200 and len(json.loads(answer.body)["games"]) == 1
    assert not host.log_lines("browser call failed")
    assert not [line for line in host.logs if line.get("raw") and "Traceback" in line["event"]]


# ------------------------------------------------------------------ HTTP helpers


class Answer:
    def __init__(self, status: int, body: bytes) -> None:
        self.status, self.body = status, body


def http_post(host: HostProcess, path: str, body: bytes, headers: dict[str, str]) -> Answer:
    connection = http.client.HTTPConnection("127.0.0.1", host.web_port, timeout=10)
    try:
        connection.request("POST", path, body, headers)
        response = connection.getresponse()
        return Answer(response.status, response.read())
    finally:
        connection.close()


def connect_proto(host: HostProcess, method: str, body: bytes) -> tuple[int, dict]:
    answer = http_post(host, f"/gamehost.v1.GameHost/{method}", body, {"Content-Type": "application/proto"})
    return answer.status, json.loads(answer.body) if answer.status != 200 else {}


def connect_json(host: HostProcess, method: str, message: dict) -> tuple[int, dict]:
    answer = http_post(host, f"/gamehost.v1.GameHost/{method}", json.dumps(message).encode(),
                       {"Content-Type": "application/json"})
    return answer.status, json.loads(answer.body)


def envelope(data: bytes) -> bytes:
    return struct.pack(">BI", 0, len(data)) + data


# ------------------------------------------------------------------ replicas


def test_a_page_token_from_one_replica_pages_on_another(start_host, postgres_url):
    """Tokens carry no per-process secret: any replica on the store reads them."""
    first, second = (start_host("--store", postgres_url, "--replica-id", name) for name in "ab")
    with first.client() as a, second.client() as b:
        created = {a.create_match("tictactoe").name for _ in range(5)}
        page = a.stub.ListMatches(pb.ListMatchesRequest(page_size=2))
        seen = [m.name for m in page.matches]
        token = page.next_page_token
        while token:
            page = b.stub.ListMatches(pb.ListMatchesRequest(page_size=2, page_token=token))
            seen += [m.name for m in page.matches]
            token = page.next_page_token
        assert set(seen) == created and len(seen) == 5
        with pytest.raises(grpc.RpcError) as caught:
            b.stub.ListMatches(pb.ListMatchesRequest(page_token=forged_tokens()[12]))
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
