"""The Connect project's own Node clients (@connectrpc/connect-node:
createConnectTransport and createGrpcWebTransport, JSON and binary) play a
match on a real host's web port, follow it live, read its errors and cancel a
watch. The package is tests/browser_clients (npm ci there; make test does)."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gamehost.v1 import gamehost_pb2 as pb

PACKAGE = Path(__file__).parent / "browser_clients"
PROTO = Path(__file__).parents[1] / "proto"
NODE, NPM = shutil.which("node"), shutil.which("npm")
pytestmark = pytest.mark.skipif((NODE is None or NPM is None) and not os.environ.get("CI"),
                                reason="Node.js is not installed (CI has it)")


@pytest.fixture(scope="module")
def stubs():
    """The package's dependencies, and stubs generated the way the web client's
    are: protoc-gen-es run by grpc_tools' protoc, here as plain JavaScript.
    Each pytest process writes its own copy: xdist workers run side by side."""
    assert NODE and NPM, "node and npm must be on PATH in CI"
    with open(PACKAGE / "package-lock.json") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one `npm ci` at a time
        if not (PACKAGE / "node_modules" / ".bin" / "protoc-gen-es").exists():
            subprocess.run([NPM, "ci", "--no-audit", "--no-fund"], cwd=PACKAGE, check=True, timeout=300)
    out = PACKAGE / "gen" / str(os.getpid())
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    subprocess.run([sys.executable, "-m", "grpc_tools.protoc", f"-I{PROTO}",
                    f"--plugin=protoc-gen-es={PACKAGE / 'node_modules' / '.bin' / 'protoc-gen-es'}",
                    f"--es_out={out}", "--es_opt=target=js",
                    "gamehost/v1/gamehost.proto", "google/rpc/error_details.proto"], check=True, timeout=60)
    yield out
    shutil.rmtree(out, ignore_errors=True)


@pytest.mark.parametrize("transport", ["connect-json", "connect-proto", "connect-get-json", "connect-get-proto",
                                       "grpc-web-proto", "grpc-web-json"])
def test_connect_node_clients_play_watch_and_read_errors(stubs, host, transport):
    run = subprocess.run([NODE, "play.mjs", host.web_url, transport, str(stubs)], cwd=PACKAGE,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)

    played = report["played"]
    assert "tictactoe" in played["games"]
    assert [event["version"] for event in played["events"]] == list(range(1, 10)), \
        "every event once, in order, each delivered before the next move was sent"
    assert [event["kind"] for event in played["events"]] == [
        pb.EVENT_KIND_JOINED, pb.EVENT_KIND_JOINED, pb.EVENT_KIND_STARTED, *[pb.EVENT_KIND_MOVED] * 5,
        pb.EVENT_KIND_FINISHED]
    assert [event["label"] for event in played["events"][3:8]] == [
        "X on a3", "O on a2", "X on b3", "O on b2", "X on c3"]
    assert played["events"][-1]["viewSeat"] == 0, "the watcher's own view comes with the newest event"
    assert played["status"] == pb.MATCH_STATUS_FINISHED and played["winners"] == [0]

    not_found = report["notFound"]
    assert not_found["code"] == 5 and "games/chess" in not_found["message"]
    assert not_found["reasons"] == ["gamehost.dev/GAME_NOT_FOUND"] and not_found["resources"] == ["games/chess"]
    assert report["invalid"]["code"] == 3 and report["invalid"]["fields"] == ["name"]
    assert report["invalid"]["reasons"] == ["gamehost.dev/INVALID_NAME"]
    assert report["watchNotFound"]["code"] == 5
    assert report["watchNotFound"]["reasons"] == ["gamehost.dev/MATCH_NOT_FOUND"]

    cancelled = report["cancelled"]
    assert cancelled["seen"] == [1] and cancelled["ended"]["code"] == 1, "the client's abort ends its stream"
    match_id = cancelled["match"].split("/")[1]
    deadline = time.monotonic() + 5
    while not [e for e in host.log_lines("watch ended") if e.get("match_id") == match_id]:
        assert time.monotonic() < deadline, "the host still watches for a client that aborted"
        time.sleep(0.05)
