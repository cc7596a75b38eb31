"""Train a tiny table agent on a game, evaluate it against random play, then
play it at a live host: against the host's random bot, and as a remote agent
the host seats at its tables.

    python examples/table_agent.py tictactoe --train 3000 --games 200
    python examples/table_agent.py tictactoe --host 127.0.0.1:50051 --games 20
    python examples/table_agent.py tictactoe --host 127.0.0.1:50051 --agent-key KEY

With --agent-key (an API key with the "agent" role) the agent registers as
"agent:table-agent" over ServeAgent; the host offers it seat 0 of each match
the example opens, and the example plays the other seats at random, as any
player who picked the agent in the lobby would.

The agent learns, for each observation it met (the seat's view) and each
action, the mean reward that followed (Monte Carlo control, exploring a
tenth of its moves); it plays seat 0, random play the other seats. Needs
gamehost-client[env] and, for training, the host's plugins installed.
"""

from __future__ import annotations

import argparse
import random
import threading
from collections import defaultdict
from typing import Sequence

import numpy as np

from gamehost.agent import Agent, serve
from gamehost.client import GameHostClient, from_struct
from gamehost.env import rank_rewards
from gamehost.env.aec import GameEnv, local_env, remote_env
from gamehost.env.encoding import encode_view
from gamehost.v1 import gamehost_pb2 as pb

AGENT_NAME = "table-agent"


class TableAgent:
    """Mean reward per (observation, action); unknown actions count 0."""

    def __init__(self, explore: float = 0.1, rng: random.Random | None = None) -> None:
        self.total: dict[tuple[bytes, int], float] = defaultdict(float)
        self.count: dict[tuple[bytes, int], int] = defaultdict(int)
        self.explore = explore
        self.rng = rng or random.Random(0)

    def act(self, observation: dict, learning: bool = False) -> int:
        legal = np.flatnonzero(observation["action_mask"]).tolist()
        if learning and self.rng.random() < self.explore:
            return self.rng.choice(legal)
        key = observation["observation"].tobytes()
        return max(legal, key=lambda action: (self.value(key, action), -action))

    def value(self, key: bytes, action: int) -> float:
        count = self.count[key, action]
        return self.total[key, action] / count if count else 0.0

    def learn(self, steps: list[tuple[bytes, int]], reward: float) -> None:
        for key, action in steps:
            self.total[key, action] += reward
            self.count[key, action] += 1


class RandomAgent(TableAgent):
    """Any legal action, at random: the baseline."""

    def act(self, observation: dict, learning: bool = False) -> int:
        return self.rng.choice(np.flatnonzero(observation["action_mask"]).tolist())


class ServedTableAgent(Agent):
    """The trained table as a remote agent: the host's view and legal moves
    become the observation and mask the table learned from (moves in id
    order, as the environment numbers its actions)."""

    def __init__(self, game: str, table: TableAgent, observation_bytes: int) -> None:
        super().__init__(AGENT_NAME, [game])
        self.table = table
        self.observation_bytes = observation_bytes
        self.ready = threading.Event()

    def registered(self, registration: pb.AgentRegistered) -> None:
        self.ready.set()

    def choose(self, view: pb.View, legal_moves: Sequence[pb.LegalMove]) -> pb.LegalMove:
        moves = sorted(legal_moves, key=lambda move: move.id)
        observation = {"observation": encode_view(from_struct(view.state), self.observation_bytes),
                       "action_mask": np.ones(len(moves), dtype=np.int8)}
        return moves[self.table.act(observation)]


def play_as_remote_agent(table: TableAgent, args: argparse.Namespace, observation_bytes: int,
                         rng: random.Random) -> list[float]:
    """Serves the table at the host while the example opens ``args.games``
    matches with the agent at seat 0 and random play at the others: the
    agent's rewards, from the host's results."""
    served = ServedTableAgent(args.game, table, observation_bytes)
    serving = threading.Thread(target=serve, args=(served, args.host), kwargs={"bearer_token": args.agent_key},
                               daemon=True)
    serving.start()
    if not served.ready.wait(30):
        raise SystemExit(f"the host at {args.host} did not register the agent: is the key's role \"agent\"?")
    rewards = []
    try:
        with GameHostClient(args.host) as client:
            table_env = remote_env(client, args.game, args.seats, bot_seats=[0], bot=f"agent:{AGENT_NAME}")
            for seed in range(args.games):
                play_others_at_random(table_env, 3 * 10**6 + seed, rng)
                ranking = client.match(table_env.rules.match).result.ranking
                rewards.append(rank_rewards(ranking)[0])
            table_env.close()
    finally:
        served.stop()
    return rewards


def play_others_at_random(env: GameEnv, seed: int, rng: random.Random) -> None:
    env.reset(seed=seed)
    for _ in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else
                 rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))


def play(env: GameEnv, agent: TableAgent, seed: int, rng: random.Random, learning: bool = False) -> float:
    """One match with the agent at seat 0 (the others random): its reward."""
    env.reset(seed=seed)
    steps: list[tuple[bytes, int]] = []
    for name in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        if name == "seat_0":
            action = agent.act(observation, learning)
            steps.append((observation["observation"].tobytes(), action))
        else:
            action = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
        env.step(action)
    reward = env.match_rewards["seat_0"]
    if learning:
        agent.learn(steps, reward)
    return reward


def summary(rewards: list[float]) -> str:
    wins, losses = sum(r > 0 for r in rewards), sum(r < 0 for r in rewards)
    return f"{wins} won, {len(rewards) - wins - losses} drawn, {losses} lost, mean reward {np.mean(rewards):+.2f}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="tictactoe")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--train", type=int, default=3000, help="training matches (local)")
    parser.add_argument("--games", type=int, default=200, help="evaluation matches, locally and at the host")
    parser.add_argument("--host", default="", help="HOST:PORT of a live host to play at after training")
    parser.add_argument("--agent-key", default="", help="an API key with the agent role: also serve the agent there")
    args = parser.parse_args(argv)

    agent, rng = TableAgent(rng=random.Random(1)), random.Random(2)
    env = local_env(args.game, args.seats)
    for seed in range(args.train):
        play(env, agent, seed, rng, learning=True)
    print(f"trained on {args.train} matches: {len(agent.count)} (observation, action) pairs")
    baseline = RandomAgent(rng=random.Random(3))
    print("random agent, locally:", summary([play(env, baseline, 10**6 + s, rng) for s in range(args.games)]))
    print("table agent, locally: ", summary([play(env, agent, 10**6 + s, rng) for s in range(args.games)]))
    if args.host:
        with GameHostClient(args.host) as client:
            at_host = remote_env(client, args.game, args.seats, bot_seats=range(1, args.seats), bot="random")
            print("table agent at the host, against its random bot:",
                  summary([play(at_host, agent, 2 * 10**6 + s, rng) for s in range(args.games)]))
        if args.agent_key:
            print(f"table agent served as agent:{AGENT_NAME}, against random players:",
                  summary(play_as_remote_agent(agent, args, env.observation_bytes, rng)))


if __name__ == "__main__":
    main()
