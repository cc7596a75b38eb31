"""The input limits' cost per call: ``limits.check_request`` on typical
requests, in-process (the gate runs it before every call), and the engine's
resolution of a structured move to the listed move it equals.

    python -m bench.limits_cost
"""

from __future__ import annotations

import asyncio
import logging
import platform
import timeit

import structlog

from gamehost.client import to_struct
from gamehost.host.engine.match_engine import MatchEngine
from gamehost.host.rpc.limits import check_request
from gamehost.host.plugins import load_catalog
from gamehost.host.store.memory import MemoryStore
from gamehost.v1 import gamehost_pb2 as pb

NAME, TOKEN = "matches/0123456789abcdef", "x" * 32
REQUESTS = {
    "GetView": pb.GetViewRequest(name=NAME, player_token=TOKEN),
    "SubmitMove by id": pb.SubmitMoveRequest(name=NAME, player_token=TOKEN, move_id="b2", expected_version=3),
    "SubmitMove {cell}": pb.SubmitMoveRequest(name=NAME, player_token=TOKEN, structured=to_struct({"cell": 4})),
    "SubmitMove Campanile bet": pb.SubmitMoveRequest(
        name=NAME, player_token=TOKEN, structured=to_struct({"action": "bet", "tower": "S1", "chip": 3})),
    "CreateMatch, 4 options": pb.CreateMatchRequest(game="games/campanile", options=to_struct(
        {"bet_rule": "at_least", "bet_on_built_tower": False, "start_player": "random", "tower_order": "random"})),
}


def best_of(function, number: int = 20000, repeat: int = 5) -> float:
    """Microseconds per call, the best of ``repeat`` runs (the least disturbed)."""
    return min(timeit.repeat(function, number=number, repeat=repeat)) / number * 1e6


async def listed_move_cost() -> dict[str, float]:
    """engine._listed_move for a tictactoe opening (9 legal moves), the move
    first and last in the list."""
    engine = MatchEngine(load_catalog(), MemoryStore())
    live = await engine.create_match("tictactoe")
    for seat in range(2):
        await engine.join(live.id, seat, f"p{seat}")

    def resolve(move):
        coroutine = engine._listed_move(live, 0, move)
        try:
            coroutine.send(None)  # finds a listed move without awaiting anything
        except StopIteration:
            pass

    return {"first of 9 listed": best_of(lambda: resolve({"cell": 0})),
            "last of 9 listed": best_of(lambda: resolve({"cell": 8}))}


def main() -> None:
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    print(f"Python {platform.python_version()}")
    for name, request in REQUESTS.items():
        print(f"check_request, {name}: {best_of(lambda: check_request(request)):.2f} µs")
    for name, cost in asyncio.run(listed_move_cost()).items():
        print(f"structured move resolved to the listed move, {name}: {cost:.2f} µs")


if __name__ == "__main__":
    main()
