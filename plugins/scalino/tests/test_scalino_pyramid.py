"""Démonte la pyramide, the dismantling variant (spec docs/rules/scalino.md 3.8)."""

from __future__ import annotations

import copy
import random

import pytest

from gamehost.sdk import IllegalMove
from gamehost_scalino.game import ScalinoPyramid
from gamehost_scalino.pyramid import COLOURS, pyramid

GAME = ScalinoPyramid()

# Positions start from the complete pyramid of conftest.py (the complete_pyramid fixture).


def empty(drawing: str) -> str:
    return "".join("." if mark in "RBYG" else mark for mark in drawing)


def piece_at(state, level: int, name: str) -> int:
    """The index of the piece on cell ``name`` of ``level``."""
    pyr = pyramid(state["options"]["geometry"])
    return state["grid"][level - 1][pyr.index[name]]


def take(state, level, name):
    return {"piece": piece_at(state, level, name)}


def refused(state, seat, move) -> IllegalMove:
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as refusal:
        GAME.apply(state, seat, move, random.Random(0))
    assert state == before
    assert refusal.value.reason.endswith(".")
    assert move not in [m.args for m in GAME.legal_moves(state, seat)]
    return refusal.value


def accepted(state, seat, move):
    assert move in [m.args for m in GAME.legal_moves(state, seat)]
    return GAME.apply(state, seat, move, random.Random(0))


@pytest.mark.parametrize("geometry", ["squares", "diamonds"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_setup_builds_a_complete_pyramid_of_all_48_pieces(geometry, seed):
    state = GAME.setup(3, {**GAME.default_options(), "geometry": geometry}, random.Random(seed))
    pyr = pyramid(geometry)
    for level, region in enumerate(pyr.regions, start=1):
        assert all(state["grid"][level - 1][cell] is not None for cell in region)
    pieces = state["pieces"]
    assert len(pieces) == 48 and all(piece["taken_by"] is None for piece in pieces)
    for colour in COLOURS:
        assert sorted(p["size"] for p in pieces if p["colour"] == colour) == [1] * 6 + [2] * 3 + [3] * 3
    # It looks like a finished Scalino pyramid: no same-colour face contact.
    for index, piece in enumerate(pieces):
        for name in piece["cells"]:
            cell = pyr.index[name]
            here = state["grid"][piece["level"] - 1]
            assert here[cell] == index
            for n in pyr.neighbours[cell]:
                assert here[n] in (None, index) or pieces[here[n]]["colour"] != piece["colour"]
            if piece["level"] > 1:
                assert pieces[state["grid"][piece["level"] - 2][cell]]["colour"] != piece["colour"]


def test_setup_is_reproducible_from_the_seed():
    options = GAME.default_options()
    assert GAME.setup(2, options, random.Random(7)) == GAME.setup(2, options, random.Random(7))


def test_two_to_six_players():
    for seats in (1, 7):
        with pytest.raises(ValueError):
            GAME.setup(seats, GAME.default_options(), random.Random(0))


def test_uncovered_piece_with_a_free_side_may_be_taken(pyramid_position, complete_pyramid):
    state = pyramid_position(*complete_pyramid)
    ids = {move.id for move in GAME.legal_moves(state, 0)}
    assert {"take:4:d4", "take:1:e1-g1", "take:2:f2-f4", "take:1:a2-a4"} <= ids
    after = accepted(state, 0, take(state, 1, "e1"))
    assert after["pieces"][piece_at(state, 1, "e1")]["taken_by"] == 0
    assert GAME.to_move(after) == (1,)


def test_take_refused_when_a_piece_above_covers_it(pyramid_position, complete_pyramid):
    state = pyramid_position(*complete_pyramid)
    refusal = refused(state, 0, take(state, 3, "d3"))  # blue d3-d5 under the top cell
    assert refusal.rule == "covered"
    assert "d4" in refusal.reason
    assert refused(state, 0, take(state, 1, "b2")).rule == "covered"


def test_take_refused_when_no_side_is_free(pyramid_position, complete_pyramid):
    state = pyramid_position(*complete_pyramid[:2])  # levels 3 and 4 already taken
    refusal = refused(state, 0, take(state, 2, "c4"))  # green c4-e4, held on all four sides
    assert refusal.rule == "no-free-side"


def test_free_side_means_a_whole_side_free_unless_any_face_is_chosen(pyramid_position, complete_pyramid):
    level_2 = complete_pyramid.level_2.replace("-YRYBR-", "-YR.BR-")  # d3 already taken: one face of c4-e4 is free
    whole_side = pyramid_position(complete_pyramid.level_1, level_2)
    assert refused(whole_side, 0, take(whole_side, 2, "c4")).rule == "no-free-side"
    any_face = pyramid_position(complete_pyramid.level_1, level_2, free_side="any-face")
    accepted(any_face, 0, take(any_face, 2, "c4"))


def test_emptying_a_level_takes_one_more_piece_from_the_level_below(pyramid_position, complete_pyramid):
    state = pyramid_position(*complete_pyramid)
    after = accepted(state, 0, take(state, 4, "d4"))
    assert GAME.to_move(after) == (0,) and after["chain"] == 3
    assert {move.id.split(":")[1] for move in GAME.legal_moves(after, 0)} == {"3"}
    refusal = refused(after, 0, take(after, 2, "f2"))
    assert refusal.rule == "take-from-level-below"
    assert "level 3" in refusal.reason
    done = accepted(after, 0, take(after, 3, "c3"))
    assert GAME.to_move(done) == (1,) and done["chain"] is None


CHAIN_LEVEL_2 = """
-------
-.....-
-.....-
-.GGG.-
-.....-
-.....-
-------
"""
CHAIN_LEVEL_3 = """
-------
-------
--...--
--.B.--
--...--
-------
-------
"""


def test_chain_goes_on_when_the_extra_piece_empties_that_level_too(pyramid_position, complete_pyramid):
    state = pyramid_position(complete_pyramid.level_1, CHAIN_LEVEL_2, CHAIN_LEVEL_3)
    state = accepted(state, 0, take(state, 3, "d4"))
    assert GAME.to_move(state) == (0,) and state["chain"] == 2
    state = accepted(state, 0, take(state, 2, "c4"))
    assert GAME.to_move(state) == (0,) and state["chain"] == 1
    state = accepted(state, 0, take(state, 1, "a1"))
    assert GAME.to_move(state) == (1,) and state["chain"] is None


LAST_PIECES = """
RRR....
.......
.......
.......
.......
.......
....BBY
"""


def test_game_ends_with_the_last_piece_and_pieces_score_their_size(pyramid_position, complete_pyramid):
    state = pyramid_position(LAST_PIECES, empty(complete_pyramid.level_2))
    state = accepted(state, 0, take(state, 1, "a1"))
    state = accepted(state, 1, take(state, 1, "e7"))
    assert GAME.outcome(state) is None
    state = accepted(state, 0, take(state, 1, "g7"))
    assert state["over"] and GAME.to_move(state) == ()
    outcome = GAME.outcome(state)
    assert list(outcome.scores) == [4, 2]
    assert list(outcome.ranking) == [1, 2]
    assert refused(state, 1, {"piece": 0}).rule == "game-over"


def test_equal_points_share_the_win(pyramid_position, complete_pyramid):
    state = pyramid_position(LAST_PIECES.replace("BBY", "BBB"), empty(complete_pyramid.level_2))
    state = accepted(state, 0, take(state, 1, "a1"))
    state = accepted(state, 1, take(state, 1, "e7"))
    assert list(GAME.outcome(state).ranking) == [1, 1]


def test_taken_piece_cannot_be_taken_again(pyramid_position, complete_pyramid):
    state = pyramid_position(*complete_pyramid)
    move = take(state, 1, "e1")
    after = accepted(state, 0, move)
    assert refused(after, 1, move).rule == "already-taken"


def test_move_refused_when_not_your_turn(pyramid_position, complete_pyramid):
    state = pyramid_position(*complete_pyramid)
    assert refused(state, 1, take(state, 4, "d4")).rule == "not-your-turn"


def test_whole_pyramid_is_worth_84_points():
    rng = random.Random(3)
    state = GAME.setup(4, GAME.default_options(), rng)
    while GAME.to_move(state):
        seat = GAME.to_move(state)[0]
        state = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)).args, rng)
    assert sum(GAME.outcome(state).scores) == 84
