"""Benchmark: where the search bot levels stand on the rating scale, per game.

It starts a host (in-memory store, its own process, the bots' budgets
scaled by ``--scale`` as ``gamehost serve --bot-think-scale``) with an
admin key, then plays ``gamehost league``'s matches game by game: each
round seats every ordering of the three levels over two seats (six
matches; each level plays four, two in each seat), one match at a time so
that one bot thinks at a time. After each game it records each level's
openskill rating as the host's catalog reports it: mu, sigma, the 95%
interval mu ± 2 sigma, the shown rating mu - 3 sigma, and its wins, losses
and draws; with the load average before and after, since the think budget
is wall-clock time. ``--jsonl`` appends each game's row as it is measured.

Usage:
    python -m bench.league [--rounds N] [--heavy-rounds N] [--scale F] [--only GAME ...] [--jsonl rows.jsonl]
    python -m bench.league --table rows.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from bench.harness import Host, machine
from gamehost.cli.league import counted_ratings, level_ratings, play_matches, rated_games
from gamehost.client import GameHostClient
from gamehost.client.league_rounds import league_round
from gamehost.host.auth.api_keys import key_entry, new_key

LEVELS = ["mcts-easy", "mcts-medium", "mcts-hard"]
HEAVY = {"kensington", "scalino", "callisto", "burgbaumeister"}  # long games: fewer rounds by default
GAMES = ["tictactoe", "scalino-pyramid", "campanile", "callisto", "burgbaumeister", "scalino", "kensington"]


def run_game(host: Host, key: str, game: str, rounds: int) -> dict:
    load_before = os.getloadavg()[0]
    started = time.monotonic()
    with GameHostClient(host.target, bearer_token=key) as client:
        counted = rated_games(level_ratings(client.game(game), LEVELS))
        played = play_matches(client, game, league_round(LEVELS, 2) * rounds, 1)
        ratings = counted_ratings(client, game, LEVELS, counted + 2 * played)
    for rating in ratings.values():
        if rating is not None:
            rating["low"], rating["high"] = rating["mu"] - 2 * rating["sigma"], rating["mu"] + 2 * rating["sigma"]
    return {"game": game, "rounds": rounds, "matches": played, "seconds": round(time.monotonic() - started, 1),
            "load_before": round(load_before, 2), "load_after": round(os.getloadavg()[0], 2), "ratings": ratings}


def table(rows: list[dict]) -> str:
    lines = ["| game | matches | level | mu (95%: mu ± 2σ) | shown (mu - 3σ) | won-lost-drawn | minutes | load |",
             "|---|---|---|---|---|---|---|---|"]
    for row in rows:
        for level in LEVELS:
            r = row["ratings"][level]
            shown = "not rated" if r is None else (
                f"{r['mu']:.1f} ({r['low']:.1f} to {r['high']:.1f}) | {r['rating']:.1f} | "
                f"{r['wins']}-{r['losses']}-{r['draws']}")
            lines.append(f"| {row['game']} | {row['matches']} | {level} | {shown} | {row['seconds'] / 60:.1f} | "
                         f"{row['load_before']:.1f}-{row['load_after']:.1f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds (6 matches each) of the light games")
    parser.add_argument("--heavy-rounds", type=int, default=2, help="rounds of " + ", ".join(sorted(HEAVY)))
    parser.add_argument("--scale", type=float, default=0.25, help="the factor on every level's think budgets")
    parser.add_argument("--only", nargs="*", default=GAMES, metavar="GAME")
    parser.add_argument("--jsonl", default="", help="append each game's row to this file")
    parser.add_argument("--table", default="", metavar="ROWS.jsonl", help="print the rows of a --jsonl file")
    args = parser.parse_args()
    if args.table:
        print(table([json.loads(line) for line in Path(args.table).read_text().splitlines() if line.strip()]))
        return
    with tempfile.TemporaryDirectory() as scratch:
        keys = Path(scratch) / "keys.json"
        key = new_key()
        keys.write_text(json.dumps([key_entry("league", key, ["admin"], "League (bench)")]))
        host = Host("memory", scratch, "--api-keys", str(keys), "--bot-think-scale", str(args.scale),
                    "--bot-timeout", str(max(5.0, 2 * args.scale)))
        try:
            print(json.dumps({"machine": machine(), "scale": args.scale}))
            for game in args.only:
                row = run_game(host, key, game, args.heavy_rounds if game in HEAVY else args.rounds)
                row.update(scale=args.scale, date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
                print(json.dumps(row), flush=True)
                if args.jsonl:
                    with open(args.jsonl, "a") as out:
                        out.write(json.dumps(row) + "\n")
        finally:
            host.stop()


if __name__ == "__main__":
    main()
