"""Benchmark: Callisto's compiled placement search against its Python rules, in one run.

The same plugin twice, ``Callisto(rules.PYTHON_SEARCH)`` and ``Callisto()``
with gamehost-callisto-native, measured alternately in one process (CPU
time, ``time.process_time``, best of ``--repeat``, so that a busy shared
machine skews them less):

- ``legal_moves``: µs a call over every position of random games (seeds 0
  to ``--games``-1), per player count;
- full random playouts (setup, then ``legal_moves`` and ``apply`` until the
  end) per second of CPU, per player count;
- each search level's ms of CPU an iteration on 2-player positions (every
  ``--every``-th move from move 6 on, an iteration budget instead of the
  clock), with a digest of the trees grown: the two searches must grow the
  same trees, as they list the same moves;
- the iterations one think of each level reaches within its real budget (its
  seconds and its iteration cap) on those positions, median: what the bots'
  strength at the same think time rests on (wall clock: read beside the load).

``--duel N`` then plays N 2-player games of ``mcts-hard`` on the compiled
search against ``mcts-hard`` on the Python one, each at its real think time,
alternating who starts: the compiled bot's share of wins, 95% Wilson interval.
``--budget-duel MORE FEWER N`` plays ``mcts-hard`` with MORE iterations a
move against ``mcts-hard`` with FEWER (no clock, both compiled): whether the
iterations the compiled search adds make the bot stronger at all.

    python -m bench.callisto_compiled [--games 10] [--iterations 100] [--duel 20] [--json FILE]
    python -m bench.callisto_compiled --only-duels --budget-duel 240 60 10
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import platform
import random
import statistics
import time

from bench.bots import wilson
from gamehost.sdk.search import LEVELS, SearchBot
from gamehost_callisto import compiled, rules
from gamehost_callisto.game import Callisto


def random_game(game: Callisto, players: int, seed: int, positions: list | None = None) -> dict:
    rng = random.Random(seed)
    state = game.setup(players, game.default_options(), rng)
    while state["to_move"] is not None:
        seat = state["to_move"]
        moves = game.legal_moves(state, seat)
        if positions is not None:
            positions.append((state, seat, moves))
        state = game.apply(state, seat, moves[rng.randrange(len(moves))].args, rng)
    return state


def best_of(repeat: int, work) -> float:
    spent = []
    for _ in range(repeat):
        started = time.process_time()
        work()
        spent.append(time.process_time() - started)
    return min(spent)


def search_positions(game: Callisto, games: int, every: int) -> list:
    """2-player positions where the seat to move has a choice, every ``every``-th move from move 6 (the pieces)."""
    found: list = []
    for seed in range(games):
        positions: list = []
        random_game(game, 2, seed, positions)
        found += [position for step, position in enumerate(positions)
                  if step >= 6 and (step - 6) % every == 0 and len(position[2]) > 1]
    return found


def iteration_cost(game: Callisto, level, found: list, iterations: int, repeat: int) -> tuple[float, str]:
    """ms of CPU an iteration over ``found`` with an iteration budget, and a digest of the trees."""
    bot = SearchBot(dataclasses.replace(level, iterations=iterations, seconds=1e9))
    trees: list = []

    def grow() -> None:
        trees.clear()
        for index, (state, seat, moves) in enumerate(found):
            think = bot.think(game, state, seat, moves, random.Random(index))
            think.run(float("inf"))
            trees.append(sorted((move_id, child.visits, round(child.reward, 9))
                                for move_id, child in think.root.children.items()))

    spent = best_of(repeat, grow)
    return 1000 * spent / (iterations * len(found)), hashlib.sha256(repr(trees).encode()).hexdigest()[:16]


def iterations_per_think(game: Callisto, level, found: list) -> int:
    """The median iterations a think of ``level`` reaches within its real budget."""
    bot = SearchBot(level)
    reached = []
    for index, (state, seat, moves) in enumerate(found):
        think = bot.think(game, state, seat, moves, random.Random(index))
        think.run(float("inf"))
        reached.append(think.iterations)
    return round(statistics.median(reached))


def duel(games: int, first: tuple, second: tuple) -> dict:
    """2-player games of ``first`` against ``second``, each a (game, bot) pair, alternating seats and
    who starts: the first's wins, share and 95% Wilson interval."""
    wins = 0.0
    for index in range(games):
        first_seat = index % 2
        players = [second, second]
        players[first_seat] = first
        rng = random.Random(5000 + index)
        state = first[0].setup(2, {"start_seat": index // 2 % 2}, rng)
        while state["to_move"] is not None:
            seat = state["to_move"]
            game, bot = players[seat]
            moves = game.legal_moves(state, seat)
            move = bot.choose(game, state, seat, moves, random.Random(rng.getrandbits(64)))
            state = game.apply(state, seat, move.args, rng)
        result = rules.outcome(state)
        won = result.ranking[first_seat] == 1
        wins += 1.0 if won else 0.0
        print(f"  game {index + 1}: {'won' if won else 'lost'} (seat {first_seat}, penalties {result.scores})",
              flush=True)
    share = wins / games
    return {"games": games, "wins": wins, "share": share, "ci95": wilson(share, games)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10, help="random games per player count")
    parser.add_argument("--every", type=int, default=8, help="moves between the search's positions")
    parser.add_argument("--iterations", type=int, default=100, help="iteration budget per position")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--duel", type=int, default=0, help="games of compiled against Python mcts-hard")
    parser.add_argument("--budget-duel", type=int, nargs=3, metavar=("MORE", "FEWER", "GAMES"),
                        help="mcts-hard with MORE iterations against FEWER, no clock, both compiled")
    parser.add_argument("--only-duels", action="store_true", help="skip the speed measurements")
    parser.add_argument("--json", help="write the results there too")
    args = parser.parse_args()
    if compiled.COMPILED_SEARCH is None:
        raise SystemExit("gamehost-callisto-native is not installed: make .venv/.installed (needs cargo)")
    searches = {"python": Callisto(rules.PYTHON_SEARCH), "compiled": Callisto()}
    results: dict = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "cores": os.cpu_count(),
                     "python": platform.python_version(), "load_before": [round(x, 2) for x in os.getloadavg()]}
    print(json.dumps(results), flush=True)
    for players in () if args.only_duels else (2, 3, 4):
        compiled.compiled_placements(players, False)  # the tables built outside the timing
        positions: list = []
        finals = [random_game(searches["python"], players, seed, positions) for seed in range(args.games)]
        assert finals == [random_game(searches["compiled"], players, seed) for seed in range(args.games)]
        row: dict = {"players": players, "positions": len(positions)}
        for name, game in searches.items():
            listing = best_of(args.repeat, lambda: [game.legal_moves(state, seat) for state, seat, _ in positions])
            playing = best_of(args.repeat, lambda: [random_game(game, players, seed) for seed in range(args.games)])
            row[name] = {"legal_moves_us": round(1e6 * listing / len(positions), 1),
                         "playouts_per_s": round(args.games / playing, 1)}
        row["legal_moves_speedup"] = round(row["python"]["legal_moves_us"] / row["compiled"]["legal_moves_us"], 1)
        row["playouts_speedup"] = round(row["compiled"]["playouts_per_s"] / row["python"]["playouts_per_s"], 1)
        print(json.dumps(row), flush=True)
        results[f"rules_{players}p"] = row
    found = [] if args.only_duels else search_positions(searches["python"], max(2, args.games // 3), args.every)
    for level in () if args.only_duels else LEVELS:
        row = {"level": level.name, "positions": len(found)}
        for name, game in searches.items():
            cost, digest = iteration_cost(game, level, found, args.iterations, args.repeat)
            row[name] = {"iteration_ms": round(cost, 3), "digest": digest,
                         "iterations_per_think": iterations_per_think(game, level, found)}
        assert row["python"]["digest"] == row["compiled"]["digest"], "the two searches grew different trees"
        row["iterations_per_s"] = {name: round(1000 / row[name]["iteration_ms"]) for name in searches}
        row["speedup"] = round(row["python"]["iteration_ms"] / row["compiled"]["iteration_ms"], 1)
        print(json.dumps(row), flush=True)
        results[level.name] = row
    hard = next(level for level in LEVELS if level.name == "mcts-hard")
    if args.duel:
        print("compiled mcts-hard against Python mcts-hard, each at its real think time:", flush=True)
        results["duel"] = duel(args.duel, (searches["compiled"], SearchBot(hard)), (searches["python"], SearchBot(hard)))
        print(json.dumps(results["duel"]), flush=True)
    if args.budget_duel:
        more, fewer, games = args.budget_duel
        print(f"mcts-hard with {more} iterations against {fewer}, no clock, both compiled:", flush=True)
        budgets = [SearchBot(dataclasses.replace(hard, iterations=budget, seconds=1e9)) for budget in (more, fewer)]
        results["budget_duel"] = {"more": more, "fewer": fewer,
                                  **duel(games, (searches["compiled"], budgets[0]), (searches["compiled"], budgets[1]))}
        print(json.dumps(results["budget_duel"]), flush=True)
    results["load_after"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps({"load_after": results["load_after"]}))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(results, out, indent=1)


if __name__ == "__main__":
    main()
