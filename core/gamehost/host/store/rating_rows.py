"""The ratings tables' rows, shared by the database backends: players'
ratings. ``rated_matches`` holds one row per match whose result
is counted: its primary key is what makes a result count once, whichever
replica finishes the match and however often it is retried."""

from __future__ import annotations

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
