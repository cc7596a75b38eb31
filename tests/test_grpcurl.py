"""A generic gRPC tool needs nothing but the host: grpcurl lists, describes
and calls the services through server reflection."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

GRPCURL = shutil.which("grpcurl")
pytestmark = pytest.mark.skipif(GRPCURL is None and not os.environ.get("CI"),
                                reason="grpcurl is not installed (make test builds it)")


def grpcurl(host, *args: str, data: dict | None = None) -> subprocess.CompletedProcess:
    assert GRPCURL, "grpcurl must be on PATH in CI"
    command = [GRPCURL, "-plaintext", *(["-d", json.dumps(data)] if data is not None else []), host.target, *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def test_grpcurl_lists_the_services(host):
    listed = grpcurl(host, "list")
    assert listed.returncode == 0, listed.stderr
    assert {"gamehost.v1.GameHost", "grpc.health.v1.Health"} <= set(listed.stdout.split())


def test_grpcurl_describes_the_game_service(host):
    described = grpcurl(host, "describe", "gamehost.v1.GameHost")
    assert described.returncode == 0, described.stderr
    assert "rpc SubmitMove ( .gamehost.v1.SubmitMoveRequest ) returns ( .gamehost.v1.SubmitMoveResponse );" in described.stdout
    assert "rpc WatchMatch ( .gamehost.v1.WatchMatchRequest ) returns ( stream .gamehost.v1.MatchEvent );" in described.stdout


def test_grpcurl_plays_a_match(host):
    match = json.loads(grpcurl(host, "gamehost.v1.GameHost/CreateMatch",
                               data={"game": "games/tictactoe", "bot_seats": [1]}).stdout)
    joined = json.loads(grpcurl(host, "gamehost.v1.GameHost/JoinMatch", data={"name": match["name"]}).stdout)
    moved = grpcurl(host, "gamehost.v1.GameHost/SubmitMove",
                    data={"name": match["name"], "player_token": joined["player_token"], "move_id": "b2"})
    assert moved.returncode == 0, moved.stderr
    assert json.loads(moved.stdout)["version"] == "3"


def test_grpcurl_shows_structured_error_details(host):
    failed = grpcurl(host, "gamehost.v1.GameHost/GetMatch", data={"name": "matches/missing"})
    assert failed.returncode != 0
    assert "Code: NotFound" in failed.stdout + failed.stderr
    assert "MATCH_NOT_FOUND" in failed.stdout + failed.stderr


def test_grpcurl_health_check(host):
    checked = grpcurl(host, "grpc.health.v1.Health/Check")
    assert checked.returncode == 0 and json.loads(checked.stdout)["status"] == "SERVING"
