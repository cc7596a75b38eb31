"""Rules tests for Der Wettkampf der Burgbaumeister, one per rule of
docs/rules/burgbaumeister.md (section numbers in the docstrings)."""

from __future__ import annotations

import copy
import json
import random
import re

import pytest

from gamehost.sdk import IllegalMove, MalformedMove, Secret
from gamehost_burgbaumeister.game import Burgbaumeister
from gamehost_burgbaumeister.rules import card_number

GAME = Burgbaumeister()
POINTS = {"special_cards": True}
RNG = random.Random(0)  # the rules draw chance only at setup


def position(walls, table, *, seat=0, revealed=None, options=None, idle_turns=0, discard=(), spent=(), seen=()):
    """A state built directly: `table` maps place -> number of a card lying there."""
    tokens = [None] * 45
    for place, number in table.items():
        tokens[place] = f"card-{number}"
    return {
        "options": GAME.default_options() | (options or {}),
        "table": tokens,
        "seen": [place in seen or place == revealed for place in range(45)],
        "walls": [list(wall) for wall in walls],
        "discard": list(discard),
        "spent_magicians": list(spent),
        "seat": seat,
        "phase": "reveal" if revealed is None else "decide",
        "revealed": revealed,
        "turn": 0,
        "idle_turns": idle_turns,
        "end": None,
    }


def play(state, player, /, **move):
    return GAME.apply(state, player, move, RNG)


def refused(state, player, rule, /, **move):
    """Assert the move is refused under `rule` and leaves the state untouched; return the reason."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as refusal:
        play(state, player, **move)
    assert refusal.value.rule == rule
    assert state == before
    return refusal.value.reason


def move_ids(state, seat=None):
    return [move.id for move in GAME.legal_moves(state, state["seat"] if seat is None else seat)]


# --- §2.2 Setup -----------------------------------------------------------

@pytest.mark.parametrize("seats", [2, 3, 4])
def test_setup_gives_each_player_a_start_card_1(seats):
    state = GAME.setup(seats, GAME.default_options(), random.Random(1))
    assert state["walls"] == [[1]] * seats


def test_setup_lays_cards_2_to_46_face_down_at_fixed_places():
    state = GAME.setup(2, GAME.default_options(), random.Random(1))
    assert sorted(int(token.split("-")[1]) for token in state["table"]) == list(range(2, 47))
    assert state["phase"] == "reveal" and state["revealed"] is None
    assert GAME.view(state, None)["table"] == ["down"] * 45


def test_setup_shuffles_the_layout_and_draws_the_first_player_with_the_rng():
    states = [GAME.setup(4, GAME.default_options(), random.Random(seed)) for seed in range(20)]
    assert len({tuple(state["table"]) for state in states}) == 20
    assert {state["seat"] for state in states} == {0, 1, 2, 3}
    assert GAME.setup(4, GAME.default_options(), random.Random(7)) == GAME.setup(4, GAME.default_options(), random.Random(7))


def test_state_survives_a_json_round_trip():
    state = GAME.setup(3, GAME.default_options() | POINTS, random.Random(2))
    assert json.loads(json.dumps(state)) == state


# --- §2.3 Turn ------------------------------------------------------------

def test_reveal_turns_the_card_face_up_in_place_for_everyone():
    state = play(position([[1], [1]], {4: 17, 9: 30}), 0, action="reveal", place=4)
    assert state["table"][4] == "card-17" and state["revealed"] == 4
    for viewer in (0, 1, None):
        view = GAME.view(state, viewer)
        assert view["table"][4] == 17 and view["table"][9] == "down"
        assert view["revealed"] == {"place": "A5", "number": 17, "special": None}
    assert GAME.to_move(state) == (0,)


def test_reveal_refused_where_no_card_lies():
    reason = refused(position([[1], [1]], {4: 17}), 0, "no-card-there", action="reveal", place=5)
    assert "A6" in reason


def test_reveal_refused_off_the_table():
    refused(position([[1], [1]], {4: 17}), 0, "off-table", action="reveal", place=45)


def test_only_one_card_may_be_turned_per_turn():
    state = position([[1], [1]], {4: 17, 9: 30}, revealed=4)
    assert move_ids(state) == ["take", "decline"]
    refused(state, 0, "one-card-per-turn", action="reveal", place=9)


def test_take_and_decline_refused_before_a_card_is_turned():
    state = position([[1], [1]], {4: 17})
    refused(state, 0, "reveal-first", action="take")
    refused(state, 0, "reveal-first", action="decline")
    assert move_ids(state) == ["reveal:A5"]


def test_move_out_of_turn_refused():
    reason = refused(position([[1], [1]], {4: 17}, seat=1), 0, "not-your-turn", action="reveal", place=4)
    assert reason == "It is Player 2's turn."
    assert GAME.legal_moves(position([[1], [1]], {4: 17}, seat=1), 0) == []


def test_malformed_move_refused():
    """A move without the move shape is MalformedMove (the host answers INVALID_ARGUMENT), not a rules refusal."""
    state = position([[1], [1]], {4: 17})
    with pytest.raises(MalformedMove):
        play(state, 0, action="jump")
    with pytest.raises(MalformedMove):
        play(state, 0, action="reveal", place="A5")
    refused(state, 0, "malformed-move", action="jump")
    refused(state, 0, "malformed-move", action="reveal", place="A5")
    refused(state, 0, "malformed-move", action="reveal", place=True)
    refused(state, 0, "malformed-move", action="reveal", place=4, card=17)
    refused(state, 0, "malformed-move", action="reveal")
    # an action that is a list or an object cannot name one (and is not hashable)
    refused(state, 0, "malformed-move", action=["reveal"], place=4)
    refused(state, 0, "malformed-move", action={"reveal": 4})
    refused(state, 0, "malformed-move", action=[])


def test_decline_turns_the_card_back_face_down_at_the_same_place():
    state = play(position([[1, 20], [1]], {4: 17, 9: 30}, revealed=4), 0, action="decline")
    assert state["table"][4] == "card-17" and state["revealed"] is None
    assert state["walls"] == [[1, 20], [1]]
    assert GAME.view(state, None)["table"][4] == "down"


def test_take_puts_a_higher_card_at_the_right_end_of_the_wall():
    state = play(position([[1, 20], [1]], {4: 27, 9: 30}, revealed=4), 0, action="take")
    assert state["walls"][0] == [1, 20, 27]
    assert state["table"][4] is None
    assert GAME.view(state, None)["table"][4] is None


def test_take_refused_for_a_card_lower_than_the_highest_in_the_wall():
    state = position([[1, 20], [1]], {4: 17, 9: 30}, revealed=4)
    reason = refused(state, 0, "take-must-be-higher", action="take")
    assert reason == "You can only take a card higher than 20, the highest in your wall: turn 17 back."
    assert move_ids(state) == ["decline"]


def test_the_turn_ends_after_take_or_decline_and_play_passes_clockwise():
    state = position([[1], [1], [1]], {4: 17, 9: 30}, seat=2, revealed=4)
    assert GAME.to_move(play(state, 2, action="decline")) == (0,)
    assert GAME.to_move(play(state, 2, action="take")) == (0,)
    assert play(state, 2, action="take")["turn"] == 1


def test_cards_are_never_placed_in_another_players_wall():
    state = position([[1], [1, 5]], {4: 17, 9: 30}, revealed=4)
    after = play(state, 0, action="take")
    assert after["walls"] == [[1, 17], [1, 5]]


# --- §2.4 End of game -------------------------------------------------------

def test_a_ten_card_wall_ends_the_game_at_once_and_wins():
    state = position([[1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 40]], {4: 17, 9: 30}, revealed=4)
    over = play(state, 0, action="take")
    assert over["end"] == "wall-complete" and GAME.to_move(over) == ()
    outcome = GAME.outcome(over)
    assert outcome.ranking == [1, 2] and outcome.scores == [10, 2]
    assert outcome.summary == "Player 1 completed a wall of 10 cards. Player 1 wins with 10 cards."
    refused(over, 1, "game-over", action="reveal", place=9)
    assert GAME.legal_moves(over, 1) == []


def test_nine_cards_do_not_end_the_game():
    state = play(position([[1, 2, 3, 4, 5, 6, 7, 8], [1]], {4: 17, 9: 30}, revealed=4), 0, action="take")
    assert state["end"] is None and GAME.outcome(state) is None


def test_game_ends_when_no_player_can_take_any_face_down_card():
    # After 0 takes 44, every face-down card (12, 30) is below every highest card (44, 35).
    state = position([[1, 20], [1, 35]], {4: 44, 9: 30, 11: 12}, revealed=4)
    over = play(state, 0, action="take")
    assert over["end"] == "no-card-takeable"
    assert GAME.outcome(over).summary.startswith("No one can take any of the remaining face-down cards.")


def test_game_goes_on_while_one_player_can_still_take_a_card():
    state = play(position([[1, 20], [1, 5]], {4: 44, 9: 30}, revealed=4), 0, action="take")
    assert state["end"] is None and GAME.to_move(state) == (1,)


def test_no_card_takeable_end_the_longest_wall_wins():
    state = position([[1, 2, 3, 7, 40], [1, 4, 5, 41], [1, 45]], {4: 46, 9: 30}, revealed=4, seat=2)
    over = play(state, 2, action="take")
    assert over["end"] == "no-card-takeable"
    assert GAME.outcome(over).ranking == [1, 2, 3]


def test_no_card_takeable_end_equal_walls_won_by_the_higher_highest_card():
    state = position([[1, 2, 40], [1, 4, 41], [1, 3, 45]], {4: 35, 9: 30}, revealed=4, seat=2)
    over = play(state, 2, action="decline")
    assert over["end"] == "no-card-takeable"
    outcome = GAME.outcome(over)
    assert outcome.scores == [3, 3, 3] and outcome.ranking == [3, 2, 1]


def test_walls_still_level_after_the_tie_break_share_the_win():
    # Both walls are just the start card "1" when the guard stops the game.
    state = position([[1], [1], [1, 2]], {4: 30}, revealed=4, seat=2, idle_turns=1)
    over = play(state, 2, action="decline")
    assert over["end"] == "stalled"
    outcome = GAME.outcome(over)
    assert outcome.ranking == [2, 2, 1]
    level = position([[1], [1]], {4: 30}, revealed=4, idle_turns=1)
    outcome = GAME.outcome(play(level, 0, action="decline"))
    assert outcome.ranking == [1, 1]
    assert outcome.summary.endswith("Player 1 and Player 2 share the win with 1 card.")


def test_stall_guard_ends_the_game_after_twice_the_face_down_count_of_idle_turns():
    # 2 face-down cards: the 4th turn in a row without a take ends the game.
    state = position([[1], [1]], {4: 17, 9: 30}, revealed=4, idle_turns=2)
    state = play(state, 0, action="decline")
    assert state["end"] is None and state["idle_turns"] == 3
    state = play(play(state, 1, action="reveal", place=9), 1, action="decline")
    assert state["end"] == "stalled" and state["idle_turns"] == 4
    assert GAME.outcome(state).summary.startswith("4 turns in a row without a take: the game stops.")


def test_stall_guard_factor_is_an_option():
    state = position([[1], [1]], {4: 17, 9: 30}, revealed=4, idle_turns=2,
                     options={"stall_turns_per_face_down_card": 1})
    assert play(state, 0, action="decline")["end"] == "stalled"


def test_a_take_resets_the_stall_count():
    state = play(position([[1], [1]], {4: 17, 9: 30}, revealed=4, idle_turns=3), 0, action="take")
    assert state["idle_turns"] == 0 and state["end"] is None


def test_stalled_game_is_scored_like_the_special_case():
    state = position([[1, 2, 3], [1, 9, 46]], {4: 17, 9: 30}, revealed=4, idle_turns=3)
    over = play(state, 0, action="decline")
    assert over["end"] == "stalled"
    assert GAME.outcome(over).ranking == [2, 1]


# --- §2.5 Points variant ------------------------------------------------------

def points_of(wall, **options):
    state = position([wall, [1]], {}, options=POINTS | options)
    state["end"], state["phase"] = "no-card-takeable", "over"
    return GAME.outcome(state).scores[0]


def test_each_card_scores_one_point_start_card_included():
    assert points_of([1, 2, 3, 4]) == 4


def test_start_card_scores_option_off_leaves_the_start_card_out():
    assert points_of([1, 2, 3, 4], start_card_scores=False) == 3


def test_king_and_queen_score_three_bonus_points_each():
    assert points_of([1, 37, 40]) == 3 + 3 + 3


def test_two_princes_and_two_princesses_give_six_bonus_points():
    # [FR]: "un joueur ayant 2 princes et 2 princesses aura 6 points boni".
    assert points_of([1, 8, 11, 21, 24]) == 5 + 6


def test_prince_princess_pairs_need_not_be_adjacent_and_unpaired_score_one():
    # 3 princes, 1 princess: 4 single points + 1 pair = 5 bonus.
    assert points_of([1, 8, 11, 15, 20, 21, 30, 34]) == 8 + 5


def test_a_raven_scores_one_and_a_double_raven_two():
    assert points_of([1, 5]) == 2 + 1
    assert points_of([1, 17]) == 2 + 2


def test_raven_bonus_is_capped_at_five():
    # 4 single ravens and 2 double ravens make 8 raven points, capped at 5.
    assert points_of([1, 5, 17, 19, 33, 39, 45]) == 7 + 5


def test_cannons_towers_and_the_magician_score_no_bonus():
    assert points_of([1, 6, 18, 27]) == 4


def test_points_variant_winner_need_not_be_the_player_who_completed_the_wall():
    wall = [1, 2, 3, 4, 7, 9, 10, 12, 13]
    rich = [1, 8, 11, 21, 24, 37, 40, 43]  # 2 princes, 3 princesses, queen, king
    state = position([wall, rich], {4: 14, 9: 30}, revealed=4, options=POINTS)
    over = play(state, 0, action="take")
    assert over["end"] == "wall-complete"
    outcome = GAME.outcome(over)
    assert outcome.scores[0] == 10
    assert outcome.scores[1] == 8 + 3 + 3 + 2 + 3 + 2
    assert outcome.ranking == [2, 1]


def test_points_tie_broken_by_the_highest_card():
    state = position([[1, 2, 30], [1, 3, 29]], {}, options=POINTS)
    state["end"], state["phase"] = "no-card-takeable", "over"
    outcome = GAME.outcome(state)
    assert outcome.scores == [3, 3] and outcome.ranking == [1, 2]


def test_basic_game_ignores_special_cards():
    assert GAME.outcome({**position([[1, 40, 45], [1]], {}), "end": "stalled", "phase": "over"}).scores == [3, 1]
    state = play(position([[1], [1, 2]], {4: 18, 9: 30}, revealed=4), 0, action="take")
    assert state["phase"] == "reveal" and state["walls"][1] == [1, 2]


# --- §2.5 Cannons and towers ---------------------------------------------------

def test_cannon_must_fire_at_once_before_the_turn_ends():
    state = play(position([[1, 10], [1, 2, 3]], {4: 18, 9: 30}, revealed=4, options=POINTS), 0, action="take")
    assert state["phase"] == "fire" and GAME.to_move(state) == (0,)
    assert move_ids(state) == ["fire:1:2", "fire:1:3"]
    reason = refused(state, 0, "cannon-must-fire", action="reveal", place=9)
    assert reason == "Your cannon must fire first: remove a card from an opponent's wall."


def test_cannon_removes_the_chosen_card_out_of_the_game():
    state = play(position([[1, 10], [1, 2, 3]], {4: 18, 9: 30}, revealed=4, options=POINTS), 0, action="take")
    state = play(state, 0, action="fire", seat=1, card=3)
    assert state["walls"] == [[1, 10, 18], [1, 2]]
    assert state["discard"] == [3]
    assert GAME.view(state, None)["discard"] == [{"number": 3, "special": None}]
    assert GAME.to_move(state) == (1,)


def test_cannon_victims_highest_card_may_drop():
    state = play(position([[1, 10], [1, 2, 30]], {4: 18, 9: 25}, revealed=4, options=POINTS), 0, action="take")
    state = play(play(state, 0, action="fire", seat=1, card=30), 1, action="reveal", place=9)
    assert "take" in move_ids(state)


def test_cannon_cannot_remove_a_tower_or_a_card_between_two_towers():
    victim = [1, 3, 6, 9, 12, 16, 20]  # towers 6 and 16 shield 6, 9, 12, 16
    state = play(position([[1, 10], victim], {4: 18, 9: 30}, revealed=4, options=POINTS), 0, action="take")
    assert move_ids(state) == ["fire:1:3", "fire:1:20"]
    reason = refused(state, 0, "cannon-target", action="fire", seat=1, card=9)
    assert "towers, cards between towers and start cards are immune" in reason
    refused(state, 0, "cannon-target", action="fire", seat=1, card=16)


def test_a_single_tower_protects_only_itself():
    state = play(position([[1, 10], [1, 3, 6, 9]], {4: 18, 9: 30}, revealed=4, options=POINTS), 0, action="take")
    assert move_ids(state) == ["fire:1:3", "fire:1:9"]


def test_cannon_with_no_target_is_lost_and_the_turn_ends():
    state = position([[1, 10], [1, 6, 9, 16], [1]], {4: 18, 9: 30}, revealed=4, options=POINTS)
    after = play(state, 0, action="take")
    assert after["phase"] == "reveal" and GAME.to_move(after) == (1,)
    assert after["walls"] == [[1, 10, 18], [1, 6, 9, 16], [1]] and after["discard"] == []


def test_cannon_targets_opponents_only_by_default():
    state = play(position([[1, 10], [1]], {4: 18, 9: 30}, revealed=4, options=POINTS), 0, action="take")
    assert state["phase"] == "reveal"  # own cards 10 and 18 are no targets: the shot is lost


def test_cannon_may_hit_own_wall_with_the_option():
    options = POINTS | {"cannon_hits_own_wall": True}
    state = play(position([[1, 10], [1]], {4: 18, 9: 30}, revealed=4, options=options), 0, action="take")
    assert move_ids(state) == ["fire:0:10", "fire:0:18"]


def test_start_card_cannot_be_removed_unless_the_option_allows_it():
    state = play(position([[1, 10], [1, 4]], {4: 18, 9: 30}, revealed=4, options=POINTS), 0, action="take")
    refused(state, 0, "cannon-target", action="fire", seat=1, card=1)
    options = POINTS | {"start_card_removable": True}
    state = play(position([[1, 10], [1, 4]], {4: 18, 9: 30}, revealed=4, options=options), 0, action="take")
    assert move_ids(state) == ["fire:1:1", "fire:1:4"]


def test_start_card_as_tower_option_protects_everything_left_of_a_tower():
    victim = [1, 3, 6, 9]
    default = play(position([[1, 10], victim], {4: 18, 9: 30}, revealed=4, options=POINTS), 0, action="take")
    assert move_ids(default) == ["fire:1:3", "fire:1:9"]
    options = POINTS | {"start_card_is_tower": True}
    b1 = play(position([[1, 10], victim], {4: 18, 9: 30}, revealed=4, options=options), 0, action="take")
    assert move_ids(b1) == ["fire:1:9"]


def test_cannon_taken_as_the_tenth_card_fires_before_the_game_ends():
    wall = [1, 2, 3, 4, 5, 7, 9, 10, 12]
    state = play(position([wall, [1, 13]], {4: 18, 9: 30}, revealed=4, options=POINTS), 0, action="take")
    assert state["phase"] == "fire" and state["end"] is None
    over = play(state, 0, action="fire", seat=1, card=13)
    assert over["end"] == "wall-complete" and over["walls"][1] == [1]


def test_game_ends_after_a_tenth_card_cannon_even_if_it_hits_the_shooters_own_wall():
    wall = [1, 2, 3, 4, 5, 7, 9, 10, 12]
    options = POINTS | {"cannon_hits_own_wall": True}
    state = play(position([wall, [1]], {4: 18, 9: 30}, revealed=4, options=options), 0, action="take")
    over = play(state, 0, action="fire", seat=0, card=12)
    assert over["end"] == "wall-complete" and len(over["walls"][0]) == 9


def test_fire_refused_without_a_cannon():
    refused(position([[1, 10], [1, 4]], {4: 18}, revealed=4, options=POINTS), 0, "no-cannon-to-fire",
            action="fire", seat=1, card=4)


# --- §2.5 Magician -----------------------------------------------------------------

def test_magician_inserts_a_lower_card_at_its_numerical_place():
    state = position([[1, 10, 27, 30], [1]], {4: 14, 9: 40}, revealed=4, options=POINTS)
    assert move_ids(state) == ["magician", "decline"]
    after = play(state, 0, action="magician")
    assert after["walls"][0] == [1, 10, 14, 27, 30]
    assert after["table"][4] is None and after["spent_magicians"] == [27]
    assert GAME.to_move(after) == (1,)


def test_magician_power_is_used_only_once():
    state = play(position([[1, 10, 27, 30], [1]], {4: 14, 9: 12}, revealed=4, options=POINTS), 0, action="magician")
    state = play(play(state, 1, action="reveal", place=9), 1, action="decline")
    state = play(state, 0, action="reveal", place=9)
    assert move_ids(state) == ["decline"]
    assert refused(state, 0, "no-magician", action="magician") == "You have no magician with an unused power in your wall."


def test_magician_cannot_be_used_on_the_turn_it_is_taken():
    # Taking the magician is the turn's one take: the turn ends before it could serve.
    state = play(position([[1, 10], [1]], {4: 27, 9: 5}, revealed=4, options=POINTS), 0, action="take")
    assert GAME.to_move(state) == (1,) and state["spent_magicians"] == []
    state = play(play(state, 1, action="reveal", place=9), 1, action="decline")
    assert "magician" in move_ids(play(state, 0, action="reveal", place=9))


def test_magician_refused_for_a_card_higher_than_the_highest():
    state = position([[1, 27], [1]], {4: 30}, revealed=4, options=POINTS)
    assert move_ids(state) == ["take", "decline"]
    reason = refused(state, 0, "magician-not-needed", action="magician")
    assert reason == "30 is higher than your highest card: take it normally and keep the magician."


def test_magician_power_is_lost_when_a_cannon_removes_the_magician():
    state = play(position([[1, 10], [1, 27, 30]], {4: 18, 9: 5, 11: 46}, revealed=4, options=POINTS), 0, action="take")
    state = play(state, 0, action="fire", seat=1, card=27)
    state = play(state, 1, action="reveal", place=9)
    assert move_ids(state) == ["decline"]


def test_special_card_placed_by_the_magician_triggers_normally():
    state = position([[1, 10, 27, 30], [1, 4]], {4: 18, 9: 40}, revealed=4, options=POINTS)
    after = play(state, 0, action="magician")
    assert after["walls"][0] == [1, 10, 18, 27, 30] and after["phase"] == "fire"
    assert move_ids(after) == ["fire:1:4"]


def test_a_magician_insertion_resets_the_stall_count():
    state = position([[1, 10, 27, 30], [1]], {4: 14, 9: 40}, revealed=4, options=POINTS, idle_turns=3)
    assert play(state, 0, action="magician")["idle_turns"] == 0


def test_unused_magician_counts_as_able_to_take_any_card():
    # Every face-down card (5) is below every highest card, but Player 1 has a ready magician.
    state = play(position([[1, 27, 30], [1, 20]], {4: 44, 9: 5}, revealed=4, seat=1, options=POINTS), 1, action="take")
    assert state["end"] is None
    spent = play(position([[1, 27, 30], [1, 20]], {4: 44, 9: 5}, revealed=4, seat=1, spent=[27], options=POINTS),
                 1, action="take")
    assert spent["end"] == "no-card-takeable"


def test_magician_is_not_available_in_the_basic_game():
    state = position([[1, 10, 27, 30], [1]], {4: 14}, revealed=4)
    assert move_ids(state) == ["decline"]
    refused(state, 0, "no-magician", action="magician")


# --- §2.6 Hidden information ------------------------------------------------------

def test_face_down_cards_are_secrets_of_nobody_and_the_face_up_card_is_public():
    state = position([[1], [1]], {4: 17, 9: 30, 11: 12}, revealed=4)
    assert list(GAME.secrets(state)) == [Secret(None, "card-30"), Secret(None, "card-12")]


def test_views_show_face_down_places_but_never_their_numbers():
    state = GAME.setup(2, GAME.default_options(), random.Random(3))
    state = play(state, state["seat"], action="reveal", place=0)
    number = int(state["table"][0].split("-")[1])
    for viewer in (0, 1, None):
        view = GAME.view(state, viewer)
        assert view["table"] == [number] + ["down"] * 44 and view["face_down"] == 44
        assert "card-" not in json.dumps(view)


def test_view_does_not_depend_on_which_number_lies_where_face_down():
    state = position([[1, 9], [1]], {0: 17, 1: 30, 2: 12, 3: 44}, revealed=1, seen=[0])
    shuffled = position([[1, 9], [1]], {0: 44, 1: 30, 2: 17, 3: 12}, revealed=1, seen=[0])
    for viewer in (0, 1, None):
        assert GAME.view(state, viewer) == GAME.view(shuffled, viewer)


def test_views_carry_no_past_reveals_without_memory_aid():
    state = play(position([[1, 20], [1]], {4: 17, 9: 30}, revealed=4), 0, action="decline")
    view = GAME.view(state, 1)
    assert "remembered" not in view and view["revealed"] is None
    assert 17 not in view["table"]


def test_memory_aid_shows_face_down_cards_that_were_face_up_before():
    options = {"memory_aid": True}
    state = play(position([[1, 20], [1]], {4: 17, 9: 30}, revealed=4, options=options), 0, action="decline")
    remembered = GAME.view(state, None)["remembered"]
    assert remembered[4] == 17 and remembered[9] is None
    assert sum(number is not None for number in remembered) == 1


@pytest.mark.parametrize("memory_aid", [False, True])
def test_no_view_depends_on_the_numbers_of_cards_never_turned_up(memory_aid):
    """In random games, swapping around the numbers of the face-down cards
    nobody has seen (all face-down cards without the memory aid) never changes
    any view: no face-down number reaches a view before it is revealed."""
    options = GAME.default_options() | POINTS | {"memory_aid": memory_aid}
    rng = random.Random(11)
    for game in range(6):
        state = GAME.setup(2 + game % 3, options, rng)
        while GAME.to_move(state):
            hidden = [place for place, token in enumerate(state["table"])
                      if token is not None and place != state["revealed"] and not (memory_aid and state["seen"][place])]
            tokens = [state["table"][place] for place in hidden]
            rng.shuffle(tokens)
            table = list(state["table"])
            for place, token in zip(hidden, tokens):
                table[place] = token
            swapped = {**state, "table": table}
            for viewer in (None, *range(len(state["walls"]))):
                assert GAME.view(swapped, viewer) == GAME.view(state, viewer)
            seat = GAME.to_move(state)[0]
            state = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)).args, rng)


# --- §2.6 without memory_aid: a card back face down is kept nowhere ----------

PLACE_LABEL = re.compile(r"(Turn up the card at|Take the card at|Magician: insert the card at|Turn the card at) "
                         r"[A-E][1-9]( |$)")


@pytest.mark.parametrize("special_cards", [False, True])
def test_labels_and_public_moves_name_the_place_never_the_number(special_cards):
    """The log keeps each move's label and public form: with memory_aid off
    they name where a card lies, so the log places no card that went back
    face down; only the view of that moment shows its number."""
    rng = random.Random(3)
    state = GAME.setup(3, GAME.default_options() | {"special_cards": special_cards}, rng)
    declined = 0
    while GAME.outcome(state) is None:
        seat = GAME.to_move(state)[0]
        moves = GAME.legal_moves(state, seat)
        for move in moves:
            if move.args["action"] != "fire":  # a cannon names a card in a wall, which everyone sees
                assert PLACE_LABEL.match(move.label), move.label
            for viewer in (None, *range(3)):
                assert set(GAME.public_move(seat, move.args, viewer) or {}) <= {"action", "place", "seat", "card"}
        move = moves[rng.randrange(len(moves))]
        if move.args["action"] == "decline":
            declined += 1
            number = card_number(state["table"][state["revealed"]])
            assert GAME.view(state, None)["revealed"]["number"] == number  # seen by everyone at that moment
        state = GAME.apply(state, seat, move.args, rng)
    assert declined > 5


def test_sample_state_keeps_what_everyone_has_seen_and_deals_the_rest_afresh():
    state = position([[1], [1]], {place: place + 2 for place in range(45)}, seen=(0, 1, 2))
    sample = GAME.sample_state(state, None, random.Random(5))
    assert sample["table"][:3] == state["table"][:3] and sample["table"] != state["table"]
    assert sorted(sample["table"]) == sorted(state["table"]) and GAME.view(sample, 1) == GAME.view(state, 1)
