"""Random playouts per second for Campanile, straight through the rules module.

Each playout sets up a game and plays uniformly random legal moves (build,
optional bet, draw) until a pile runs out. Run from the repository root:

    python -m bench.campanile_playouts [seconds per player count]
"""

from __future__ import annotations

import platform
import random
import sys
import time

from gamehost_campanile.game import Campanile


def playout(game: Campanile, players: int, rng: random.Random) -> int:
    """Play one random game; return the number of moves."""
    state = game.setup(players, game.default_options(), rng)
    moves = 0
    while to_move := game.to_move(state):
        seat = to_move[0]
        legal = game.legal_moves(state, seat)
        state = game.apply(state, seat, legal[rng.randrange(len(legal))].args, rng)
        moves += 1
    game.outcome(state)
    return moves


def main(seconds: float) -> None:
    game = Campanile()
    print(f"Campanile random playouts, {seconds:g} s per player count; "
          f"python {platform.python_version()}, {platform.machine()}")
    print("players  playouts/s  moves/s  moves/game")
    for players in range(game.min_players, game.max_players + 1):
        rng = random.Random(players)
        games = moves = 0
        start = time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds:
            moves += playout(game, players, rng)
            games += 1
        print(f"{players:>7}  {games / elapsed:>10.0f}  {moves / elapsed:>7.0f}  {moves / games:>10.1f}")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 5.0)
