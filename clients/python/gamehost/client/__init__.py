"""A small typed Python client for a gamehost server.

    from gamehost.client import GameHostClient
    with GameHostClient("127.0.0.1:50051") as host:
        match = host.create_match("tictactoe", bots=[1])
        seat = host.join(match.name, player_name="ann")
        view = host.view(match.name, seat.player_token)
"""

from gamehost.client.canonical import canonical_json
from gamehost.client.composing import candidates, choices, composed, path_problems
from gamehost.client.client import GameHostClient, GameHostError, match_name, game_name
from gamehost.client.follower import FollowGaveUp, MatchFollower, Resume, RetryPolicy
from gamehost.client.structs import from_struct, to_struct
from gamehost.client.transient import is_transient

__all__ = ["FollowGaveUp", "GameHostClient", "GameHostError", "MatchFollower", "Resume", "RetryPolicy", "candidates",
           "canonical_json", "choices", "composed", "from_struct", "game_name", "is_transient", "match_name",
           "path_problems", "to_struct"]
