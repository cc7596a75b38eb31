"""Benchmark: where a search bot's second goes, per game.

At positions from random games (as ``bench.search_iterations`` takes them)
each level searches with an iteration budget, through a stand-in for the
game that times every rules and hints call it passes on (``sample_state``,
``legal_moves``, ``apply``, ``outcome``, ``to_move``, the hints). Printed per
game and level: iterations a second, and the share of the search's CPU time
each call took; what is left is the search's own work (tree walk, statistics).
Usage:
    python -m bench.search_profile [--only GAME ...] [--seats 2] [--iterations 200] [--reference]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import time
from collections import defaultdict

from bench.search_iterations import positions
from gamehost.host.plugins import load_catalog

TIMED = ("sample_state", "legal_moves", "apply", "outcome", "to_move", "order_moves", "rollout_move",
         "playout_move", "evaluate")


class TimedGame:
    """The game, with the CPU time of each call in ``spent`` by method name."""

    def __init__(self, game) -> None:
        self._game = game
        self.spent: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)

    def __getattr__(self, name):
        value = getattr(self._game, name)
        if name not in TIMED:
            return value

        def timed(*args, **kwargs):
            started = time.process_time()
            try:
                return value(*args, **kwargs)
            finally:
                self.spent[name] += time.process_time() - started
                self.calls[name] += 1
        return timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--reference", action="store_true", help="profile bench/search_reference.py instead")
    args = parser.parse_args()
    if args.reference:
        from bench.search_reference import LEVELS, SearchBot
    else:
        from gamehost.sdk.search import LEVELS, SearchBot
    catalog = load_catalog()
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {os.getloadavg()[0]:.2f}")
    for game_id in sorted(args.only or catalog.games):
        game = catalog.games[game_id].game
        try:
            found = positions(game, args.seats, args.games, 10, 15)
        except Exception:
            continue
        for level in LEVELS:
            timed = TimedGame(game)
            bot = SearchBot(dataclasses.replace(level, iterations=args.iterations, seconds=1e9))
            started, done = time.process_time(), 0
            for index, (state, seat, moves) in enumerate(found):
                think = bot.think(timed, state, seat, moves, random.Random(index))
                think.run(float("inf"))
                done += think.iterations
            total = time.process_time() - started
            shares = sorted(((spent / total, name, timed.calls[name]) for name, spent in timed.spent.items()),
                            reverse=True)
            own = 1 - sum(share for share, _, _ in shares)
            print(f"{game_id} {args.seats}p {level.name}: {done / total:.0f} iterations/s over {len(found)} "
                  f"positions; " + ", ".join(f"{name} {100 * share:.0f}% ({calls / max(1, done):.1f}/it)"
                                             for share, name, calls in shares if share >= 0.01)
                  + f", search {100 * own:.0f}%", flush=True)


if __name__ == "__main__":
    main()
