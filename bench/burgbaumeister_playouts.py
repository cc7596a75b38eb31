"""Random playouts per second of Der Wettkampf der Burgbaumeister, rules only.

Each playout runs setup, then legal_moves and apply with a uniformly random
legal move until the game ends, then outcome: the cost a bot or the
conformance kit pays per game, without the engine around it.

    python -m bench.burgbaumeister_playouts [seconds per configuration]
"""

from __future__ import annotations

import platform
import random
import sys
import time
from collections import Counter

from gamehost_burgbaumeister.game import Burgbaumeister

GAME = Burgbaumeister()
VARIANTS = {variant.id: dict(variant.options) for variant in GAME.variants}


def playout(options: dict, seats: int, rng: random.Random) -> tuple[int, str]:
    """One random game: (moves played, how it ended)."""
    state = GAME.setup(seats, options, rng)
    moves = 0
    while to_move := GAME.to_move(state):
        seat = to_move[0]
        move = rng.choice(GAME.legal_moves(state, seat))
        state = GAME.apply(state, seat, move.args, rng)
        moves += 1
    GAME.outcome(state)
    return moves, state["end"]


def measure(variant: str, seats: int, seconds: float) -> None:
    options = GAME.default_options() | VARIANTS[variant]
    rng = random.Random(f"bench/{variant}/{seats}")
    games = moves = 0
    endings: Counter[str] = Counter()
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        played, end = playout(options, seats, rng)
        games, moves = games + 1, moves + played
        endings[end] += 1
    shares = ", ".join(f"{end} {count / games:.0%}" for end, count in sorted(endings.items()))
    print(f"| {variant} | {seats} | {games / elapsed:.0f} | {moves / elapsed:.0f} | {moves / games:.0f} | {shares} |")


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    print(f"python {platform.python_version()} on {platform.machine()}, {seconds:g} s per configuration")
    print("| variant | players | playouts/s | moves/s | moves/game | endings |")
    print("|---|---|---|---|---|---|")
    for variant in VARIANTS:
        for seats in range(GAME.min_players, GAME.max_players + 1):
            measure(variant, seats, seconds)


if __name__ == "__main__":
    main()
