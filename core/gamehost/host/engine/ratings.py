"""Ratings: counting a rated match's result once when it finishes, the
leaderboard of a game and a player's ratings.

An object the engine holds (``engine.ratings``). The replica that commits the finishing step
counts the result; the store's rated_matches key refuses a second count
(another replica, a retry), so every result counts exactly once.
"""

from __future__ import annotations

from typing import Callable

from gamehost.host.engine import rating_rules as ratings
from gamehost.host.engine.live import LiveMatch
from gamehost.host.plugins import GameEntry
from gamehost.host.store.base import MatchRecord, PlayerRating, Store


class MatchRatings:
    def __init__(self, store: Store, game_entry: Callable[[str], GameEntry]) -> None:
        self.store = store
        self.game_entry = game_entry  # the game served under an id, or NotFound

    async def count_result(self, live: LiveMatch, record: MatchRecord) -> None:
        """Called once the step that finished ``record`` is committed. A
        failure here is logged: the match is over either way."""
        subjects = ratings.rated_subjects(record)
        if subjects is None:
            return
        try:
            counted = await self.store.rate_match(record.id, subjects, record.game_id,
                                                  lambda current: ratings.rate(record, current))
        except Exception as error:  # the finished match stands; only its rating is missing
            live.log.error("result not rated", error=f"{type(error).__name__}: {error}")
            return
        if counted:
            live.log.info("result rated", players=subjects)

    async def leaderboard(self, game_id: str, limit: int, after: tuple[float, str] | None) -> list[PlayerRating]:
        self.game_entry(game_id)
        return await self.store.leaderboard(game_id, limit, after)

    async def player_ratings(self, subject: str) -> list[PlayerRating]:
        return await self.store.player_ratings(subject)
