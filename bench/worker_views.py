"""Benchmark: the serving process's CPU per move with views encoded in the
rules workers against a host from another tree (the
commit before), both up at once and run in turn.

Each host runs pinned to core 0 with its rules workers (``taskset``); this
process is the load, pinned to core 1. Per game (Callisto: listings of
hundreds of legal moves; tictactoe: a handful), ``--matches`` matches are
played at once, one after the other in each slot, until ``--moves`` moves
are made: two players follow their match with WatchMatch as their seat and,
when their view says they are to move, submit a random legal move from it
by id with the expected version (no think time); ``--spectators`` follow
each match without a token; with ``--svg`` every watcher asks for the SVG
rendering, as the web client does (the workers render them after each
step, from the state they hold: docs/architecture.md, "Renderings in the
workers"). The two hosts alternate ``--repeat`` times;
per host the median run is kept. Reported per move: the serving process's
CPU (from /proc/<pid>/stat), its rules workers' CPU, and the ratio
after/before of the serving process's CPU in each pair of runs. Usage:
    python -m bench.worker_views --baseline /tmp/before/core [--repeat 3] [--json FILE]
(``git archive eae2c06 core | tar -x -C /tmp/before``: the tree before this work.)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

import grpc

from gamehost.v1 import gamehost_pb2 as pb
from gamehost.v1 import gamehost_pb2_grpc as pb_grpc

from bench.harness import LOAD_CORE, PinnedHost, host_cpu_seconds, machine, process_tree


def cpu_split(host: PinnedHost) -> tuple[float, float]:
    """CPU seconds of the serving process, and of its rules workers."""
    serving, workers = host_cpu_seconds(host.process.pid), 0.0
    for pid in process_tree(host.process.pid)[1:]:
        try:
            workers += host_cpu_seconds(pid)
        except OSError:  # a worker that ended meanwhile
            pass
    return serving, workers


class Budget:
    """Moves left to make in a run; ``spent`` is set when none are left (every stream then ends)."""

    def __init__(self, moves: int) -> None:
        self.left = moves
        self.made = 0
        self.spent = asyncio.Event()

    def take(self) -> bool:
        if self.left <= 0:
            return False
        self.left -= 1
        if self.left == 0:
            self.spent.set()
        return True


async def events(watch, stop: asyncio.Event):
    """A WatchMatch stream's events until it ends or ``stop`` is set; the stream is cancelled after."""
    stopping = asyncio.ensure_future(stop.wait())
    try:
        while True:
            reading = asyncio.ensure_future(watch.read())
            await asyncio.wait({reading, stopping}, return_when=asyncio.FIRST_COMPLETED)
            if not reading.done():
                reading.cancel()
                return
            event = reading.result()
            if event is grpc.aio.EOF:
                return
            yield event
    finally:
        stopping.cancel()
        watch.cancel()


RENDER = pb.RenderOptions()  # --svg: every watcher asks for the SVG, as the web client does


async def player(stub, match: str, token: str, seat: int, rng: random.Random, budget: Budget) -> None:
    watch = stub.WatchMatch(pb.WatchMatchRequest(name=match, player_token=token, render=RENDER))
    async for event in events(watch, budget.spent):
        if event.kind == pb.EVENT_KIND_FINISHED:
            return
        view = event.view
        if (event.HasField("view") and view.version == event.version
                and view.status == pb.MATCH_STATUS_ACTIVE and seat in view.to_move):
            if not budget.take():
                return
            move = rng.choice(view.legal_moves)
            await stub.SubmitMove(pb.SubmitMoveRequest(name=match, player_token=token, move_id=move.id,
                                                       expected_version=view.version))
            budget.made += 1


async def spectator(stub, match: str, done: asyncio.Event) -> None:
    async for event in events(stub.WatchMatch(pb.WatchMatchRequest(name=match, render=RENDER)), done):
        if event.kind == pb.EVENT_KIND_FINISHED:
            return


async def slot(stub, game: str, spectators: int, rng: random.Random, budget: Budget) -> None:
    while budget.left > 0:
        match = (await stub.CreateMatch(pb.CreateMatchRequest(game=f"games/{game}", seats=2))).name
        tokens = [(await stub.JoinMatch(pb.JoinMatchRequest(name=match))).player_token for _ in range(2)]
        done = asyncio.Event()
        watching = [asyncio.ensure_future(spectator(stub, match, done)) for _ in range(spectators)]
        await asyncio.gather(*(player(stub, match, tokens[seat], seat, rng, budget) for seat in (0, 1)))
        done.set()
        await asyncio.gather(*watching)


async def play(host: PinnedHost, game: str, matches: int, moves: int, spectators: int, seed: int) -> dict:
    budget = Budget(moves)
    async with grpc.aio.insecure_channel(host.target) as channel:
        stub = pb_grpc.GameHostStub(channel)
        (serving, workers), start = cpu_split(host), time.perf_counter()
        await asyncio.gather(*(slot(stub, game, spectators, random.Random(seed * 1000 + i), budget)
                               for i in range(matches)))
        elapsed = time.perf_counter() - start
        serving_after, workers_after = cpu_split(host)
    made = budget.made
    return {"game": game, "moves": made, "rate": made / elapsed,
            "serving_us_per_move": 1e6 * (serving_after - serving) / made,
            "workers_us_per_move": 1e6 * (workers_after - workers) / made, "loadavg": os.getloadavg()[0]}


async def run(baseline: str, games: list[str], matches: int, moves: int, spectators: int, repeat: int) -> dict:
    os.sched_setaffinity(0, {LOAD_CORE})
    results = {"machine": machine(), "loadavg_start": os.getloadavg(), "matches": matches, "moves": moves,
               "spectators": spectators, "repeat": repeat, "svg": RENDER.svg, "rows": []}
    with tempfile.TemporaryDirectory() as data_dir:
        # A generous rules budget: on a shared, loaded machine a worker starved of its core must not end a run.
        budget = ("--rules-timeout", "10")
        hosts = {"after": PinnedHost("memory", f"{data_dir}/after", extra_args=budget),
                 "before": PinnedHost("memory", f"{data_dir}/before", baseline, extra_args=budget)}
        try:
            for game in games:
                runs: dict[str, list[dict]] = {"before": [], "after": []}
                for index in range(repeat):
                    for which in (("before", "after") if index % 2 == 0 else ("after", "before")):
                        runs[which].append(await play(hosts[which], game, matches, moves, spectators, index))
                ratios = [a["serving_us_per_move"] / b["serving_us_per_move"]
                          for a, b in zip(runs["after"], runs["before"])]
                row = {"game": game, "runs": runs, "serving_ratios": ratios,
                       "serving_ratio": statistics.median(ratios)}
                for which in ("before", "after"):
                    row[which] = {key: statistics.median(run[key] for run in runs[which])
                                  for key in ("rate", "serving_us_per_move", "workers_us_per_move")}
                    figures = row[which]
                    print(f"{game:<10} {which:<6} {figures['rate']:6.0f} moves/s  serving "
                          f"{figures['serving_us_per_move']:6.0f} us/move  workers "
                          f"{figures['workers_us_per_move']:6.0f} us/move", flush=True)
                print(f"{game:<10} serving CPU per move, after/before: {row['serving_ratio']:.2f} "
                      f"(runs: {' '.join(f'{r:.2f}' for r in ratios)})", flush=True)
                results["rows"].append(row)
        finally:
            for host in hosts.values():
                host.stop()
    results["loadavg_end"] = os.getloadavg()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", required=True, help="the other tree's core/ directory (the commit before)")
    parser.add_argument("--games", default="callisto,tictactoe")
    parser.add_argument("--matches", type=int, default=20, help="matches played at once")
    parser.add_argument("--moves", type=int, default=1500, help="moves per run")
    parser.add_argument("--spectators", type=int, default=1, help="WatchMatch streams without a token per match")
    parser.add_argument("--repeat", type=int, default=3, help="runs per host, alternating; medians are kept")
    parser.add_argument("--svg", action="store_true", help="every watcher asks for the SVG rendering (the web client)")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args()
    RENDER.svg = args.svg
    results = asyncio.run(run(args.baseline, args.games.split(","), args.matches, args.moves, args.spectators,
                              args.repeat))
    print(json.dumps(results["machine"]), "loadavg", results["loadavg_start"], "->", results["loadavg_end"])
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
