"""The README's first command really runs the host: every installed plugin,
reflection and health, with its embedded store."""

from __future__ import annotations

import re
import shlex
from importlib.metadata import entry_points
from pathlib import Path

from grpc_health.v1 import health_pb2, health_pb2_grpc

from gamehost.host.plugins import ENTRY_POINT_GROUP
from hosts import HostProcess

README = Path(__file__).parent.parent / "README.md"


def readme_commands() -> list[str]:
    block = re.search(r"```sh\n(.*?)```", README.read_text(), re.S).group(1)
    return [line.split("#")[0].strip() for line in block.splitlines() if line.strip()]


def test_readme_opens_with_the_serve_and_test_commands():
    commands = readme_commands()
    assert commands[:2] == ["make serve", "make test"]
    ci = (README.parent / ".ci" / "run").read_text()
    assert "\nmake check-stubs test\n" in ci, ".ci/run calls the README's test command"
    commands = "\n".join(line for line in ci.splitlines() if not line.lstrip().startswith("#"))
    assert not re.search(r"apt-get|install-debian-packages|npm |start-test-postgres|pip install", commands), (
        "make test does the set-up, not .ci/run")


def test_readme_command_one_serves_every_installed_plugin(tmp_path):
    host = HostProcess(command=shlex.split(readme_commands()[0]), cwd=README.parent,
                       env={"GAMEHOST_ADDRESS": "127.0.0.1:0", "GAMEHOST_DATA_DIR": str(tmp_path)}).start(120)
    try:
        with host.client() as client:
            served = {game.id for game in client.games()}
            match = client.create_match("tictactoe")
        assert {ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)} <= served
        with host.channel() as channel:
            answer = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=5)
        assert answer.status == health_pb2.HealthCheckResponse.SERVING
        assert (tmp_path / "gamehost.db").exists(), "the embedded store lives in the data directory"
    finally:
        host.stop()
    restarted = HostProcess(data_dir=tmp_path).start()
    try:
        with restarted.client() as client:
            assert client.match(match.name).name == match.name
    finally:
        restarted.stop()
