"""Benchmark: CPU time of one search-bot iteration, per game and level.

A time-bound bot's strength is its iterations per think, so this is the
figure a speed-up of the rules or of a game's hints must move. Positions
are taken from random games (seeds 0 to N-1, every ``--every``-th move from
move ``--from`` on, where the seat to move has a choice); at each one, every
search level runs with its own knowledge and playouts but an iteration
budget instead of a clock (``--iterations``), so the same code grows the
same trees. Printed per level: ms of CPU an iteration (``time.process_time``,
best of ``--repeat`` runs), and a digest of every root's visit counts and
rewards: a speed-up must leave it unchanged.

Compare two trees by running this twice with ``PYTHONPATH`` pointing at each
(``core`` and the plugin directory), in turn, on one machine.
Usage:
    python -m bench.search_iterations --only kensington [--seats 3] [--games 3] [--iterations 100]
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import os
import random
import time

from gamehost.host.plugins import load_catalog
from gamehost.sdk.search import LEVELS, SearchBot


def positions(game, seats: int, games: int, start: int, every: int) -> list:
    """(state, seat, legal moves) from random games, where the seat has a choice."""
    found = []
    for seed in range(games):
        rng = random.Random(seed)
        state = game.setup(seats, game.default_options(), rng)
        step = 0
        while game.outcome(state) is None:
            seat = game.to_move(state)[0]
            moves = game.legal_moves(state, seat)
            if step >= start and (step - start) % every == 0 and len(moves) > 1:
                found.append((state, seat, moves))
            state = game.apply(state, seat, moves[rng.randrange(len(moves))].args, rng)
            step += 1
    return found


def measure(game, level, found: list, iterations: int) -> tuple[float, str]:
    """ms of CPU an iteration over ``found``, and a digest of the trees grown."""
    bot = SearchBot(dataclasses.replace(level, iterations=iterations, seconds=1e9))
    trees = []
    done = 0
    started = time.process_time()
    for index, (state, seat, moves) in enumerate(found):
        think = bot.think(game, state, seat, moves, random.Random(index))
        think.run(float("inf"))
        done += think.iterations
        trees.append(sorted((move_id, child.visits, round(child.reward, 9))
                            for move_id, child in think.root.children.items()))
    spent = time.process_time() - started
    return 1000 * spent / done, hashlib.sha256(repr(trees).encode()).hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--games", type=int, default=3, help="random games the positions come from")
    parser.add_argument("--from", dest="start", type=int, default=30, help="first move taken as a position")
    parser.add_argument("--every", type=int, default=30, help="moves between positions")
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=2, help="runs per level; the best is kept")
    args = parser.parse_args()
    catalog = load_catalog()
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {os.getloadavg()[0]:.2f}")
    for game_id in sorted(args.only or catalog.games):
        game = catalog.games[game_id].game
        found = positions(game, args.seats, args.games, args.start, args.every)
        for level in LEVELS:
            runs = [measure(game, level, found, args.iterations) for _ in range(args.repeat)]
            print(f"{game_id} {args.seats}p {level.name}: {min(ms for ms, _ in runs):.2f} ms CPU an iteration "
                  f"({len(found)} positions, {args.iterations} iterations each; trees {runs[0][1]})")


if __name__ == "__main__":
    main()
