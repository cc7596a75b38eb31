"""Chess-style clocks: each seat's bank of time, charged while it is to
move, with an increment added after each of its moves.

The clock is a plain dict kept on the match row (``MatchRecord.clock``) so
it survives a restart and is shared by replicas:
``{"initial": s, "increment": s, "per_move": s, "remaining": [s per seat],
"since": t}``. A correspondence clock (``per_move``, e.g. days per move)
gives each move at most that long: the mover's bank is set back to it.
``remaining`` is each seat's bank at ``since`` (epoch seconds, the last
time the clock was charged; None until the first move, when the match's
start, its ``update_time``, stands for it). Pure functions: the engine
(``match_clocks.py``) decides when to call them.
"""

from __future__ import annotations

from typing import Sequence

from gamehost.host import errors

MAX_CLOCK = 30 * 24 * 3600.0  # a bank of at most 30 days, like the turn timeout
MAX_INCREMENT = 24 * 3600.0


def new_clock(initial: float, increment: float, seats: int, turn_timeout: float,
              per_move: float = 0.0) -> dict | None:
    """The clock a match starts with, or None for an untimed match; a
    clear INVALID_ARGUMENT for values a clock cannot have."""
    if per_move:
        if not 0 < per_move <= MAX_CLOCK:
            raise errors.invalid_field("correspondence_move_time",
                                       f"a correspondence move time is more than 0 s and at most 30 days, "
                                       f"not {per_move} s.")
        if initial or increment or turn_timeout:
            raise errors.invalid_field("correspondence_move_time",
                                       "a correspondence clock comes alone: leave clock_initial, clock_increment "
                                       "and turn_timeout unset.")
        return {"initial": float(per_move), "increment": 0.0, "per_move": float(per_move),
                "remaining": [float(per_move)] * seats, "since": None}
    if not initial and not increment:
        return None
    if not 0 < initial <= MAX_CLOCK:
        raise errors.invalid_field("clock_initial", f"a clock's initial time is more than 0 s and at most 30 days, "
                                                    f"not {initial} s (set it when you set clock_increment).")
    if not 0 <= increment <= MAX_INCREMENT:
        raise errors.invalid_field("clock_increment", f"a clock's increment is 0 to 1 day, not {increment} s.")
    if turn_timeout:
        raise errors.invalid_field("turn_timeout", "a match has a clock or a turn timeout, not both: "
                                                   "leave turn_timeout unset with clock_initial.")
    return {"initial": float(initial), "increment": float(increment), "per_move": 0.0,
            "remaining": [float(initial)] * seats, "since": None}


def since(clock: dict, update_time: float) -> float:
    return update_time if clock["since"] is None else clock["since"]


def charged(clock: dict, update_time: float, to_move: Sequence[int], mover: int, now: float) -> dict:
    """The clock after ``mover`` moved at ``now``: every seat that was to
    move is charged the time since the last charge (several at once in
    games of simultaneous moves), the mover then gains the increment (a
    correspondence clock gives the mover its full move time again)."""
    clock = charged_without_move(clock, update_time, to_move, now)
    remaining = clock["remaining"]
    remaining[mover] = clock["per_move"] if clock.get("per_move") else remaining[mover] + clock["increment"]
    return clock


def charged_without_move(clock: dict, update_time: float, to_move: Sequence[int], now: float) -> dict:
    """The clock when the position changes with no move made (a move taken
    back): the seats that were to move are charged the time since the last
    charge, and nobody gains an increment."""
    elapsed = max(0.0, now - since(clock, update_time))
    remaining = list(clock["remaining"])
    for seat in to_move:
        remaining[seat] -= elapsed
    return {**clock, "remaining": remaining, "since": now}


def time_left(clock: dict, update_time: float, to_move: Sequence[int], seat: int, now: float) -> float:
    left = clock["remaining"][seat]
    return left - max(0.0, now - since(clock, update_time)) if seat in to_move else left


def deadline(clock: dict, update_time: float, seats: Sequence[int]) -> float | None:
    """When the first of ``seats`` (the people to move) runs out of time."""
    start = since(clock, update_time)
    return min((start + clock["remaining"][seat] for seat in seats), default=None)


def default_timeout_ranking(seat_count: int, ran_out: Sequence[int]) -> list[int]:
    """The host's timeout rule when the game declares none: the seats whose
    time ran out are ranked last (sharing that place), every other seat
    shares first place."""
    return [2 if seat in ran_out else 1 for seat in range(seat_count)] if len(ran_out) < seat_count \
        else [1] * seat_count
