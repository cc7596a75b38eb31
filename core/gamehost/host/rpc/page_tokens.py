"""Page tokens of the listings (ListGames, ListMatches, ListLeaderboard,
ListTickets) and of match logs (GetMatchLog): opaque to clients, checked here.

A token is URL-safe base64 of compact JSON: the listing's filters ("q") and
where the next page starts ("at"). It carries no secret, so every replica on
one store reads every other replica's tokens; a forged one can only name a
position in a listing the caller may read anyway. Anything that is not a
well-formed token of the same listing is INVALID_ARGUMENT
INVALID_PAGE_TOKEN: never an exception from deep inside, never a traceback.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import sys
from typing import Any, Callable

from gamehost.host import errors

MAX_TOKEN_CHARS = 512
MAX_TIME = 1e12  # epoch seconds (year 33658): past any create_time a listing holds


def _refuse(description: str) -> errors.InvalidArgument:
    return errors.invalid_field("page_token", description, "INVALID_PAGE_TOKEN")


def encode(query: dict, at: Any) -> str:
    return base64.urlsafe_b64encode(json.dumps({"q": query, "at": at}, separators=(",", ":")).encode()).decode()


def decode(token: str, query: dict, position: Callable[[Any], Any]) -> Any:
    """The position a token of this listing names; ``position`` checks its
    shape and returns it in the listing's terms, or None if it is not one."""
    if len(token) > MAX_TOKEN_CHARS:
        raise _refuse("is not a token this host issued; send next_page_token unchanged.")
    try:
        data = json.loads(base64.urlsafe_b64decode(token.encode("ascii")).decode("utf-8"),
                          parse_constant=lambda name: None)  # NaN and Infinity are no token's
    except (ValueError, UnicodeError, binascii.Error, RecursionError):
        raise _refuse("is not a token this host issued; send next_page_token unchanged.") from None
    if not isinstance(data, dict) or "at" not in data:
        raise _refuse("is not a token this host issued; send next_page_token unchanged.")
    if data.get("q") != query:
        raise _refuse("belongs to a listing with other filters; repeat the first call's filters or start "
                      "without a token.")
    at = position(data["at"])
    if at is None:
        raise _refuse("is not a token this host issued; send next_page_token unchanged.")
    return at


def _number_within(value: Any, low: float, high: float) -> float | None:
    """``value`` as a float when it is a JSON number from ``low`` to
    ``high`` (both inclusive), else None. An int is compared as it is, never
    converted first: one past a float's range (JSON has no such limit) would
    raise OverflowError in ``float`` or ``math.isfinite``."""
    if type(value) is int:
        return float(value) if low <= value <= high else None
    if type(value) is float:
        return value if math.isfinite(value) and low <= value <= high else None
    return None


def offset_position(limit: int) -> Callable[[Any], int | None]:
    """An offset into a list of ``limit`` items."""
    def check(value: Any) -> int | None:
        return value if type(value) is int and 0 <= value <= limit else None
    return check


def time_and_text_position(max_chars: int) -> Callable[[Any], tuple[float, str] | None]:
    """(create_time, id or key) of the last item listed: a finite time and a
    string of at most ``max_chars``."""
    def check(value: Any) -> tuple[float, str] | None:
        if not (isinstance(value, list) and len(value) == 2):
            return None
        stamp, text = _number_within(value[0], 0, MAX_TIME), value[1]
        if stamp is None or stamp == MAX_TIME:
            return None
        if type(text) is not str or len(text) > max_chars:
            return None
        return stamp, text
    return check


time_and_id_position = time_and_text_position(64)  # (create_time, id) of the last match listed


def version_position(version: int) -> Callable[[Any], int | None]:
    """The version of the last event of a match log page: a whole number
    from 1 to the match's ``version``."""
    def check(value: Any) -> int | None:
        return value if type(value) is int and 1 <= value <= version else None
    return check


def rating_and_subject_position(value: Any) -> tuple[float, str] | None:
    """(rating, subject) of the last player of a leaderboard page."""
    if not (isinstance(value, list) and len(value) == 2):
        return None
    rating, subject = _number_within(value[0], -sys.float_info.max, sys.float_info.max), value[1]
    if rating is None:
        return None
    if type(subject) is not str or len(subject) > 256:
        return None
    return rating, subject


def rank_time_and_id_position(value: Any) -> tuple[int, float, str] | None:
    """(rank, time, id) of the last ticket of a ListTickets page (rank 0:
    queued, 1: over; the time negated, newest first)."""
    if not (isinstance(value, list) and len(value) == 3):
        return None
    rank, stamp, ticket_id = value[0], _number_within(value[1], -MAX_TIME, 0), value[2]
    if rank not in (0, 1) or type(rank) is not int:
        return None
    if stamp is None or stamp == -MAX_TIME:
        return None
    if type(ticket_id) is not str or len(ticket_id) > 64:
        return None
    return rank, stamp, ticket_id

