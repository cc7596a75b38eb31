"""Results of matches the players end themselves (a resignation, a draw
by agreement, a claim of victory): the rankings the host records, pure
functions the host and ``gamehost replay`` share, so a log replays to
exactly the result it holds."""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from gamehost.sdk.rules import places

# The log events after which a match is over by the players' or the clock's
# decision rather than the game's own end: its last position has no outcome.
ENDING_EVENTS = frozenset({"resigned", "draw_agreed", "victory_claimed", "clock_ran_out"})


def resigned_seats(events: Iterable[Mapping[str, Any]]) -> list[int]:
    """The seats that resigned, in the order they did, from log events."""
    return [int(e["seat"]) for e in events if e["kind"] == "resigned"]


def ranked_with_resigned(ranking: Sequence[int], resigned: Sequence[int]) -> list[int]:
    """``ranking`` with the ``resigned`` seats (in the order they resigned)
    moved below every seat still in play: the earliest to resign is last;
    the others keep their places relative to each other."""
    order = {seat: i for i, seat in enumerate(resigned)}
    keys = [(0, order[seat]) if seat in order else (1, -place) for seat, place in enumerate(ranking)]
    return places(keys)


def resignation_ranking(seats: int, resigned: Sequence[int]) -> list[int]:
    """The ranking when every seat but one has resigned: that one first, the
    resigned below it, the earliest to resign last."""
    return ranked_with_resigned([1] * seats, resigned)


def draw_ranking(seats: int) -> list[int]:
    """A draw by agreement: every seat shares first place."""
    return [1] * seats


def claim_ranking(seats: int, absent: Sequence[int]) -> list[int]:
    """A claimed victory: the seats present share first place, the absent the last."""
    return places([0 if seat in absent else 1 for seat in range(seats)])
