"""Benchmark: each search level against its previous version, and the levels against each other.

For every game that has 2 players, through the rules SDK in this process
(the code a rules worker runs for a bot seat), 2-player games of:

- each level of today's search (``gamehost.sdk.search``) against the same
  level of the frozen reference (``bench/search_reference.py``, the search
  before it was reworked), at the same think time;
- today's medium against today's easy, and hard against medium.

Each seed is played twice, the seats swapped, so each side starts as often
and meets the same deals. A draw counts half. Each share comes with its
sample size and a 95% Wilson interval, the think time per move of each side
(median), the load average before and after, and the share of a core the
process got (the think budget is wall-clock time: a loaded machine gives
both sides fewer iterations alike). ``--scale`` is the factor on every
level's budgets, as ``gamehost serve --bot-think-scale``. ``--cpu-clock``
times both searches' budgets in this process's CPU time instead of wall time
(the bench's own choice, not the host's): on a machine shared with other
work a think then gets the CPU it would get alone, whatever the load. Usage:
    python -m bench.bot_versions [--games N] [--scale F] [--cpu-clock] [--only GAME ...]
                                 [--pairings easy medium ...] [--first-seed N] [--jsonl rows.jsonl]
    python -m bench.bot_versions --table rows.jsonl
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
import types

import bench.search_reference as reference
import gamehost.sdk.search as search
from bench.bots import load_average, machine, play, wilson
from gamehost.host.plugins import load_catalog
from gamehost.sdk.search import SEARCH_BOTS, set_think_scale

PAIRINGS = {
    # name: (the side whose share is measured, its opponent), each a (label, bot)
    "easy": (("mcts-easy", SEARCH_BOTS["mcts-easy"]), ("mcts-easy (before)", reference.SEARCH_BOTS["mcts-easy"])),
    "medium": (("mcts-medium", SEARCH_BOTS["mcts-medium"]),
               ("mcts-medium (before)", reference.SEARCH_BOTS["mcts-medium"])),
    "hard": (("mcts-hard", SEARCH_BOTS["mcts-hard"]), ("mcts-hard (before)", reference.SEARCH_BOTS["mcts-hard"])),
    "medium-vs-easy": (("mcts-medium", SEARCH_BOTS["mcts-medium"]), ("mcts-easy", SEARCH_BOTS["mcts-easy"])),
    "hard-vs-medium": (("mcts-hard", SEARCH_BOTS["mcts-hard"]), ("mcts-medium", SEARCH_BOTS["mcts-medium"])),
}


def use_cpu_clock() -> None:
    """Both searches read their deadlines from this process's CPU time."""
    clock = types.SimpleNamespace(monotonic=time.process_time)
    search.time = reference.time = clock  # type: ignore[assignment]


def two_player_games(catalog) -> list[str]:
    return sorted(game_id for game_id, entry in catalog.games.items() if 2 in entry.game.allowed_player_counts())


def head_to_head(game, pairing: str, games: int, first_seed: int) -> dict:
    """``games`` games of the pairing's first side against its second, each seed twice, seats swapped."""
    (name, bot), (other_name, other_bot) = PAIRINGS[pairing]
    think: dict[str, list[float]] = {}
    points, won, drawn = 0.0, 0, 0
    for index in range(games):
        seat = index % 2
        bots = [(other_name, other_bot)] * 2
        bots[seat] = (name, bot)
        ranking = play(game, bots, first_seed + index // 2, think)
        if ranking[seat] < ranking[1 - seat]:
            points, won = points + 1, won + 1
        elif ranking[seat] == ranking[1 - seat]:
            points, drawn = points + 0.5, drawn + 1
    share = points / games
    return {"share": round(share, 3), "ci95": wilson(share, games), "won": won, "drawn": drawn,
            "lost": games - won - drawn, "side": name, "opponent": other_name,
            "think_ms_median": {label: round(1000 * statistics.median(times), 1) for label, times in think.items()}}


def markdown(rows_file: str) -> str:
    lines = ["| game | pairing | games | won / drawn / lost | share (95% CI) | think ms median: side / opponent "
             "| scale | load (1 min) before / after | share of a core |", "|---|---|---|---|---|---|---|---|---|"]
    with open(rows_file) as rows:
        for line in rows:
            row = json.loads(line)
            low, high = row["ci95"]
            think = row["think_ms_median"]
            lines.append(f"| {row['game']} | {row['side']} vs {row['opponent']} | {row['games']} "
                         f"| {row['won']} / {row['drawn']} / {row['lost']} "
                         f"| {100 * row['share']:.0f}% ({100 * low:.0f}-{100 * high:.0f}) "
                         f"| {think.get(row['side'], '-')} / {think.get(row['opponent'], '-')} | {row['scale']} "
                         f"| {row['load_before'][0]:.1f} / {row['load_after'][0]:.1f} | {row['cpu_share']} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10, help="games per pairing and game (even: each seed twice)")
    parser.add_argument("--scale", type=float, default=1.0, help="factor on the levels' budgets")
    parser.add_argument("--only", nargs="*", help="these game ids only")
    parser.add_argument("--pairings", nargs="*", choices=list(PAIRINGS), default=list(PAIRINGS))
    parser.add_argument("--cpu-clock", action="store_true", help="think budgets in CPU time, not wall time")
    parser.add_argument("--first-seed", type=int, default=50000)
    parser.add_argument("--jsonl", help="append each row to this file as soon as it is measured")
    parser.add_argument("--table", metavar="JSONL", help="print the rows of a --jsonl file as Markdown, and stop")
    args = parser.parse_args()
    if args.table:
        print(markdown(args.table))
        return
    set_think_scale(args.scale)
    if args.cpu_clock:
        use_cpu_clock()
    catalog = load_catalog()
    print(json.dumps(machine()), f"scale {args.scale}", "cpu clock" if args.cpu_clock else "wall clock", flush=True)
    for game_id in args.only or two_player_games(catalog):
        game = catalog.games[game_id].game
        for pairing in args.pairings:
            started, cpu_started = time.time(), time.process_time()
            row = {"game": game_id, "pairing": pairing, "games": args.games, "load_before": load_average()}
            row.update(head_to_head(game, pairing, args.games, args.first_seed))
            row["seconds"] = round(time.time() - started, 1)
            row["cpu_share"] = round((time.process_time() - cpu_started) / max(1e-9, row["seconds"]), 2)
            row.update(load_after=load_average(), scale=args.scale, first_seed=args.first_seed,
                       clock="cpu" if args.cpu_clock else "wall",
                       date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
            print(json.dumps(row), flush=True)
            if args.jsonl:
                with open(args.jsonl, "a") as out:
                    out.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
