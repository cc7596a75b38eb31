"""Browsers' access to a real host over real HTTP: Connect (unary and
server streaming, proto and JSON), gRPC-Web (binary and text), CORS and the
static web root. The wire details are checked byte by byte here;
test_browser_clients.py drives the same port with the Connect project's own
Node clients."""

from __future__ import annotations

import base64
import http.client
import json
import os
import re
import struct
import subprocess
import sys
import time
import urllib.parse
import zlib

import pytest
from google.protobuf import json_format
from google.rpc import error_details_pb2, status_pb2
from grpc_health.v1 import health_pb2

from gamehost.v1 import gamehost_pb2 as pb
from hosts import HostProcess

ORIGIN = "http://localhost:5173"
MAX_MESSAGE_BYTES = 65536
X_WINS_TOP_ROW = ["a3", "a2", "b3", "b2", "c3"]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A web root with an app shell and an asset, beside a file that must stay private."""
    base = tmp_path_factory.mktemp("site")
    root = base / "dist"
    (root / "assets").mkdir(parents=True)
    (root / "index.html").write_text("<!doctype html><title>gamehost</title><div id=app></div>\n")
    (root / "assets" / "app-1234.js").write_text("export const answer = 42;\n")
    (root / "assets" / "app-1234.css").write_text("body { margin: 0 }\n")
    (root / "favicon.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>\n')
    (base / "private.txt").write_text("the token of seat 0\n")
    return root


@pytest.fixture(scope="module")
def web_host(site):
    host = HostProcess("--web-root", str(site), "--cors-origins", f"{ORIGIN}, https://play.example.com",
                       "--max-message-bytes", str(MAX_MESSAGE_BYTES)).start()
    yield host
    host.stop()


class Answer:
    def __init__(self, response: http.client.HTTPResponse) -> None:
        self.status = response.status
        self.headers = response.headers
        self.body = response.read()

    def json(self):
        return json.loads(self.body)


def request(host: HostProcess, method: str, path: str, body: bytes | None = None, **headers: str) -> Answer:
    connection = http.client.HTTPConnection("127.0.0.1", host.web_port, timeout=10)
    try:
        connection.request(method, path, body, {key.replace("_", "-"): value for key, value in headers.items()})
        return Answer(connection.getresponse())
    finally:
        connection.close()


def connect_json(host: HostProcess, method: str, message: dict, **headers: str) -> Answer:
    return request(host, "POST", f"/gamehost.v1.GameHost/{method}", json.dumps(message).encode(),
                   Content_Type="application/json", **headers)


def envelope(data: bytes, flags: int = 0) -> bytes:
    return struct.pack(">BI", flags, len(data)) + data


def frames(body: bytes) -> list[tuple[int, bytes]]:
    found = []
    while body:
        flags, length = struct.unpack_from(">BI", body)
        found.append((flags, body[5:5 + length]))
        body = body[5 + length:]
    return found


def details_of(error: dict) -> dict:
    """A Connect error's details, decoded by type: the bytes, not the debug JSON."""
    classes = {"google.rpc.ErrorInfo": error_details_pb2.ErrorInfo, "google.rpc.BadRequest":
               error_details_pb2.BadRequest, "google.rpc.ResourceInfo": error_details_pb2.ResourceInfo}
    decoded = {}
    for detail in error["details"]:
        message = classes[detail["type"]]()
        message.ParseFromString(base64.b64decode(detail["value"] + "=" * (-len(detail["value"]) % 4)))
        decoded[detail["type"]] = message
    return decoded


def two_player_match(client) -> tuple[str, list[str]]:
    match = client.create_match("tictactoe")
    return match.name, [client.join(match.name).player_token, client.join(match.name).player_token]


# ------------------------------------------------------------------ Connect unary


def test_connect_unary_json_and_proto_give_the_same_answer(web_host):
    by_json = connect_json(web_host, "GetGame", {"name": "games/tictactoe"}, Connect_Protocol_Version="1")
    assert by_json.status == 200 and by_json.headers["Content-Type"] == "application/json"
    by_proto = request(web_host, "POST", "/gamehost.v1.GameHost/GetGame",
                       pb.GetGameRequest(name="games/tictactoe").SerializeToString(),
                       Content_Type="application/proto")
    assert by_proto.status == 200 and by_proto.headers["Content-Type"] == "application/proto"
    game = pb.Game.FromString(by_proto.body)
    assert game.id == "tictactoe" and game.min_players == 2
    assert json_format.ParseDict(by_json.json(), pb.Game()) == game
    assert by_json.json()["minPlayers"] == 2, "protobuf's JSON mapping: lowerCamelCase names"
    with web_host.client() as client:
        assert client.game("tictactoe") == game, "the same answer as over gRPC"


def test_connect_unary_changes_state_like_grpc_does(web_host):
    created = connect_json(web_host, "CreateMatch", {"game": "games/tictactoe", "botSeats": [1], "seed": "5"})
    assert created.status == 200, created.body
    name = created.json()["name"]
    joined = connect_json(web_host, "JoinMatch", {"name": name, "playerName": "browser"}).json()
    assert joined["match"]["status"] == "MATCH_STATUS_ACTIVE" and joined["playerToken"]
    with web_host.client() as client:
        view = client.view(name, joined["playerToken"])
        assert view.seat == 0 and client.match(name).seats[0].player_name == "browser"


def test_connect_errors_carry_the_code_message_and_google_rpc_details(web_host):
    missing = connect_json(web_host, "GetGame", {"name": "games/chess"})
    assert missing.status == 404 and missing.headers["Content-Type"] == "application/json"
    error = missing.json()
    assert error["code"] == "not_found" and "games/chess" in error["message"]
    details = details_of(error)
    assert details["google.rpc.ErrorInfo"].reason == "GAME_NOT_FOUND"
    assert details["google.rpc.ErrorInfo"].domain == "gamehost.dev"
    assert details["google.rpc.ResourceInfo"].resource_name == "games/chess"

    malformed = connect_json(web_host, "GetMatch", {"name": "chess"})
    assert malformed.status == 400
    error = malformed.json()
    assert error["code"] == "invalid_argument"
    assert details_of(error)["google.rpc.BadRequest"].field_violations[0].field == "name"
    assert details_of(error)["google.rpc.ErrorInfo"].reason == "INVALID_NAME"


def test_connect_refuses_unreadable_json_and_unknown_content_types(web_host):
    before = len(connect_json(web_host, "ListMatches", {"pageSize": 500}).json().get("matches", []))
    broken = request(web_host, "POST", "/gamehost.v1.GameHost/CreateMatch", b'{"game": "games/tictactoe",',
                     Content_Type="application/json")
    assert broken.status == 400 and broken.json()["code"] == "invalid_argument"
    assert details_of(broken.json())["google.rpc.ErrorInfo"].reason == "INVALID_JSON"
    wrong_type = connect_json(web_host, "CreateMatch", {"game": 7})
    assert wrong_type.status == 400 and "gamehost.v1.CreateMatchRequest" in wrong_type.json()["message"]
    assert len(connect_json(web_host, "ListMatches", {"pageSize": 500}).json().get("matches", [])) == before

    form = request(web_host, "POST", "/gamehost.v1.GameHost/GetGame", b"name=games/tictactoe",
                   Content_Type="application/x-www-form-urlencoded")
    assert form.status == 415 and "application/json" in form.headers["Accept-Post"]
    unknown = connect_json(web_host, "DeleteEverything", {})
    assert unknown.status == 404 and unknown.json()["code"] == "unimplemented"


def test_request_size_limit_matches_max_message_bytes(web_host):
    big_options = {"note": "x" * (MAX_MESSAGE_BYTES + 100)}
    as_proto = pb.CreateMatchRequest(game="games/tictactoe")
    as_proto.options.update(big_options)
    refused = request(web_host, "POST", "/gamehost.v1.GameHost/CreateMatch", as_proto.SerializeToString(),
                      Content_Type="application/proto")
    assert refused.status == 429 and refused.json()["code"] == "resource_exhausted"
    huge_json = connect_json(web_host, "CreateMatch", {"game": "games/tictactoe",
                                                       "options": {"note": "x" * (5 * MAX_MESSAGE_BYTES)}})
    assert huge_json.status == 429 and huge_json.json()["code"] == "resource_exhausted"
    assert "--max-message-bytes" in huge_json.json()["message"]


def test_health_service_answers_over_connect(web_host):
    answer = request(web_host, "POST", "/grpc.health.v1.Health/Check", b"{}", Content_Type="application/json")
    assert answer.status == 200 and answer.json() == {"status": "SERVING"}
    proto = request(web_host, "POST", "/grpc.health.v1.Health/Check",
                    health_pb2.HealthCheckRequest(service="gamehost.v1.GameHost").SerializeToString(),
                    Content_Type="application/proto")
    assert health_pb2.HealthCheckResponse.FromString(proto.body).status == health_pb2.HealthCheckResponse.SERVING


def connect_get(host: HostProcess, method: str, query: dict[str, str], **headers: str) -> Answer:
    return request(host, "GET", f"/gamehost.v1.GameHost/{method}?{urllib.parse.urlencode(query)}", **headers)


def test_connect_get_form_calls_methods_without_side_effects(web_host):
    with web_host.client() as client:
        name, _ = two_player_match(client)
    posted = request(web_host, "POST", "/gamehost.v1.GameHost/GetMatch",
                     pb.GetMatchRequest(name=name).SerializeToString(), Content_Type="application/proto")
    as_json = connect_get(web_host, "GetMatch", {"connect": "v1", "encoding": "json",
                                                 "message": json.dumps({"name": name})})
    assert as_json.status == 200 and as_json.headers["Content-Type"] == "application/json"
    assert json_format.Parse(as_json.body, pb.Match()) == pb.Match.FromString(posted.body)
    message = pb.GetMatchRequest(name=name).SerializeToString()
    as_proto = connect_get(web_host, "GetMatch", {"connect": "v1", "encoding": "proto", "base64": "1",
                                                  "message": base64.urlsafe_b64encode(message).rstrip(b"=")})
    assert as_proto.status == 200 and as_proto.body == posted.body
    gzipped = connect_get(web_host, "GetMatch", {"encoding": "proto", "base64": "1", "compression": "gzip",
                                                 "message": base64.urlsafe_b64encode(zlib.compress(message, wbits=31))})
    assert gzipped.status == 200 and gzipped.body == posted.body
    # Errors come as Connect's error JSON, with their details, as for POST.
    missing = connect_get(web_host, "GetGame", {"encoding": "json", "message": '{"name": "games/chess"}'})
    assert missing.status == 404 and details_of(missing.json())["google.rpc.ErrorInfo"].reason == "GAME_NOT_FOUND"


@pytest.mark.parametrize("query, reason", [
    ({"message": "{}"}, "INVALID_GET_REQUEST"),
    ({"encoding": "xml", "message": "{}"}, "INVALID_GET_REQUEST"),
    ({"encoding": "proto", "base64": "1", "message": "!!!"}, "INVALID_GET_REQUEST"),
    ({"connect": "v2", "encoding": "json", "message": "{}"}, "UNSUPPORTED_PROTOCOL_VERSION"),
    ({"encoding": "json", "compression": "br", "message": "{}"}, "UNSUPPORTED_COMPRESSION"),
    ({"encoding": "json", "message": "{"}, "INVALID_JSON"),
])
def test_connect_get_form_refuses_what_it_cannot_read(web_host, query, reason):
    answer = connect_get(web_host, "ListGames", query)
    assert answer.status in (400, 501) and answer.json()["code"] in ("invalid_argument", "unimplemented")
    assert details_of(answer.json())["google.rpc.ErrorInfo"].reason == reason


def test_calls_with_side_effects_or_secrets_have_no_get_form(web_host):
    for method in ("CreateMatch", "SubmitMove", "GetView", "GetMatchLog"):
        answer = connect_get(web_host, method, {"encoding": "json", "message": "{}"})
        assert answer.status == 405 and answer.headers["Allow"] == "POST", method


# ------------------------------------------------------------------ Connect streaming


class Stream:
    """An open HTTP response read envelope by envelope, as it arrives."""

    def __init__(self, host: HostProcess, path: str, content_type: str, body: bytes, **headers: str) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", host.web_port, timeout=10)
        self.connection.request("POST", path, body, {"Content-Type": content_type,
                                                     **{key.replace("_", "-"): value for key, value in headers.items()}})
        self.response = self.connection.getresponse()

    def next(self) -> tuple[int, bytes]:
        header = self.response.read(5)
        flags, length = struct.unpack(">BI", header)
        return flags, self.response.read(length)

    def close(self) -> None:
        self.connection.sock.close()
        self.connection.close()


def watch(host: HostProcess, name: str, kind: str = "proto", player_token: str = "", **headers: str) -> Stream:
    request_message = pb.WatchMatchRequest(name=name, player_token=player_token)
    body = (request_message.SerializeToString() if kind == "proto"
            else json_format.MessageToJson(request_message).encode())
    return Stream(host, "/gamehost.v1.GameHost/WatchMatch", f"application/connect+{kind}", envelope(body),
                  **headers)


def test_watch_match_streams_each_event_as_it_happens_and_ends_cleanly(web_host):
    with web_host.client() as client:
        name, tokens = two_player_match(client)
        stream = watch(web_host, name)
        try:
            assert stream.response.status == 200
            assert stream.response.headers["Content-Type"] == "application/connect+proto"
            first = [pb.MatchEvent.FromString(stream.next()[1]) for _ in range(3)]
            assert [e.kind for e in first] == [pb.EVENT_KIND_JOINED, pb.EVENT_KIND_JOINED, pb.EVENT_KIND_STARTED]
            for turn, move_id in enumerate(X_WINS_TOP_ROW):
                client.move(name, tokens[turn % 2], move_id=move_id)
                flags, data = stream.next()  # arrives before the next move exists: nothing waits for the end
                event = pb.MatchEvent.FromString(data)
                assert flags == 0 and event.kind == pb.EVENT_KIND_MOVED and event.version == 4 + turn
            finished = pb.MatchEvent.FromString(stream.next()[1])
            assert finished.kind == pb.EVENT_KIND_FINISHED and list(finished.view.result.winners) == [0]
            flags, end = stream.next()
            assert flags == 0x02 and json.loads(end) == {}, "end of stream without error"
            assert stream.response.read() == b""
        finally:
            stream.close()


def test_watch_match_in_json_and_its_errors_in_the_end_of_stream(web_host):
    with web_host.client() as client:
        name, _ = two_player_match(client)
    stream = watch(web_host, name, "json")
    try:
        assert stream.response.headers["Content-Type"] == "application/connect+json"
        flags, data = stream.next()
        assert flags == 0 and json.loads(data)["kind"] == "EVENT_KIND_JOINED"
    finally:
        stream.close()
    missing = watch(web_host, "matches/nobody")
    try:
        assert missing.response.status == 200, "a stream reports its errors in the end-of-stream message"
        flags, end = missing.next()
        error = json.loads(end)["error"]
        assert flags == 0x02 and error["code"] == "not_found"
        assert details_of(error)["google.rpc.ErrorInfo"].reason == "MATCH_NOT_FOUND"
    finally:
        missing.close()


def test_a_browser_that_disconnects_stops_its_watch_on_the_host(web_host):
    with web_host.client() as client:
        name, _ = two_player_match(client)
    match_id = name.split("/")[1]
    stream = watch(web_host, name)
    stream.next()
    assert not [e for e in web_host.log_lines("watch ended") if e.get("match_id") == match_id]
    stream.close()
    deadline = time.monotonic() + 5
    while not [e for e in web_host.log_lines("watch ended") if e.get("match_id") == match_id]:
        assert time.monotonic() < deadline, "the upstream watch still runs after the browser left"
        time.sleep(0.05)


# ------------------------------------------------------------------ gRPC-Web


def grpc_web(host: HostProcess, method: str, message, text: bool = False,
             **headers: str) -> tuple[Answer, list[tuple[int, bytes]]]:
    body = envelope(message.SerializeToString())
    content_type = "application/grpc-web-text" if text else "application/grpc-web+proto"
    answer = request(host, "POST", f"/gamehost.v1.GameHost/{method}", base64.b64encode(body) if text else body,
                     Content_Type=content_type, X_Grpc_Web="1", Grpc_Timeout="10S", **headers)
    assert answer.status == 200 and answer.headers["Content-Type"] == content_type
    # grpc-web-text: each write is its own padded base64 segment, as gRPC-Web clients expect
    raw = b"".join(base64.b64decode(part) for part in re.findall(rb"[A-Za-z0-9+/]+=*", answer.body)) if text \
        else answer.body
    return answer, frames(raw)


def trailers_of(frame: tuple[int, bytes]) -> dict[str, str]:
    flags, data = frame
    assert flags == 0x80, "the last frame holds the trailers"
    return dict(line.split(": ", 1) for line in data.decode().split("\r\n") if line)


def test_grpc_web_carries_messages_and_status_trailers(web_host):
    _, found = grpc_web(web_host, "GetGame", pb.GetGameRequest(name="games/tictactoe"))
    assert len(found) == 2 and found[0][0] == 0
    assert pb.Game.FromString(found[0][1]).id == "tictactoe"
    assert trailers_of(found[1])["grpc-status"] == "0"

    _, found = grpc_web(web_host, "GetGame", pb.GetGameRequest(name="games/chess"))
    trailers = trailers_of(found[-1])
    assert len(found) == 1 and trailers["grpc-status"] == "5"
    assert "games/chess" in trailers["grpc-message"]
    status = status_pb2.Status.FromString(base64.b64decode(trailers["grpc-status-details-bin"]))
    assert status.code == 5
    info = error_details_pb2.ErrorInfo()
    assert status.details[0].Unpack(info) and info.reason == "GAME_NOT_FOUND"


def test_grpc_web_text_streams_watch_match(web_host):
    with web_host.client() as client:
        name, tokens = two_player_match(client)
        client.move(name, tokens[0], move_id="b2")
        client.leave(name, tokens[1])
    _, found = grpc_web(web_host, "WatchMatch", pb.WatchMatchRequest(name=name), text=True)
    events = [pb.MatchEvent.FromString(data) for flags, data in found[:-1]]
    assert [e.kind for e in events] == [pb.EVENT_KIND_JOINED, pb.EVENT_KIND_JOINED, pb.EVENT_KIND_STARTED,
                                        pb.EVENT_KIND_MOVED, pb.EVENT_KIND_LEFT, pb.EVENT_KIND_ABANDONED]
    assert trailers_of(found[-1])["grpc-status"] == "0"


# ------------------------------------------------------------------ compression


def callisto_match(client) -> tuple[str, str]:
    """A Callisto match and the token of its first mover, whose view lists
    hundreds of legal moves: an answer worth compressing."""
    match = client.create_match("callisto")
    tokens = [client.join(match.name).player_token for _ in range(2)]
    return match.name, tokens[client.match(match.name).to_move[0]]


def test_connect_unary_answers_are_gzipped_for_clients_that_accept_it(web_host):
    with web_host.client() as client:
        name, token = callisto_match(client)
    ask = {"name": name, "playerToken": token}
    plain = connect_json(web_host, "GetView", ask)
    gzipped = connect_json(web_host, "GetView", ask, Accept_Encoding="br, gzip")
    assert plain.headers.get("Content-Encoding") is None and len(json.loads(plain.body)["legalMoves"]) > 100
    assert gzipped.headers["Content-Encoding"] == "gzip" and len(gzipped.body) < len(plain.body) / 4
    assert zlib.decompress(gzipped.body, wbits=31) == plain.body
    refused = connect_json(web_host, "GetView", ask, Accept_Encoding="gzip;q=0, br")
    assert refused.headers.get("Content-Encoding") is None and refused.body == plain.body
    small = connect_json(web_host, "GetMatch", {"name": name}, Accept_Encoding="gzip")
    assert len(small.body) < 1024 and small.json()["name"] == name
    assert small.headers.get("Content-Encoding") is None, "an answer under 1 KiB goes as it is"


def test_connect_stream_messages_are_gzipped_each_in_its_envelope(web_host):
    with web_host.client() as client:
        name, token = callisto_match(client)
    stream = watch(web_host, name, player_token=token, Connect_Accept_Encoding="gzip")
    try:
        assert stream.response.headers["Connect-Content-Encoding"] == "gzip"
        sizes = {}
        for _ in range(3):  # joined, joined, started: the last carries the mover's view
            flags, data = stream.next()
            assert flags in (0, 0x01)
            event = pb.MatchEvent.FromString(zlib.decompress(data, wbits=31) if flags & 0x01 else data)
            sizes[event.kind] = (flags, len(event.SerializeToString()))
        flags, size = sizes[pb.EVENT_KIND_STARTED]
        assert flags == 0x01 and size > 1024, sizes
    finally:
        stream.close()


def test_grpc_web_messages_are_gzipped_when_the_client_accepts_it(web_host):
    with web_host.client() as client:
        name, token = callisto_match(client)
    ask = pb.GetViewRequest(name=name, player_token=token)
    answer, found = grpc_web(web_host, "GetView", ask, Grpc_Accept_Encoding="identity, gzip")
    assert answer.headers["grpc-encoding"] == "gzip"
    (flags, data), trailer = found
    assert flags == 0x01 and trailers_of(trailer)["grpc-status"] == "0"
    view = pb.View.FromString(zlib.decompress(data, wbits=31))
    _, plain = grpc_web(web_host, "GetView", ask)
    assert plain[0][0] == 0 and pb.View.FromString(plain[0][1]) == view


def test_static_text_files_are_gzipped_and_hashed_assets_cached_for_good(web_host, site):
    index = request(web_host, "GET", "/", Accept_Encoding="gzip")
    assert index.headers["Content-Encoding"] == "gzip" and index.headers["Vary"] == "Accept-Encoding"
    assert zlib.decompress(index.body, wbits=31) == (site / "index.html").read_bytes()
    assert index.headers["Cache-Control"] == "no-cache"
    again = request(web_host, "GET", "/", Accept_Encoding="gzip", If_None_Match=index.headers["ETag"])
    assert again.status == 304 and again.body == b""
    (site / "index.html").write_text("<!doctype html><title>gamehost, rebuilt</title><div id=app></div>\n")
    rebuilt = request(web_host, "GET", "/", Accept_Encoding="gzip", If_None_Match=index.headers["ETag"])
    assert rebuilt.status == 200 and b"rebuilt" in zlib.decompress(rebuilt.body, wbits=31)
    hashed = site / "assets" / "index-Bx7_k2Qa.js"
    hashed.write_text("export const built = true;\n")
    asset = request(web_host, "GET", "/assets/index-Bx7_k2Qa.js")
    assert asset.headers.get("Content-Encoding") is None and asset.body == hashed.read_bytes()
    assert asset.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert "immutable" not in request(web_host, "GET", "/assets/app-1234.js").headers.get("Cache-Control", "")


# ------------------------------------------------------------------ CORS


def test_cors_preflight_allows_the_configured_origins_only(web_host):
    allowed = request(web_host, "OPTIONS", "/gamehost.v1.GameHost/GetGame", Origin=ORIGIN,
                      Access_Control_Request_Method="POST",
                      Access_Control_Request_Headers="content-type,connect-protocol-version,x-grpc-web")
    assert allowed.status == 204
    assert allowed.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert "POST" in allowed.headers["Access-Control-Allow-Methods"]
    requested = {h.strip().lower() for h in allowed.headers["Access-Control-Allow-Headers"].split(",")}
    assert {"content-type", "connect-protocol-version", "connect-timeout-ms", "x-grpc-web",
            "grpc-timeout"} <= requested
    assert "Access-Control-Allow-Private-Network" not in allowed.headers
    private = request(web_host, "OPTIONS", "/gamehost.v1.GameHost/WatchMatch", Origin="https://play.example.com",
                      Access_Control_Request_Method="POST", Access_Control_Request_Private_Network="true")
    assert private.status == 204 and private.headers["Access-Control-Allow-Private-Network"] == "true"
    denied = request(web_host, "OPTIONS", "/gamehost.v1.GameHost/GetGame", Origin="https://evil.example",
                     Access_Control_Request_Method="POST")
    assert denied.status == 403 and "Access-Control-Allow-Origin" not in denied.headers


def test_cors_answers_expose_the_status_headers_to_allowed_origins(web_host):
    answer = connect_json(web_host, "GetGame", {"name": "games/tictactoe"}, Origin="https://play.example.com")
    assert answer.headers["Access-Control-Allow-Origin"] == "https://play.example.com"
    exposed = {h.strip().lower() for h in answer.headers["Access-Control-Expose-Headers"].split(",")}
    assert {"grpc-status", "grpc-message", "grpc-status-details-bin", "connect-content-encoding"} <= exposed
    other = connect_json(web_host, "GetGame", {"name": "games/tictactoe"}, Origin="https://evil.example")
    assert "Access-Control-Allow-Origin" not in other.headers


def test_same_origin_only_by_default(host):
    preflight = request(host, "OPTIONS", "/gamehost.v1.GameHost/GetGame", Origin=ORIGIN,
                        Access_Control_Request_Method="POST")
    assert preflight.status == 403
    answer = connect_json(host, "GetGame", {"name": "games/tictactoe"}, Origin=ORIGIN)
    assert answer.status == 200 and "Access-Control-Allow-Origin" not in answer.headers


# ------------------------------------------------------------------ static web root


def test_static_root_serves_the_app_with_content_types(web_host, site):
    index = request(web_host, "GET", "/")
    assert index.status == 200 and index.body == (site / "index.html").read_bytes()
    assert index.headers["Content-Type"] == "text/html; charset=utf-8"
    script = request(web_host, "GET", "/assets/app-1234.js")
    assert script.status == 200 and script.headers["Content-Type"] == "text/javascript; charset=utf-8"
    assert request(web_host, "GET", "/assets/app-1234.css").headers["Content-Type"] == "text/css; charset=utf-8"
    assert request(web_host, "GET", "/favicon.svg").headers["Content-Type"] == "image/svg+xml"
    route = request(web_host, "GET", "/matches/abc123")
    assert route.status == 200 and route.body == index.body, "client-side routes get the app shell"
    assert request(web_host, "GET", "/assets/missing.js").status == 404
    head = request(web_host, "HEAD", "/assets/app-1234.js")
    assert head.status == 200 and head.body == b"" and head.headers["Content-Type"].startswith("text/javascript")
    assert request(web_host, "GET", "/gamehost.v1.GameHost/SubmitMove").status == 405
    assert request(web_host, "GET", "/gamehost.v1.GameHost/GetGame").status == 400, "a GET form without its message"


@pytest.mark.parametrize("path", ["/../private.txt", "/assets/../../private.txt", "/%2e%2e/private.txt",
                                  "/..%2fprivate.txt", "/assets/%2e%2e%2f%2e%2e%2fprivate.txt",
                                  "/..\\private.txt"])
def test_static_root_refuses_paths_out_of_it(web_host, path):
    answer = request(web_host, "GET", path)
    assert answer.status == 404 and b"seat 0" not in answer.body


def test_web_port_can_be_turned_off():
    host = HostProcess("--web-port", "off").start()
    try:
        assert host.web_port is None and host.port
        assert not host.log_lines("web serving")
    finally:
        host.stop()


def test_host_shutdown_ends_browser_streams_cleanly(start_host):
    host = start_host()
    with host.client() as client:
        name, _ = two_player_match(client)
    started = time.monotonic()
    connect_stream, grpc_web_stream = watch(host, name), Stream(
        host, "/gamehost.v1.GameHost/WatchMatch", "application/grpc-web+proto",
        envelope(pb.WatchMatchRequest(name=name).SerializeToString()))
    try:
        assert connect_stream.next()[0] == 0 and grpc_web_stream.next()[0] == 0
        host.process.terminate()
        versions = [pb.MatchEvent.FromString(connect_stream.next()[1]).version for _ in range(2)]
        assert versions == [2, 3]
        flags, end = connect_stream.next()
        assert flags == 0x02 and json.loads(end) == {}, "the stream ends without error"
        for _ in range(2):
            grpc_web_stream.next()
        flags, trailers = grpc_web_stream.next()
        assert flags == 0x80 and b"grpc-status: 0\r\n" in trailers
    finally:
        connect_stream.close()
        grpc_web_stream.close()
    assert host.process.wait(15) == 0 and time.monotonic() - started < 10
    assert host.log_lines("host stopped")


@pytest.mark.parametrize("args, env, complaint", [
    (["--cors-origins", "localhost:5173"], {}, "--cors-origins"),
    (["--web-port", "http"], {}, "--web-port"),
    (["--web-root", "/nonexistent/dist"], {}, "--web-root"),
    ([], {"GAMEHOST_CORS_ORIGINS": "https://ok.example, ftp://files.example"}, "ftp://files.example"),
])
def test_bad_browser_settings_are_usage_errors(args, env, complaint):
    run = subprocess.run([sys.executable, "-m", "gamehost.cli.main", "serve", "--store", "memory", "--port", "0",
                          *args], env={**os.environ, **env}, capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and complaint in run.stderr
