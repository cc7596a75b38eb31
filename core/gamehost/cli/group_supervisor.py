"""``gamehost serve --processes N``: N serving processes on one port.

This process serves nothing itself. It checks the ports once, fixes any
port 0 to a free one (every process must listen on the same), makes a
private directory for the processes' Unix sockets, and runs N children
(``gamehost.cli.group_child``), each a whole host on the shared store with
SO_REUSEPORT on the gRPC and web ports. It logs ``host serving`` once every
child is ready, starts again a child that dies (the same index: it owns the
same matches), and on SIGTERM or SIGINT stops them all gracefully.

A child that fails before it was ever ready (a store it cannot open, a port
taken) stops the group: starting it again would fail the same way.
"""

from __future__ import annotations

import asyncio
import ctypes
import os
import shutil
import signal
import sys
import tempfile
import time
from dataclasses import dataclass

import structlog

from gamehost.host.ops.config import HostConfig, shares_matches
from gamehost.host.ops.page_address import announce_page
from gamehost.host.ops.ports import ensure_free, ensure_ports_free, split_address
from gamehost.host.store import describe_store

log = structlog.get_logger("gamehost.group")

STOP_MARGIN = 30.0          # beyond the children's shutdown grace, before SIGKILL
READY_SECONDS = 120.0       # a child not ready by then is stopped and counts as failed
STEADY_SECONDS = 10.0       # a child that served this long before dying starts again at once
RESTART_DELAYS = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0)  # for a child that keeps dying soon after its start
PR_SET_PDEATHSIG = 1


def needs_shared_store(config: HostConfig) -> str | None:
    """Why ``config`` cannot run several processes, or None. Each process
    holds its matches in memory; only a shared store (PostgreSQL) makes one
    catch up with another's commits, and a SQLite file takes one host."""
    if config.processes > 1 and not shares_matches(config.store):
        return (f"--processes {config.processes} needs a shared PostgreSQL store (--store postgresql://...), "
                f"not {describe_store(config.store)!r}: serving processes hold their matches in memory and only "
                "PostgreSQL makes them see each other's moves; use --processes 1 with SQLite")
    return None


def _free_port(host: str) -> int:
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.bind((host or "", 0))
        return int(probe.getsockname()[1])


def child_configs(config: HostConfig) -> list[HostConfig]:
    """Each child's settings: the same fixed ports, a share of the workers
    (--workers stays the machine's total), its own metrics port (the base
    port plus its index: each process has its own counters) and replica name."""
    host, port = split_address(config.address)
    address = config.address if port else f"{config.address.rsplit(':', 1)[0]}:{_free_port(host)}"
    web_port = _free_port(host) if config.web_port == 0 else config.web_port
    count = config.processes
    workers = max(1, -(-config.workers // count))
    return [config.model_copy(update={
        "address": address, "web_port": web_port, "workers": workers,
        "metrics_port": config.metrics_port + index if config.metrics_port else config.metrics_port,
        "replica_id": f"{config.replica_id}-{index}"}) for index in range(count)]


def _stop_with_parent() -> None:
    """In the child (Linux): SIGTERM when the supervisor dies, even by
    SIGKILL, so no process is left serving on its own."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        pass


@dataclass
class Child:
    index: int
    config: HostConfig
    process: asyncio.subprocess.Process | None = None
    ready: asyncio.Event | None = None
    restarts: int = 0


class GroupSupervisor:
    def __init__(self, config: HostConfig) -> None:
        self.config = config
        self.stopping = asyncio.Event()
        self.failed: int | None = None  # exit status of a child that never got ready
        self.socket_dir = ""
        self.children = [Child(index, child) for index, child in enumerate(child_configs(config))]

    async def run(self) -> int:
        first = self.children[0].config
        ensure_ports_free(first)
        host, _ = split_address(first.address)
        for child in self.children:
            if child.config.metrics_port:
                ensure_free(host, child.config.metrics_port, "--metrics-port")
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, self.stopping.set)
        self.socket_dir = tempfile.mkdtemp(prefix="gamehost-group-")  # mode 0700: only this user connects
        try:
            for child in self.children:
                child.ready = asyncio.Event()
            keepers = [asyncio.create_task(self._keep(child)) for child in self.children]
            started = time.monotonic()
            await asyncio.wait([asyncio.create_task(self._all_ready()), asyncio.create_task(self.stopping.wait())],
                               return_when=asyncio.FIRST_COMPLETED)
            if not self.stopping.is_set():
                announce_page(first, first.web_port)
                log.info("host serving", address=first.address, port=split_address(first.address)[1],
                         web_port=first.web_port, processes=len(self.children),
                         pids=[child.process.pid for child in self.children if child.process],
                         metrics_ports=[child.config.metrics_port for child in self.children],
                         store=describe_store(first.store), seconds=round(time.monotonic() - started, 2))
            await self.stopping.wait()
            log.info("shutting down the serving processes", grace_seconds=first.shutdown_grace)
            await self._stop_all()
            await asyncio.gather(*keepers, return_exceptions=True)
        finally:
            shutil.rmtree(self.socket_dir, ignore_errors=True)
        log.info("host stopped", processes=len(self.children))
        return self.failed or 0

    async def _all_ready(self) -> None:
        await asyncio.gather(*(child.ready.wait() for child in self.children if child.ready))

    async def _keep(self, child: Child) -> None:
        """Run ``child``, and start it again whenever it dies, until the group stops."""
        assert child.ready is not None
        ever_ready = False
        quick_deaths = 0
        while not self.stopping.is_set():
            began = time.monotonic()
            process = await self._start(child)
            ready = await self._await_ready(process)
            if ready:
                ever_ready = True
                child.ready.set()
            else:
                log.warning("serving process not ready", index=child.index, pid=process.pid)
            await self._drain(process)
            code = await process.wait()
            if self.stopping.is_set():
                return
            if not ever_ready:
                # Fails on start (store, ports, plugins): again would fail alike; the group stops.
                log.error("serving process failed to start; stopping the group", index=child.index,
                          pid=process.pid, returncode=code)
                self.failed = code or 1
                self.stopping.set()
                return
            quick_deaths = quick_deaths + 1 if time.monotonic() - began < STEADY_SECONDS else 0
            delay = RESTART_DELAYS[min(quick_deaths, len(RESTART_DELAYS) - 1)]
            child.restarts += 1
            log.warning("serving process died; starting it again", index=child.index, pid=process.pid,
                        returncode=code, restarts=child.restarts, delay_seconds=delay)
            try:
                await asyncio.wait_for(self.stopping.wait(), delay)
            except asyncio.TimeoutError:
                pass

    async def _start(self, child: Child) -> asyncio.subprocess.Process:
        # Its own process group: a Ctrl-C at a terminal reaches the supervisor only, which
        # then stops each child once (a second signal would cut its graceful stop short).
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "gamehost.cli.group_child", str(child.index), str(len(self.children)),
            self.socket_dir, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            process_group=0, preexec_fn=_stop_with_parent)
        assert process.stdin is not None
        # The settings on stdin, not in argv or the environment: they may hold the store's password.
        process.stdin.write(child.config.model_dump_json().encode())
        await process.stdin.drain()
        process.stdin.close()
        child.process = process
        return process

    @staticmethod
    async def _await_ready(process: asyncio.subprocess.Process) -> bool:
        """True once the child writes its ``ready`` line; False if it ends or takes too long."""
        assert process.stdout is not None
        try:
            while True:
                line = await asyncio.wait_for(process.stdout.readline(), READY_SECONDS)
                if not line:
                    return False
                if line.startswith(b"ready "):
                    return True
                sys.stdout.buffer.write(line)  # a plugin's print: passed on
        except asyncio.TimeoutError:
            process.kill()
            return False

    @staticmethod
    async def _drain(process: asyncio.subprocess.Process) -> None:
        """Pass on the child's stdout until it ends, so a child that prints never blocks."""
        assert process.stdout is not None
        while line := await process.stdout.readline():
            sys.stdout.buffer.write(line)
            sys.stdout.flush()

    async def _stop_all(self) -> None:
        running = [child.process for child in self.children
                   if child.process is not None and child.process.returncode is None]
        for process in running:
            try:
                process.send_signal(signal.SIGTERM)
            except ProcessLookupError:
                pass

        async def stopped(process: asyncio.subprocess.Process) -> None:
            try:
                await asyncio.wait_for(process.wait(), self.config.shutdown_grace + STOP_MARGIN)
            except asyncio.TimeoutError:
                log.warning("serving process did not stop; killing it", pid=process.pid)
                process.kill()
                await process.wait()

        await asyncio.gather(*(stopped(process) for process in running))


def supervise(config: HostConfig) -> int:
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    return asyncio.run(GroupSupervisor(config).run())
