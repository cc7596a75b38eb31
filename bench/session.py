"""Benchmark: a move over SubmitMove + WatchMatch against a move over the
Session stream, both players following their match live.

A host runs in its own process, pinned to core 0 with its rules workers
(``taskset``); this process is the load, pinned to core 1. For 10 and 100
concurrent tictactoe matches, each player of each match follows it as its
seat and plays when its view says it is to move:

- **unary**: one WatchMatch stream per player per match, each move a
  SubmitMove call (the way every client played before the session stream);
- **session**: one Session stream per player, which follows its current
  match and carries its moves.

Both play the same full games (nine moves, no line), with the expected
version. The two ways alternate ``--repeat`` times on one host, so both see
the same machine; per way the run with the median rate is kept. Reported:
moves per second, the latency from a move's send until the opponent
receives its event (p50/p99), the host's CPU per move (the host and its
worker processes, from /proc) and the load's CPU per move (to show the
load generator is not what limits), and the load average. Usage:
    python -m bench.session [--quick] [--repeat 3] [--stores memory,sqlite] [--baseline DIR] [--json FILE]

``--spectators N`` adds N spectators (WatchMatch, no token) per match in
every way: the events they share are built once per viewer.
``--baseline DIR`` adds a third way, "unary before": SubmitMove + WatchMatch
on a second host run from another tree's ``core/`` (the commit before this
work), up at the same time, so the lean events' share is measured too.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

import grpc

from gamehost.v1 import gamehost_pb2 as pb
from gamehost.v1 import gamehost_pb2_grpc as pb_grpc

from bench.harness import DRAW, LOAD_CORE, PinnedHost, machine, median_run

FIRST_MOVE_VERSION = 3  # created, two joins: the match starts at version 3


class Game:
    """One prepared match: its name, both tokens, and when each version's move was sent."""

    def __init__(self, name: str, tokens: list[str]) -> None:
        self.name = name
        self.tokens = tokens
        self.sent: dict[int, float] = {}  # version the move makes -> perf_counter at send
        self.latencies: list[float] = []

    def move_for(self, version: int) -> pb.SubmitMoveRequest:
        """The move to play at ``version`` (by the seat to move), with the expected version."""
        turn = version - FIRST_MOVE_VERSION
        self.sent[version + 1] = time.perf_counter()
        return pb.SubmitMoveRequest(name=self.name, player_token=self.tokens[turn % 2], move_id=DRAW[turn],
                                    expected_version=version)

    def seen(self, seat: int, event: pb.MatchEvent) -> bool:
        """Note the opponent's move arriving; True when ``seat`` is now to move."""
        if event.kind == pb.EVENT_KIND_MOVED and event.seat != seat and event.version in self.sent:
            self.latencies.append(time.perf_counter() - self.sent[event.version])
        view = event.view
        return (event.HasField("view") and view.version == event.version and view.status == pb.MATCH_STATUS_ACTIVE
                and seat in view.to_move)


async def prepare(stub, count: int) -> list[Game]:
    games = []
    for _ in range(count):
        match = await stub.CreateMatch(pb.CreateMatchRequest(game="games/tictactoe"))
        tokens = [(await stub.JoinMatch(pb.JoinMatchRequest(name=match.name))).player_token for _ in range(2)]
        games.append(Game(match.name, tokens))
    return games


async def unary_player(stub, games: list[Game], seat: int) -> None:
    """Per match: a WatchMatch stream as the seat, a SubmitMove when to move."""
    for game in games:
        watch = stub.WatchMatch(pb.WatchMatchRequest(name=game.name, player_token=game.tokens[seat]))
        async for event in watch:
            if game.seen(seat, event):
                await stub.SubmitMove(game.move_for(event.version))
            if event.kind == pb.EVENT_KIND_FINISHED:
                break
        watch.cancel()


async def session_player(stub, games: list[Game], seat: int) -> None:
    """One Session stream for all the player's matches, one after the other."""
    requests: asyncio.Queue = asyncio.Queue()
    tags = iter(range(1, 1 << 62))

    async def outgoing():
        while True:
            request = await requests.get()
            if request is None:
                return
            yield request

    call = stub.Session(outgoing())
    for game in games:
        requests.put_nowait(pb.SessionRequest(tag=next(tags), watch=pb.WatchMatchRequest(
            name=game.name, player_token=game.tokens[seat])))
        while True:
            message = await call.read()
            if message is grpc.aio.EOF:
                raise RuntimeError("the session stream ended early")
            if message.HasField("error"):
                raise RuntimeError(message.error.message)
            if message.HasField("match_event"):
                event = message.match_event
                if game.seen(seat, event):
                    requests.put_nowait(pb.SessionRequest(tag=next(tags), move=game.move_for(event.version)))
            elif message.HasField("watch_ended"):
                break
    requests.put_nowait(None)
    call.cancel()


async def spectator(stub, games: list[Game]) -> None:
    """A WatchMatch stream without a token on each match in turn, to its end (either way)."""
    for game in games:
        async for event in stub.WatchMatch(pb.WatchMatchRequest(name=game.name)):
            if event.kind == pb.EVENT_KIND_FINISHED:
                break


async def play(host: PinnedHost, way: str, concurrency: int, games_per_match_slot: int, spectators: int = 0) -> dict:
    async with grpc.aio.insecure_channel(host.target) as channel:
        stub = pb_grpc.GameHostStub(channel)
        slots = [await prepare(stub, games_per_match_slot) for _ in range(concurrency)]
        player = unary_player if way == "unary" else session_player
        cpu, load_cpu, start = host.cpu(), time.process_time(), time.perf_counter()
        await asyncio.gather(*(player(stub, games, seat) for games in slots for seat in (0, 1)),
                             *(spectator(stub, games) for games in slots for _ in range(spectators)))
        elapsed, cpu, load_cpu = time.perf_counter() - start, host.cpu() - cpu, time.process_time() - load_cpu
    latencies = sorted(latency for games in slots for game in games for latency in game.latencies)
    moves = sum(len(game.sent) for games in slots for game in games)
    return {"way": way, "concurrency": concurrency, "spectators": spectators, "moves": moves, "rate": moves / elapsed,
            "p50_ms": 1000 * statistics.median(latencies), "p99_ms": 1000 * latencies[int(0.99 * (len(latencies) - 1))],
            "host_cpu_us_per_move": 1e6 * cpu / moves, "load_cpu_us_per_move": 1e6 * load_cpu / moves,
            "load_cpu_share": load_cpu / elapsed, "loadavg": os.getloadavg()[0]}


async def run(quick: bool, repeat: int, stores: list[str], baseline: str | None, spectators: int) -> dict:
    os.sched_setaffinity(0, {LOAD_CORE})
    total_moves = 900 if quick else 4500
    results = {"machine": machine(), "repeat": repeat, "spectators": spectators, "loadavg_start": os.getloadavg(),
               "rows": []}
    ways = ["unary", "session"] + (["unary before"] if baseline else [])
    with tempfile.TemporaryDirectory() as data_dir:
        for store in stores:
            hosts = {"now": PinnedHost(store, f"{data_dir}/{store}-now")}
            if baseline:
                hosts["before"] = PinnedHost(store, f"{data_dir}/{store}-before", baseline)
            try:
                for concurrency in (10, 100):
                    games = max(1, total_moves // len(DRAW) // concurrency)
                    runs = {way: [] for way in ways}
                    for index in range(repeat):  # rotating, so every way sees the same machine
                        for way in ways[index % len(ways):] + ways[:index % len(ways)]:
                            host = hosts["before" if way.endswith("before") else "now"]
                            runs[way].append(await play(host, way.split()[0], concurrency, games, spectators))
                    medians = {way: median_run(runs[way]) for way in ways}
                    cpu = {way: [run["host_cpu_us_per_move"] for run in runs[way]] for way in ways}
                    row = {"store": store, "concurrency": concurrency, **medians,
                           "cpu_ratio": statistics.median(s / u for s, u in zip(cpu["session"], cpu["unary"])),
                           "cpu_ratios": [s / u for s, u in zip(cpu["session"], cpu["unary"])], "runs": runs}
                    if baseline:
                        row["cpu_ratios_before"] = {way: [a / b for a, b in zip(cpu[way], cpu["unary before"])]
                                                    for way in ("unary", "session")}
                    results["rows"].append(row)
                    for way in ways:
                        figures = medians[way]
                        print(f"{store:<7} c={concurrency:<4} {way:<13} {figures['rate']:6.0f} moves/s "
                              f"p50 {figures['p50_ms']:6.2f} ms p99 {figures['p99_ms']:6.2f} ms "
                              f"host {figures['host_cpu_us_per_move']:4.0f} us/move "
                              f"load {figures['load_cpu_us_per_move']:4.0f} us/move "
                              f"({100 * figures['load_cpu_share']:.0f}% of its core) "
                              f"loadavg {figures['loadavg']:.1f}", flush=True)
                    print(f"{store:<7} c={concurrency:<4} host CPU per move, session/unary: {row['cpu_ratio']:.2f} "
                          f"(runs: {' '.join(f'{r:.2f}' for r in row['cpu_ratios'])})", flush=True)
                    if baseline:
                        for way, ratios in row["cpu_ratios_before"].items():
                            print(f"{store:<7} c={concurrency:<4} host CPU per move, {way}/unary before: "
                                  f"{statistics.median(ratios):.2f} (runs: {' '.join(f'{r:.2f}' for r in ratios)})",
                                  flush=True)
            finally:
                for host in hosts.values():
                    host.stop()
    results["loadavg_end"] = os.getloadavg()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer moves, for a smoke run")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each way, alternating; the median is kept")
    parser.add_argument("--stores", default="memory,sqlite", help="comma-separated: memory, sqlite")
    parser.add_argument("--baseline", help="also play the unary way on a host run from this tree's core/ (e.g. "
                                           "`git archive 55d59eb core | tar -x -C /tmp/before`: /tmp/before/core)")
    parser.add_argument("--spectators", type=int, default=0,
                        help="WatchMatch streams without a token per match, besides the players (either way)")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args()
    results = asyncio.run(run(args.quick, args.repeat, args.stores.split(","), args.baseline, args.spectators))
    print(json.dumps(results["machine"]), "loadavg", results["loadavg_start"], "->", results["loadavg_end"])
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
