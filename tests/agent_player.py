"""A remote agent process for the agent tests, on the Python library
(gamehost.agent): the random example, or one that misbehaves on purpose.

    python tests/agent_player.py TARGET KEY NAME BEHAVIOUR GAME...

BEHAVIOUR: "random"; "late" (every second answer comes after the turn's
deadline); "illegal" (every second answer names no legal move); "leaving"
(after three answers it closes its stream, stays away for --away seconds,
then comes back under the same name, on --back-at if given). Each verdict is printed as one JSON
line on stdout, for the test to count.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Sequence

import grpc

from gamehost.agent import Agent, Turn, serve
from gamehost.agent.random_agent import RandomAgent
from gamehost.v1 import gamehost_pb2 as pb


class Reporting(RandomAgent):
    def __init__(self, name: str, games: Sequence[str], behaviour: str, away: float) -> None:
        super().__init__(name, games, seed=7)
        self.behaviour = behaviour
        self.away = away
        self.answered = 0

    def answer(self, turn: Turn):
        self.answered += 1
        odd = self.answered % 2 == 0
        if self.behaviour == "late" and odd:
            time.sleep(max(0.0, turn.seconds_left) + 0.3)
        if self.behaviour == "illegal" and odd:
            return "no-such-move"
        return super().answer(turn)

    def registered(self, registration: pb.AgentRegistered) -> None:
        print(json.dumps({"registered": registration.bot}), flush=True)

    def verdict(self, verdict: pb.AgentVerdict) -> None:
        print(json.dumps({"turn": verdict.turn_id, "outcome": pb.AgentVerdict.Outcome.Name(verdict.outcome),
                          "strikes": verdict.strikes, "reason": _reason(verdict.error)}), flush=True)


def _reason(error: pb.SessionError) -> str:
    from google.rpc import error_details_pb2
    for detail in error.details:
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return info.reason
    return ""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("target")
    parser.add_argument("key")
    parser.add_argument("name")
    parser.add_argument("behaviour", choices=["random", "late", "illegal", "leaving"])
    parser.add_argument("games", nargs="+")
    parser.add_argument("--away", type=float, default=0.5)
    parser.add_argument("--back-at", default="", help="the host it comes back to (default: the same)")
    args = parser.parse_args()
    agent = Reporting(args.name, args.games, args.behaviour, args.away)
    if args.behaviour != "leaving":
        serve(agent, args.target, bearer_token=args.key)
        return
    targets = [args.target, args.back_at or args.target]
    while True:  # three answers a stream, then away; back on the other host, if given
        leaver = _Leaving(agent)
        with grpc.insecure_channel(targets[0]) as channel:
            serve(leaver, channel=channel, bearer_token=args.key)
        targets.reverse()
        print(json.dumps({"left": agent.answered}), flush=True)
        time.sleep(args.away)


class _Leaving(Agent):
    """``agent`` until its third answer's verdict, then the stream ends."""

    def __init__(self, agent: Reporting) -> None:
        super().__init__(agent.name, agent.games)
        self.agent = agent
        self.answers = 0

    def answer(self, turn: Turn):
        self.answers += 1
        return self.agent.answer(turn)

    def registered(self, registration: pb.AgentRegistered) -> None:
        self.agent.registered(registration)

    def verdict(self, verdict: pb.AgentVerdict) -> None:
        self.agent.verdict(verdict)
        if self.answers >= 3:
            self.stop()


if __name__ == "__main__":
    sys.exit(main())
