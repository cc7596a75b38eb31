"""Every rule of docs/rules/kensington.md, one test each (positions built as state dicts)."""

import json
import random

import pytest

from gamehost.sdk import IllegalMove
from gamehost_kensington import rules
from gamehost_kensington.game import Kensington
from gamehost_kensington.rules import begin_turn, built, clone, placement_problem, score
from gamehost_kensington.tiles import TILES

GAME = Kensington()
DEFAULTS = GAME.default_options()


def tokens(type_id, lighting=None, cat=False, bird=False):
    """Tokens of the tiles of one table row with the given face."""
    return [token for token, tile in TILES.items() if tile["type"] == type_id and tile["cat"] == cat
            and tile["bird"] == bird and (lighting is None or tile["lighting"] == lighting)]


def token(type_id, lighting=None, cat=False, bird=False):
    return tokens(type_id, lighting, cat, bird)[0]


def fresh(players=2, **options):
    """A new game with seat 0 about to take."""
    state = GAME.setup(players, {**DEFAULTS, **options}, random.Random(0))
    state = clone(state)
    state.update(turn=0, phase="take")
    return state


def building(columns, left=0, colour="yellow", birds=0):
    return {"colour": colour, "left": left, "columns": columns, "birds": birds}


def holding(state, tile, seat=0):
    """``state`` with ``tile`` taken from the pile into seat's hand, Build under way."""
    state = clone(state)
    if tile in state["pile"]:
        state["pile"].remove(tile)
    state.update(turn=seat, hand=tile, phase="build", stolen=False)
    return state


def place(tile, x, y):
    return {"action": "place", "tile": tile, "x": x, "y": y}


def refused(state, seat, move, rule):
    """Apply must refuse ``move`` with ``rule``, leave the state alone and not list it."""
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalMove) as caught:
        GAME.apply(state, seat, move, random.Random(0))
    assert caught.value.rule == rule, caught.value.reason
    assert json.dumps(state, sort_keys=True) == before
    assert move not in [dict(listed.args) for listed in GAME.legal_moves(state, seat)]
    return caught.value.reason


def accepted(state, seat, move, seed=0):
    assert move in [dict(listed.args) for listed in GAME.legal_moves(state, seat)]
    return GAME.apply(state, seat, move, random.Random(seed))


LIT, DARK, DOOR = "lit", "dark", "door-yellow"


# --- Setup (spec 1.6) ------------------------------------------------------------------

@pytest.mark.parametrize("players, supply", [(2, 8), (3, 12), (4, 16), (5, 20)])
def test_setup_chip_supply_by_player_count_and_one_chip_each(players, supply):
    state = GAME.setup(players, DEFAULTS, random.Random(1))
    assert state["chips"] == [1] * players
    assert state["supply"] + sum(state["chips"]) == supply


def test_setup_each_player_starts_from_their_door_at_the_origin_with_an_empty_warehouse():
    state = GAME.setup(5, DEFAULTS, random.Random(1))
    assert [b["columns"] for b in state["buildings"]] == [[[f"door-{colour}"]] for colour in
                                                         ("yellow", "green", "blue", "brown", "grey")]
    assert all(b["left"] == 0 for b in state["buildings"])
    assert state["warehouses"] == [[None, None]] * 5


def test_setup_all_100_tiles_face_down_in_one_pile():
    state = GAME.setup(2, DEFAULTS, random.Random(1))
    assert sorted(state["pile"]) == sorted(TILES)


def test_setup_start_player_is_chosen_by_the_rng():
    starts = {GAME.setup(3, DEFAULTS, random.Random(seed))["turn"] for seed in range(30)}
    assert starts == {0, 1, 2}


# --- Placement (spec 1.8) ----------------------------------------------------------------

def test_placement_refused_below_the_ground_floor():
    state = holding(fresh(), token("E1", LIT))
    reason = refused(state, 0, place(state["hand"], 1, -1), "below-ground")
    assert "below the ground" in reason


def test_placement_refused_on_a_built_cell():
    state = holding(fresh(), token("E1", LIT))
    assert "already built" in refused(state, 0, place(state["hand"], 0, 0), "cell-occupied")


def test_placement_refused_when_the_tile_would_overhang_empty_space():
    state = holding(fresh(), token("E1", LIT))
    assert "overhang" in refused(state, 0, place(state["hand"], 1, 1), "no-overhang")


def test_tiles_never_rotate_a_step_that_fits_only_the_mirror_image_is_refused():
    state = fresh()
    state["buildings"][0] = building([[DOOR, LIT], [LIT]])
    mirror = holding(state, token("H1d", LIT))
    assert accepted(mirror, 0, place(mirror["hand"], 0, 1))
    printed = holding(state, token("H1c", LIT))
    refused(printed, 0, place(printed["hand"], 0, 2), "no-overhang")


def test_nothing_may_be_built_on_a_roof():
    state = fresh()
    state["buildings"][0] = building([[DOOR, "roof"]])
    state = holding(state, token("E1", LIT))
    assert "roof" in refused(state, 0, place(state["hand"], 0, 2), "nothing-on-roof")


def test_placement_refused_when_not_touching_the_building():
    state = holding(fresh(), token("E1", LIT))
    assert "no separate pieces" in refused(state, 0, place(state["hand"], 2, 0), "connected")


def test_first_placements_are_beside_or_on_top_of_the_start_door():
    state = holding(fresh(), token("E1", LIT))
    spots = {(move.args["x"], move.args["y"]) for move in GAME.legal_moves(state, 0) if move.args["action"] == "place"}
    assert spots == {(-1, 0), (1, 0), (0, 1)}


def test_french_example_dark_four_window_tile_touching_only_lit_windows_is_refused():
    state = fresh()
    state["buildings"][0] = building([[DOOR], [LIT]])
    state = holding(state, token("E6", DARK))
    reason = refused(state, 0, place(state["hand"], 2, 0), "window-contact")
    assert reason == ("A dark window tile must touch a dark window, a door, a wall or a roof; "
                      "here it would touch only lit windows.")


def test_french_example_dark_l_against_the_door_then_the_four_dark_windows_fit_and_a_lit_square_needs_the_roof():
    state = fresh()
    state["buildings"][0] = building([[DOOR], [LIT]])
    l_tile = token("H1a", DARK, cat=True)
    state = accepted(holding(state, l_tile), 0, place(l_tile, 0, 1))  # touches the door below
    assert state["chips"][0] == 2  # the diamond L earns a chip
    four_dark = token("E6", DARK)
    state = accepted(holding(state, four_dark), 0, place(four_dark, 2, 0))  # now touches a dark window
    lit_square = token("E1", LIT)
    before_roof = holding(state, lit_square)
    refused(before_roof, 0, place(lit_square, 1, 2), "window-contact")
    roof = token("R6")
    state = accepted(holding(state, roof), 0, place(roof, 2, 2))
    state = accepted(holding(state, lit_square), 0, place(lit_square, 1, 2))  # touches the roof
    assert state["buildings"][0]["columns"][1] == [LIT, DARK, LIT]


def test_window_may_touch_the_other_lighting_when_it_also_touches_its_own():
    state = fresh()
    state["buildings"][0] = building([[DOOR], [LIT], [DARK, DARK]])
    state = holding(state, token("E1", DARK))
    accepted(state, 0, place(state["hand"], 1, 1))  # lit below, dark to the right


def test_strict_lighting_variant_refuses_any_contact_with_the_other_lighting():
    state = fresh(strict_lighting=True)
    state["buildings"][0] = building([[DOOR], [LIT], [DARK, DARK]])
    state = holding(state, token("E1", DARK))
    assert "Strict lighting" in refused(state, 0, place(state["hand"], 1, 1), "strict-lighting")


def test_window_tile_may_touch_a_wall():
    state = fresh()
    state["buildings"][0] = building([[DOOR, LIT], ["wall"]])
    state = holding(state, token("E1", DARK))
    accepted(state, 0, place(state["hand"], 1, 1))


def test_red_door_only_on_the_ground_floor_beside_any_tile_or_door():
    state = holding(fresh(), token("red-door"))
    assert refused(state, 0, place(state["hand"], 0, 1), "door-on-ground-floor") == "A red door goes on the ground floor."
    accepted(state, 0, place(state["hand"], 1, 0))


def test_wall_goes_against_any_tile_or_door():
    state = fresh()
    state["buildings"][0] = building([[DOOR], [DARK]])
    state = holding(state, token("wall"))
    accepted(state, 0, place(state["hand"], 0, 1))
    accepted(state, 0, place(state["hand"], 2, 0))


def test_roof_goes_on_tiles_not_on_the_ground_by_default():
    state = holding(fresh(), token("R1"))
    assert refused(state, 0, place(state["hand"], 1, 0), "roof-not-on-ground") == "A roof goes on tiles, not on the ground."
    accepted(state, 0, place(state["hand"], 0, 1))


def test_roof_on_ground_option_allows_ground_floor_roofs():
    state = holding(fresh(roof_on_ground=True), token("R1"))
    accepted(state, 0, place(state["hand"], 1, 0))


def test_placement_extends_the_building_leftwards_as_solid_columns():
    grown = built(building([[DOOR]]), token("E4", LIT), -3, 0)
    assert grown["left"] == -3
    assert grown["columns"] == [[LIT], [LIT], [LIT], [DOOR]]


# --- Take (spec 1.7 step 1) ----------------------------------------------------------------

def test_beige_draw_is_free_and_gives_a_tile_matching_the_chosen_back_and_outline():
    state = fresh()
    after = accepted(state, 0, {"action": "draw", "back": "beige", "shape": "bar-2"})
    tile = TILES[after["hand"]]
    assert (tile["back"], tile["silhouette"]) == ("beige", "bar-2")
    assert after["chips"] == state["chips"] and after["phase"] == "build"
    assert len(after["pile"]) == len(state["pile"]) - 1 and after["hand"] not in after["pile"]


def test_drawn_tile_is_a_random_one_of_the_matching_face_down_tiles():
    state = fresh()
    drawn = {GAME.apply(state, 0, {"action": "draw", "back": "beige-diamond", "shape": "L-4"},
                        random.Random(seed))["hand"] for seed in range(40)}
    assert len(drawn) > 2
    assert {TILES[t]["silhouette"] for t in drawn} == {"L-4"}


def test_draw_refused_when_no_face_down_tile_has_that_back_and_outline():
    refused(fresh(), 0, {"action": "draw", "back": "brown-circle", "shape": "bar-2"}, "no-such-tile")


def test_brown_draw_costs_one_chip_paid_to_the_supply():
    state = fresh()
    after = accepted(state, 0, {"action": "draw", "back": "brown", "shape": "square-1"})
    assert after["chips"][0] == 0 and after["supply"] == state["supply"] + 1
    assert TILES[after["hand"]]["type"] == "R1"


def test_brown_draw_refused_without_a_chip():
    state = fresh()
    state["chips"][0] = 0
    reason = refused(state, 0, {"action": "draw", "back": "brown-circle", "shape": "square-1"}, "brown-draw-costs-a-chip")
    assert reason == "A brown tile costs one chip and you have none."


def test_four_chip_rule_forbids_the_free_beige_draw():
    state = fresh()
    state["chips"][0] = 4
    reason = refused(state, 0, {"action": "draw", "back": "beige", "shape": "square-1"}, "four-chip-rule")
    assert "4 or more chips" in reason
    assert {move.args["back"] for move in GAME.legal_moves(state, 0)} == {"brown", "brown-circle"}


def test_steal_pays_the_opponent_a_chip_and_the_stolen_tile_must_be_placed_first():
    state = fresh()
    stolen, own = token("E1", LIT), tokens("E1", LIT)[1]
    state["warehouses"][1] = [None, stolen]
    state["warehouses"][0] = [own, None]
    after = accepted(state, 0, {"action": "steal", "from": 1, "spot": 1})
    assert after["chips"] == [0, 2] and after["warehouses"][1] == [None, None]
    assert after["hand"] == stolen and after["stolen"]
    assert {move.args.get("tile") for move in GAME.legal_moves(after, 0)} == {stolen}
    refused(after, 0, {"action": "done"}, "place-stolen-first")
    refused(after, 0, place(own, 1, 0), "place-stolen-first")
    after = accepted(after, 0, place(stolen, 1, 0))
    accepted(after, 0, place(own, 2, 0))


def test_steal_refused_when_the_tile_cannot_be_placed_at_once():
    state = fresh()
    state["warehouses"][1] = [token("R4"), None]
    reason = refused(state, 0, {"action": "steal", "from": 1, "spot": 0}, "stolen-tile-must-fit")
    assert "must be placed at once" in reason


def test_steal_refused_without_a_chip():
    state = fresh()
    state["chips"][0] = 0
    state["warehouses"][1] = [token("E1", LIT), None]
    refused(state, 0, {"action": "steal", "from": 1, "spot": 0}, "steal-costs-a-chip")


def test_steal_refused_from_an_empty_spot_or_your_own_warehouse():
    state = fresh()
    state["warehouses"][0] = [token("E1", LIT), None]
    refused(state, 0, {"action": "steal", "from": 1, "spot": 0}, "empty-spot")
    refused(state, 0, {"action": "steal", "from": 0, "spot": 0}, "steal-from-opponent")


def test_take_comes_before_building():
    state = fresh()
    state["warehouses"][0] = [token("E1", LIT), None]
    assert "Take a tile first" in refused(state, 0, place(token("E1", LIT), 1, 0), "take-first")


def test_only_one_tile_is_taken_per_turn():
    state = holding(fresh(), token("E1", LIT))
    refused(state, 0, {"action": "draw", "back": "beige", "shape": "bar-2"}, "one-take-per-turn")


def test_with_no_legal_take_the_player_goes_straight_to_build():
    state = fresh()
    state["pile"] = [t for t in state["pile"] if TILES[t]["back"] == "brown"]
    state["chips"] = [0, 0]
    state["warehouses"][1] = [token("E1", LIT), None]
    state = begin_turn(state, 0)
    assert state["phase"] == "build" and state["hand"] is None
    assert [move.id for move in GAME.legal_moves(state, 0)] == ["done"]


# --- Build (spec 1.7 step 2) ------------------------------------------------------------------

def test_build_with_the_taken_tile_and_both_warehouse_tiles_in_any_order():
    state = fresh()
    first, second, third = tokens("E1", LIT)[:3]
    state["warehouses"][0] = [first, second]
    state = holding(state, third)
    state = accepted(state, 0, place(second, 1, 0))
    state = accepted(state, 0, place(third, 2, 0))
    state = accepted(state, 0, place(first, -1, 0))
    assert state["warehouses"][0] == [None, None] and state["hand"] is None
    assert state["placed_this_turn"] == 3


def test_placing_a_tile_from_an_opponents_warehouse_without_stealing_is_refused():
    state = holding(fresh(), token("E1", LIT))
    state["warehouses"][1] = [tokens("E1", LIT)[1], None]
    refused(state, 0, place(state["warehouses"][1][0], 1, 0), "not-your-tile")


def test_placing_a_diamond_tile_earns_a_chip_from_the_supply():
    state = holding(fresh(), token("H1a", LIT))
    after = accepted(state, 0, place(state["hand"], 1, 0))
    assert after["chips"][0] == 2 and after["supply"] == state["supply"] - 1


def test_placing_a_diamond_tile_from_the_warehouse_also_earns_a_chip():
    state = holding(fresh(), token("E1", LIT))
    state["warehouses"][0] = [token("H2a", LIT), None]
    after = accepted(state, 0, place(state["warehouses"][0][0], 1, 0))
    assert after["chips"][0] == 2


def test_no_chip_for_a_diamond_tile_when_the_supply_is_empty():
    state = holding(fresh(), token("H1a", LIT))
    state["supply"] = 0
    after = accepted(state, 0, place(state["hand"], 1, 0))
    assert after["chips"][0] == 1 and after["supply"] == 0


def test_storing_a_diamond_tile_earns_nothing_and_an_unplaced_tile_goes_to_a_free_spot():
    state = holding(fresh(), token("H1a", LIT))
    after = accepted(state, 0, {"action": "done"})
    assert after["warehouses"][0] == [state["hand"], None]
    assert after["chips"][0] == 1 and after["turn"] == 1


def test_unplaced_tile_goes_back_face_down_into_the_pile_when_the_warehouse_is_full():
    state = fresh()
    state["warehouses"][0] = tokens("E1", LIT)[:2]
    state = holding(state, token("E2", DARK))
    after = accepted(state, 0, {"action": "done"})
    assert state["hand"] in after["pile"] and after["pile"] == sorted(after["pile"], key=lambda t: int(t[5:]))
    assert after["warehouses"][0] == state["warehouses"][0]


def test_tile_must_be_stored_while_a_spot_is_free():
    state = holding(fresh(), token("E2", DARK))
    assert "must be stored" in refused(state, 0, {"action": "return"}, "store-when-free")


def test_store_when_free_option_off_lets_the_player_send_the_tile_back():
    state = holding(fresh(store_when_free=False), token("E2", DARK))
    after = accepted(state, 0, {"action": "return"})
    assert state["hand"] in after["pile"] and after["warehouses"][0] == [None, None]


def test_return_is_refused_with_a_full_warehouse_where_done_already_sends_the_tile_back():
    state = fresh(store_when_free=False)
    state["warehouses"][0] = tokens("E1", LIT)[:2]
    state = holding(state, token("E2", DARK))
    assert "choose done" in refused(state, 0, {"action": "return"}, "return-is-done-when-full")


def test_spot_availability_is_judged_after_warehouse_tiles_are_placed():
    state = fresh()
    stored = tokens("E1", LIT)[:2]
    state["warehouses"][0] = list(stored)
    state = holding(state, token("R3"))
    state = accepted(state, 0, place(stored[0], 1, 0))
    after = accepted(state, 0, {"action": "done"})
    assert after["warehouses"][0] == [state["hand"], stored[1]]


# --- End of game (spec 1.9) ---------------------------------------------------------------------

def seventh_bird_position(players=3):
    """Six bird roofs are out of the pile; the only brown square-1 left is a bird."""
    state = fresh(players)
    birds = [t for t in state["pile"] if TILES[t]["bird"]]
    keep = tokens("R1", bird=True)[0]
    state["pile"] = [t for t in state["pile"] if t == keep or (t not in birds and TILES[t]["type"] != "R1")]
    assert rules.birds_out_of_pile(state) == 8
    state["pile"] += [t for t in birds if TILES[t]["type"] != "R1"][:2]
    state["pile"].sort(key=lambda t: int(t[5:]))
    assert rules.birds_out_of_pile(state) == 6
    return state, keep


def test_seventh_bird_drawn_from_the_pile_triggers_the_end_and_a_final_build_only_round():
    state, bird = seventh_bird_position()
    state["warehouses"][2] = [token("E1", LIT), None]
    state = accepted(state, 0, {"action": "draw", "back": "brown", "shape": "square-1"})
    assert state["hand"] == bird and state["final"]["trigger"] == 0
    state = accepted(state, 0, place(bird, 0, 1))  # the trigger player finishes their turn
    state = accepted(state, 0, {"action": "done"})
    assert (state["phase"], state["turn"]) == ("final-build", 1)
    assert "build-only" in refused(state, 1, {"action": "draw", "back": "beige", "shape": "bar-2"},
                                   "final-round-build-only")
    state = accepted(state, 1, {"action": "done"})
    assert (state["phase"], state["turn"]) == ("final-build", 2)
    state = accepted(state, 2, place(state["warehouses"][2][0], 1, 0))
    state = accepted(state, 2, {"action": "done"})
    assert state["phase"] == "over" and state["end"] == "seventh-bird"
    assert GAME.to_move(state) == () and GAME.outcome(state) is not None


def test_seventh_bird_trigger_holds_even_if_that_roof_goes_back_to_the_pile():
    state, bird = seventh_bird_position(2)
    state["warehouses"][0] = tokens("E1", LIT)[:2]
    state = accepted(state, 0, {"action": "draw", "back": "brown", "shape": "square-1"})
    state = accepted(state, 0, {"action": "done"})
    assert bird in state["pile"] and rules.birds_out_of_pile(state) == 6
    assert state["phase"] == "final-build"


def test_bird_roofs_returned_to_the_pile_do_not_count_towards_seven():
    state, bird = seventh_bird_position(2)
    state["pile"].append(tokens("R2", bird=True)[0])
    state["pile"].sort(key=lambda t: int(t[5:]))
    assert rules.birds_out_of_pile(state) == 5
    after = accepted(state, 0, {"action": "draw", "back": "brown", "shape": "square-1"})
    assert after["final"] is None


def test_game_ends_when_nobody_can_place_any_more():
    state = fresh()
    state["pile"] = [t for t in state["pile"] if TILES[t]["back"] == "brown"]
    state["chips"] = [0, 0]
    state = begin_turn(state, 0)
    assert state["phase"] == "over" and state["end"] == "nobody-can-place"
    assert "nobody could place" in GAME.outcome(state).summary


def test_game_goes_on_while_someone_could_buy_a_roof_that_fits():
    state = fresh()
    state["pile"] = [t for t in state["pile"] if TILES[t]["back"] == "brown"]
    state["chips"] = [0, 1]
    assert begin_turn(state, 0)["phase"] == "build"


def idle_turn(state):
    """The player to move draws a face-down beige tile, a single while any is left, and ends the
    turn without placing it (stored, or sent back once the warehouse is full): a turn of a stall."""
    seat = state["turn"]
    draws = [move.id for move in GAME.legal_moves(state, seat) if move.id.startswith("draw:beige:")]
    back, shape = ("draw:beige:square-1" if "draw:beige:square-1" in draws else draws[0]).split(":")[1:]
    state = accepted(state, seat, {"action": "draw", "back": back, "shape": shape})
    return accepted(state, seat, {"action": "done"})


def turns_until_over(state, limit=200):
    """Idle turns played until the game ends."""
    for turns in range(1, limit + 1):
        state = idle_turn(state)
        if state["phase"] == "over":
            return turns, state
    raise AssertionError(f"the game did not end in {limit} idle turns")


@pytest.mark.parametrize("players, options, rounds", [(2, {}, 10), (2, {"idle_rounds": 3}, 3),
                                                      (3, {"idle_rounds": 7}, 7), (4, {}, 10)])
def test_a_stall_ends_after_exactly_the_idle_rounds_option_rounds_without_a_placement(players, options, rounds):
    state = fresh(players, **options)
    assert DEFAULTS["idle_rounds"] == 10
    turns, over = turns_until_over(state)
    assert (turns, over["end"]) == (rounds * players, "idle-rounds")
    assert f"{rounds} rounds passed in a row without a tile placed" in GAME.outcome(over).summary


def test_a_game_with_placements_on_offer_is_not_cut_short_after_three_idle_rounds():
    state = fresh()
    for _ in range(3 * 2):
        state = idle_turn(state)
    assert state["phase"] == "take" and state["idle_turns"] == 6
    state = accepted(state, 0, {"action": "draw", "back": "beige", "shape": "square-1"})
    assert any(move.id.startswith("place:") for move in GAME.legal_moves(state, 0))


def test_a_placement_starts_the_idle_count_again():
    state = fresh()
    for _ in range(10 * 2 - 1):
        state = idle_turn(state)
    assert state["turn"] == 1 and state["idle_turns"] == 19
    state = accepted(state, 1, {"action": "draw", "back": "beige", "shape": "square-1"})
    placement = next(move for move in GAME.legal_moves(state, 1) if move.id.startswith("place:"))
    state = accepted(state, 1, dict(placement.args))
    state = accepted(state, 1, {"action": "done"})
    assert state["idle_turns"] == 0
    turns, _ = turns_until_over(state)
    assert turns == 10 * 2


def test_matches_begun_under_rules_1_still_end_after_three_idle_rounds():
    """Their recorded options carry no idle_rounds, and a replay sets them up with rules 1."""
    (rules_1,) = GAME.earlier_versions
    assert (GAME.version, rules_1.version, rules_1.id) == ("2", "1", GAME.id)
    assert "idle_rounds" not in rules_1.default_options()
    state = rules_1.setup(2, rules_1.default_options(), random.Random(0))
    state.update(turn=0, phase="take")
    turns, over = turns_until_over(state)
    assert "idle_rounds" not in over["options"] and turns == 3 * 2
    assert "3 rounds passed in a row without a tile placed" in rules_1.outcome(over).summary


# --- Scoring (spec 1.10) --------------------------------------------------------------------------

def build_legally(steps, start=None):
    """A building grown tile by tile, each placement checked legal."""
    house = start or building([[DOOR]])
    for tile, x, y in steps:
        assert placement_problem(house, TILES[tile], x, y, DEFAULTS) is None, (TILES[tile]["type"], x, y)
        house = built(house, tile, x, y)
    return house


def test_french_scoring_example_scores_29():
    r1 = tokens("R1")
    lit_squares = tokens("E1", LIT)
    house = build_legally([
        (token("red-door"), 1, 0),
        (token("E6", LIT, cat=True), 0, 1),
        (token("E8", LIT), -2, 0),
        (token("E5", LIT), 2, 0),
        (token("R2"), 0, 3),
        (token("E1", DARK), -1, 3),
        (token("E3", DARK, cat=True), -2, 3),
        (r1[0], -2, 5),
        (r1[1], -1, 4),
        (lit_squares[0], 2, 3),
        (r1[2], 2, 4),
        (lit_squares[1], 3, 0),
    ])
    sheet = score(house)
    assert (sheet["windows"], sheet["doors"], sheet["level_points"], sheet["cats"], sheet["full_roof"]) == (17, 4, 6, 2, 0)
    assert sheet["total"] == 29


def test_windows_and_doors_in_unroofed_columns_score_nothing():
    sheet = score(building([[DOOR, LIT], [LIT, LIT]]))
    assert sheet["total"] == 0


def test_cats_score_anywhere_even_without_a_roof():
    assert score(building([[DOOR, "lit-cat"], ["dark-cat"]]))["total"] == 2


def test_levels_count_distinct_roofed_heights():
    sheet = score(building([[DOOR, "roof"], [LIT, LIT, "roof"], [LIT, "roof"], [LIT]]))
    assert (sheet["levels"], sheet["level_points"]) == (2, 3)


def test_full_roof_bonus_one_point_per_column_when_every_column_is_roofed():
    sheet = score(building([[DOOR, "roof"], [LIT, LIT, "roof"]]))
    assert sheet["full_roof"] == 2
    assert sheet["total"] == 2 + 2 + 3 + 2  # door, windows, levels 1+2, bonus


def over_with(columns_per_seat, birds_per_seat):
    state = fresh(len(columns_per_seat))
    state["buildings"] = [building(columns, birds=birds) for columns, birds in zip(columns_per_seat, birds_per_seat)]
    state.update(phase="over", end="nobody-can-place")
    return state


def test_tie_broken_by_most_birds_on_built_roofs():
    outcome = GAME.outcome(over_with([[[DOOR, "roof"]], [[DOOR, "roof"]]], [0, 1]))
    assert outcome.scores == [4, 4] and outcome.ranking == [2, 1]


def test_tie_with_equal_birds_is_a_shared_win():
    outcome = GAME.outcome(over_with([[[DOOR, "roof"]], [[DOOR, "roof"]], [[DOOR]]], [1, 1, 0]))
    assert outcome.ranking == [1, 1, 3]


# --- Hidden information (spec 1.12) -------------------------------------------------------------------

def scalars(value, into):
    if isinstance(value, dict):
        for key, item in value.items():
            into.add(key)
            scalars(item, into)
    elif isinstance(value, list):
        for item in value:
            scalars(item, into)
    else:
        into.add(value)
    return into


def test_no_view_shows_a_tile_still_in_the_pile_only_backs_and_outlines():
    state = holding(fresh(3), token("E1", LIT))
    assert {secret.value for secret in GAME.secrets(state)} == set(state["pile"])
    assert {secret.owner for secret in GAME.secrets(state)} == {None}
    for viewer in (0, 1, 2, None):
        view = GAME.view(state, viewer)
        assert not scalars(view, set()) & set(state["pile"])
        assert view["pile"]["beige:square-1"] == 7 and view["pile_size"] == 99
        assert view["tiles"][state["hand"]]["lighting"] == "lit"  # a drawn tile is face up


def test_a_tile_sent_back_to_the_pile_is_hidden_again():
    state = fresh()
    state["warehouses"][0] = tokens("E1", LIT)[:2]
    state = holding(state, token("E2", DARK))
    after = accepted(state, 0, {"action": "done"})
    assert state["hand"] in {secret.value for secret in GAME.secrets(after)}
    assert state["hand"] not in scalars(GAME.view(after, 0), set())


# --- Moves --------------------------------------------------------------------------------------------

def test_malformed_moves_are_refused_as_malformed():
    from gamehost.sdk import MalformedMove
    state = holding(fresh(), token("E1", LIT))
    with pytest.raises(MalformedMove):
        GAME.apply(state, 0, {"action": "fly"}, random.Random(0))
    with pytest.raises(MalformedMove):
        GAME.apply(state, 0, {"action": "place", "tile": state["hand"], "x": "1", "y": 0}, random.Random(0))


def test_only_the_seat_to_move_may_move():
    state = fresh()
    assert GAME.legal_moves(state, 1) == []
    refused(state, 1, {"action": "draw", "back": "beige", "shape": "bar-2"}, "not-your-turn")


def test_listed_placements_are_exactly_the_positions_the_placement_rules_allow():
    rng = random.Random(11)
    state = GAME.setup(2, DEFAULTS, rng)
    for _ in range(50):
        if not GAME.to_move(state):
            break
        for house in state["buildings"]:
            for tile in list(TILES.values())[::13]:
                brute = [[x, y] for x in range(house["left"] - 4, house["left"] + len(house["columns"]) + 4)
                         for y in range(-1, 12) if placement_problem(house, tile, x, y, DEFAULTS) is None]
                assert sorted(brute) == sorted(rules.placements(house, tile, DEFAULTS))
        seat = GAME.to_move(state)[0]
        state = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)).args, rng)
