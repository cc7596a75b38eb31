"""Callisto: random playouts per second and legal-move generation time.

Plays uniformly random games through the rules alone (no engine, no store) for
each player count and reports games per second, moves per game, and the mean
time of one ``legal_moves`` call, both over whole games and from the position
right after the column rounds (where the most piece placements are open).
Times are process CPU time, so that a busy shared machine skews them less.

    python -m bench.callisto_playouts [--seconds 5]
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from gamehost_callisto import rules
from gamehost_callisto.game import Callisto


def playouts(game: Callisto, players: int, seconds: float, options: dict) -> dict:
    rng = random.Random(players)
    games = moves = calls = 0
    generation = 0.0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.setup(players, options, rng)
        while state["to_move"] is not None:
            seat = state["to_move"]
            began = time.process_time()
            legal = game.legal_moves(state, seat)
            generation += time.process_time() - began
            calls += 1
            state = game.apply(state, seat, rng.choice(legal).args, rng)
            moves += 1
        games += 1
    elapsed = time.process_time() - start
    return {"games_per_s": games / elapsed, "moves_per_game": moves / games,
            "legal_moves_us": 1e6 * generation / calls}


def after_columns(game: Callisto, players: int, options: dict, repeats: int = 300) -> tuple[int, float]:
    """Moves listed right after the column rounds, and microseconds per call."""
    rng = random.Random(0)
    state = game.setup(players, options, rng)
    while rules.in_opening(state):
        state = game.apply(state, state["to_move"], rng.choice(game.legal_moves(state, state["to_move"])).args, rng)
    seat = state["to_move"]
    began = time.process_time()
    for _ in range(repeats):
        count = len(game.legal_moves(state, seat))
    return count, 1e6 * (time.process_time() - began) / repeats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per player count")
    arguments = parser.parse_args()
    game = Callisto()
    print(f"python {platform.python_version()} on {platform.machine()}")
    for one_sided in (False, True):
        options = {**game.default_options(), "start_seat": "random", "one_sided": one_sided}
        for players in (2, 3, 4):
            rules.tables(players, one_sided)  # build the placement tables outside the timing
            result = playouts(game, players, arguments.seconds, options)
            listed, micros = after_columns(game, players, options)
            print(f"{players} players{' one-sided' if one_sided else ''}: "
                  f"{result['games_per_s']:.1f} games/s, {result['moves_per_game']:.1f} moves/game, "
                  f"legal_moves {result['legal_moves_us']:.0f} us/call on average; "
                  f"after the columns {listed} moves in {micros:.0f} us")


if __name__ == "__main__":
    main()
