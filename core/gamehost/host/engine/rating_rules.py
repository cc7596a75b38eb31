"""Ratings: which finished matches are rated and what they do to their
players' ratings, with openskill's Plackett-Luce model (any number of
players, ties by shared places).

A match is rated when every seat is held by a distinct rated player (two or
more): a signed-in player, or one of the built-in search bots, each level a
player of its own (subject ``bot:mcts-hard``), so the leaderboard shows
where the levels stand among people. The random bot, a plugin's bot, a
remote agent or an anonymous seat makes it unrated, so nobody's rating
moves against an opponent the host cannot tell apart from another. A match
of bots alone is rated only when its creator asked for it (``rated`` True:
the league, or an operator); a match its creator made casual (``rated``
False) is never rated. A seat its player
resigned (or left) stays theirs for the rating, though the bot played it to
the end: quitting never avoids a rating change.
"""

from __future__ import annotations

from typing import Mapping

from openskill.models import PlackettLuce

from gamehost.host import errors
from gamehost.host.auth import Principal

from gamehost.host.store.base import MatchRecord, PlayerRating, SeatRecord
from gamehost.sdk.search import LEVELS

MODEL = PlackettLuce(mu=PlayerRating.mu, sigma=PlayerRating.sigma)

BOT_SUBJECT_PREFIX = "bot:"
RATED_BOTS = tuple(level.name for level in LEVELS)  # weakest first


def bot_subject(bot: str) -> str:
    """The rated player a built-in search level is, in every game."""
    return BOT_SUBJECT_PREFIX + bot


def seat_subject(seat: SeatRecord) -> str:
    """Who the seat's result counts for: its signed-in player (a resigned
    seat stays theirs), its rated bot level, or "" (nobody rated)."""
    if seat.kind == "human" or seat.resigned:
        return seat.subject
    if seat.kind == "bot" and seat.bot in RATED_BOTS:
        return bot_subject(seat.bot)
    return ""


def plays_rated(record: MatchRecord) -> bool:
    """Whether ``record`` would be rated if it finished now: every seat held
    by a distinct rated player, at least one of them a person unless the
    creator asked for a rated match, and not made casual."""
    if record.rated is False or len(record.seats) < 2:
        return False
    subjects = [seat_subject(seat) for seat in record.seats]
    if not all(subjects) or len(set(subjects)) != len(subjects):
        return False
    return record.rated is True or any(not s.startswith(BOT_SUBJECT_PREFIX) for s in subjects)


def check_rated_bots(seat_bots: Mapping[int, str], seats: int, caller: Principal | None) -> None:
    """Refuse a match asked to be rated whose bots cannot all count: a bot
    that is no rated player, a level seated twice (one player cannot hold
    two seats), or bots alone asked by anyone but an operator or the host
    (``caller`` None): their results move every player's standing against
    those levels."""
    unrated = sorted({bot for bot in seat_bots.values() if bot not in RATED_BOTS})
    if unrated:
        raise errors.invalid_field("rated", f"the bot {unrated[0]} is no rated player, so this match cannot be rated: "
                                            f"seat the search levels ({', '.join(RATED_BOTS)}), or leave rated unset.")
    if len(set(seat_bots.values())) != len(seat_bots):
        raise errors.invalid_field("seat_bots", "a rated match seats each bot level once (a level is one player); "
                                                "name distinct levels, or leave rated unset.")
    if len(seat_bots) == seats and caller is not None and not caller.admin:
        raise errors.PermissionDenied(
            "A rated match of bots alone moves the bots' ratings, which every player's bot fill reads: only an "
            "operator (the admin role) or the host's league plays one. Leave rated unset for a casual match.",
            "RATED_BOTS_NEED_ADMIN")


def may_become_rated(record: MatchRecord) -> bool:
    """Match.rated: not casual, and no seat that can never count (an
    unrated bot's, an anonymous player's); open seats may still be taken by
    signed-in users."""
    if record.rated is False or len(record.seats) < 2:
        return False
    subjects = [seat_subject(seat) for seat in record.seats if seat.kind != "open"]
    if not all(subjects):
        return False
    return record.rated is True or len(subjects) < len(record.seats) or \
        any(not s.startswith(BOT_SUBJECT_PREFIX) for s in subjects)


def rated_subjects(record: MatchRecord) -> list[str] | None:
    """The subjects of seats 0..n-1 when the finished match is rated, else None."""
    if record.status != "finished" or not record.result or not plays_rated(record):
        return None
    return [seat_subject(seat) for seat in record.seats]


def rate(record: MatchRecord, current: dict[str, PlayerRating]) -> list[PlayerRating]:
    """The players' ratings after ``record``'s result, seat by seat; ``current``
    holds the ratings they had (a missing one starts at the model's default).
    A seat is won alone at place 1, drawn at a shared place 1, lost otherwise."""
    subjects = rated_subjects(record)
    assert subjects is not None and record.result is not None  # rated: finished, every seat a rated player
    places: list[float] = [int(place) for place in record.result["ranking"]]
    before = [current.get(s) or PlayerRating(s, record.game_id) for s in subjects]
    teams = MODEL.rate([[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before], ranks=places)
    first = places.count(1)
    after = []
    for seat, (old, team) in enumerate(zip(before, teams)):
        won, drew = places[seat] == 1 and first == 1, places[seat] == 1 and first > 1
        after.append(PlayerRating(
            old.subject, record.game_id, _player_name(record.seats[seat]), team[0].mu, team[0].sigma,
            old.games + 1, old.wins + won, old.losses + (not won and not drew), old.draws + drew))
    return after


def _player_name(seat: SeatRecord) -> str:
    """The name the leaderboard shows: a bot level by its name, not its seat's ("bot 1")."""
    return seat.bot if seat.kind == "bot" and not seat.resigned else seat.player_name
