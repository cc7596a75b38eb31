"""Random playouts per second for Scalino and Démonte la pyramide.

Plays complete games with uniformly random legal moves straight through the
rules (no engine, no store): setup, legal_moves, apply and outcome each move.

    python -m bench.scalino_playouts [seconds per configuration]
"""

from __future__ import annotations

import platform
import random
import sys
import time

from gamehost_scalino.game import Scalino, ScalinoPyramid
from gamehost_scalino.rules import current_level
from gamehost_scalino.pyramid import pyramid

CONFIGURATIONS = [
    (Scalino(), 2, {}),
    (Scalino(), 4, {}),
    (Scalino(), 4, {"geometry": "diamonds"}),
    (ScalinoPyramid(), 2, {}),
    (ScalinoPyramid(), 4, {}),
    (ScalinoPyramid(), 6, {}),
    (ScalinoPyramid(), 4, {"geometry": "diamonds"}),
]


def playout(game, seats, options, rng) -> tuple[int, dict]:
    state = game.setup(seats, {**game.default_options(), **options}, rng)
    moves = 0
    while game.to_move(state):
        seat = game.to_move(state)[0]
        state = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)).args, rng)
        moves += 1
    game.outcome(state)
    return moves, state


def main(seconds: float) -> None:
    print(f"python {platform.python_version()} on {platform.machine()}, {seconds:g} s per configuration")
    for game, seats, options in CONFIGURATIONS:
        rng = random.Random(0)
        games = moves = complete = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            made, state = playout(game, seats, options, rng)
            games += 1
            moves += made
            if game.id == "scalino":
                complete += current_level(state, pyramid(state["options"]["geometry"])) is None
        elapsed = time.perf_counter() - start
        extra = f", pyramid completed in {complete}/{games}" if game.id == "scalino" else ""
        print(f"{game.id:16} {seats} players {str(options or ''):26} {games / elapsed:7.1f} playouts/s "
              f"({moves / games:.1f} moves per game{extra})")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 10.0)
