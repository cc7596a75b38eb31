"""Ratings: which finished matches are rated and what they do to their
players' ratings, with openskill's Plackett-Luce model (any number of
players, ties by shared places).

A match is rated when every seat is held by a signed-in player (two or
more): a bot or an anonymous seat makes it unrated, so nobody's rating
moves against an opponent the host cannot tell apart from another. A match
its creator made casual (``rated`` False) is never rated. A seat its player
resigned (or left) stays theirs for the rating, though the bot played it to
the end: quitting never avoids a rating change.
"""

from __future__ import annotations

from openskill.models import PlackettLuce

from gamehost.host.store.base import MatchRecord, PlayerRating

MODEL = PlackettLuce(mu=PlayerRating.mu, sigma=PlayerRating.sigma)


def rated_subjects(record: MatchRecord) -> list[str] | None:
    """The subjects of seats 0..n-1 when the finished match is rated, else None."""
    if record.status != "finished" or not record.result or len(record.seats) < 2 or record.rated is False:
        return None
    subjects = [seat.subject if seat.kind == "human" or seat.resigned else "" for seat in record.seats]
    if not all(subjects) or len(set(subjects)) != len(subjects):
        return None
    return subjects


def plays_rated(record: MatchRecord) -> bool:
    """Whether ``record`` would be rated if it finished now: every seat held
    by a distinct signed-in player (a resigned seat still counts as theirs)."""
    subjects = [seat.subject if seat.kind == "human" or seat.resigned else "" for seat in record.seats]
    return len(subjects) >= 2 and all(subjects) and len(set(subjects)) == len(subjects)


def rate(record: MatchRecord, current: dict[str, PlayerRating]) -> list[PlayerRating]:
    """The players' ratings after ``record``'s result, seat by seat; ``current``
    holds the ratings they had (a missing one starts at the model's default).
    A seat is won alone at place 1, drawn at a shared place 1, lost otherwise."""
    subjects = rated_subjects(record)
    assert subjects is not None and record.result is not None  # rated: finished, every seat a signed-in player
    places: list[float] = [int(place) for place in record.result["ranking"]]
    before = [current.get(s) or PlayerRating(s, record.game_id) for s in subjects]
    teams = MODEL.rate([[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before], ranks=places)
    first = places.count(1)
    after = []
    for seat, (old, team) in enumerate(zip(before, teams)):
        won, drew = places[seat] == 1 and first == 1, places[seat] == 1 and first > 1
        after.append(PlayerRating(
            old.subject, record.game_id, record.seats[seat].player_name, team[0].mu, team[0].sigma,
            old.games + 1, old.wins + won, old.losses + (not won and not drew), old.draws + drew))
    return after
