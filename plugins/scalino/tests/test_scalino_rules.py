"""Scalino placement, turn and end rules (spec docs/rules/scalino.md 3.1-3.5)."""

from __future__ import annotations

import copy
import random

import pytest

from gamehost.sdk import IllegalMove, MalformedMove
from gamehost_scalino.pyramid import pyramid
from gamehost_scalino.game import Scalino
from gamehost_scalino.rules import colour_scores, current_level

GAME = Scalino()

EMPTY_2 = """
-------
-.....-
-.....-
-.....-
-.....-
-.....-
-------
"""

# Full levels come from the complete_pyramid fixture (conftest.py): levels 1
# and 2 are the French scoring example's, see test_scalino_scoring.py.


def level_one(**pieces) -> str:
    """An otherwise empty level 1 drawing with the given cells, e.g. level_one(d4="R")."""
    rows = [["."] * 7 for _ in range(7)]
    for name, mark in pieces.items():
        rows[int(name[1]) - 1][ord(name[0]) - ord("a")] = mark
    return "\n".join("".join(row) for row in rows)


def place(colour, level, *cells):
    return {"colour": colour, "level": level, "cells": list(cells)}


def refused(state, seat, move) -> IllegalMove:
    """Apply a move that must be refused; check the state is unchanged and return the refusal."""
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


def fresh(seats=4, **options):
    return GAME.setup(seats, {**GAME.default_options(), "start_player": "first-seat", **options}, random.Random(1))


# --- 3.1 components, 3.2 geometry, 3.3 setup ------------------------------------------

def test_components_each_colour_has_six_singles_three_2_bars_three_3_bars():
    state = fresh()
    assert state["hands"] == {colour: [6, 3, 3] for colour in ("red", "blue", "yellow", "green")}


@pytest.mark.parametrize("geometry, sizes", [("squares", [49, 25, 9, 1]), ("diamonds", [41, 25, 13, 5])])
def test_pyramid_levels_hold_all_84_cells_each_over_the_level_below(geometry, sizes):
    pyr = pyramid(geometry)
    assert [len(region) for region in pyr.regions] == sizes
    assert sum(sizes) == 4 * 21
    for lower, upper in zip(pyr.regions, pyr.regions[1:]):
        assert upper < lower


def test_square_pyramid_level_edges_stay_uncovered():
    pyr = pyramid("squares")
    assert pyr.names[pyr.cross] == "d4"
    assert {pyr.names[c] for c in pyr.regions[3]} == {"d4"}
    assert {pyr.names[c] for c in pyr.regions[2]} == {f"{x}{y}" for x in "cde" for y in (3, 4, 5)}


def test_four_players_one_colour_each_two_players_two_colours_each():
    assert fresh(4)["colours"] == [["red"], ["blue"], ["yellow"], ["green"]]
    assert fresh(2)["colours"] == [["red", "yellow"], ["blue", "green"]]


def test_only_two_or_four_players():
    with pytest.raises(ValueError):
        fresh(3)


def test_start_player_is_drawn_at_random_by_default():
    starts = {GAME.setup(4, GAME.default_options(), random.Random(seed))["turn"] for seed in range(40)}
    assert starts == {0, 1, 2, 3}


# --- 3.4 placement rules ----------------------------------------------------------------

def test_first_piece_refused_when_it_does_not_cover_the_cross():
    refusal = refused(fresh(), 0, place("red", 1, "a1"))
    assert refusal.rule == "first-piece-on-cross"
    assert "d4" in refusal.reason


def test_first_piece_may_be_any_size_and_orientation_over_the_cross():
    ids = {move.id for move in GAME.legal_moves(fresh(), 0)}
    assert ids == {"red:d4", "red:c4-d4", "red:d4-e4", "red:d3-d4", "red:d4-d5", "red:b4-d4", "red:c4-e4",
                   "red:d4-f4", "red:d2-d4", "red:d3-d5", "red:d4-d6"}


def test_piece_refused_when_not_a_straight_bar(scalino_position):
    state = scalino_position(level_one(a1="R"))
    assert refused(state, 0, place("red", 1, "c3", "d4")).rule == "not-a-straight-piece"
    assert refused(state, 0, place("red", 1, "c3", "e3")).rule == "not-a-straight-piece"


def test_piece_refused_without_contact_with_a_piece_on_its_level(scalino_position):
    state = scalino_position(level_one(d4="B"), turn=0)
    refusal = refused(state, 0, place("red", 1, "a1"))
    assert refusal.rule == "no-contact"
    accepted(state, 0, place("red", 1, "e4"))


def test_same_colour_refused_side_by_side(scalino_position):
    state = scalino_position(level_one(d4="R", e4="B"))
    refusal = refused(state, 0, place("red", 1, "d5"))
    assert refusal.rule == "same-colour-beside"
    assert "d5" in refusal.reason and "d4" in refusal.reason


def test_same_colour_may_touch_at_a_corner(scalino_position):
    state = scalino_position(level_one(d4="R", e4="B"))
    accepted(state, 0, place("red", 1, "e5"))


def test_same_colour_refused_directly_on_top_of_the_same_colour(scalino_position, complete_pyramid):
    state = scalino_position(complete_pyramid.level_1, EMPTY_2, turn=1)  # level 1 has blue on b2
    refusal = refused(state, 1, place("blue", 2, "b2"))
    assert refusal.rule == "same-colour-above"


def test_same_colour_may_touch_one_level_apart_offset_by_a_cell(scalino_position, complete_pyramid):
    state = scalino_position(complete_pyramid.level_1, EMPTY_2, turn=1)  # c2 on level 1 is yellow, next to blue b2
    after = accepted(state, 1, place("blue", 2, "c2"))
    assert after["pieces"][-1] == {"colour": "blue", "size": 1, "level": 2, "cells": ["c2"]}


def test_two_player_colours_of_one_player_may_touch(scalino_position):
    state = scalino_position(level_one(d4="R"), seats=2)  # seat 0 plays red and yellow
    accepted(state, 0, place("yellow", 1, "e4"))


# The no-pocket rule, read as "no empty rectangle lined by pieces on 3 full sides".
POCKET_BEFORE = """
.......
.......
..BBB..
..R....
.......
.......
.......
"""


def test_pocket_refused_when_an_empty_cell_is_lined_on_three_sides(scalino_position):
    state = scalino_position(POCKET_BEFORE, turn=2)
    refusal = refused(state, 2, place("yellow", 1, "e4"))  # d4 would be lined by c4, d3 and e4
    assert refusal.rule == "pocket"
    accepted(state, 2, place("yellow", 1, "b4"))


def test_pocket_refused_when_an_empty_strip_is_lined_on_three_full_sides(scalino_position):
    state = scalino_position(POCKET_BEFORE, turn=2)
    # d4-e4 would be lined by c4, f4 and the blue bar above: no cell has 3 neighbours, but the strip does.
    assert refused(state, 2, place("yellow", 1, "f3", "f4")).rule == "pocket"
    cell_reading = scalino_position(POCKET_BEFORE, turn=2, pocket_rule="cell")
    accepted(cell_reading, 2, place("yellow", 1, "f3", "f4"))


def test_pocket_rule_counts_the_edge_of_the_level_as_open(scalino_position):
    state = scalino_position(level_one(b1="B", b2="B"), turn=0)
    # a1 is lined by b1 and (after) a2: two sides plus two open level edges.
    accepted(state, 0, place("red", 1, "a2"))


def test_pocket_rule_region_reading_refuses_an_enclosed_group(scalino_position):
    state = scalino_position(level_one(a1="B", c1="B", a2="Y"), turn=0, pocket_rule="region")
    # b2 would close b1 off, enclosed left, right and below.
    assert refused(state, 0, place("red", 1, "b2")).rule == "pocket"
    # The open strip of the "rectangle" example is not an enclosed group.
    open_strip = scalino_position(POCKET_BEFORE, turn=2, pocket_rule="region")
    accepted(open_strip, 2, place("yellow", 1, "f3", "f4"))


def test_pocket_rule_can_be_switched_off(scalino_position):
    state = scalino_position(POCKET_BEFORE, turn=2, pocket_rule="off")
    accepted(state, 2, place("yellow", 1, "e4"))


def test_levels_are_filled_in_order(scalino_position):
    state = scalino_position(level_one(d4="B"), turn=0)
    refusal = refused(state, 0, place("red", 2, "d3"))
    assert refusal.rule == "levels-in-order"
    assert "Level 1 must be full" in refusal.reason


def test_full_level_is_refused_as_a_target(scalino_position, complete_pyramid):
    state = scalino_position(complete_pyramid.level_1, EMPTY_2, turn=0)
    assert refused(state, 0, place("red", 1, "a1")).rule == "levels-in-order"


def test_piece_refused_outside_the_level(scalino_position, complete_pyramid):
    state = scalino_position(complete_pyramid.level_1, EMPTY_2, turn=0)
    refusal = refused(state, 0, place("red", 2, "a1"))
    assert refusal.rule == "outside-level"


def test_piece_refused_on_an_occupied_cell(scalino_position):
    state = scalino_position(level_one(d4="B"), turn=0)
    assert refused(state, 0, place("red", 1, "c4", "d4")).rule == "cell-occupied"


def test_colour_of_another_player_refused(scalino_position):
    state = scalino_position(level_one(d4="B"), turn=0)
    assert refused(state, 0, place("green", 1, "e4")).rule == "not-your-colour"


def test_piece_refused_when_none_of_that_size_is_left(scalino_position):
    state = scalino_position(level_one(d4="B"), turn=0)
    state["hands"]["red"] = [6, 0, 3]
    assert refused(state, 0, place("red", 1, "e4", "f4")).rule == "no-piece-left"


def test_move_refused_when_not_your_turn():
    assert refused(fresh(), 1, place("blue", 1, "d4")).rule == "not-your-turn"


# --- 3.4 rule 5: completing a level --------------------------------------------------------

# Level 1 with red e1-g1 missing: red (seat 0) completes it.
def level_1_but_one(complete_pyramid) -> str:
    return complete_pyramid.level_1.replace("BGBBRRR", "BGBB...")


def test_completing_a_level_earns_one_more_piece_on_the_next_level(scalino_position, complete_pyramid):
    state = scalino_position(level_1_but_one(complete_pyramid), EMPTY_2, turn=0)
    after = accepted(state, 0, place("red", 1, "e1", "f1", "g1"))
    assert GAME.to_move(after) == (0,) and after["bonus"] is True
    assert current_level(after, pyramid("squares")) == 2
    ids = {move.id for move in GAME.legal_moves(after, 0)}
    # Anywhere on level 2, without touching a piece, except on top of red cells.
    assert {"red:b2", "red:f6", "red:b2-b4"} <= ids
    assert "red:d3" not in ids  # d3 on level 1 is red
    done = accepted(after, 0, place("red", 2, "f6"))
    assert GAME.to_move(done) == (1,) and done["bonus"] is False


def test_two_player_bonus_piece_may_be_either_colour(scalino_position, complete_pyramid):
    state = scalino_position(level_1_but_one(complete_pyramid), EMPTY_2, seats=2, turn=0)
    after = accepted(state, 0, place("red", 1, "e1", "f1", "g1"))
    colours = {move.args["colour"] for move in GAME.legal_moves(after, 0)}
    assert colours == {"red", "yellow"}


def test_bonus_piece_lapses_when_the_completer_cannot_place(scalino_position, complete_pyramid):
    state = scalino_position(level_1_but_one(complete_pyramid), EMPTY_2, turn=0)
    state["hands"]["red"] = [0, 0, 1]
    after = accepted(state, 0, place("red", 1, "e1", "f1", "g1"))
    assert GAME.to_move(after) == (1,) and after["bonus"] is False
    # Seat 1 opens level 2 anywhere.
    assert "blue:f6" in {move.id for move in GAME.legal_moves(after, 1)}


# --- 3.4 rules 6 and 7: colour choice and passing --------------------------------------

def test_two_player_chooses_either_colour_each_turn():
    colours = {move.args["colour"] for move in GAME.legal_moves(fresh(2), 0)}
    assert colours == {"red", "yellow"}


def test_two_player_must_use_the_only_colour_that_can_be_placed(scalino_position):
    # Every cell touching the only piece (red d4) is next to red: red cannot be placed.
    state = scalino_position(level_one(d4="R"), seats=2, turn=0)
    colours = {move.args["colour"] for move in GAME.legal_moves(state, 0)}
    assert colours == {"yellow"}
    assert refused(state, 0, place("red", 1, "e4")).rule == "same-colour-beside"


def test_player_without_a_legal_placement_passes(scalino_position):
    state = scalino_position(level_one(d4="B"), turn=0)
    state["hands"]["blue"] = [0, 0, 0]
    after = accepted(state, 0, place("red", 1, "e4"))
    assert GAME.to_move(after) == (2,)
    assert after["skipped"] == [1]


# --- 3.5 end ------------------------------------------------------------------------------

def test_game_ends_when_no_player_can_place_and_unplaced_pieces_cost_their_size(scalino_position, complete_pyramid):
    # Level 1 lacks b1 and a7; only red holds a single.
    level_1 = complete_pyramid.level_1.replace("BGBBRRR", "B.BBRRR").replace("GBBRYBY", ".BBRYBY")
    state = scalino_position(level_1, EMPTY_2, turn=0)
    state["hands"] = {"red": [1, 0, 0], "blue": [0, 1, 0], "yellow": [0, 0, 1], "green": [0, 0, 0]}
    after = accepted(state, 0, place("red", 1, "b1"))
    assert after["over"] and GAME.to_move(after) == ()
    assert GAME.legal_moves(after, 1) == []
    outcome = GAME.outcome(after)
    staircases_only = GAME.outcome({**after, "hands": {c: [0, 0, 0] for c in after["hands"]}}).scores
    assert [s - p for s, p in zip(staircases_only, outcome.scores)] == [0, 2, 3, 0]
    assert refused(after, 1, place("blue", 1, "a7")).rule == "game-over"


def test_game_ends_when_the_pyramid_is_complete(scalino_position, complete_pyramid):
    state = scalino_position(*complete_pyramid[:3], complete_pyramid.level_4.replace("R", "."), turn=0)
    assert state["hands"]["red"] == [1, 0, 0]
    after = accepted(state, 0, place("red", 4, "d4"))
    assert after["over"]
    assert current_level(after, pyramid("squares")) is None
    assert all(hand == [0, 0, 0] for hand in after["hands"].values())
    assert "complete" in GAME.outcome(after).summary


def test_no_penalty_once_the_pyramid_is_complete(scalino_position, complete_pyramid):
    state = scalino_position(*complete_pyramid)
    state["hands"]["blue"] = [2, 1, 0]  # as if pieces were left over
    assert colour_scores(state)["blue"]["penalty"] == 0


def test_outcome_is_none_while_the_game_runs():
    assert GAME.outcome(fresh()) is None


def test_a_move_without_the_placement_shape_is_malformed_and_a_missing_level_or_cell_is_illegal():
    """Malformed (the host answers INVALID_ARGUMENT): not a colour, a level or a list of cells.
    Well formed but not on this board (FAILED_PRECONDITION): a level or cell that does not exist."""
    for move in ({"colour": 7, "level": 1, "cells": ["d4"]}, {"colour": "red", "level": "1", "cells": ["d4"]},
                 {"colour": "red", "level": 1, "cells": "d4"}, ["red", 1, ["d4"]]):
        assert isinstance(refused(fresh(), 0, move), MalformedMove)
    assert not isinstance(refused(fresh(), 0, place("red", 5, "d4")), MalformedMove)
    assert refused(fresh(), 0, place("red", 5, "d4")).rule == "no-such-level"
    assert refused(fresh(), 0, place("red", 1, "z9")).rule == "no-such-cell"


def test_scalino_is_played_by_2_or_4_players():
    """Spec 3.3: the catalog allows 2 and 4 only, so CreateMatch refuses 3 (INVALID_ARGUMENT)."""
    assert GAME.allowed_player_counts() == [2, 4]
    assert GAME.player_counts_text() == "2 or 4 players"
