"""Benchmark: what translatable words (``gamehost.sdk.i18n.Text``) cost on
the two paths that pay for them, against another tree (the commit before),
both measured in turn in one run.

- **listing**: a worker's round trip of the legal moves of a start
  position (Callisto 4 seats, Kensington 4 seats, Campanile 2 seats), as
  ``LegalMoves`` makes it: in the worker (``worker_ms``) the moves are
  listed fresh by the rules (their time, ``rules_ms``, taken off), turned
  into plain data (``move_data``) and framed (``wire.frame``); in the host
  (``host_ms``) the frame is decoded and the moves rebuilt (``move_of``,
  with its shared table of parts). Beside them: the whole round trip of the
  same moves with their labels as plain English strings (what a listing
  cost before the games were translated), and the worker's encoding of the
  listing as a View's ``legal_moves`` (``encoded_view_moves_ms``, rules
  taken off: the path of every move of a watched match), for a position
  seen before. CPU per call, best of ``--rounds`` rounds of ``--calls``.
  A digest of the rebuilt moves (ids, labels in English and French, parts)
  must be equal in both trees.
- **kit**: the conformance sweep of Callisto at 4 seats (``--playouts``
  random games from seed 0), CPU seconds per game, with the kit's language
  check, and without it (the same game declaring no language).

Each tree runs in its own child process (the baseline's with its ``core``
first on PYTHONPATH), alternating ``--repeat`` times; per figure the median
is kept, and the ratio after/before of each pair. Usage:
    git archive wave3c core | tar -x -C /tmp/words-before
    python -m bench.words --baseline /tmp/words-before/core [--repeat 3] [--json FILE]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

RESULT = "words-result: "
POSITIONS = (("callisto", 4), ("kensington", 4), ("campanile", 2))


def _listing_figures(calls: int, rounds: int) -> dict:
    import random

    from gamehost.host.plugins import load_catalog
    from gamehost.host.workers import wire
    from gamehost.host.workers.moves_on_wire import move_data, move_of
    from gamehost.host.workers.view_bytes import ViewEncoder
    from gamehost.sdk.i18n import catalogues_of
    from gamehost.sdk.rules import Move, Part

    catalog = load_catalog()
    figures: dict = {}
    for game_id, seats in POSITIONS:
        game = catalog.games[game_id].game
        state = game.setup(seats, game.default_options(), random.Random(0))
        seat = game.to_move(state)[0]
        moves = list(game.legal_moves(state, seat))
        plain = [Move(m.id, str(m.label), m.args, tuple(Part(p.id, str(p.label)) for p in m.parts)) for m in moves]

        def round_trip(listed: list) -> list:
            body = wire.frame({"moves": [move_data(m) for m in listed]})[wire.HEADER.size:]
            parts: dict = {}
            return [move_of(data, parts) for data in wire.decode(body)["moves"]]

        def best(work) -> float:
            """Best per-call CPU (ms) over the rounds."""
            spent = []
            for _ in range(rounds):
                started = time.process_time()
                for _ in range(calls):
                    work()
                spent.append((time.process_time() - started) / calls)
            return min(spent) * 1e3

        def listed() -> list:  # as a worker lists them: fresh from the rules (the labels' Texts too)
            return list(game.legal_moves(state, seat))

        def worker() -> None:
            wire.frame({"moves": [move_data(m) for m in listed()]})

        body = wire.frame({"moves": [move_data(m) for m in moves]})[wire.HEADER.size:]

        def host() -> None:
            parts: dict = {}
            [move_of(data, parts) for data in wire.decode(body)["moves"]]

        encoder = ViewEncoder()
        encoder.fields({}, listed())  # a position seen before: its moves' encodings are kept

        def encoded() -> None:
            encoder.fields({}, listed())

        plain_body = wire.frame({"moves": [move_data(m) for m in plain]})[wire.HEADER.size:]

        def plain_trip() -> None:
            wire.frame({"moves": [move_data(m) for m in plain]})
            parts: dict = {}
            [move_of(data, parts) for data in wire.decode(plain_body)["moves"]]

        rebuilt = round_trip(moves)
        french = catalogues_of(game).translator("fr")
        digest = hashlib.sha256(json.dumps(
            [[m.id, m.label, french.translate(m.label), [[p.id, p.label, french.translate(p.label)] for p in m.parts]]
             for m in rebuilt], ensure_ascii=False).encode()).hexdigest()[:16]
        rules = best(listed)
        figures[game_id] = {"moves": len(moves), "rules_ms": rules, "worker_ms": best(worker) - rules,
                            "host_ms": best(host), "plain_labels_round_trip_ms": best(plain_trip),
                            "encoded_view_moves_ms": best(encoded) - rules, "digest": digest}
    return figures


def _kit_figures(playouts: int) -> dict:
    from gamehost.host.plugins import load_catalog
    from gamehost.testing.conformance import run_conformance

    game = catalog_game = load_catalog().games["callisto"].game
    unchecked = type("CallistoUnchecked", (type(catalog_game),), {"languages": ()})()
    figures = {}
    for name, checked in (("with_check", game), ("without_check", unchecked)):
        started = time.process_time()
        report = run_conformance(checked, seats=4, playouts=playouts)
        figures[name + "_s_per_game"] = (time.process_time() - started) / playouts
        figures[name + "_moves"] = report.moves
    return figures


def child(args: argparse.Namespace) -> None:
    result = {"listing": _listing_figures(args.calls, args.rounds)}
    if args.playouts:
        result["kit"] = _kit_figures(args.playouts)
    print(RESULT + json.dumps(result))  # the last line: plugins' loading may log on stdout before


def run_tree(core: Path | None, args: argparse.Namespace) -> dict:
    env = dict(os.environ)
    if core is not None:
        env["PYTHONPATH"] = f"{core}{os.pathsep}{env.get('PYTHONPATH', '')}"
    command = [sys.executable, "-m", "bench.words", "--child", "--calls", str(args.calls),
               "--rounds", str(args.rounds), "--playouts", str(args.playouts)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return json.loads(next(line for line in reversed(done.stdout.splitlines())
                           if line.startswith(RESULT))[len(RESULT):])


def _flat(result: dict) -> dict[str, float]:
    flat = {f"{game}.{name}": value for game, figures in result["listing"].items()
            for name, value in figures.items() if isinstance(value, float)}
    flat.update({f"kit.{name}": value for name, value in result.get("kit", {}).items()
                 if isinstance(value, float)})
    return flat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", type=Path, help="the other tree's core/ (its gamehost package inside)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--calls", type=int, default=20, help="listings per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--playouts", type=int, default=2, help="Callisto conformance games per tree (0: none)")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    from bench.harness import machine

    trees = {"after": None} if args.baseline is None else {"before": args.baseline, "after": None}
    runs: dict[str, list[dict]] = {name: [] for name in trees}
    for _ in range(args.repeat):
        for name, core in trees.items():
            runs[name].append(run_tree(core, args))
    report: dict = {"machine": {**machine(), "load_average": os.getloadavg()}, "runs": runs, "median": {},
                    "ratio_after_before": {}}
    for name in trees:
        flats = [_flat(run) for run in runs[name]]
        report["median"][name] = {key: statistics.median(f[key] for f in flats) for key in flats[0]}
    if "before" in trees:
        pairs = list(zip(runs["before"], runs["after"]))
        report["ratio_after_before"] = {
            key: statistics.median(_flat(after)[key] / _flat(before)[key] for before, after in pairs)
            for key in _flat(pairs[0][0])}
        for game_id in runs["after"][0]["listing"]:
            digests = {run["listing"][game_id]["digest"] for name in trees for run in runs[name]}
            report.setdefault("digests_equal", {})[game_id] = len(digests) == 1
    for key in report["median"]["after"]:
        line = f"{key:40} " + "  ".join(f"{name} {report['median'][name][key]:9.3f}" for name in trees)
        if key in report["ratio_after_before"]:
            line += f"  ratio {report['ratio_after_before'][key]:.3f}"
        print(line)
    print("digests equal:", report.get("digests_equal"), " load average:", report["machine"]["load_average"])
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
