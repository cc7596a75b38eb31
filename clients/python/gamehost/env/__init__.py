"""Any game as an environment: OpenSpiel-style games and PettingZoo AEC
environments over the installed plugins' rules (``LocalRules``, needs the
host's ``gamehost`` distribution) or a live host's matches (``RemoteRules``).

    from gamehost.env import local_game, local_env
    state = local_game("tictactoe").new_initial_state()
    env = local_env("campanile", seats=3)   # needs gamehost-client[env]

The PettingZoo side (``gamehost.env.aec``) imports numpy, gymnasium and
pettingzoo, the ``env`` extra: import it from there.
"""

from gamehost.env.local import LocalRules, installed_games
from gamehost.env.openspiel import TERMINAL_PLAYER, Game, GameState, local_game
from gamehost.env.remote import MatchEndedEarly, RemoteRules
from gamehost.env.rewards import rank_rewards
from gamehost.env.rules import LegalMove, MatchRules, view_text

__all__ = ["Game", "GameState", "LegalMove", "LocalRules", "MatchEndedEarly", "MatchRules", "RemoteRules",
           "TERMINAL_PLAYER", "installed_games", "local_game", "rank_rewards", "view_text"]
