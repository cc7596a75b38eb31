"""A remote agent that plays a uniformly random legal move: the example to
start from.

    python -m gamehost.agent.random_agent --name dice --game tictactoe --game campanile \
        --host 127.0.0.1:50051 --bearer-token "$AGENT_KEY"
"""

from __future__ import annotations

import argparse
import logging
import os
import random
from typing import Sequence

from gamehost.agent.agent import Agent, serve
from gamehost.v1 import gamehost_pb2 as pb


class RandomAgent(Agent):
    def __init__(self, name: str, games: Sequence[str], seed: int | None = None) -> None:
        super().__init__(name, games)
        self.random = random.Random(seed)

    def choose(self, view: pb.View, legal_moves: Sequence[pb.LegalMove]) -> pb.LegalMove:
        return self.random.choice(list(legal_moves))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="A remote agent playing random legal moves at a gamehost.")
    parser.add_argument("--name", required=True, help="the agent's name: seats call it agent:NAME")
    parser.add_argument("--game", action="append", required=True, help="a game it plays (repeat for more)")
    parser.add_argument("--host", default=os.environ.get("GAMEHOST_TARGET", "127.0.0.1:50051"))
    parser.add_argument("--bearer-token", default=os.environ.get("GAMEHOST_TOKEN", ""),
                        help="an API key with the agent role (env GAMEHOST_TOKEN)")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    serve(RandomAgent(args.name, args.game, args.seed), args.host, bearer_token=args.bearer_token)


if __name__ == "__main__":
    main()
