"""The ratings tables' rows, shared by the database backends: players'
ratings. ``rated_matches`` holds one row per match whose result
is counted: its primary key is what makes a result count once, whichever
replica finishes the match and however often it is retried."""

from __future__ import annotations

from typing import Any, Awaitable, Callable

from gamehost.host.store.base import PlayerRating

RATING_COLUMNS = "subject, game_id, player_name, mu, sigma, games, wins, losses, draws"


def row_to_rating(row) -> PlayerRating:
    return PlayerRating(*row)


def rating_values(rating: PlayerRating) -> tuple:
    return (rating.subject, rating.game_id, rating.player_name, rating.mu, rating.sigma, rating.games,
            rating.wins, rating.losses, rating.draws, rating.rating)


def upsert_sql(mark: str) -> str:
    marks = ",".join([mark] * 10)
    return (f"INSERT INTO ratings ({RATING_COLUMNS}, rating) VALUES ({marks}) "
            "ON CONFLICT (subject, game_id) DO UPDATE SET player_name=excluded.player_name, mu=excluded.mu, "
            "sigma=excluded.sigma, games=excluded.games, wins=excluded.wins, losses=excluded.losses, "
            "draws=excluded.draws, rating=excluded.rating")


def leaderboard_sql(mark: str, after: tuple[float, str] | None) -> str:
    """Best first; ``after`` is the (rating, subject) of the previous page's last row."""
    page = f"AND (rating < {mark} OR (rating = {mark} AND subject > {mark})) " if after else ""
    return (f"SELECT {RATING_COLUMNS} FROM ratings WHERE game_id = {mark} {page}"
            f"ORDER BY rating DESC, subject ASC LIMIT {mark}")


def leaderboard_params(game_id: str, limit: int, after: tuple[float, str] | None) -> tuple:
    return (game_id, after[0], after[0], after[1], limit) if after else (game_id, limit)


class PostgresRatings:
    """The PostgreSQL store's rating methods (``Store``'s), over its pool and queries."""

    _pool: Any
    _all: Callable[[str, tuple], Awaitable[list]]

    async def rate_match(self, match_id: str, subjects: list[str], game_id: str, compute) -> bool:
        """One transaction: the match's row in rated_matches (a replica that
        counted it first wins; the others change nothing), then the players'
        rows, locked while they are read and rewritten."""
        async with self._pool.connection() as conn, conn.transaction():
            inserted = await conn.execute("INSERT INTO rated_matches VALUES (%s) ON CONFLICT DO NOTHING",
                                          (match_id,))
            if inserted.rowcount != 1:
                return False
            rows = await (await conn.execute(
                f"SELECT {RATING_COLUMNS} FROM ratings WHERE game_id=%s AND subject = ANY(%s) "
                "ORDER BY subject FOR UPDATE", (game_id, subjects))).fetchall()
            current = {r.subject: r for r in map(row_to_rating, rows)}
            async with conn.cursor() as cursor:
                await cursor.executemany(upsert_sql("%s"), [rating_values(r) for r in compute(current)])
            return True

    async def leaderboard(self, game_id: str, limit: int, after: tuple[float, str] | None = None) -> list:
        return [row_to_rating(row) for row in await self._all(leaderboard_sql("%s", after),
                                                               leaderboard_params(game_id, limit, after))]

    async def player_ratings(self, subject: str) -> list:
        return [row_to_rating(row) for row in await self._all(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE subject=%s ORDER BY game_id", (subject,))]
