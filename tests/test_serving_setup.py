"""Serving set-up: a port another process holds is one clear line and exit
code 1, and `serve --reload` restarts the host when a plugin's files change."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from hosts import FIXTURE_SITE, HostProcess

SERVE = [sys.executable, "-m", "gamehost.cli.main", "serve", "--store", "memory"]


@pytest.fixture()
def taken_port():
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        yield holder.getsockname()[1]


@pytest.mark.parametrize(("flags", "named"), [(["--port", "{port}", "--web-port", "0"], "--port/--address"),
                                              (["--port", "0", "--web-port", "{port}"], "--web-port")])
def test_a_taken_port_is_one_clear_line_and_exit_code_1(taken_port, flags, named):
    argv = [flag.format(port=taken_port) for flag in flags]
    ran = subprocess.run([*SERVE, *argv, "--log-format", "json"], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 1
    assert ran.stderr.splitlines() == [
        f"gamehost: cannot listen on 127.0.0.1:{taken_port} ({named}): address already in use (another gamehost?); "
        f"choose another port with {named.split('/')[0]}"]


RELOAD_PLUGIN = '''
"""A game whose rules version the reload test edits."""
from gamehost.sdk import hookimpl
from gamehost_tictactoe.game import TicTacToe


class Edited(TicTacToe):
    id = "reload-fixture"
    title = "Reload fixture"
    version = "{version}"


@hookimpl
def gamehost_games():
    return [Edited()]
'''


def _write_plugin(site: Path, version: str) -> None:
    (site / "gamehost_reload_fixture").mkdir(parents=True, exist_ok=True)
    (site / "gamehost_reload_fixture" / "__init__.py").write_text(RELOAD_PLUGIN.format(version=version))


def _rules_version(client) -> str | None:
    try:
        return next((game.rules_version for game in client.games() if game.id == "reload-fixture"), None)
    except Exception:  # the host is restarting
        return None


def test_serve_reload_restarts_the_host_when_a_plugin_file_changes(tmp_path):
    site = tmp_path / "site"
    _write_plugin(site, "1")
    info = site / "gamehost_reload_fixture-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: gamehost-reload-fixture\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[gamehost.games]\nreload-fixture = gamehost_reload_fixture\n")
    host = HostProcess("--reload", "--isolation", "off",
                       env={"PYTHONPATH": os.pathsep.join([str(site), str(FIXTURE_SITE)])}).start(timeout=60)
    try:
        with host.client() as client:
            assert _rules_version(client) == "1"
            _write_plugin(site, "2-edited")
            deadline = time.monotonic() + 90
            while _rules_version(client) != "2-edited" and time.monotonic() < deadline:
                time.sleep(0.2)
            assert _rules_version(client) == "2-edited"
        changed = host.wait_for_log("plugin files changed: restarting the host")
        assert changed and any(path.endswith("gamehost_reload_fixture/__init__.py") for path in changed[0]["files"])
        assert len(host.wait_for_log("host serving", at_least=2)) == 2
    finally:
        assert host.stop() == 0
