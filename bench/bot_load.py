"""Benchmark: do search bots thinking slow down other matches' moves?

A host with ``--workers N`` serves K matches of one human seat against
``mcts-hard`` (Kensington, two seats) and M tictactoe matches of two humans.
The load plays each bot match's human seat at once (its first legal move) so
that its bot is always thinking; the tictactoe matches play full games by
SubmitMove, one move after the other. Reported per K: the tictactoe
SubmitMove p50/p99, the bots' answer time (from the human's move acknowledged
to the bot's move seen; its think plus any wait) and, from the host's log
where it says so (``bot thought``), the iterations per think.

``--baseline DIR`` runs a second host from another tree's ``core/`` (the
tree before this work: ``git archive main core | tar -x -C /tmp/bs_before``
then ``--baseline /tmp/bs_before/core``); both hosts are up together and each
K is measured on one, then the other, in turn. Run it under ``nice -n 19``.
Usage:
    python -m bench.bot_load [--workers 1,2] [--bots 0,2,8] [--seconds 20] [--baseline DIR] [--json FILE]
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

from bench.harness import PinnedHost, machine, play_draw

BOT_GAME = "kensington"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[int(share * (len(ordered) - 1))]


async def human_against_bot(stub, stop: asyncio.Event, answers: list[float]) -> None:
    """One match of a human seat against mcts-hard: the human plays its
    first legal move as soon as it is to move, so the bot keeps thinking.
    ``answers``: seconds from the human's move acknowledged to the bot's."""
    match = await stub.CreateMatch(pb.CreateMatchRequest(game=f"games/{BOT_GAME}", seats=2, bot_seats=[1],
                                                         bot="mcts-hard"))
    token = (await stub.JoinMatch(pb.JoinMatchRequest(name=match.name))).player_token
    acknowledged = None
    watch = stub.WatchMatch(pb.WatchMatchRequest(name=match.name, player_token=token))
    try:
        async for event in watch:
            if event.kind == pb.EVENT_KIND_MOVED and event.seat == 1 and acknowledged is not None:
                answers.append(time.perf_counter() - acknowledged)
                acknowledged = None
            if stop.is_set() or event.kind == pb.EVENT_KIND_FINISHED:
                break
            view = event.view
            if event.HasField("view") and view.version == event.version and 0 in view.to_move and view.legal_moves:
                await stub.SubmitMove(pb.SubmitMoveRequest(name=match.name, player_token=token,
                                                           move_id=view.legal_moves[0].id,
                                                           expected_version=view.version))
                acknowledged = time.perf_counter()
    finally:
        watch.cancel()


async def tictactoe_player(stub, stop: asyncio.Event, latencies: list[float], creates: list[float]) -> None:
    """Full tictactoe games, one after the other, until ``stop``; ``creates``:
    seconds per CreateMatch (its setup is a rules call too)."""
    while not stop.is_set():
        start = time.perf_counter()
        match = await stub.CreateMatch(pb.CreateMatchRequest(game="games/tictactoe"))
        creates.append(time.perf_counter() - start)
        tokens = [(await stub.JoinMatch(pb.JoinMatchRequest(name=match.name))).player_token for _ in range(2)]
        await play_draw(lambda turn: stub, match.name, tokens, latencies)


def thinks_logged(log_path: str, since: int) -> tuple[list[int], int]:
    """Iterations of each ``bot thought`` line of the host's log after byte
    ``since`` that searched (a seat with one legal move searches none)."""
    with open(log_path, "rb") as log:
        log.seek(since)
        data = log.read()
    iterations = []
    for line in data.splitlines():
        if b"bot thought" in line and json.loads(line)["iterations"]:
            iterations.append(json.loads(line)["iterations"])
    return iterations, since + len(data)


async def measure(host: PinnedHost, log_path: str, bots: int, humans: int, seconds: float) -> dict:
    async with grpc.aio.insecure_channel(host.target) as channel:
        stub = pb_grpc.GameHostStub(channel)
        stop = asyncio.Event()
        answers: list[float] = []
        latencies: list[float] = []
        creates: list[float] = []
        bot_tasks = [asyncio.create_task(human_against_bot(stub, stop, answers)) for _ in range(bots)]
        await asyncio.sleep(2.0 if bots else 0)  # the bots thinking before the clock starts
        _, log_at = thinks_logged(log_path, 0)
        answers.clear()
        start = time.perf_counter()
        players = [asyncio.create_task(tictactoe_player(stub, stop, latencies, creates)) for _ in range(humans)]
        await asyncio.sleep(seconds)
        stop.set()
        await asyncio.gather(*players, *bot_tasks)
        elapsed = time.perf_counter() - start
    await asyncio.sleep(2.0)  # the last thinks end before the next row
    iterations, _ = thinks_logged(log_path, log_at)
    return {"bots": bots, "tictactoe_moves": len(latencies), "seconds": elapsed,
            "p50_ms": 1000 * statistics.median(latencies), "p99_ms": 1000 * percentile(latencies, 0.99),
            "max_ms": 1000 * max(latencies), "create_p50_ms": 1000 * statistics.median(creates),
            "create_max_ms": 1000 * max(creates),
            "bot_moves": len(answers),
            "bot_answer_p50_ms": 1000 * statistics.median(answers) if answers else None,
            "bot_answer_max_ms": 1000 * max(answers) if answers else None,
            "iterations_p50": statistics.median(iterations) if iterations else None,
            "iterations_min": min(iterations) if iterations else None, "loadavg": os.getloadavg()[0]}


async def run(workers: list[int], bots: list[int], humans: int, seconds: float, baseline: str | None) -> dict:
    results = {"machine": machine(), "loadavg_start": os.getloadavg(), "bot_game": BOT_GAME, "humans": humans,
               "seconds": seconds, "rows": []}
    trees = {"branch": None, **({"main": baseline} if baseline else {})}
    with tempfile.TemporaryDirectory() as data_dir:
        for count in workers:
            hosts, logs = {}, {}
            try:
                for tree, source in trees.items():
                    logs[tree] = f"{data_dir}/{tree}-{count}.log"
                    hosts[tree] = PinnedHost("memory", f"{data_dir}/{tree}-{count}", source,
                                             ("--workers", str(count)), log_path=logs[tree], pinned=False)
                for bot_count in bots:
                    for tree in trees:  # in turn: both see the same machine
                        row = {"tree": tree, "workers": count,
                               **await measure(hosts[tree], logs[tree], bot_count, humans, seconds)}
                        results["rows"].append(row)
                        print(f"{tree:<6} workers={count} K={bot_count:<2} tictactoe p50 {row['p50_ms']:7.2f} ms "
                              f"p99 {row['p99_ms']:7.2f} max {row['max_ms']:6.0f} ms ({row['tictactoe_moves']} moves; CreateMatch "
                              f"p50 {row['create_p50_ms']:5.0f} max {row['create_max_ms']:5.0f} ms) bot moves "
                              f"{row['bot_moves']} answer p50 {row['bot_answer_p50_ms'] or 0:6.0f} ms "
                              f"max {row['bot_answer_max_ms'] or 0:6.0f} ms iterations p50 "
                              f"{row['iterations_p50']} min {row['iterations_min']} "
                              f"loadavg {row['loadavg']:.1f}", flush=True)
            finally:
                for host in hosts.values():
                    host.stop()
    results["loadavg_end"] = os.getloadavg()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", default="1,2", help="comma-separated worker counts")
    parser.add_argument("--bots", default="0,2,8", help="comma-separated K: matches against mcts-hard")
    parser.add_argument("--humans", type=int, default=4, help="M: tictactoe matches of two humans played at once")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of tictactoe moves per row")
    parser.add_argument("--baseline", help="another tree's core/ to compare with (see above)")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args()
    results = asyncio.run(run([int(n) for n in args.workers.split(",")], [int(k) for k in args.bots.split(",")],
                              args.humans, args.seconds, args.baseline))
    print(json.dumps(results["machine"]), "loadavg", results["loadavg_start"], "->", results["loadavg_end"])
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
