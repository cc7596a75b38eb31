"""Benchmark: `gamehost serve --processes 2` against `--processes 1` on one
PostgreSQL database, and what forwarding a call to a match's owner costs.

Full tictactoe games (SubmitMove with expected_version) at ``--concurrency``
matches at once, each setup ``--repeat`` times, interleaved, the median run
kept:

- ``x1``: one serving process (2 rules workers);
- ``x2 owner``: two serving processes (1 worker each), every call sent on a
  connection the kernel gave to the match's owner: no call forwarded (what
  a balancer that routes by match would give);
- ``x2 random``: two processes, each match on one of 8 connections as it
  comes (a plain client: about half the calls are forwarded);
- ``x2 forwarded``: two processes, every call on a connection of the other
  process: every call forwarded.

``--watchers W``: W spectators follow each match (WatchMatch, on the same
connection as its moves, so forwarded alike): the events' hop is then in
the CPU per move too.

Which process a connection landed on is read from the log line of a match
created on it. CPU per move is the serving processes' (from /proc; the
supervisor sleeps), with the workers' beside it; the database's is not
counted. The client is this process (grpc.aio); its CPU is shown too.
Usage:
    python -m bench.processes [--postgres URL] [--quick] [--json results.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import grpc

from gamehost.host.ops.serving_group import owner_index
from gamehost.v1 import gamehost_pb2 as pb
from gamehost.v1 import gamehost_pb2_grpc as pb_grpc
from bench.harness import (QUOTAS_LIFTED, drop_database, fresh_database, host_cpu_seconds, machine, median_run,
                           play_draw)

CONNECTIONS = 8


class GroupHost:
    """``gamehost serve --processes N`` on PostgreSQL; its log lines kept."""

    def __init__(self, url: str, processes: int) -> None:
        self.logs: list[dict] = []
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gamehost.cli.main", "serve", "--port", "0", "--web-port", "off", "--store", url,
             "--processes", str(processes), "--workers", "2", "--log-format", "json", "--log-level", "info",
             *QUOTAS_LIFTED],
            stderr=subprocess.PIPE, text=True, start_new_session=True)
        ready = threading.Event()

        def read() -> None:
            for line in self.process.stderr:
                entry = json.loads(line)
                self.logs.append(entry)
                if entry.get("event") == "host serving":
                    self.target = f"127.0.0.1:{entry['port']}"
                    self.pids = entry.get("pids") or [self.process.pid]
                    ready.set()

        threading.Thread(target=read, daemon=True).start()
        if not ready.wait(120):
            raise RuntimeError("host did not start")
        if processes == 1:
            self.pids = [self.process.pid]

    def serving_cpu(self) -> float:
        return sum(host_cpu_seconds(pid) for pid in self.pids)

    def workers_cpu(self) -> float:
        total = 0.0
        for pid in self.pids:
            children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
            total += sum(host_cpu_seconds(int(child)) for child in children)
        return total

    def process_of(self, match: str) -> int:
        """The serving process that logged creating ``match``."""
        match_id = match.removeprefix("matches/")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            for entry in reversed(self.logs):
                if entry.get("event") == "match created" and entry.get("match_id") == match_id:
                    return entry.get("process", 0)
            time.sleep(0.01)
        raise RuntimeError(f"no log line for {match}")

    def stop(self) -> list[dict]:
        self.process.terminate()
        self.process.wait(60)
        return [entry for entry in self.logs if entry.get("event") == "host stopped"]


async def connections_by_process(host: GroupHost, count: int) -> tuple[list, list, dict[int, list]]:
    """Channels, each its own TCP connection: the first ``CONNECTIONS`` as
    the kernel spread them, and all of them by the process that accepted
    them, opened until every process has one (the kernel's spread is random)."""
    channels, stubs = [], []
    by_process: dict[int, list] = {}
    while len(channels) < CONNECTIONS or (len(by_process) < count and len(channels) < 8 * CONNECTIONS):
        channel = grpc.aio.insecure_channel(host.target, options=[("grpc.use_local_subchannel_pool", 1)])
        stub = pb_grpc.GameHostStub(channel)
        probe = await stub.CreateMatch(pb.CreateMatchRequest(game="games/tictactoe"))
        by_process.setdefault(host.process_of(probe.name), []).append(stub)
        channels.append(channel)
        stubs.append(stub)
    return channels, stubs[:CONNECTIONS], by_process


async def follow(stub, name: str) -> int:
    """A spectator's WatchMatch stream until the match ends: the events it received."""
    received = 0
    async for _ in stub.WatchMatch(pb.WatchMatchRequest(name=name)):
        received += 1
    return received


async def play(host: GroupHost, count: int, concurrency: int, games_per_task: int, routing: str,
               watchers: int) -> dict:
    channels, every, by_process = await connections_by_process(host, count)
    if routing in ("owner", "forwarded") and len(by_process) < count:
        for channel in channels:
            await channel.close()
        trouble = [entry for entry in host.logs if entry.get("level") in ("warning", "error")][-5:]
        raise RuntimeError(f"{len(channels)} connections all landed on one process ({sorted(by_process)}); "
                           f"the host's last warnings: {trouble}")
    try:
        def stub_for(match: str, index: int):
            if routing == "random":
                return every[index % len(every)]
            owner = owner_index(match, count)
            stubs = by_process[owner if routing == "owner" else (owner + 1) % count]
            return stubs[index % len(stubs)]

        async def prepare(index: int):
            match = await every[index % len(every)].CreateMatch(pb.CreateMatchRequest(game="games/tictactoe"))
            stub = stub_for(match.name, index)
            tokens = [(await stub.JoinMatch(pb.JoinMatchRequest(name=match.name))).player_token for _ in range(2)]
            return stub, match.name, tokens

        prepared = [[await prepare(task * games_per_task + game) for game in range(games_per_task)]
                    for task in range(concurrency)]
        latencies: list[float] = []

        events: list[int] = []

        async def task(games):
            for stub, name, tokens in games:
                following = [asyncio.create_task(follow(stub, name)) for _ in range(watchers)]
                await asyncio.sleep(0)  # the streams are opened before the first move
                await play_draw(lambda turn: stub, name, tokens, latencies)
                events.extend(await asyncio.gather(*following))

        serving, workers = host.serving_cpu(), host.workers_cpu()
        client_cpu, start = time.process_time(), time.perf_counter()
        await asyncio.gather(*(task(games) for games in prepared))
        elapsed = time.perf_counter() - start
        serving, workers = host.serving_cpu() - serving, host.workers_cpu() - workers
        client_cpu = time.process_time() - client_cpu
    finally:
        for channel in channels:
            await channel.close()
    moves = len(latencies)
    ordered = sorted(latencies)
    return {"moves": moves, "rate": moves / elapsed, "p50_ms": 1000 * statistics.median(ordered),
            "p99_ms": 1000 * ordered[int(0.99 * (moves - 1))], "serving_cpu_us_per_move": 1e6 * serving / moves,
            "workers_cpu_us_per_move": 1e6 * workers / moves, "client_cpu_us_per_move": 1e6 * client_cpu / moves,
            "events_per_move": sum(events) / moves}


async def run(server: str, quick: bool, repeat: int, concurrency: int, note: str, watchers: int) -> dict:
    games_per_task = max(1, (200 if quick else 800) // concurrency)
    results = {"machine": {**machine(), "note": note}, "repeat": repeat, "concurrency": concurrency,
               "watchers_per_match": watchers, "runs": []}
    name, url = fresh_database(server)
    one = two = None
    try:
        one, two = GroupHost(url, 1), GroupHost(url, 2)
        setups = {"x1": (one, 1, "owner"), "x2 owner": (two, 2, "owner"), "x2 random": (two, 2, "random"),
                  "x2 forwarded": (two, 2, "forwarded")}
        measured: dict[str, list[dict]] = {setup: [] for setup in setups}
        for _ in range(repeat):  # interleaved, so every setup sees the same machine
            for setup, (host, count, routing) in setups.items():
                measured[setup].append(await play(host, count, concurrency, games_per_task, routing, watchers))
    finally:
        stopped = [line for host in (one, two) if host for line in host.stop()]
        drop_database(server, name)
    base = median_run(measured["x1"])
    for setup, runs in measured.items():
        moves = median_run(runs)
        row = {"setup": setup, **moves, "rates": [r["rate"] for r in runs],
               "serving_cpu_vs_x1": moves["serving_cpu_us_per_move"] / base["serving_cpu_us_per_move"]}
        results["runs"].append(row)
        print(f"{setup:<13} {moves['rate']:6.0f} moves/s ({' '.join(f'{r:.0f}' for r in row['rates'])}) "
              f"p50 {moves['p50_ms']:6.2f} ms p99 {moves['p99_ms']:6.2f} ms serving cpu "
              f"{moves['serving_cpu_us_per_move']:5.0f} us/move (x{row['serving_cpu_vs_x1']:.2f}) workers "
              f"{moves['workers_cpu_us_per_move']:4.0f} client {moves['client_cpu_us_per_move']:4.0f} "
              f"events/move {moves['events_per_move']:.2f}", flush=True)
    results["forwarded"] = [{key: line.get(key) for key in ("process", "calls_forwarded",
                                                              "calls_served_for_an_away_owner")}
                            for line in stopped if "calls_forwarded" in line]
    print("forwarded:", results["forwarded"])
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--postgres", default=os.environ.get("GAMEHOST_TEST_POSTGRES"),
                        help="a PostgreSQL server URL whose role may create databases")
    parser.add_argument("--quick", action="store_true", help="fewer games, for a smoke run")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved runs per setup; the median is kept")
    parser.add_argument("--concurrency", type=int, default=16, help="matches played at once")
    parser.add_argument("--watchers", type=int, default=0,
                        help="spectators following each match (WatchMatch), on the same connection as its moves")
    parser.add_argument("--machine-note", default="", help="what else ran on the machine, recorded with the results")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args()
    if not args.postgres:
        parser.error("give --postgres URL or set GAMEHOST_TEST_POSTGRES (scripts/start-test-postgres prints one)")
    results = asyncio.run(run(args.postgres, args.quick, args.repeat, args.concurrency, args.machine_note,
                              args.watchers))
    print(json.dumps(results["machine"]))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
