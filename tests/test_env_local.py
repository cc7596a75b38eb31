"""gamehost.env over the installed plugins' rules: every shipped game passes
PettingZoo's API test as an AEC environment and plays random rollouts as an
OpenSpiel-style game."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest
from pettingzoo.test import api_test

from gamehost.env import TERMINAL_PLAYER, LocalRules, installed_games, local_game, rank_rewards, view_text
from gamehost.env.aec import GameEnv, TooManyMoves, local_env

# Every shipped game at its fewest seats, and Campanile at its most (rewards
# are normalized ranks there): the short cases of each game.
SHIPPED = ["burgbaumeister", "callisto", "campanile", "kensington", "scalino", "scalino-pyramid", "tictactoe"]
CASES = [(game_id, installed_games()[game_id].allowed_player_counts()[0]) for game_id in SHIPPED] + [("campanile", 5)]


def test_every_shipped_game_is_installed():
    assert set(SHIPPED) <= set(installed_games())


@pytest.mark.parametrize(("game_id", "seats"), CASES)
def test_pettingzoo_api_test_passes(game_id, seats):
    api_test(local_env(game_id, seats), num_cycles=40)


@pytest.mark.parametrize(("game_id", "seats"), CASES)
def test_random_rollouts_as_an_openspiel_game(game_id, seats):
    game = local_game(game_id, seats, seed=11)
    chooser = random.Random(f"{game_id}/{seats}")
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            assert 0 <= player < seats
            assert state.returns() == [0.0] * seats
            actions = state.legal_actions()
            assert actions == list(range(len(actions))) and actions
            assert len(state.observation_tensor(player)) == game.observation_bytes
            state.apply_action(chooser.choice(actions))
        assert state.current_player() == TERMINAL_PLAYER
        assert state.legal_actions() == []
        returns = state.returns()
        assert len(returns) == seats and all(-1.0 <= value <= 1.0 for value in returns)
        assert sum(returns) == pytest.approx(0.0)  # ranks are zero-sum: every place gained is one lost


def test_a_clone_plays_on_alone_and_replays_the_same_chance():
    game = local_game("campanile", 3, seed=5)
    state = game.new_initial_state()
    for _ in range(4):
        state.apply_action(0)
    twin = state.clone()
    before = state.observation_string(state.current_player())
    twin.apply_action(twin.legal_actions()[-1])
    assert state.observation_string(state.current_player()) == before
    again = game.new_initial_state(seed=5)
    for action in state.history:
        again.apply_action(action)
    assert again.observation_string(0) == state.observation_string(0)


def test_the_same_seed_and_actions_give_the_same_match():
    first, second = local_env("kensington", 3), local_env("kensington", 3)
    first.reset(seed=42)
    second.reset(seed=42)
    chooser = random.Random(3)
    for _ in range(30):
        observation = first.observe(first.agent_selection)
        assert np.array_equal(observation["observation"], second.observe(second.agent_selection)["observation"])
        action = chooser.choice(np.flatnonzero(observation["action_mask"]).tolist())
        first.step(action)
        second.step(action)


def test_an_illegal_action_is_refused_and_changes_nothing():
    env = local_env("tictactoe")
    env.reset(seed=1)
    env.step(4)
    agent = env.agent_selection
    before = env.observe(agent)["observation"].copy()
    with pytest.raises(ValueError, match=r"action 8 is not legal for seat_1: it has 8 moves \(the action mask's"):
        env.step(8)
    assert env.agent_selection == agent and np.array_equal(env.observe(agent)["observation"], before)


def test_a_position_with_more_moves_than_the_action_space_says_which_setting_to_raise():
    env = GameEnv(LocalRules("tictactoe"), max_actions=4)
    with pytest.raises(TooManyMoves, match="9 legal moves, more than the 4 actions .* pass a larger max_actions"):
        env.reset(seed=1)


def test_an_unknown_game_names_the_installed_ones():
    with pytest.raises(ValueError, match="no installed game 'chess'; installed: .*tictactoe"):
        LocalRules("chess")


def test_rewards_from_places():
    assert rank_rewards([1, 2]) == [1.0, -1.0]
    assert rank_rewards([1, 1]) == [0.0, 0.0]
    assert rank_rewards([2, 1, 3]) == [0.0, 1.0, -1.0]
    assert rank_rewards([1, 1, 3, 4]) == pytest.approx([2 / 3, 2 / 3, -1 / 3, -1.0])


def test_views_read_the_same_whatever_carried_their_numbers():
    assert view_text({"b": [1.0, 2.5], "a": {"n": 3}}) == view_text({"a": {"n": 3.0}, "b": [1, 2.5]})


def test_a_step_without_an_action_for_the_agent_to_move_says_what_it_needs():
    env = local_env("tictactoe")
    env.reset(seed=1)
    with pytest.raises(ValueError, match=r"seat_0 is to move: step\(\) needs an action, an index into its 9 moves"):
        env.step(None)


WITHOUT_THE_HOST = """
import sys
class Absent:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("pluggy", "numpy", "pettingzoo", "gymnasium") or name.startswith(("gamehost.sdk",
                                                                                                    "gamehost.host")):
            raise ImportError(f"{name} is not installed")
sys.meta_path.insert(0, Absent())
from gamehost.env import Game, RemoteRules, rank_rewards
print(rank_rewards([2, 1]))
"""


def test_the_client_imports_the_env_without_the_hosts_packages_or_numpy():
    run = subprocess.run([sys.executable, "-c", WITHOUT_THE_HOST], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stdout == "[-1.0, 1.0]\n", run.stderr
