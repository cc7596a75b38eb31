"""gamehost.env against a live host: every shipped game played through the
remote back end ends with the host's own result, and the same seed and
actions played locally give the same views and rewards."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.test import api_test

from gamehost.env import Game, LocalRules, RemoteRules, installed_games, rank_rewards
from gamehost.env.aec import GameEnv, remote_env
from gamehost.v1 import gamehost_pb2 as pb

SHIPPED = ["burgbaumeister", "callisto", "campanile", "kensington", "scalino", "scalino-pyramid", "tictactoe"]


def random_match(env: GameEnv, seed: int, chooser: random.Random) -> tuple[list[int], list[str], dict[str, float]]:
    """Plays ``env`` to the end with random legal actions: the actions, the
    observations as the acting agents saw them, the rewards."""
    env.reset(seed=seed)
    actions, seen = [], []
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        seen.append(bytes(observation["observation"]).rstrip(b"\0").decode())
        action = chooser.choice(np.flatnonzero(observation["action_mask"]).tolist())
        actions.append(action)
        env.step(action)
    return actions, seen, env.match_rewards


def final_rewards(env: GameEnv, seed: int, actions: list[int]) -> tuple[list[str], dict[str, float]]:
    env.reset(seed=seed)
    seen = []
    for action in actions:
        observation = env.observe(env.agent_selection)
        seen.append(bytes(observation["observation"]).rstrip(b"\0").decode())
        env.step(action)
    return seen, env.match_rewards


# Every shipped game at its fewest seats, and Campanile at three (normalized ranks).
CASES = [(game_id, installed_games()[game_id].allowed_player_counts()[0]) for game_id in SHIPPED] + [("campanile", 3)]


@pytest.mark.parametrize(("game_id", "seats"), CASES)
def test_the_same_seed_and_moves_end_alike_here_and_at_the_host(host, game_id, seats):
    seed = 7000 + len(game_id)
    with host.client() as client:
        remote = GameEnv(RemoteRules(client, game_id, seats))
        actions, seen_at_host, host_rewards = random_match(remote, seed, random.Random(game_id))
        result = client.match(remote.rules.match).result
    assert host_rewards == dict(zip(remote.possible_agents, rank_rewards(result.ranking)))

    local = GameEnv(LocalRules(game_id, seats))
    seen_here, local_rewards = final_rewards(local, seed, actions)
    assert local.rules.ranking() == list(result.ranking)
    assert local_rewards == host_rewards
    assert seen_here == seen_at_host


def test_an_agent_plays_against_the_hosts_bot(host):
    with host.client() as client:
        env = remote_env(client, "campanile", 3, bot_seats=[1, 2], bot="random")
        assert env.possible_agents == ["seat_0"]
        _, _, rewards = random_match(env, 99, random.Random(1))
        result = client.match(env.rules.match).result
    assert list(result.ranking) and rewards == {"seat_0": rank_rewards(result.ranking)[0]}


def test_pettingzoo_api_test_passes_at_the_host(host):
    with host.client() as client:
        env = remote_env(client, "tictactoe")
        api_test(env, num_cycles=20)
        env.close()


def test_a_reset_mid_match_leaves_the_match_it_gives_up(host):
    with host.client() as client:
        env = remote_env(client, "tictactoe", bot_seats=[1])
        env.reset(seed=3)
        env.step(0)
        given_up = env.rules.match
        env.reset(seed=4)
        assert client.match(given_up).status == pb.MATCH_STATUS_ABANDONED
        assert client.match(env.rules.match).status == pb.MATCH_STATUS_ACTIVE
        env.close()
        assert client.match(env.rules.match).status == pb.MATCH_STATUS_ABANDONED


def test_an_openspiel_state_at_the_host_plays_to_the_end_but_cannot_be_copied(host):
    with host.client() as client:
        game = Game(lambda: RemoteRules(client, "campanile", 2), seed=21)
        state = game.new_initial_state()
        with pytest.raises(NotImplementedError, match="a match at a host cannot be copied"):
            state.clone()
        chooser = random.Random(5)
        while not state.is_terminal():
            state.apply_action(chooser.choice(state.legal_actions()))
        result = client.match(state.rules.match).result
    assert state.returns() == rank_rewards(result.ranking)
