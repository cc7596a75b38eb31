"""``gamehost serve --reload``: for plugin development, a host restarted
whenever an installed plugin's files change.

This process serves nothing itself: it runs ``gamehost serve`` (the same
flags, less ``--reload``) as a child, looks at the plugins' files twice a
second, and on a change stops the child gracefully and starts another. A
restart, not a re-import in place: the rules workers, the bots and the
catalog all start afresh from the new code, as on a real upgrade. Matches
in a SQLite or PostgreSQL store are restored; ``--store memory`` starts
empty each time.

Ports chosen as 0 (a free one) are fixed on the first start, so clients
reconnect to the same address after each restart.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import signal
import socket
import subprocess
import sys
import time
from importlib.metadata import entry_points
from pathlib import Path
from typing import Sequence

import structlog

from gamehost.host.plugins import ENTRY_POINT_GROUP
from gamehost.host.ops.ports import split_address

POLL_SECONDS = 0.5
STOP_SECONDS = 30.0  # beyond the host's own shutdown grace, before SIGKILL

log = structlog.get_logger("gamehost.reload")

Snapshot = dict[str, tuple[int, int]]


def plugin_roots() -> list[Path]:
    """Each installed plugin's package directory (or module file), found
    without importing it."""
    roots: set[Path] = set()
    for entry_point in entry_points(group=ENTRY_POINT_GROUP):
        top = entry_point.module.split(".")[0]
        try:
            spec = importlib.util.find_spec(top)
        except (ImportError, ValueError):
            continue
        if spec is None:
            continue
        if spec.submodule_search_locations:
            roots.update(Path(location) for location in spec.submodule_search_locations)
        elif spec.origin and spec.origin not in ("built-in", "frozen"):
            roots.add(Path(spec.origin))
    return sorted(roots)


def snapshot(roots: Sequence[Path]) -> Snapshot:
    """Modification time and size of every file under ``roots``, and which
    plugins are installed (an install or an uninstall is a change too)."""
    files: Snapshot = {}
    for root in roots:
        paths = [root] if root.is_file() else (path for path in root.rglob("*")
                                                if path.is_file() and "__pycache__" not in path.parts)
        for path in paths:
            try:
                stat = path.stat()
            except OSError:  # removed while we looked: the next look sees it gone
                continue
            files[str(path)] = (stat.st_mtime_ns, stat.st_size)
    return files


def changed_files(before: Snapshot, after: Snapshot) -> list[str]:
    return sorted(path for path in before.keys() | after.keys() if before.get(path) != after.get(path))


def free_port(host: str) -> int:
    """A port free now on ``host``, to keep across restarts."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.bind((host or "", 0))
        return int(probe.getsockname()[1])


def child_command(argv: Sequence[str], address: str, web_port: int | None) -> list[str]:
    """``gamehost serve`` with ``argv`` less ``--reload``, and any port 0 made
    a fixed free port (later flags win in argparse)."""
    command = [sys.executable, "-m", "gamehost.cli.main", *[arg for arg in argv if arg != "--reload"]]
    host, port = split_address(address)
    if port == 0:
        command += ["--port", str(free_port(host))]
    if web_port == 0:
        command += ["--web-port", str(free_port(host))]
    return command


PR_SET_PDEATHSIG = 1


def _stop_with_parent() -> None:
    """In the child, before it runs (Linux): SIGTERM when this supervisor
    dies, even by SIGKILL, so no host is left serving on its own."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):  # not Linux: the child outlives a killed supervisor
        pass


class Supervisor:
    def __init__(self, command: list[str]) -> None:
        self.command = command
        self.child: subprocess.Popen[bytes] | None = None
        self.stopping = False

    def start(self) -> None:
        # Its own process group: a Ctrl-C or a signal to this process's group
        # reaches the child once, forwarded by stop_child; a second SIGTERM
        # during its graceful stop would cut the stop short.
        self.child = subprocess.Popen(self.command, process_group=0, preexec_fn=_stop_with_parent)

    def stop_child(self) -> int:
        child = self.child
        if child is None:
            return 0
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
            try:
                child.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
        return child.returncode

    def request_stop(self, signum: int, frame: object) -> None:
        self.stopping = True

    def run(self) -> int:
        signal.signal(signal.SIGTERM, self.request_stop)
        signal.signal(signal.SIGINT, self.request_stop)
        roots = plugin_roots()
        seen = snapshot(roots)
        log.info("reloading on plugin changes", watched=[str(root) for root in roots])
        self.start()
        assert self.child is not None
        while not self.stopping:
            time.sleep(POLL_SECONDS)
            if self.child.poll() is not None:  # it stopped on its own (a port taken, a bad store): so do we
                return self.child.returncode
            roots = plugin_roots()
            now = snapshot(roots)
            changes = changed_files(seen, now)
            if not changes:
                continue
            seen = now
            log.info("plugin files changed: restarting the host", files=changes[:10], count=len(changes))
            self.stop_child()
            self.start()
        return self.stop_child()


def supervise(argv: Sequence[str], address: str, web_port: int | None) -> int:
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    os.environ.pop("GAMEHOST_RELOAD", None)  # the child serves; it must not supervise a child of its own
    return Supervisor(child_command(argv, address, web_port)).run()
