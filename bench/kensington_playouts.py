"""Random playouts per second of Kensington, rules only, and the cost of
legal-move generation in the largest positions seen.

Each playout runs setup, then legal_moves and apply with a uniformly random
legal move until the game ends, then outcome: the cost a bot or the
conformance kit pays per game, without the engine around it. Every
legal_moves call is timed; the table reports the slowest call and the
position with the most legal moves.

    python -m bench.kensington_playouts [seconds per configuration]
"""

from __future__ import annotations

import platform
import random
import sys
import time
from collections import Counter

from gamehost_kensington.game import Kensington

GAME = Kensington()
VARIANTS = {variant.id: dict(variant.options) for variant in GAME.variants}


class Largest:
    """The slowest legal_moves call and the most moves listed at once."""

    def __init__(self) -> None:
        self.slowest = 0.0
        self.most_moves = 0
        self.most_moves_time = 0.0
        self.widest = 0

    def timed_moves(self, state, seat):
        start = time.perf_counter()
        moves = GAME.legal_moves(state, seat)
        spent = time.perf_counter() - start
        self.slowest = max(self.slowest, spent)
        if len(moves) > self.most_moves:
            self.most_moves, self.most_moves_time = len(moves), spent
        self.widest = max(self.widest, *(len(b["columns"]) for b in state["buildings"]))
        return moves


def playout(options: dict, seats: int, rng: random.Random, largest: Largest) -> tuple[int, str]:
    """One random game: (moves played, how it ended)."""
    state = GAME.setup(seats, options, rng)
    moves = 0
    while to_move := GAME.to_move(state):
        seat = to_move[0]
        move = rng.choice(largest.timed_moves(state, seat))
        state = GAME.apply(state, seat, move.args, rng)
        moves += 1
    GAME.outcome(state)
    return moves, state["end"]


def measure(variant: str, seats: int, seconds: float) -> None:
    options = GAME.default_options() | VARIANTS[variant]
    rng = random.Random(f"bench/{variant}/{seats}")
    largest = Largest()
    games = moves = 0
    endings: Counter[str] = Counter()
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        played, end = playout(options, seats, rng, largest)
        games, moves = games + 1, moves + played
        endings[end] += 1
    shares = ", ".join(f"{end} {count / games:.0%}" for end, count in sorted(endings.items()))
    print(f"| {variant} | {seats} | {games / elapsed:.1f} | {moves / elapsed:.0f} | {moves / games:.0f} | {shares} "
          f"| {largest.most_moves} in {largest.most_moves_time * 1e3:.2f} ms | {largest.slowest * 1e3:.2f} ms "
          f"| {largest.widest} |")


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    print(f"python {platform.python_version()} on {platform.machine()}, {seconds:g} s per configuration")
    print("| variant | players | playouts/s | moves/s | moves/game | endings | most legal moves (time) "
          "| slowest legal_moves | widest building (columns) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for variant in VARIANTS:
        for seats in range(GAME.min_players, GAME.max_players + 1):
            measure(variant, seats, seconds)


if __name__ == "__main__":
    main()
