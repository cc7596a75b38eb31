"""Real hosts for the tests: ``gamehost serve`` in a child process on a free
port, reached over real gRPC sockets."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import grpc
from gamehost.client import GameHostClient

FIXTURE_SITE = Path(__file__).parent / "fixtures" / "site"
# Tests call far faster than a person, all from 127.0.0.1: per-caller limits
# are off unless a test sets them (tests/test_quotas.py does).
UNLIMITED = {"GAMEHOST_CALL_RATE": "0", "GAMEHOST_CREATE_RATE": "0", "GAMEHOST_MAX_WATCHERS_PER_CALLER": "0"}

# Test hosts serve many tests from one address, with chosen seeds in games of
# chance: no match quotas, and anyone may choose a seed. The tests of those
# rules (test_match_limits.py) start hosts with the production defaults.
TEST_HOST_ENV = {"GAMEHOST_MAX_OPEN_MATCHES": "0", "GAMEHOST_MAX_BOT_MATCHES": "0", "GAMEHOST_CHOSEN_SEEDS": "anyone",
                 "GAMEHOST_MAX_UNFINISHED_MATCHES": "0", "GAMEHOST_MAX_PLAYER_MATCHES": "0",
                 "GAMEHOST_BOT_DELAY_WITH_HUMANS": "0"}


# One serving process per test host unless a test asks for more: the default on PostgreSQL, one per
# core, would start every PostgreSQL host of the suite twice over on two cores (test_serving_processes.py
# starts groups, and the default's own).
ONE_PROCESS = {"GAMEHOST_PROCESSES": "1"}


class HostProcess:
    """A ``gamehost serve`` child process; its JSON log lines are collected."""

    def __init__(self, *args: str, data_dir: Path | None = None, env: dict[str, str | None] | None = None,
                 command: list[str] | None = None, cwd: Path | None = None) -> None:
        self.args = args
        self.data_dir = data_dir
        self.extra_env = env or {}
        self.command = command
        self.cwd = cwd
        self.logs: list[dict] = []
        self.stdout: list[str] = []  # what the host printed to stdout (it logs to stderr, so nothing, normally)
        self.port = 0
        self.metrics_port: int | None = None  # with --metrics-port
        self.web_port = 0
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 30.0) -> "HostProcess":
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(FIXTURE_SITE),
                                                                           os.environ.get("PYTHONPATH")])),
               "GAMEHOST_LOG_FORMAT": "json", "GAMEHOST_LOG_LEVEL": "debug", "GAMEHOST_WEB_PORT": "0",
               **TEST_HOST_ENV, **UNLIMITED, **ONE_PROCESS, **self.extra_env}
        env = {name: value for name, value in env.items() if value is not None}  # None: a variable left unset
        command = self.command or [sys.executable, "-m", "gamehost.cli.main", "serve", "--port", "0",
                                   *(["--data-dir", str(self.data_dir)] if self.data_dir else ["--store", "memory"]),
                                   *self.args]
        self.logs, self.stdout, self.port = [], [], 0
        ready = threading.Event()
        self.process = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, start_new_session=True, cwd=self.cwd)

        def collect(stream):
            for line in stream:
                try:
                    entry = json.loads(line)
                except json.JSONDecodeError:
                    entry = {"event": line.rstrip(), "raw": True}
                self.logs.append(entry)
                if entry.get("event") == "host serving":
                    self.port = entry["port"]
                    self.metrics_port = entry.get("metrics_port")
                    self.web_port = entry.get("web_port")
                    ready.set()

        threading.Thread(target=collect, args=(self.process.stderr,), daemon=True).start()
        def keep(stream):
            for line in stream:
                self.stdout.append(line)

        threading.Thread(target=keep, args=(self.process.stdout,), daemon=True).start()
        deadline = time.monotonic() + timeout
        while not ready.wait(0.05):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"host did not start: {self.logs[-20:]}")
        return self

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def web_url(self) -> str:
        """The HTTP port's base URL: Connect, gRPC-Web and the web client."""
        return f"http://127.0.0.1:{self.web_port}"

    def client(self, bearer_token: str = "") -> GameHostClient:
        """A client; with ``bearer_token`` (a JWT or an API key) it calls signed in."""
        return GameHostClient(self.target, bearer_token=bearer_token)

    def channel(self) -> grpc.Channel:
        return grpc.insecure_channel(self.target)

    def kill(self) -> None:
        """SIGKILL to the host and anything that started it: no shutdown code runs."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> int:
        """SIGTERM, the way an operator or an orchestrator stops a host."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        return self.process.returncode if self.process else 0

    def log_lines(self, event: str) -> list[dict]:
        return [entry for entry in self.logs if entry.get("event") == event]

    def wait_for_log(self, event: str, match_id: str = "", timeout: float = 20.0, at_least: int = 1,
                     **fields) -> list[dict]:
        """The host's log lines ``event`` (about ``match_id``, with
        ``fields``), once there are ``at_least``: a thread reads the host's
        output, so a line the host wrote may not have been read yet."""
        deadline = time.monotonic() + timeout
        while True:
            lines = [line for line in self.log_lines(event)
                     if (not match_id or line.get("match_id") == match_id.removeprefix("matches/"))
                     and all(line.get(key) == value for key, value in fields.items())]
            if len(lines) >= at_least or time.monotonic() > deadline:
                return lines
            time.sleep(0.02)


def wait_for(condition, timeout: float = 30.0) -> bool:
    """Whether ``condition()`` came true within ``timeout`` seconds (looked at every 10 ms)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True
