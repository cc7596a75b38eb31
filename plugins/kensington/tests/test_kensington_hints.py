"""Kensington's hints for search bots (hints.py): no rule of the game, a
bot's guess at what a move adds to a building (spec 1.10 scoring), the
order the search tries moves in and the playout policy built on it."""

from __future__ import annotations

import json
import random

from gamehost_kensington import hints, rules
from gamehost_kensington.game import Kensington
from gamehost_kensington.rules import built, clone, score
from gamehost_kensington.tiles import BROWN_BACKS, TILES

GAME = Kensington()


def token(type_id, lighting=None, bird=False):
    return next(token for token, tile in TILES.items() if tile["type"] == type_id and not tile["cat"]
                and tile["bird"] == bird and (lighting is None or tile["lighting"] == lighting))


def with_building(columns, *, hand=None, phase="build", chips=1):
    """A 2-player game, seat 0 to move in ``phase`` with ``columns`` (x from 0) built and ``hand`` held."""
    state = clone(GAME.setup(2, {}, random.Random(0)))
    state["buildings"][0] = {"colour": "yellow", "left": 0, "columns": columns, "birds": 0}
    if hand in state["pile"]:
        state["pile"].remove(hand)
    state["chips"][0] = chips
    state.update(turn=0, phase=phase, hand=hand, stolen=False)
    return state


def positions(seeds=range(4), seats=3):
    """Positions of random games, every 7th move, each with its mover."""
    for seed in seeds:
        rng = random.Random(seed)
        state = GAME.setup(seats, {}, rng)
        step = 0
        while GAME.outcome(state) is None:
            seat = GAME.to_move(state)[0]
            if step % 7 == 0:
                yield state, seat
            moves = GAME.legal_moves(state, seat)
            state = GAME.apply(state, seat, moves[rng.randrange(len(moves))].args, rng)
            step += 1


def test_a_building_is_worth_its_score_and_half_the_points_waiting_under_no_roof():
    """Spec 1.10: windows (1) and doors (2) score only in a roofed column;
    the value counts those still open at half."""
    building = {"colour": "yellow", "left": 0, "birds": 0,
                "columns": [["door-yellow", "roof"], ["lit", "lit-cat"], ["wall", "dark", "roof"]]}
    # Roofed: the door (2), one dark window (1); heights 2 and 3 (1+2); the cat (1): 7.
    assert score(building)["total"] == 7
    # Waiting under no roof: two lit windows.
    assert hints.building_value(building) == 7 + 0.5 * 2


def test_a_placement_gains_exactly_what_it_adds_to_the_building_value():
    """``Facade.gain`` reads the building once and counts only the tile's
    columns; it must agree with valuing the whole building before and after."""
    checked = 0
    for state, seat in positions():
        building = state["buildings"][seat]
        facade = hints.Facade(building)
        for move in GAME.legal_moves(state, seat):
            if move.args["action"] == "place":
                tile = TILES[move.args["tile"]]
                after = built(building, move.args["tile"], move.args["x"], move.args["y"])
                assert facade.gain(tile, move.args["x"], move.args["y"]) == (
                    hints.building_value(after) - hints.building_value(building)), move.id
                checked += 1
    assert checked > 100


def test_a_roof_over_waiting_windows_is_tried_first_and_ending_the_turn_last():
    """A roof makes the windows under it count and adds a roofed height
    (spec 1.10): the search tries it before a roof over the door alone."""
    roof = token("R1")
    state = with_building([["door-yellow"], ["lit", "lit", "lit"]], hand=roof)
    order = GAME.order_moves(state, 0, GAME.legal_moves(state, 0), random.Random(0))
    assert [move.id for move in order] == [f"place:{roof}:1:3", f"place:{roof}:0:1", "done"]
    # Over the windows: 3 points counted (1.5 were counted at half) and 1 level: 2.5.
    assert hints.move_values(state, 0, order)[order[0].id] == 2.5


def test_a_second_roofed_height_scores_its_level_and_a_full_roof_its_columns():
    roof = token("R1")
    state = with_building([["door-yellow", "roof"], ["lit", "lit"]], hand=roof)
    values = hints.move_values(state, 0, GAME.legal_moves(state, 0))
    # 2 windows counted (1 was at half), levels 1 -> 1+2, every column roofed: +2.
    assert values[f"place:{roof}:1:2"] == 1 + 2 + 2


def test_hints_list_exactly_the_legal_moves_and_leave_the_state_alone():
    """The promise every hint keeps (the conformance kit's check (g) too):
    the order is a permutation of the legal moves, the playout move is a
    legal move and is what ``rollout_move`` picks among all of them with the
    same rng, and neither changes the state."""
    for state, seat in positions(seeds=range(3), seats=2):
        before = json.dumps(state, sort_keys=True)
        moves = GAME.legal_moves(state, seat)
        order = GAME.order_moves(state, seat, moves, random.Random(1))
        assert sorted(move.id for move in order) == sorted(move.id for move in moves)
        quick = GAME.playout_move(state, seat, random.Random(2))
        listed = GAME.rollout_move(state, seat, moves, random.Random(2))
        assert (quick and quick.id) == (listed and listed.id)
        assert quick is None or quick.id in {move.id for move in moves}
        assert json.dumps(state, sort_keys=True) == before


def test_playouts_place_the_best_tile_and_end_the_turn_when_nothing_adds_value():
    roof = token("R1")
    state = with_building([["door-yellow"], ["lit", "lit", "lit"]], hand=roof)
    assert GAME.playout_move(state, 0, random.Random(0)).id == f"place:{roof}:1:3"
    wall = token("wall")  # a plain wall scores nothing: it waits in the warehouse
    state = with_building([["door-yellow"], ["lit", "lit", "lit"]], hand=wall)
    assert GAME.playout_move(state, 0, random.Random(0)).id == "done"


def test_playouts_buy_a_roof_when_points_wait_under_none():
    """Roofs come only from brown draws, paid with a chip (spec 1.7 b): with
    windows waiting the playout buys one, with none it draws what fits."""
    def brown_draws(columns):
        state = with_building(columns, phase="take", chips=2)
        picks = [GAME.playout_move(state, 0, random.Random(run)) for run in range(30)]
        return sum(move.args["back"] in BROWN_BACKS for move in picks)

    assert brown_draws([["door-yellow"], ["lit", "lit", "lit"], ["lit", "lit", "lit"]]) >= 20
    assert brown_draws([["door-yellow", "roof"]]) <= 15


def test_a_cut_playout_ranks_the_building_with_more_waiting_windows_first():
    state = with_building([["door-yellow"], ["lit", "lit"]])
    state["buildings"][1] = {"colour": "green", "left": 0, "columns": [["door-green"]], "birds": 0}
    assert GAME.evaluate(state) == [1.0, 0.0]


def test_only_a_roof_adds_different_values_in_different_places():
    """``placements_to_compare`` looks at the first place of any other tile:
    a window, wall or door leaves its column open, so it adds the same
    wherever it goes; a roof's value depends on the columns it closes."""
    checked = 0
    for state, seat in positions(seeds=range(2)):
        facade = hints.Facade(state["buildings"][seat])
        for tile in list(TILES.values())[::3]:
            values = {facade.gain(tile, x, y) for x, y in rules.placements(facade.building, tile, {})}
            if tile["kind"] != "roof":
                assert len(values) <= 1, tile["type"]
                checked += bool(values)
    assert checked > 50


def test_playouts_draw_the_group_whose_tile_adds_most():
    """Beside a lone door with no chip (beige draws only), a playout draws a
    big window tile (a block of 6, or a 4- or 5-cell diamond tile with its
    chip): never a single, a bar or a corner without a cat, which add less."""
    state = with_building([["door-yellow"]], phase="take", chips=0)
    drawn = {GAME.playout_move(state, 0, random.Random(run)).args["shape"] for run in range(30)}
    assert drawn and drawn <= {"rect-6", "U-5", "T-4", "S-4", "square-4", "L-4", "corner-3"}
    assert not drawn & {"square-1", "bar-2", "bar-3"}
