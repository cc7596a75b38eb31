"""What the benchmarks share: hosts started in their own process, the
tictactoe load they play, the statistics they report and the machine they
ran on. Run a benchmark from the repository's root as a module, e.g.
``python -m bench.moves``."""

from __future__ import annotations

import asyncio
import json
import os
import platform
import statistics
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from gamehost.v1 import gamehost_pb2 as pb
from gamehost.v1 import gamehost_pb2_grpc as pb_grpc

HOST_CORE, LOAD_CORE = 0, 1
DRAW = ["a3", "b3", "c3", "b2", "a2", "c2", "b1", "a1", "c1"]  # nine moves, no line: a full game
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# A benchmark is one client measuring the host, not its quotas: every
# per-caller budget and cap is lifted for the hosts the benchmarks start (the
# defaults stay for every other host). The host-wide caps stay.
QUOTAS_LIFTED = ("--call-rate", "0", "--create-rate", "0", "--max-watchers-per-caller", "0",
                 "--max-open-matches", "0", "--max-bot-matches", "0", "--max-unfinished-matches", "0",
                 "--max-player-matches", "0", "--max-sessions-per-caller", "0", "--max-connections-per-peer", "0",
                 "--max-probe-streams-per-caller", "0")

def host_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


# The hosts measured here are one serving process (their CPU is read from its pid), also on
# PostgreSQL, where the default is one per core; processes.py starts groups itself.
ONE_PROCESS = ("--processes", "1")


class Host:
    def __init__(self, store: str, data_dir: str, *extra_args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gamehost.cli.main", "serve", "--port", "0", "--web-port", "off", "--store", store,
             "--data-dir", data_dir, "--log-format", "json", "--log-level", "info",
             *ONE_PROCESS, *QUOTAS_LIFTED, *extra_args],
            stderr=subprocess.PIPE, text=True)
        for line in self.process.stderr:
            entry = json.loads(line)
            if "host serving" in line:
                self.target = f"127.0.0.1:{entry['port']}"
                break
        else:
            raise RuntimeError("host did not start")
        # Keep reading its log, or a full pipe would block the host.
        threading.Thread(target=self.process.stderr.read, daemon=True).start()

    def cpu(self) -> float:
        return host_cpu_seconds(self.process.pid)

    def rss_bytes(self) -> int:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:"))) * 1024

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(30)


async def play_draw(stub_for_turn, name: str, tokens: list[str], latencies: list[float]) -> None:
    """One full tictactoe game (``DRAW``) by SubmitMove with the expected
    version, each move sent to ``stub_for_turn(turn)``; each move's latency
    is appended to ``latencies``."""
    for turn, move_id in enumerate(DRAW):
        request = pb.SubmitMoveRequest(name=name, player_token=tokens[turn % 2], move_id=move_id,
                                       expected_version=3 + turn)
        start = time.perf_counter()
        await stub_for_turn(turn).SubmitMove(request)
        latencies.append(time.perf_counter() - start)


def summary(latencies: list[float], calls: int, elapsed: float, cpu: float, client_cpu: float) -> dict:
    ordered = sorted(latencies)
    return {"calls": calls, "rate": calls / elapsed, "p50_ms": 1000 * statistics.median(ordered),
            "p99_ms": 1000 * ordered[int(0.99 * (len(ordered) - 1))], "host_cpu_us_per_call": 1e6 * cpu / calls,
            "client_cpu_us_per_call": 1e6 * client_cpu / calls}


async def empty_calls(host: Host, concurrency: int, calls_per_task: int) -> dict:
    async with grpc.aio.insecure_channel(host.target) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        request = health_pb2.HealthCheckRequest(service="")
        await stub.Check(request)
        latencies: list[float] = []

        async def task():
            for _ in range(calls_per_task):
                start = time.perf_counter()
                await stub.Check(request)
                latencies.append(time.perf_counter() - start)

        cpu, client_cpu, start = host.cpu(), time.process_time(), time.perf_counter()
        await asyncio.gather(*(task() for _ in range(concurrency)))
        elapsed, cpu, client_cpu = time.perf_counter() - start, host.cpu() - cpu, time.process_time() - client_cpu
    return summary(latencies, len(latencies), elapsed, cpu, client_cpu)


async def submit_moves(host: Host, concurrency: int, matches_per_task: int) -> dict:
    async with grpc.aio.insecure_channel(host.target) as channel:
        stub = pb_grpc.GameHostStub(channel)

        async def prepare():
            match = await stub.CreateMatch(pb.CreateMatchRequest(game="games/tictactoe"))
            tokens = [(await stub.JoinMatch(pb.JoinMatchRequest(name=match.name))).player_token for _ in range(2)]
            return match.name, tokens

        prepared = [[await prepare() for _ in range(matches_per_task)] for _ in range(concurrency)]
        latencies: list[float] = []

        async def task(matches):
            for name, tokens in matches:
                await play_draw(lambda turn: stub, name, tokens, latencies)

        cpu, client_cpu, start = host.cpu(), time.process_time(), time.perf_counter()
        await asyncio.gather(*(task(matches) for matches in prepared))
        elapsed, cpu, client_cpu = time.perf_counter() - start, host.cpu() - cpu, time.process_time() - client_cpu
    return summary(latencies, len(latencies), elapsed, cpu, client_cpu)


def process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants (the rules workers)."""
    found, pending = [], [pid]
    while pending:
        current = pending.pop()
        found.append(current)
        for task in Path(f"/proc/{current}/task").glob("*"):
            try:
                pending += [int(child) for child in (task / "children").read_text().split()]
            except OSError:
                pass
    return found


def tree_rss_bytes(pid: int) -> int:
    """The resident memory of ``pid`` and its descendants (the host and its rules workers)."""
    total = 0
    for member in process_tree(pid):
        try:
            status = Path(f"/proc/{member}/status").read_text()
        except OSError:  # a worker that ended meanwhile
            continue
        total += next((int(line.split()[1]) * 1024 for line in status.splitlines() if line.startswith("VmRSS:")), 0)
    return total


class PinnedHost:
    def __init__(self, store: str, data_dir: str, source: str | None = None, extra_args: tuple[str, ...] = (),
                 log_path: str | None = None, pinned: bool = True, quotas: tuple[str, ...] = QUOTAS_LIFTED,
                 web_port: str = "off") -> None:
        """``source``: another tree's ``core`` directory to run instead (e.g. the
        commit before the session stream, from ``git archive``); ``extra_args``:
        more ``gamehost serve`` flags; ``log_path``: a file to keep its log in;
        ``pinned``: on core 0 with its workers (else wherever the OS puts them);
        ``quotas``: the flags that relax the per-caller limits (``()``: the defaults);
        ``web_port``: the browsers' port ("0": a free one)."""
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [source, os.environ.get("PYTHONPATH")]))}
        pinning = ["taskset", "-c", str(HOST_CORE)] if pinned else []
        self.process = subprocess.Popen(
            [*pinning, sys.executable, "-m", "gamehost.cli.main", "serve", "--port", "0",
             "--web-port", web_port, "--store", store, "--data-dir", data_dir, "--log-format", "json",
             "--log-level", "info", *ONE_PROCESS, *quotas, *extra_args],
            stderr=subprocess.PIPE, text=True, env=env)
        for line in self.process.stderr:
            if "host serving" in line:
                serving = json.loads(line)
                self.target = f"127.0.0.1:{serving['port']}"
                self.event_loop = serving.get("event_loop", "asyncio")  # uvloop or asyncio (hosts before: asyncio)
                break
        else:
            raise RuntimeError("host did not start")
        # A full pipe would block it: read on, into ``log_path`` when given.
        threading.Thread(target=self._drain, args=(log_path,), daemon=True).start()

    def _drain(self, log_path: str | None) -> None:
        if log_path is None:
            self.process.stderr.read()
            return
        with open(log_path, "a") as log:
            for line in self.process.stderr:
                log.write(line)

    def cpu(self) -> float:
        total = 0.0
        for pid in process_tree(self.process.pid):
            try:
                total += host_cpu_seconds(pid)
            except OSError:  # a worker that ended meanwhile
                pass
        return total

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(30)


def machine() -> dict:
    model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.processor())
    return {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "cpu": model, "cores": os.cpu_count(),
            "python": platform.python_version(), "grpcio": grpc.__version__}


def median_run(runs: list[dict]) -> dict:
    """The run with the median rate: one noisy run does not decide."""
    return sorted(runs, key=lambda run: run["rate"])[len(runs) // 2]


def fresh_database(server: str) -> tuple[str, str]:
    """A new, empty database on the PostgreSQL ``server``: its name and its URL."""
    import psycopg  # only the PostgreSQL benchmarks need it

    name = f"gamehost_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    return name, urlsplit(server)._replace(path=f"/{name}").geturl()


def drop_database(server: str, name: str) -> None:
    import psycopg

    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
