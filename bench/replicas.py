"""Benchmark: moves per second and latency on PostgreSQL with one and two
host replicas, next to SQLite, in one run.

Each host runs in its own process; this process is the client (grpc.aio,
one channel per host). Full tictactoe games at ``--concurrency`` concurrent
matches, each figure ``--repeat`` times with the setups interleaved, the
median run kept:

- ``sqlite``: one host, the embedded store;
- ``postgresql x1``: one host on PostgreSQL;
- ``postgresql x2 sticky``: two replicas, each match played on one of them
  (a load balancer with affinity per match);
- ``postgresql x2 spread``: two replicas, each move sent to the other one
  than the last (per-call balancing, the worst case: every move lands on a
  replica whose copy is one move behind and must catch up first).

Host CPU per move sums every host process (from /proc); the database's own
CPU is not counted. Usage:
    python -m bench.replicas [--postgres URL] [--quick] [--json results.json]
The PostgreSQL server defaults to $GAMEHOST_TEST_POSTGRES (``make test``
starts one: scripts/start-test-postgres); each run uses a fresh database.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
import time
from pathlib import Path

import grpc

from gamehost.v1 import gamehost_pb2 as pb
from gamehost.v1 import gamehost_pb2_grpc as pb_grpc
from bench.harness import Host, drop_database, fresh_database, machine, median_run, play_draw, summary


async def play_games(hosts: list[Host], concurrency: int, games_per_task: int, spread: bool) -> dict:
    channels = [grpc.aio.insecure_channel(host.target) for host in hosts]
    stubs = [pb_grpc.GameHostStub(channel) for channel in channels]
    try:
        async def prepare(index: int):
            stub = stubs[index % len(stubs)]
            match = await stub.CreateMatch(pb.CreateMatchRequest(game="games/tictactoe"))
            tokens = [(await stub.JoinMatch(pb.JoinMatchRequest(name=match.name))).player_token for _ in range(2)]
            return index, match.name, tokens

        prepared = [[await prepare(task * games_per_task + game) for game in range(games_per_task)]
                    for task in range(concurrency)]
        latencies: list[float] = []

        async def task(games):
            for index, name, tokens in games:
                await play_draw(lambda turn: stubs[(index + turn if spread else index) % len(stubs)], name, tokens,
                                latencies)

        cpu, client_cpu, start = sum(h.cpu() for h in hosts), time.process_time(), time.perf_counter()
        await asyncio.gather(*(task(games) for games in prepared))
        elapsed = time.perf_counter() - start
        cpu, client_cpu = sum(h.cpu() for h in hosts) - cpu, time.process_time() - client_cpu
    finally:
        for channel in channels:
            await channel.close()
    return summary(latencies, len(latencies), elapsed, cpu, client_cpu)


async def run(server: str, quick: bool, repeat: int, concurrency: int) -> dict:
    games_per_task = max(1, (200 if quick else 1000) // concurrency)
    results = {"machine": machine(), "repeat": repeat, "concurrency": concurrency, "runs": []}
    name, url = fresh_database(server)
    with tempfile.TemporaryDirectory() as data_dir:
        sqlite = [Host("sqlite", data_dir)]
        replicas = [Host(url, data_dir) for _ in range(2)]
        setups = {"sqlite": (sqlite, False), "postgresql x1": (replicas[:1], False),
                  "postgresql x2 sticky": (replicas, False), "postgresql x2 spread": (replicas, True)}
        measured: dict[str, list[dict]] = {setup: [] for setup in setups}
        try:
            for _ in range(repeat):  # interleaved, so every setup sees the same machine
                for setup, (hosts, spread) in setups.items():
                    measured[setup].append(await play_games(hosts, concurrency, games_per_task, spread))
        finally:
            for host in sqlite + replicas:
                host.stop()
            drop_database(server, name)
    baseline = median_run(measured["sqlite"])["rate"]
    for setup, runs in measured.items():
        moves = median_run(runs)
        row = {"setup": setup, **moves, "vs_sqlite": moves["rate"] / baseline, "rates": [r["rate"] for r in runs]}
        results["runs"].append(row)
        print(f"{setup:<21} {moves['rate']:6.0f} moves/s ({' '.join(f'{r:.0f}' for r in row['rates'])}) "
              f"p50 {moves['p50_ms']:6.2f} ms p99 {moves['p99_ms']:6.2f} ms "
              f"host cpu {moves['host_cpu_us_per_call']:4.0f} us/move | x{row['vs_sqlite']:.2f} of sqlite", flush=True)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--postgres", default=os.environ.get("GAMEHOST_TEST_POSTGRES"),
                        help="a PostgreSQL server URL whose role may create databases")
    parser.add_argument("--quick", action="store_true", help="fewer games, for a smoke run")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved runs per setup; the median is kept")
    parser.add_argument("--concurrency", type=int, default=16, help="matches played at once")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args()
    if not args.postgres:
        parser.error("give --postgres URL or set GAMEHOST_TEST_POSTGRES (scripts/start-test-postgres prints one)")
    results = asyncio.run(run(args.postgres, args.quick, args.repeat, args.concurrency))
    print(json.dumps(results["machine"]))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
