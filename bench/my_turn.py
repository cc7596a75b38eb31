"""What "your turn" costs: polling ListMatches my_turn, and the turn index on the move path.

A host runs in its own process on SQLite; this process is the client, signed
in with JWTs of the test identity provider. One player ("ann") has
``--matches`` active tictactoe matches against another (half of them her
turn), among as many matches of other players. Measured in one run,
interleaved ``--repeat`` times, keeping the median rate:

1. Polling: the empty call (Health/Check, the ceiling), GetIdentity (the
   least a signed-in call costs: the gate and the token), ListMatches mine
   (a page of 50), ListMatches my_turn (a full page), and my_turn again with
   the etag of the last answer (not modified: the page's keys read, no row
   decoded, no page built).
2. The move path: full tictactoe games whose seats are bound to signed-in
   users (each step writes the turn index) against games whose seats are
   anonymous (no index), the same caller, bearer token and player tokens
   in both.

Run: . .venv/bin/activate && python -m bench.my_turn [--json bench/results/2026-11-26/my_turn.json]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import tempfile
import time
from pathlib import Path

from grpc_health.v1 import health_pb2, health_pb2_grpc


from gamehost.v1 import gamehost_pb2 as pb
from tests.hosts import HostProcess
from tests.identities import IdentityProvider

GAME = ["a1", "b1", "c1", "a2", "b2", "a3", "c2", "c3", "b3"]  # nine moves, a draw


def rate(call, count: int) -> tuple[float, float]:
    """Calls per second and the median latency in ms of ``count`` sequential calls."""
    latencies = []
    start = time.perf_counter()
    for _ in range(count):
        began = time.perf_counter()
        call()
        latencies.append(time.perf_counter() - began)
    return count / (time.perf_counter() - start), statistics.median(latencies) * 1000


def median_run(runs: list[tuple[float, float]]) -> dict:
    ordered = sorted(runs)
    middle = ordered[len(ordered) // 2]
    return {"per_s": round(middle[0], 1), "p50_ms": round(middle[1], 3), "runs_per_s": [round(r[0], 1) for r in runs]}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=100, help="ann's active matches (and as many of others)")
    parser.add_argument("--calls", type=int, default=300, help="calls per polling figure and run")
    parser.add_argument("--games", type=int, default=20, help="tictactoe games per move figure and run")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", help="write the results here too")
    args = parser.parse_args()

    with IdentityProvider() as idp, tempfile.TemporaryDirectory() as data:
        host = HostProcess(*idp.host_args(), data_dir=Path(data)).start()
        try:
            results = measure(host, idp, args)
        finally:
            host.stop()
    results["machine"] = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                          "cpus": os.cpu_count(), "python": platform.python_version(),
                          "note": "shared with other work: compare the ratios, not the absolute figures"}
    print(json.dumps(results, indent=2))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")


def measure(host: HostProcess, idp: IdentityProvider, args) -> dict:
    ann_token, bob_token = idp.token("bench-ann", name="Ann"), idp.token("bench-bob", name="Bob")
    with host.client(ann_token) as ann, host.client(bob_token) as bob, host.client() as anonymous:
        for number in range(args.matches):
            first, second = (ann, bob) if number % 2 else (bob, ann)
            match = first.create_match("tictactoe")
            first.join(match.name, seat=0)
            second.join(match.name, seat=1)
        for number in range(args.matches):  # other people's matches, anonymous seats
            match = anonymous.create_match("tictactoe")
            anonymous.join(match.name)
            anonymous.join(match.name)

        with host.channel() as channel:
            health = health_pb2_grpc.HealthStub(channel)
            empty = lambda: health.Check(health_pb2.HealthCheckRequest(), timeout=10)  # noqa: E731
            list_call = ann.stub.ListMatches
            mine = lambda: list_call(pb.ListMatchesRequest(mine=True), metadata=ann.metadata)  # noqa: E731
            my_turn = lambda: list_call(pb.ListMatchesRequest(my_turn=True), metadata=ann.metadata)  # noqa: E731
            etag = my_turn().etag
            unchanged = lambda: list_call(pb.ListMatchesRequest(my_turn=True, if_none_match=etag),  # noqa: E731
                                          metadata=ann.metadata)
            assert unchanged().not_modified and len(my_turn().matches) == min(50, args.matches // 2)
            identity = lambda: ann.stub.GetIdentity(pb.GetIdentityRequest(), metadata=ann.metadata)  # noqa: E731
            figures = {"empty": empty, "identity": identity, "mine": mine, "my_turn": my_turn,
                       "my_turn_not_modified": unchanged}
            polled = {name: [] for name in figures}
            moved = {"signed_in": [], "anonymous": []}
            for _ in range(args.repeat):
                for name, call in figures.items():
                    polled[name].append(rate(call, args.calls))
                for kind in moved:
                    moved[kind].append(play_games(ann, bob, anonymous, kind, args.games))

    polling = {name: median_run(runs) for name, runs in polled.items()}
    moves = {kind: median_run(runs) for kind, runs in moved.items()}
    return {
        "setup": {"ann_active_matches": args.matches, "others_matches": args.matches, "page": 50,
                  "store": "sqlite", "calls": args.calls, "games": args.games, "repeat": args.repeat},
        "polling": polling,
        "moves": moves,
        "ratios": {
            "my_turn / empty": round(polling["my_turn"]["per_s"] / polling["empty"]["per_s"], 3),
            "my_turn / identity": round(polling["my_turn"]["per_s"] / polling["identity"]["per_s"], 3),
            "not_modified / identity": round(polling["my_turn_not_modified"]["per_s"] / polling["identity"]["per_s"],
                                             3),
            "my_turn / mine": round(polling["my_turn"]["per_s"] / polling["mine"]["per_s"], 3),
            "not_modified / my_turn": round(polling["my_turn_not_modified"]["per_s"] / polling["my_turn"]["per_s"],
                                            3),
            "signed-in moves / anonymous moves": round(moves["signed_in"]["per_s"] / moves["anonymous"]["per_s"], 3),
        },
    }


def play_games(ann, bob, anonymous, kind: str, games: int) -> tuple[float, float]:
    """SubmitMove rate over ``games`` full games; ann sends every move, with the seat's player token."""
    tokens = []
    for _ in range(games):
        match = ann.create_match("tictactoe")
        if kind == "signed_in":
            joins = [ann.join(match.name, seat=0), bob.join(match.name, seat=1)]
        else:
            joins = [anonymous.join(match.name, seat=0), anonymous.join(match.name, seat=1)]
        tokens.append((match.name, [joined.player_token for joined in joins]))
    latencies = []
    start = time.perf_counter()
    for name, seat_tokens in tokens:
        for number, cell in enumerate(GAME):
            began = time.perf_counter()
            ann.stub.SubmitMove(pb.SubmitMoveRequest(name=name, player_token=seat_tokens[number % 2], move_id=cell,
                                                     request_id=f"{name}-{number}"), metadata=ann.metadata)
            latencies.append(time.perf_counter() - began)
    return len(latencies) / (time.perf_counter() - start), statistics.median(latencies) * 1000


if __name__ == "__main__":
    main()
