"""Benchmark: how strong the search bots are and how long they think.

For each game and player count it plays, through the rules SDK in this
process (the same code a rules worker runs for a bot seat):

- the strongest level against random bots: the share of games it wins
  (2 players) or takes first place in (more players), seat rotated;
- the strongest level against the middle level (2 players: one of each;
  more: one strongest among middle bots), the share of first places;
- the think time of every move at each level: median and p99.

A tie for first counts as half a win. Each share comes with its sample
size and a 95% Wilson interval; the load average is recorded before and
after each row (the think budget is wall-clock time, so a loaded machine
gives the bots fewer iterations), and so is the share of a core the
benchmark process got (``cpu_share``: its CPU time over the row's wall time). ``--games`` and ``--scale`` (the factor on
every level's budgets, as ``gamehost serve --bot-think-scale``) trade time
for precision; ``--jsonl`` appends each row as it is measured. Usage:
    python -m bench.bots [--games N] [--heavy-games N] [--scale F] [--only GAME ...] [--seats N ...]
                         [--against random|middle ...] [--first-seed N] [--json results.json] [--jsonl rows.jsonl]
    python -m bench.bots --table rows.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import time

from gamehost.host.bots import RandomBot
from gamehost.host.plugins import load_catalog
from gamehost.sdk.search import LEVELS, SEARCH_BOTS, set_think_scale

HEAVY = {"kensington", "scalino", "callisto"}  # long games: fewer samples by default


def machine() -> dict:
    model = platform.processor()
    try:
        with open("/proc/cpuinfo") as info:
            model = next((line.split(":", 1)[1].strip() for line in info if line.startswith("model name")), model)
    except OSError:
        pass
    return {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "cpu": model, "cores": os.cpu_count(),
            "python": platform.python_version()}


def play(game, bots, seed: int, think: dict[str, list[float]]) -> list[int]:
    """One game from ``seed``; each bot move's think time goes to ``think`` by bot name."""
    rng = random.Random(seed)
    state = game.setup(len(bots), game.default_options(), rng)
    while (outcome := game.outcome(state)) is None:
        to_move = game.to_move(state)
        seat = to_move[rng.randrange(len(to_move))]
        name, bot = bots[seat]
        moves = game.legal_moves(state, seat)
        started = time.perf_counter()
        move = bot.choose(game, state, seat, moves, random.Random(rng.getrandbits(64)))
        if name != "random":
            think.setdefault(name, []).append(time.perf_counter() - started)
        state = game.apply(state, seat, move.args, rng)
    return list(outcome.ranking)


def first_place_share(game, seats: int, strong: str, weak: str, games: int, think,
                      first_seed: int = 1000) -> tuple[float, int, float]:
    """The share of ``games`` in which one ``strong`` bot among ``weak`` ones
    places first (ties: half), the number of games it did not place first
    in, and its pairwise share: of every (game, weak bot), the share where
    it placed above that bot (a tie: half). With two seats both shares are
    the same; with more, the pairwise one reads "wins against the middle
    level" as beating each of them, where an equal bot gets 50%."""
    points = pairwise = 0.0
    behind = 0
    for index in range(games):
        seat = index % seats
        bots = [(weak, RandomBot() if weak == "random" else SEARCH_BOTS[weak])] * seats
        bots[seat] = (strong, SEARCH_BOTS[strong])
        ranking = play(game, bots, first_seed + index, think)
        if ranking[seat] == 1:
            points += 1.0 / ranking.count(1)
        else:
            behind += 1
        others = [place for other, place in enumerate(ranking) if other != seat]
        pairwise += sum(1.0 if ranking[seat] < place else 0.5 if ranking[seat] == place else 0.0
                        for place in others) / len(others)
    return points / games, behind, pairwise / games


def wilson(share: float, games: int, z: float = 1.96) -> list[float]:
    """The 95% Wilson score interval of a share measured over ``games`` games."""
    if games == 0:
        return [0.0, 1.0]
    centre = (share + z * z / (2 * games)) / (1 + z * z / games)
    half = z * ((share * (1 - share) / games + z * z / (4 * games * games)) ** 0.5) / (1 + z * z / games)
    return [round(max(0.0, centre - half), 3), round(min(1.0, centre + half), 3)]


def load_average() -> list[float]:
    return [round(value, 2) for value in os.getloadavg()]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def markdown(rows_file: str) -> str:
    """The rows of a ``--jsonl`` file as a Markdown table."""
    lines = ["| game | seats | games per pairing | strongest vs random (95% CI) | strongest vs middle (95% CI) "
             "| think ms median / p99: easy | medium | hard | load average (1 min) before / after | share of a core |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    with open(rows_file) as rows:
        for line in rows:
            row = json.loads(line)

            def share(key: str) -> str:
                if key not in row:
                    return "-"  # not measured in this run (--against)
                low, high = row[key + "_ci95"]
                shown = f"{100 * row[key]:.0f}% ({100 * low:.0f}-{100 * high:.0f})"
                if key + "_pairwise" in row:
                    low, high = row[key + "_pairwise_ci95"]
                    shown += f"; pairwise {100 * row[key + '_pairwise']:.0f}% ({100 * low:.0f}-{100 * high:.0f})"
                return shown

            think = [f"{row['think_ms'][name]['median']:.0f} / {row['think_ms'][name]['p99']:.0f}"
                     if name in row["think_ms"] else "-" for name in (level.name for level in LEVELS)]
            lines.append(f"| {row['game']} | {row['seats']} | {row['games']} | {share('strongest_vs_random')} "
                         f"| {share('strongest_vs_middle')} | {' | '.join(think)} "
                         f"| {row['load_before'][0]:.0f} / {row['load_after'][0]:.0f} "
                         f"| {row['cpu_share'] if 'cpu_share' in row else '-'} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=6, help="games per pairing for light games")
    parser.add_argument("--heavy-games", type=int, help="games per pairing for heavy games (default: a third of --games)")
    parser.add_argument("--scale", type=float, default=1.0, help="factor on the levels' budgets")
    parser.add_argument("--only", nargs="*", help="these game ids only")
    parser.add_argument("--seats", type=int, nargs="*", help="these player counts only (default: 2 and 3 or 4)")
    parser.add_argument("--against", nargs="*", choices=("random", "middle"), default=["random", "middle"],
                        help="the strongest level's opponents to measure (default: both)")
    parser.add_argument("--first-seed", type=int, default=1000,
                        help="the first game's seed (another value: more games, not the same again)")
    parser.add_argument("--json", help="also write the results to this file")
    parser.add_argument("--jsonl", help="append each row to this file as soon as it is measured")
    parser.add_argument("--table", metavar="JSONL", help="print the rows of a --jsonl file as Markdown, and stop")
    args = parser.parse_args()
    if args.table:
        print(markdown(args.table))
        return
    set_think_scale(args.scale)
    catalog = load_catalog()
    strongest, middle = LEVELS[-1].name, LEVELS[len(LEVELS) // 2].name
    results = {"machine": machine(), "scale": args.scale, "rows": []}
    print(json.dumps(results["machine"]), f"scale {args.scale}")
    for game_id in sorted(args.only or catalog.games):
        game = catalog.games[game_id].game
        for seats in args.seats or sorted({game.min_players, min(game.max_players, 4)}):
            try:
                game.setup(seats, game.default_options(), random.Random(0))
            except Exception:  # e.g. Scalino takes 2 or 4 players, not 3
                continue
            if game_id in HEAVY:
                games = args.heavy_games if args.heavy_games is not None else max(2, args.games // 3)
            else:
                games = args.games
            think: dict[str, list[float]] = {}
            started, cpu_started = time.time(), time.process_time()
            row = {"game": game_id, "seats": seats, "games": games, "load_before": load_average()}
            opponents = {"random": ("strongest_vs_random", "random"), "middle": ("strongest_vs_middle", middle)}
            for key, weak in (opponents[against] for against in args.against):
                share, behind, pairwise = first_place_share(game, seats, strongest, weak, games, think,
                                                            args.first_seed)
                row[key] = round(share, 3)
                row[key + "_not_first"] = behind
                row[key + "_ci95"] = wilson(share, games)
                if seats > 2:  # games as the sample: the pairs of one game are not independent
                    row[key + "_pairwise"] = round(pairwise, 3)
                    row[key + "_pairwise_ci95"] = wilson(pairwise, games)
            easy = LEVELS[0].name
            # Easy's think times, on the row's seeds too: another run's seeds play other games.
            first_place_share(game, seats, easy, "random", max(1, games // 2), think, args.first_seed)
            row["think_ms"] = {name: {"median": round(1000 * statistics.median(times), 1),
                                      "p99": round(1000 * percentile(times, 0.99), 1), "moves": len(times)}
                               for name, times in sorted(think.items())}
            row["seconds"] = round(time.time() - started, 1)
            # The share of one core this process got: the bots' budgets are wall-clock time.
            row["cpu_share"] = round((time.process_time() - cpu_started) / max(1e-9, row["seconds"]), 2)
            row["load_after"] = load_average()
            row["scale"] = args.scale
            row["first_seed"] = args.first_seed
            row["machine"] = results["machine"]["cpu"]
            row["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
            results["rows"].append(row)
            print(json.dumps(row), flush=True)
            if args.jsonl:
                with open(args.jsonl, "a") as out:
                    out.write(json.dumps(row) + "\n")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(results, out, indent=2)


if __name__ == "__main__":
    main()
