"""Every line a host writes in JSON log mode is one JSON object, including
what the libraries under it report; bytes anyone can send cost one line at
most, never a traceback."""

from __future__ import annotations

import json
import socket

import pytest

from hosts import HostProcess

MALFORMED_HTTP = {
    "a URL over 8,190 bytes": b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
    "a header over 8,190 bytes": b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n",
    "a DEL byte in the URL": b"GET /\x7f HTTP/1.1\r\nHost: x\r\n\r\n",
    "a DEL byte in a header": b"POST /gamehost.v1.GameHost/ListGames HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a\x7fb\r\n"
                              b"Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
    "a Content-Length past any integer": b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: " + b"9" * 40 + b"\r\n\r\n",
    "a negative Content-Length": b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
}


@pytest.fixture(scope="module")
def host():
    process = HostProcess().start()  # GAMEHOST_LOG_FORMAT=json, level debug: the most a host writes
    yield process
    process.stop()


def send_raw(host: HostProcess, request: bytes) -> bytes:
    """The first line of the host's answer to ``request`` sent as it is."""
    with socket.create_connection(("127.0.0.1", host.web_port), timeout=10) as connection:
        connection.sendall(request)
        answer = b""
        while b"\r\n" not in answer:
            chunk = connection.recv(4096)
            if not chunk:
                break
            answer += chunk
    return answer.split(b"\r\n", 1)[0]


def test_malformed_http_costs_one_json_line_each_and_no_traceback(host):
    before = len(host.logs)
    for name, request in MALFORMED_HTTP.items():
        assert b" 400 " in send_raw(host, request), name
    sent = len(MALFORMED_HTTP)
    refused = host.wait_for_log("malformed HTTP request refused", at_least=sent)
    assert len(refused) == sent
    assert {line["level"] for line in refused} == {"warning"}
    assert {line["peer"] for line in refused} == {"127.0.0.1"}
    assert all(line["status"] == 400 and line["error"] and len(line["detail"]) < 200 for line in refused)
    written = host.logs[before:]
    assert not [line for line in written if line.get("raw")], "lines outside the JSON log"
    assert len(written) <= sent, [line["event"] for line in written]
    assert not [line for line in written if "exception" in line]


def test_an_authorization_header_grpc_cannot_carry_writes_nothing_outside_the_log(host):
    """Forwarded to grpc, such a header had grpc's C core print its own error lines."""
    before = len(host.logs)
    request = (b"POST /gamehost.v1.GameHost/ListGames HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a\tb\r\n"
               b"Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
    for _ in range(3):
        assert b" 401 " in send_raw(host, request)
    assert b" 200 " in send_raw(host, request.replace(b"Bearer a\tb", b"Bearer ab").replace(
        b"Authorization: Bearer ab\r\n", b""))
    written = host.logs[before:]
    assert not [line for line in written if line.get("raw")], "lines outside the JSON log"
    assert len(written) <= 3


def test_everything_a_host_writes_from_start_to_stop_parses_as_json(start_host):
    host = start_host()
    for request in MALFORMED_HTTP.values():
        send_raw(host, request)
    host.wait_for_log("malformed HTTP request refused", at_least=len(MALFORMED_HTTP))
    assert host.stop() == 0
    assert not [line["event"] for line in host.logs if line.get("raw")]
    for line in host.stdout:
        assert isinstance(json.loads(line), dict), line
