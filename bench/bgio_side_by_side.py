"""Benchmark: gamehost side by side with boardgame.io 0.50.2.

Tic-tac-toe, both players of each match following it live, the server pinned
to core 0 (``taskset``) and the load to core 1:

- **bgio**: boardgame.io's own server (``bench/bgio/server.js``, its default
  in-memory storage) and a Node load generator with its own clients
  (``bench/bgio/load.js``: a ``Client`` per seat with the SocketIO transport);
- **gamehost a**: SubmitMove + a WatchMatch per player per match;
- **gamehost b**: one Session stream per player (``bench/session.py``'s players).

The three ways are interleaved ``--repeat`` times (the order rotating), at 10
and 100 concurrent matches, with gamehost on the memory store and on SQLite
(its default store); per way the run with the median rate is kept. Matches are
created and joined before the clock; boardgame.io's clients connect their
sockets before it too (a slot's two clients are kept for its matches, moving
on with ``updateMatchID``), while gamehost's players open their watch per
match inside it. Reported: moves/s, the latency from a move's send until the
opponent sees it (p50/p99), server CPU per move (the server process and its
children from /proc: gamehost's rules workers count), the load's CPU share of
its core, and the per-core ratio (gamehost moves per server core-second over
boardgame.io's, from the same repetition). Needs ``npm ci`` in bench/bgio.
Usage:
    python -m bench.bgio_side_by_side [--moves 1800] [--repeat 2] [--stores memory,sqlite] [--json FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import tempfile
from pathlib import Path

from bench.harness import DRAW, HOST_CORE, LOAD_CORE, PinnedHost, machine, median_run
from bench.session import play

BGIO_DIR = Path(__file__).parent / "bgio"
WAYS = ["bgio", "gamehost a", "gamehost b"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PinnedBgioServer(PinnedHost):
    """boardgame.io's server on the host core; ``cpu`` and ``stop`` as for gamehost."""

    def __init__(self) -> None:  # noqa: D107 (no gamehost set-up)
        self.port = free_port()
        self.process = subprocess.Popen(["taskset", "-c", str(HOST_CORE), "node", "server.js", str(self.port)],
                                        cwd=BGIO_DIR, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        for line in self.process.stdout:
            if line.startswith("listening"):
                break
        else:
            raise RuntimeError("the boardgame.io server did not start")


def bgio_play(server: PinnedBgioServer, concurrency: int, games_per_slot: int) -> dict:
    """One run of the Node load generator; the server's CPU is read around its clock (``ready`` on stderr)."""
    load = subprocess.Popen(["taskset", "-c", str(LOAD_CORE), "node", "load.js", f"http://127.0.0.1:{server.port}",
                             str(concurrency), str(games_per_slot)], cwd=BGIO_DIR, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    if load.stderr.readline().strip() != "ready":
        raise RuntimeError(f"the boardgame.io load did not start: {load.stderr.read()}")
    cpu = server.cpu()
    out, err = load.communicate(timeout=600)
    cpu = server.cpu() - cpu
    if load.returncode:
        raise RuntimeError(f"the boardgame.io load failed: {err}")
    figures = json.loads(out)
    if figures["failures"]:
        raise RuntimeError(f"{figures['failures']} boardgame.io matches did not end in the expected draw")
    moves = figures["moves"]
    return {"way": "bgio", "concurrency": concurrency, "moves": moves, "rate": figures["rate"],
            "p50_ms": figures["p50_ms"], "p99_ms": figures["p99_ms"], "host_cpu_us_per_move": 1e6 * cpu / moves,
            "load_cpu_us_per_move": 1e6 * figures["load_cpu_s"] / moves,
            "load_cpu_share": figures["load_cpu_s"] / figures["elapsed"], "loadavg": os.getloadavg()[0]}


def per_core(run: dict) -> float:
    """Moves per server core-second."""
    return 1e6 / run["host_cpu_us_per_move"]


async def run(total_moves: int, repeat: int, stores: list[str]) -> dict:
    os.sched_setaffinity(0, {LOAD_CORE})
    # A shared machine can stall a rules worker past the 2 s default deadline (the
    # match is then suspended and the run fails); the deadline costs nothing per move.
    os.environ.setdefault("GAMEHOST_RULES_TIMEOUT", "30")
    results = {"machine": machine(), "shared_machine": True, "repeat": repeat, "moves_per_run": total_moves,
               "loadavg_start": os.getloadavg(), "rows": []}
    with tempfile.TemporaryDirectory() as data_dir:
        for store in stores:
            host, bgio = PinnedHost(store, f"{data_dir}/{store}"), PinnedBgioServer()
            try:
                for concurrency in (10, 100):
                    games = max(1, total_moves // len(DRAW) // concurrency)
                    runs = {way: [] for way in WAYS}
                    for index in range(repeat):  # rotating, so every way sees the same machine
                        for way in WAYS[index % 3:] + WAYS[:index % 3]:
                            if way == "bgio":
                                figures = await asyncio.to_thread(bgio_play, bgio, concurrency, games)
                            else:
                                figures = await play(host, "unary" if way.endswith("a") else "session",
                                                     concurrency, games)
                            runs[way].append(figures)
                    ratios = {way: [per_core(g) / per_core(b) for g, b in zip(runs[way], runs["bgio"])]
                              for way in WAYS[1:]}
                    medians = {way: median_run(runs[way]) for way in WAYS}
                    row = {"store": store, "concurrency": concurrency, **medians, "runs": runs,
                           "per_core_ratios": ratios,
                           "per_core_ratio": {way: statistics.median(r) for way, r in ratios.items()}}
                    results["rows"].append(row)
                    for way in WAYS:
                        f = medians[way]
                        print(f"{store:<7} c={concurrency:<4} {way:<11} {f['rate']:6.0f} moves/s "
                              f"p50 {f['p50_ms']:7.2f} ms p99 {f['p99_ms']:7.2f} ms "
                              f"server {f['host_cpu_us_per_move']:5.0f} us/move "
                              f"load {100 * f['load_cpu_share']:3.0f}% of its core loadavg {f['loadavg']:.1f}",
                              flush=True)
                    for way, r in ratios.items():
                        print(f"{store:<7} c={concurrency:<4} per-core ratio {way}/bgio: "
                              f"{statistics.median(r):.2f} (runs: {' '.join(f'{x:.2f}' for x in r)})", flush=True)
            finally:
                host.stop()
                bgio.stop()
    results["loadavg_end"] = os.getloadavg()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=1800, help="moves per run (per way, repetition and point)")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each way, rotating; the median is kept")
    parser.add_argument("--stores", default="memory,sqlite", help="gamehost's stores, comma-separated")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args()
    results = asyncio.run(run(args.moves, args.repeat, args.stores.split(",")))
    print(json.dumps(results["machine"]), "loadavg", results["loadavg_start"], "->", results["loadavg_end"])
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
