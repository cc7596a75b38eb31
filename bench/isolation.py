"""Benchmark: what running rules in worker processes costs and buys.

In one run, on hosts up side by side (in-memory store):

- **per-move cost**: tictactoe SubmitMove against the empty call (health
  Check) at 16 concurrent matches, on a host with ``--isolation on`` (rules
  in 2 workers) and one with ``--isolation off`` (rules in the host),
  interleaved ``--repeat`` times, the median run kept;
- **scaling**: bot matches of heavy games (Scalino and Kensington, 4 seats,
  random bots) played to the end, 16 at once, on hosts with 1 and 2 workers
  (and with isolation off for reference): moves per second, and the CPU
  seconds the host process and its workers spent;
- **wire**: encoding plus decoding one mid-game Scalino state and one move
  answer with JSON (the wire format), marshal and pickle, in-process; and
  the host's CPU per request to a worker, one at a time and 16 at once.

Usage: python -m bench.isolation [--quick] [--json results.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import marshal
import os
import pickle
import random
import statistics
import tempfile
import time
from pathlib import Path

import grpc

from bench.harness import DRAW, Host, empty_calls, host_cpu_seconds, machine, median_run, submit_moves

from gamehost.v1 import gamehost_pb2 as pb
from gamehost.v1 import gamehost_pb2_grpc as pb_grpc

HEAVY = [("scalino", 4), ("kensington", 4)]


async def per_move_cost(quick: bool, repeat: int, data_dir: str) -> list[dict]:
    concurrency = 16
    matches_per_task = max(1, (900 if quick else 4500) // len(DRAW) // concurrency)
    hosts = {"on": Host("memory", data_dir, "--isolation", "on", "--workers", "2"),
             "off": Host("memory", data_dir, "--isolation", "off")}
    rows = []
    try:
        runs = {side: {"empty": [], "submit": []} for side in hosts}
        worker_cpu = []
        for _ in range(repeat):
            for side, host in hosts.items():
                runs[side]["empty"].append(await empty_calls(host, concurrency, matches_per_task * len(DRAW)))
                before = children_cpu(host.process.pid)
                runs[side]["submit"].append(await submit_moves(host, concurrency, matches_per_task))
                if side == "on":
                    worker_cpu.append(1e6 * (children_cpu(host.process.pid) - before) / runs[side]["submit"][-1]["calls"])
        for side in hosts:
            empty, moves = median_run(runs[side]["empty"]), median_run(runs[side]["submit"])
            ratios = [m["rate"] / e["rate"] for e, m in zip(runs[side]["empty"], runs[side]["submit"])]
            row = {"isolation": side, "concurrency": concurrency, "empty": empty, "submit": moves,
                   "ratio": statistics.median(ratios), "ratios": ratios}
            rows.append(row)
            print(f"isolation {side:<3} c={concurrency} empty {empty['rate']:6.0f}/s | SubmitMove "
                  f"{moves['rate']:6.0f}/s p50 {moves['p50_ms']:5.2f} ms p99 {moves['p99_ms']:6.2f} ms "
                  f"host cpu {moves['host_cpu_us_per_call']:4.0f} us | ratio {row['ratio']:.2f} "
                  f"(runs: {' '.join(f'{r:.2f}' for r in ratios)})", flush=True)
        on_off = [on["rate"] / off["rate"] for on, off in zip(runs["on"]["submit"], runs["off"]["submit"])]
        cpu = {side: statistics.median(r["host_cpu_us_per_call"] for r in runs[side]["submit"]) for side in hosts}
        rows.append({"on_off_submit_rate": statistics.median(on_off), "on_off_runs": on_off,
                     "host_cpu_us_per_move": cpu, "workers_cpu_us_per_move": statistics.median(worker_cpu)})
        print(f"SubmitMove rate, isolation on / off in the same window: median {statistics.median(on_off):.2f} "
              f"(runs: {' '.join(f'{r:.2f}' for r in on_off)}); host CPU per move, median: on {cpu['on']:.0f} us, "
              f"off {cpu['off']:.0f} us; workers' CPU per move (on): {statistics.median(worker_cpu):.0f} us", flush=True)
    finally:
        for host in hosts.values():
            host.stop()
    return rows


async def bot_matches(host: Host, game: str, seats: int, count: int) -> dict:
    async with grpc.aio.insecure_channel(host.target) as channel:
        stub = pb_grpc.GameHostStub(channel)
        start = time.perf_counter()
        names = [(await stub.CreateMatch(pb.CreateMatchRequest(game=f"games/{game}", seats=seats,
                                                               bot_seats=list(range(seats)), seed=seed))).name
                 for seed in range(count)]
        versions = {}
        while len(versions) < count:
            await asyncio.sleep(0.05)
            for name in names:
                match = await stub.GetMatch(pb.GetMatchRequest(name=name))
                if match.status == pb.MATCH_STATUS_FINISHED:
                    versions[name] = match.version
        elapsed = time.perf_counter() - start
    moves = sum(versions.values()) - 2 * count  # minus the started and finished events
    return {"matches": count, "moves": moves, "seconds": elapsed, "moves_per_second": moves / elapsed}


def children_cpu(pid: int) -> float:
    """CPU seconds of the host's worker processes (its children), alive now."""
    total = 0.0
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        try:
            total += host_cpu_seconds(int(child))
        except (OSError, ValueError):
            pass
    return total


async def scaling(quick: bool, data_dir: str) -> list[dict]:
    count = 4 if quick else 16
    rows = []
    for game, seats in HEAVY:
        for label, args in (("1 worker", ("--workers", "1")), ("2 workers", ("--workers", "2")),
                            ("isolation off", ("--isolation", "off"))):
            host = Host("memory", data_dir, *args)
            try:
                cpu, workers_cpu = host.cpu(), children_cpu(host.process.pid)
                result = await bot_matches(host, game, seats, count)
                result["host_cpu_s"] = host.cpu() - cpu
                result["workers_cpu_s"] = children_cpu(host.process.pid) - workers_cpu
            finally:
                host.stop()
            rows.append({"host": label, "game": game, "seats": seats, **result})
            print(f"{game} {seats} seats, {count} bot matches at once, {label:<13}: {result['moves']} moves in "
                  f"{result['seconds']:.1f} s, {result['moves_per_second']:.0f} moves/s; CPU s host "
                  f"{result['host_cpu_s']:.1f} workers {result['workers_cpu_s']:.1f}", flush=True)
    return rows


async def round_trip() -> list[dict]:
    """The host's CPU and the wall time per request to one worker (a cheap
    rules call, tictactoe to_move), one at a time and 16 at once."""
    from gamehost.host.workers.pool import WorkerPool

    pool = WorkerPool(1)
    await pool.start()
    worker, calls, rows = pool.workers[0], 3000, []
    request = {"op": "setup", "game": "tictactoe", "match": "m", "seats": 2, "options": {}, "seed": 1, "new_tag": 1}
    await pool.call(worker, request, 5)
    try:
        for concurrency in (1, 16):
            async def task():
                for _ in range(calls // concurrency):
                    await pool.call(worker, {"op": "to_move", "match": "m", "tag": 1}, 5)

            cpu, start = time.process_time(), time.perf_counter()
            await asyncio.gather(*(task() for _ in range(concurrency)))
            row = {"concurrency": concurrency, "host_cpu_us": 1e6 * (time.process_time() - cpu) / calls,
                   "wall_us": 1e6 * (time.perf_counter() - start) / calls}
            rows.append(row)
            print(f"round trip to a worker, {concurrency:>2} at once: host CPU {row['host_cpu_us']:.0f} us, "
                  f"wall {row['wall_us']:.0f} us per call", flush=True)
    finally:
        await pool.close()
    return rows


def wire_cost() -> list[dict]:
    from gamehost_scalino.game import Scalino
    from gamehost.sdk.chance import rng_for

    game = Scalino()
    state = game.setup(4, game.default_options(), rng_for(1, 0))
    chooser = random.Random(1)
    for version in range(1, 40):
        seat = game.to_move(state)[0]
        move = chooser.choice(game.legal_moves(state, seat))
        state = game.apply(state, seat, move.args, rng_for(1, version))
    seat = game.to_move(state)[0]
    answer = {"outcome": None, "to_move": [seat],
              "moves": {str(seat): [[m.id, m.label, m.args] for m in game.legal_moves(state, seat)]}}
    rows = []
    for what, value in (("state", state), ("move answer", answer)):
        for name, dumps, loads in (("json", lambda v: json.dumps(v, separators=(",", ":")).encode(), json.loads),
                                   ("marshal", marshal.dumps, marshal.loads),
                                   ("pickle", lambda v: pickle.dumps(v, protocol=5), pickle.loads)):
            data = dumps(value)
            rounds = 2000
            start = time.perf_counter()
            for _ in range(rounds):
                loads(dumps(value))
            micros = 1e6 * (time.perf_counter() - start) / rounds
            rows.append({"value": what, "format": name, "bytes": len(data), "us_round_trip": micros})
            print(f"wire {what:<11} {name:<7} {len(data):6d} bytes {micros:7.1f} us encode+decode", flush=True)
    return rows


async def run(quick: bool, repeat: int, parts: str) -> dict:
    results = {"machine": machine(), "repeat": repeat, "load_average": os.getloadavg()}
    if parts in ("all", "wire"):
        results["wire"] = wire_cost()
        results["round_trip"] = await round_trip()
    with tempfile.TemporaryDirectory() as data_dir:
        if parts in ("all", "per-move"):
            results["per_move"] = await per_move_cost(quick, repeat, data_dir)
        if parts in ("all", "scaling"):
            results["scaling"] = await scaling(quick, data_dir)
    results["load_average_after"] = os.getloadavg()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer calls, for a smoke run")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved runs per figure; the median is kept")
    parser.add_argument("--json", help="also write the results to this file")
    parser.add_argument("--part", choices=["all", "per-move", "scaling", "wire"], default="all")
    args = parser.parse_args()
    results = asyncio.run(run(args.quick, args.repeat, args.part))
    print(json.dumps(results["machine"]))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
