"""Where a move's server CPU goes: a py-spy profile of the soak summarised.

``soak.py --profile FILE --json SOAK.json`` records the serving process and
its rules workers with py-spy (raw stacks, sampled from outside) during the
load; this script buckets the samples by the part of the move they belong to
and turns each bucket's share into microseconds per move with the CPU the
soak measured from /proc (serving process and workers apart: samples are
about proportional to CPU time, since py-spy leaves idle threads out).

py-spy runs with ``--gil``: a sample is the thread holding the GIL, so
work in C threads that release it (grpc core's, SQLite's engine) is not in
the shares; "gRPC and the event loop" is the loop's own frame (uvloop and
grpcio's Cython, which hold the GIL). A sample's bucket is the first of ``BUCKETS`` whose marks appear in its
stack (so a store commit made inside a move counts as the store's, a log
line written inside a view build as logging's).

Usage:
    python -m bench.profile_summary PROFILE.txt --soak SOAK.json [--json OUT] [--top 15]
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path

# (bucket, marks in a frame's function or file): the first bucket with a mark in the stack takes the sample.
BUCKETS: list[tuple[str, tuple[str, ...]]] = [
    ("logging", ("structlog", "/logging/", "host/ops/logs.py")),
    ("renderings (SVG, text)", ("renderings.py", "render", "svg")),
    ("garbage collection", ("gc_collect", "collector.py")),
    ("store commit", ("host/store/", "sqlite3", "wal_checkpoints")),
    ("legal moves (list, encode)", ("legal_move", "moves_on_wire", "legal")),
    ("view building (the game's view)", ("view_data", "def view", "views.py", "viewer_view", "view (")),
    ("rules (apply a move)", ("apply", "applied.py", "step")),
    ("encoding (protobuf, Struct, JSON)", ("struct_writer", "struct_encoding", "view_bytes", "SerializeToString",
                                           "json", "protobuf", "length_delimited", "event_frames", "match_messages",
                                           "messages.py", "codec/")),
    ("worker wire (frames, pipes)", ("workers/wire.py", "workers/worker.py", "workers/pool.py", "workers/runner.py",
                                     "resident", "plugin_calls")),
    ("watcher fan-out (streams, writes)", ("watch", "live.py", "session.py", "match_events", "fan")),
    ("connection guard (the port's splice to grpc)", ("grpc_front.py",)),
    ("gRPC and the event loop", ("grpc", "asyncio", "uvloop", "_cython")),
]
OTHER = "other"
_PROCESS = re.compile(r'^process (\d+):"([^"]*)"')


def parse(path: str) -> dict[str, Counter]:
    """Samples per (process kind, stack), the kind from the process's command line."""
    stacks: dict[str, Counter] = {"serving": Counter(), "workers": Counter()}
    for line in Path(path).read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        frames = stack.split(";")
        kind = "serving"
        while frames and (match := _PROCESS.match(frames[0])):  # the parent's process frames, then its child's
            kind = "workers" if "workers.worker" in match.group(2) else "serving"
            frames = frames[1:]
        stacks[kind][";".join(frames)] += int(count)
    return stacks


def bucket(stack: str) -> str:
    lowered = stack.lower()
    for name, marks in BUCKETS:
        if any(mark.lower() in lowered for mark in marks):
            return name
    return OTHER


def leaf(stack: str) -> str:
    """The innermost frame, without its line number."""
    return re.sub(r":\d+\)$", ")", stack.rsplit(";", 1)[-1])


def summarise(profile: str, soak: dict, top: int) -> dict:
    """Each bucket's share of a process kind's samples times the CPU /proc
    counted for that kind, per move. Shares, not samples times the period:
    on a loaded machine a thread that holds the GIL while waiting for a core
    is sampled too, so the samples' time exceeds the CPU used."""
    stacks = parse(profile)
    moves, rate = max(1, soak["moves"]), soak["profile"]["rate_hz"]
    serving_us = soak["serving_cpu_us_per_move"]
    measured = {"serving": serving_us, "workers": soak["host_cpu_us_per_move"] - serving_us}
    summary: dict = {"moves": soak["moves"], "moves_per_s": soak["moves_per_s"],
                     "host_cpu_us_per_move": soak["host_cpu_us_per_move"], "serving_cpu_us_per_move": serving_us,
                     "workers_cpu_us_per_move": measured["workers"], "events_per_move": soak.get("events_per_move"),
                     "games": soak.get("games"), "loadavg": [soak["loadavg_start"], soak["loadavg_end"]]}
    for kind in ("serving", "workers"):
        total = sum(stacks[kind].values())
        buckets: Counter = Counter()
        leaves: Counter = Counter()
        for stack, count in stacks[kind].items():
            buckets[bucket(stack)] += count
            leaves[leaf(stack)] += count
        summary[kind] = {
            "samples": total, "sampled_s_per_cpu_s": round(total / rate / (measured[kind] * moves / 1e6), 2),
            "buckets_us_per_move": {name: round(measured[kind] * count / total)
                                    for name, count in buckets.most_common()} if total else {},
            "top_leaves_share": {name: round(count / total, 3) for name, count in leaves.most_common(top)}
            if total else {}}
    return summary


def report(summary: dict) -> None:
    print(f"{summary['games']}: {summary['moves']} moves ({summary['moves_per_s']:.0f}/s), "
          f"{summary['host_cpu_us_per_move']:.0f} us/move (serving {summary['serving_cpu_us_per_move']:.0f}, "
          f"workers {summary['workers_cpu_us_per_move']:.0f}), {summary['events_per_move']:.1f} events per move")
    for kind in ("serving", "workers"):
        print(f"  {kind} ({summary[kind]['samples']} samples):")
        for name, us in summary[kind]["buckets_us_per_move"].items():
            print(f"    {us:6d} us  {name}")
        for name, share in list(summary[kind]["top_leaves_share"].items())[:8]:
            print(f"      {100 * share:5.1f}%  {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("profile", help="py-spy's raw output (soak.py --profile)")
    parser.add_argument("--soak", required=True, help="the soak's --json file of the same run")
    parser.add_argument("--json", help="write the summary here")
    parser.add_argument("--top", type=int, default=15, help="innermost frames listed per process kind")
    args = parser.parse_args()
    summary = summarise(args.profile, json.loads(Path(args.soak).read_text()), args.top)
    report(summary)
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
