"""Benchmark: the cost of the rules where the search bots spend their time.

For each game, random playouts (seeds 0 to N-1, 2 players) are played once
to collect their positions; then, CPU time, best of three:

- ``legal_moves`` of the seat to move over every position, per call;
- whole playouts (setup, legal_moves, apply, outcome until the end), per
  playout: what one bot iteration's rollout costs.

A digest of every move list and of every final state is printed with the
figures: a speed-up must leave both unchanged (same rules, same moves, in
the same order). Usage:
    python -m bench.rules_speed [--games N] [--only GAME ...]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time

from gamehost.host.plugins import load_catalog


def playout(game, seed: int, positions: list | None = None):
    rng = random.Random(seed)
    state = game.setup(2, game.default_options(), rng)
    while game.outcome(state) is None:
        seat = game.to_move(state)[0]
        if positions is not None:
            positions.append((state, seat))
        moves = game.legal_moves(state, seat)
        state = game.apply(state, seat, moves[rng.randrange(len(moves))].args, rng)
    return state


def best_of_three(work) -> float:
    spent = []
    for _ in range(3):
        started = time.process_time()
        work()
        spent.append(time.process_time() - started)
    return min(spent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--only", nargs="*")
    args = parser.parse_args()
    catalog = load_catalog()
    for game_id in sorted(args.only or catalog.games):
        game = catalog.games[game_id].game
        positions: list = []
        finals = [playout(game, seed, positions) for seed in range(args.games)]
        lists = [game.legal_moves(state, seat) for state, seat in positions]
        digest = hashlib.sha256(repr([[(move.id, move.label, sorted(move.args.items())) for move in moves]
                                      for moves in lists]).encode())
        digest.update(json.dumps(finals, sort_keys=True).encode())
        moves_cpu = best_of_three(lambda: [game.legal_moves(state, seat) for state, seat in positions])
        playouts_cpu = best_of_three(lambda: [playout(game, seed) for seed in range(args.games)])
        print(json.dumps({"game": game_id, "positions": len(positions),
                          "legal_moves_us": round(1e6 * moves_cpu / len(positions), 1),
                          "playout_ms": round(1e3 * playouts_cpu / args.games, 1),
                          "digest": digest.hexdigest()[:16]}), flush=True)


if __name__ == "__main__":
    main()
