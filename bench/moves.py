"""Benchmark: SubmitMove throughput and latency against the empty-call ceiling.

A host runs in its own process (``gamehost serve``); this process is the
client. For 1, 16 and 128 concurrent tictactoe matches it measures, in one
run and under the same client machinery:

- the empty call: grpc.health.v1.Health/Check, the least work a Python gRPC
  host can do per call, which bounds any RPC's rate on this machine;
- SubmitMove with the in-memory store and with the SQLite store (one commit
  per move), matches created and joined before the clock starts.

Each figure is measured ``--repeat`` times, empty calls and moves
interleaved, and the run with the median rate is kept. It prints rates,
p50/p99 latencies, CPU time per call of the host (from /proc) and of the
client, the ratio SubmitMove / empty call, and the host's resident memory
per open, joined match (RSS growth on a fresh host). Usage:
    python -m bench.moves [--quick] [--json results.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
from pathlib import Path

import grpc

from gamehost.v1 import gamehost_pb2 as pb
from gamehost.v1 import gamehost_pb2_grpc as pb_grpc

from bench.harness import DRAW, Host, empty_calls, machine, median_run, submit_moves


async def memory_per_match(host: Host, count: int) -> float:
    """Resident memory the host gains per open, joined match (on a fresh host)."""
    async with grpc.aio.insecure_channel(host.target) as channel:
        stub = pb_grpc.GameHostStub(channel)
        before = host.rss_bytes()
        for _ in range(count):
            match = await stub.CreateMatch(pb.CreateMatchRequest(game="games/tictactoe"))
            for _ in range(2):
                await stub.JoinMatch(pb.JoinMatchRequest(name=match.name))
        return (host.rss_bytes() - before) / count


async def run(quick: bool, repeat: int) -> dict:
    total_moves = 1800 if quick else 9000
    results = {"machine": machine(), "repeat": repeat, "runs": []}
    with tempfile.TemporaryDirectory() as data_dir:
        for store in ("memory", "sqlite"):
            host = Host(store, data_dir)
            try:
                per_match = await memory_per_match(host, 500 if quick else 2000)
                results["runs"].append({"store": store, "host_rss_bytes_per_open_match": per_match})
                print(f"{store:<7} host memory per open match: {per_match / 1024:.1f} KiB", flush=True)
                for concurrency in (1, 16, 128):
                    matches_per_task = max(1, total_moves // len(DRAW) // concurrency)
                    empties, submits = [], []
                    for _ in range(repeat):  # interleaved, so both see the same machine
                        empties.append(await empty_calls(host, concurrency, matches_per_task * len(DRAW)))
                        submits.append(await submit_moves(host, concurrency, matches_per_task))
                    empty, moves = median_run(empties), median_run(submits)
                    row = {"store": store, "concurrency": concurrency, "empty": empty, "submit": moves,
                           "ratio": moves["rate"] / empty["rate"],
                           "ratios": [m["rate"] / e["rate"] for e, m in zip(empties, submits)]}
                    results["runs"].append(row)
                    print(f"{store:<7} c={concurrency:<4} empty {empty['rate']:6.0f}/s "
                          f"p50 {empty['p50_ms']:6.2f} ms p99 {empty['p99_ms']:6.2f} ms "
                          f"cpu {empty['host_cpu_us_per_call']:4.0f}+{empty['client_cpu_us_per_call']:<4.0f}us "
                          f"| SubmitMove {moves['rate']:6.0f}/s "
                          f"p50 {moves['p50_ms']:6.2f} ms p99 {moves['p99_ms']:6.2f} ms "
                          f"cpu {moves['host_cpu_us_per_call']:4.0f}+{moves['client_cpu_us_per_call']:<4.0f}us "
                          f"| ratio {row['ratio']:.2f} (runs: {' '.join(f'{r:.2f}' for r in row['ratios'])})",
                          flush=True)
            finally:
                host.stop()
    return results


# A host whose gRPC port is grpc's own listener: no connection guard in front (grpc_front.py).
UNGUARDED = ("--max-connections", "0", "--max-connections-per-peer", "0", "--first-call-timeout", "0")


async def compare_metrics(quick: bool, repeat: int, off: tuple[str, ...] = (),
                          on: tuple[str, ...] = ("--metrics-port", "0")) -> dict:
    """SubmitMove on a host started with ``off`` against one with ``on``
    (by default: without and with --metrics-port, the interceptor on every
    call), both up at once, runs interleaved."""
    total_moves = 1800 if quick else 9000
    results = {"machine": machine(), "repeat": repeat, "off": list(off), "on": list(on), "metrics_cost": []}
    with tempfile.TemporaryDirectory() as data_dir:
        plain, measured = Host("memory", data_dir, *off), Host("memory", data_dir, *on)
        try:
            for concurrency in (1, 16, 128):
                matches_per_task = max(1, total_moves // len(DRAW) // concurrency)
                runs = {"off": [], "on": []}
                for _ in range(repeat):
                    runs["off"].append(await submit_moves(plain, concurrency, matches_per_task))
                    runs["on"].append(await submit_moves(measured, concurrency, matches_per_task))
                ratios = [b["rate"] / a["rate"] for a, b in zip(runs["off"], runs["on"])]
                cpu = {side: statistics.median(r["host_cpu_us_per_call"] for r in runs[side]) for side in runs}
                rate = {side: statistics.median(r["rate"] for r in runs[side]) for side in runs}
                row = {"concurrency": concurrency, "runs": runs, "ratio": statistics.median(ratios),
                       "ratios": ratios, "host_cpu_us_per_call": cpu, "rate": rate}
                results["metrics_cost"].append(row)
                print(f"memory  c={concurrency:<4} SubmitMove/s off {rate['off']:6.0f} on {rate['on']:6.0f} | "
                      f"host CPU per move off {cpu['off']:4.0f} us on {cpu['on']:4.0f} us "
                      f"({cpu['on'] - cpu['off']:+.0f} us) | on/off rate, median of {repeat}: {row['ratio']:.2f} "
                      f"(runs: {' '.join(f'{r:.2f}' for r in ratios)})", flush=True)
        finally:
            plain.stop()
            measured.stop()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer calls, for a smoke run")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved runs per figure; the median is kept")
    parser.add_argument("--json", help="also write the results to this file")
    parser.add_argument("--guard-cost", action="store_true",
                        help="instead: SubmitMove with the gRPC port's connection guard off and on, interleaved")
    parser.add_argument("--metrics-cost", action="store_true",
                        help="instead: SubmitMove with and without --metrics-port, interleaved")
    args = parser.parse_args()
    if args.guard_cost:
        results = asyncio.run(compare_metrics(args.quick, args.repeat, off=UNGUARDED, on=()))
    else:
        results = asyncio.run((compare_metrics if args.metrics_cost else run)(args.quick, args.repeat))
    print(json.dumps(results["machine"]))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
