"""Ratings: counting a rated match's result once when it finishes, the
leaderboard of a game, a player's ratings and the built-in bot levels'
ratings (``BotRatings``: the catalog and matchmaking's bot fill read them).

An object the engine holds (``engine.ratings``). The replica that commits the finishing step
counts the result; the store's rated_matches key refuses a second count
(another replica, a retry), so every result counts exactly once.
"""

from __future__ import annotations

import time
from typing import Callable

import structlog

from gamehost.host.engine import rating_rules as ratings
from gamehost.host.engine.live import LiveMatch
from gamehost.host.plugins import GameEntry
from gamehost.host.store.base import MatchRecord, PlayerRating, Store


log = structlog.get_logger("gamehost.ratings")

BOT_RATINGS_FRESH_FOR = 15.0  # seconds the catalog shows bot ratings read before (another replica may rate)


class BotRatings:
    """The built-in levels' ratings, by game then bot name. The catalog's
    are read again at most every ``fresh_for`` seconds, and at once after
    this replica rated a level; ``read_game`` always reads the store."""

    def __init__(self, store: Store, fresh_for: float = BOT_RATINGS_FRESH_FOR) -> None:
        self.store = store
        self.fresh_for = fresh_for
        self._by_game: dict[str, dict[str, PlayerRating]] = {}
        self._read_at = -float("inf")
        self._changes = 0  # counted by ``changed``: a read that a change overtook is not kept as fresh

    async def by_game(self) -> dict[str, dict[str, PlayerRating]]:
        if time.monotonic() - self._read_at >= self.fresh_for:
            changes = self._changes
            by_game: dict[str, dict[str, PlayerRating]] = {}
            try:
                for bot in ratings.RATED_BOTS:
                    for rating in await self.store.player_ratings(ratings.bot_subject(bot)):
                        by_game.setdefault(rating.game_id, {})[bot] = rating
            except Exception as error:  # the database may be away: the catalog shows what it had
                log.warning("bot ratings not read", error=f"{type(error).__name__}: {error}")
                return self._by_game
            if changes == self._changes:  # else a level was rated while reading: kept by no one, read again
                self._by_game, self._read_at = by_game, time.monotonic()
            return by_game
        return self._by_game

    async def read_game(self, game_id: str) -> dict[str, PlayerRating]:
        """The levels rated in ``game_id`` now, read from the store."""
        self.changed()
        return (await self.by_game()).get(game_id, {})

    def changed(self) -> None:
        self._changes += 1
        self._read_at = -float("inf")


class MatchRatings:
    def __init__(self, store: Store, game_entry: Callable[[str], GameEntry]) -> None:
        self.store = store
        self.game_entry = game_entry  # the game served under an id, or NotFound
        self.bots = BotRatings(store)

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
            if any(subject.startswith(ratings.BOT_SUBJECT_PREFIX) for subject in subjects):
                self.bots.changed()

    async def leaderboard(self, game_id: str, limit: int, after: tuple[float, str] | None) -> list[PlayerRating]:
        self.game_entry(game_id)
        return await self.store.leaderboard(game_id, limit, after)

    async def player_ratings(self, subject: str) -> list[PlayerRating]:
        return await self.store.player_ratings(subject)
