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
from gamehost.client.structs import from_struct, to_struct

__all__ = ["GameHostClient", "GameHostError", "candidates", "canonical_json", "choices", "composed", "from_struct",
           "game_name", "match_name", "path_problems", "to_struct"]
