"""The pause sources of a soak run, from the serving process's probe
(``bench/soak.py --probe FILE``, bench/tail_probe/sitecustomize.py).

Usage:
    python -m bench.tail_report PROBE.json [--soak SOAK.json] [--markdown]

Prints one row per source: how many, p50, p99, max (milliseconds), and the
share of the run's wall time it took; then the slowest callbacks by name.
"""

from __future__ import annotations

import argparse
import collections
import glob
import json


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * (len(ordered) - 1)))] if ordered else float("nan")


def row(name: str, values: list[float], wall_s: float | None = None) -> list[str]:
    if not values:
        return [name, "0", "", "", "", ""]
    share = f"{100 * sum(values) / 1000 / wall_s:.1f}%" if wall_s else ""
    return [name, f"{len(values):,}", f"{percentile(values, 0.5):.2f}", f"{percentile(values, 0.99):.2f}",
            f"{max(values):.1f}", share]


def rows(probe: dict, soak: dict | None) -> list[list[str]]:
    wall = len(probe["lag_ms"]) * 0.010 + sum(probe["lag_ms"]) / 1000  # the lag timer ran the whole time
    table = []
    if soak:
        submit = soak["submit_ms"]
        table.append(["the move, as the client sees it", f"{soak['moves']:,}", f"{submit['p50']:.2f}",
                      f"{submit['p99']:.2f}", f"{submit['max']:.1f}", ""])
    table.append(row("the move in the engine (MatchEngine.submit)", probe["submit_ms"]))
    table.append(row("loop lag (a 10 ms timer's lateness)", probe["lag_ms"]))
    table.append(row("a loop turn's callbacks (busy time per turn)", probe["turn_busy_ms"], wall))
    table.append(row("ready callbacks per turn (count, not ms)", probe["turn_handles"]))
    by_generation = collections.defaultdict(list)
    for _at, generation, spent, _collected in probe["gc"]:
        by_generation[generation].append(spent)
    for generation in (0, 1, 2):
        table.append(row(f"GC generation {generation}", by_generation[generation], wall))
    sqlite = probe["sqlite_ms"]
    checkpoints = {index - 1 for index in probe["sqlite_wal_restarts"] if index > 0}
    table.append(row("SQLite transaction (all)", sqlite, wall))
    # The transaction before one that restarted the WAL: the one that ran the checkpoint when they ran in commits.
    table.append(row("SQLite transaction before a WAL restart", [sqlite[i] for i in sorted(checkpoints)]))
    table.append(row("SQLite transaction, the others", [v for i, v in enumerate(sqlite) if i not in checkpoints]))
    for op, values in sorted(probe["worker_ms"].items(), key=lambda item: -len(item[1])):
        table.append(row(f"worker round trip: {op}", values))
    table.append(row("requests already queued at the worker (count)", probe["worker_queued"]))
    return table


def worker_rows(probes: list[dict]) -> list[list[str]]:
    """The rules workers' side: each request's handling (all workers together) and their collections."""
    handled, collections_ = collections.defaultdict(list), collections.defaultdict(list)
    for probe in probes:
        for op, values in probe["worker_ms"].items():
            handled[op] += values
        for _at, generation, spent, _collected in probe["gc"]:
            collections_[generation].append(spent)
    table = [row(f"in a worker: {op}", values) for op, values in sorted(handled.items(), key=lambda i: -len(i[1]))]
    return table + [row(f"in a worker: GC generation {generation}", collections_[generation]) for generation in (0, 1, 2)]


def slow_callbacks(probe: dict, top: int = 12) -> list[tuple[str, int, float, float]]:
    grouped = collections.defaultdict(list)
    for _at, spent, name in probe["slow_callbacks"]:
        grouped[name].append(spent)
    ranked = sorted(grouped.items(), key=lambda item: -sum(item[1]))[:top]
    return [(name, len(values), percentile(values, 0.5), max(values)) for name, values in ranked]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("probe")
    parser.add_argument("--soak", help="the soak's --json file (for the client's latencies)")
    args = parser.parse_args()
    probe = json.load(open(args.probe))
    soak = json.load(open(args.soak)) if args.soak else None
    header = ["source", "count", "p50 ms", "p99 ms", "max ms", "share of wall time"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    workers = [json.load(open(path)) for path in sorted(glob.glob(f"{args.probe}.worker-*"))]
    for cells in rows(probe, soak) + worker_rows(workers):
        print("| " + " | ".join(cells) + " |")
    print(f"\ncallbacks run {probe['callbacks']:,}, {probe['callback_ms_total'] / 1000:.1f} s in all; "
          f"GC thresholds {probe.get('gc_thresholds')}, frozen objects {probe.get('gc_frozen')}")
    print(f"callbacks of {5} ms or more, by name (kept: the first {len(probe['slow_callbacks'])}):")
    for name, count, median, most in slow_callbacks(probe):
        print(f"  {count:5d}  p50 {median:7.1f} ms  max {most:7.1f} ms  {name}")


if __name__ == "__main__":
    main()
