"""Compiled rules held to their reference: the same answers at every position.

A plugin may ship its rules' hot paths compiled (Callisto's placement search,
gamehost-callisto-native) and keep its Python rules as the reference.
``run_conformance(game, reference=...)`` plays the sweep with the compiled
``game``, which passes every other check of the kit, and at every position
(r) asks both games the same questions:

- every seat's legal moves: the same moves (ids, labels, arguments, parts)
  in the same order, the same seats to move and the same outcome;
- the state after the move played, after the listed moves the kit tries,
  and after moves of earlier positions (mostly refused now): the same next
  state, or the same refusal (its type, rule and words);
- the bot hints of the seat to move, each game with an rng seeded alike:
  the same playout move, the same move order, the same estimate.
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from gamehost.sdk.chance import rng_for
from gamehost.sdk.rules import Game, Move, State


def check_same_rules(game: Game, reference: Game, state: State, seats: int, seat: int | None,
                     tried: Sequence[Mapping[str, Any]], seed: int, version: int, step: str) -> None:
    """(r) ``game`` answers as ``reference`` at ``state``: every seat's legal
    moves, the next state of each of the moves ``tried`` by ``seat`` (the
    seat to move; None once the game is over) and its bot hints. The rng of
    each call is made afresh alike for both games (the engine's chance for
    ``apply``), so a difference is the rules' own."""
    assert list(game.to_move(state)) == list(reference.to_move(state)), \
        f"(r) the seats to move differ from the reference's at {step}"
    assert game.outcome(state) == reference.outcome(state), f"(r) the outcome differs from the reference's at {step}"
    for listed_seat in range(seats):
        _same_moves(game.legal_moves(state, listed_seat), reference.legal_moves(state, listed_seat),
                    f"seat {listed_seat}'s legal moves", step)
    if seat is None:
        return
    for args in tried:
        after = _applied(game, state, seat, args, rng_for(seed, version))
        expected = _applied(reference, state, seat, args, rng_for(seed, version))
        assert after == expected, f"(r) seat {seat}'s move {dict(args)} {_difference(after, expected)}, at {step}"
    legal = reference.legal_moves(state, seat)
    hint = f"hints/{seed}/{version}"
    playout, expected_playout = (one.playout_move(state, seat, random.Random(hint)) for one in (game, reference))
    assert _id(playout) == _id(expected_playout), (f"(r) playout_move gives {_id(playout)!r}, the reference "
                                                   f"{_id(expected_playout)!r}, at {step}")
    rollout, expected_rollout = (one.rollout_move(state, seat, legal, random.Random(hint)) for one in (game, reference))
    assert _id(rollout) == _id(expected_rollout), (f"(r) rollout_move gives {_id(rollout)!r}, the reference "
                                                   f"{_id(expected_rollout)!r}, at {step}")
    order, expected_order = (one.order_moves(state, seat, legal, random.Random(hint)) for one in (game, reference))
    assert [move.id for move in order or ()] == [move.id for move in expected_order or ()], \
        f"(r) order_moves orders seat {seat}'s moves otherwise than the reference at {step}"
    assert game.evaluate(state) == reference.evaluate(state), f"(r) evaluate differs from the reference's at {step}"


def _same_moves(listed: Sequence[Move], expected: Sequence[Move], what: str, step: str) -> None:
    for index, (move, other) in enumerate(zip(listed, expected)):
        assert move == other, f"(r) {what}: move {index} is {move.id!r}, the reference's {other.id!r}, at {step}"
    assert len(listed) == len(expected), (f"(r) {what}: {len(listed)} moves, the reference lists "
                                          f"{len(expected)}, at {step}")


def _applied(game: Game, state: State, seat: int, args: Mapping[str, Any], rng: random.Random) -> Any:
    """The next state, or the refusal as (type, rule, words)."""
    try:
        return game.apply(state, seat, args, rng)
    except Exception as error:
        return (type(error).__name__, getattr(error, "rule", None), str(error))


def _difference(outcome: Any, expected: Any) -> str:
    """How the next state or refusal ``outcome`` differs from the reference's, briefly (states are long)."""
    if isinstance(outcome, dict) and isinstance(expected, dict):
        keys = sorted(key for key in outcome.keys() | expected.keys() if outcome.get(key) != expected.get(key))
        return f"gives a state unlike the reference's: its {', '.join(map(str, keys))} differ"
    def brief(one: Any) -> str:
        return repr(one) if isinstance(one, tuple) else "a state"
    return f"gives {brief(outcome)}, the reference {brief(expected)}"


def _id(move: Move | None) -> str | None:
    return None if move is None else move.id
