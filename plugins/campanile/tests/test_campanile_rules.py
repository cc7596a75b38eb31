"""Campanile rules, one test per rule of docs/rules/campanile.md (section numbers cited)."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest

from gamehost.host.plugins import validation_errors
from gamehost.sdk import IllegalMove, MalformedMove
from gamehost_campanile.game import Campanile
from gamehost_campanile.rules import STYLES

GAME = Campanile()
OPTIONS = GAME.default_options()


def table(*, players=3, turn=0, step="build", built=None, hands=None, piles=None, heights=None,
          bets=None, chips=None, options=None, row=STYLES):
    """A position built directly. Default pile tops: S1 on pile 1, S2 on pile 2,
    S3 on pile 3, so styles S4 and S5 are not visible."""
    return {
        "players": players,
        "options": {**OPTIONS, **(options or {})},
        "row": list(row),
        "heights": {**{style: 0 for style in STYLES}, **(heights or {})},
        "bets": {**{style: [] for style in STYLES}, **(bets or {})},
        "chips": chips or [{"1": 5, "2": 3, "3": 1} for _ in range(players)],
        "hands": hands or [[f"S{style}#0{seat + 1}" for style in (1, 4, 5)] for seat in range(players)],
        "piles": piles or [["S5#08", "S4#08", "S1#08"], ["S5#09", "S4#09", "S2#09"], ["S5#10", "S4#10", "S3#10"]],
        "surplus": [],
        "turn": turn,
        "step": step,
        "built": built,
    }


def after_build(style="S4", storeys=1, **kwargs):
    """Seat 0 has just built ``style`` by ``storeys`` (its hand is down to two
    cards) and may bet or draw."""
    kwargs.setdefault("hands", [["S1#01", "S5#01"], ["S1#02", "S4#02", "S5#02"], ["S1#03", "S4#03", "S5#03"]])
    return table(step="bet", built={"style": style, "storeys": storeys}, **kwargs)


def play(state, seat, **move):
    return GAME.apply(state, seat, move, random.Random(0))


def refused(state, seat, **move) -> IllegalMove:
    """The refusal of ``move``, after checking that the state is untouched."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as refusal:
        play(state, seat, **move)
    assert state == before
    return refusal.value


def move_ids(state, seat=0):
    return [move.id for move in GAME.legal_moves(state, seat)]


def new_game(players, seed=0, **options):
    return GAME.setup(players, {**OPTIONS, **options}, random.Random(seed))


# --- metadata and options -----------------------------------------------------------


def test_game_and_variants_pass_host_validation():
    assert validation_errors(GAME) == []
    assert {variant.id for variant in GAME.variants} == {"standard", "official-variant", "exact-bets"}


# --- 1.2 setup -------------------------------------------------------------------------


@pytest.mark.parametrize("players, pile_size, surplus", [(2, 13, 0), (3, 15, 1), (4, 17, 2), (5, 18, 1)])
def test_setup_table_pile_sizes_and_surplus_removed_unseen(players, pile_size, surplus):
    state = new_game(players)
    assert [len(pile) for pile in state["piles"]] == [pile_size] * 3
    assert len(state["surplus"]) == surplus


@pytest.mark.parametrize("players, removed", [(2, 5), (3, 3), (4, 1), (5, 0)])
def test_setup_removes_cards_per_style(players, removed):
    state = new_game(players)
    cards = [card for hand in state["hands"] for card in hand]
    cards += [card for pile in state["piles"] for card in pile] + state["surplus"]
    assert len(cards) == len(set(cards))
    assert Counter(card.split("#")[0] for card in cards) == {style: 14 - removed for style in STYLES}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_deals_hands_of_three(players):
    assert [len(hand) for hand in new_game(players)["hands"]] == [3] * players


def test_setup_gives_each_player_nine_chips_five_ones_three_twos_one_three():
    state = new_game(4)
    assert state["chips"] == [{"1": 5, "2": 3, "3": 1}] * 4
    assert all(bets == [] for bets in state["bets"].values())


def test_setup_towers_start_equal():
    assert len(set(new_game(3)["heights"].values())) == 1


def test_setup_tower_order_random_by_default_and_fixed_on_request():
    orders = {tuple(new_game(3, seed)["row"]) for seed in range(20)}
    assert len(orders) > 1 and all(sorted(order) == list(STYLES) for order in orders)
    assert new_game(3, 5, tower_order="fixed")["row"] == list(STYLES)


def test_setup_start_player_random_by_default_or_first_seat():
    assert {new_game(3, seed)["turn"] for seed in range(30)} == {0, 1, 2}
    assert {new_game(3, seed, start_player="first-seat")["turn"] for seed in range(10)} == {0}


def test_setup_is_decided_by_the_rng_alone():
    assert new_game(4, 7) == new_game(4, 7)
    assert new_game(4, 7) != new_game(4, 8)


def test_state_survives_json_round_trip():
    state = play(after_build("S1", 2), 0, action="bet", tower="S1", chip=2)
    assert json.loads(json.dumps(state)) == state


# --- 1.3 step 1: build ------------------------------------------------------------------


def test_build_adds_the_chosen_storeys_and_uses_the_hand_card():
    state = play(table(), 0, action="build", style="S4", storeys=3)
    assert state["heights"]["S4"] == 3
    assert state["hands"][0] == ["S1#01", "S5#01"]
    assert (state["turn"], state["step"], state["built"]) == (0, "bet", {"style": "S4", "storeys": 3})


def test_build_moves_are_each_hand_style_with_one_two_or_three_storeys():
    state = table(hands=[["S2#01", "S2#02", "S5#01"], [], []])
    assert move_ids(state) == ["build:S2:1", "build:S2:2", "build:S2:3", "build:S5:1", "build:S5:2", "build:S5:3"]


def test_build_refused_when_style_not_in_hand():
    refusal = refused(table(), 0, action="build", style="S2", storeys=1)
    assert refusal.rule == "card-not-in-hand"
    assert refusal.reason == "You hold no S2 card, so you cannot build tower S2."


@pytest.mark.parametrize("storeys", [0, 4])
def test_build_refused_outside_one_to_three_storeys(storeys):
    refusal = refused(table(), 0, action="build", style="S1", storeys=storeys)
    assert refusal.rule == "storeys-1-to-3"
    assert refusal.reason == f"A card adds 1, 2 or 3 storeys, not {storeys}."


def test_build_refused_on_unknown_tower():
    assert refused(table(), 0, action="build", style="S9", storeys=1).rule == "unknown-tower"


def test_build_refused_twice_in_a_turn():
    refusal = refused(after_build("S4", 2), 0, action="build", style="S1", storeys=1)
    assert refusal.rule == "one-build-per-turn"
    assert "draw from pile 2" in refusal.reason


def test_move_refused_out_of_turn():
    refusal = refused(table(turn=1), 0, action="build", style="S1", storeys=1)
    assert refusal.rule == "not-your-turn"
    assert refusal.reason == "It is Player 2's turn."  # seats are named for people, from 1


@pytest.mark.parametrize("move", [{}, {"action": "pass"}, {"action": "build", "style": "S1"},
                                  {"action": "build", "style": "S1", "storeys": "2"},
                                  {"action": "build", "style": "S1", "storeys": True},
                                  {"action": "bet", "tower": 4, "chip": 1},
                                  # an action that is a list or an object (unhashable), numbers without int()
                                  {"action": ["build"]}, {"action": {"build": 1}},
                                  {"action": "build", "style": "S1", "storeys": float("nan")},
                                  {"action": "build", "style": "S1", "storeys": float("inf")},
                                  {"action": "draw", "pile": float("-inf")}])
def test_malformed_moves_refused_with_the_move_shape(move):
    state = table()
    with pytest.raises(MalformedMove) as refusal:
        GAME.apply(state, 0, move, random.Random(0))
    assert "move" in refusal.value.reason and "{" in refusal.value.reason
    assert state == table()


# --- 1.3 step 2: bet -------------------------------------------------------------------


def test_bet_places_chip_under_tower_and_spends_it():
    state = play(after_build("S4", 1), 0, action="bet", tower="S2", chip=1)
    assert state["bets"]["S2"] == [{"seat": 0, "chips": [1]}]
    assert state["chips"][0] == {"1": 4, "2": 3, "3": 1}
    assert (state["turn"], state["step"]) == (0, "draw")


def test_bet_refused_when_style_not_on_a_pile_top():
    refusal = refused(after_build("S4", 1), 0, action="bet", tower="S5", chip=1)
    assert refusal.rule == "bet-style-not-on-pile-top"
    assert refusal.reason == "You may only bet on a style shown on a pile top (S1, S2, S3); S5 is not."


def test_bet_refused_on_the_tower_just_built_when_not_on_a_pile_top():
    assert refused(after_build("S4", 1), 0, action="bet", tower="S4", chip=1).rule == "bet-style-not-on-pile-top"


def test_bet_visibility_is_checked_after_build_before_draw():
    """Pile 1's top is S1 now; drawing it would show S4 beneath, but the bet
    comes first, so S1 may be bet on and S4 may not."""
    state = after_build("S4", 1)
    assert "bet:S1:1" in move_ids(state) and "bet:S4:1" not in move_ids(state)
    drawn = play(state, 0, action="draw", pile=1)
    assert drawn["piles"][0][-1] == "S4#08"


def test_official_variant_allows_bet_on_the_tower_just_built():
    state = after_build("S4", 1, options={"bet_on_built_tower": True})
    assert play(state, 0, action="bet", tower="S4", chip=1)["bets"]["S4"] == [{"seat": 0, "chips": [1]}]
    refusal = refused(state, 0, action="bet", tower="S5", chip=1)
    assert refusal.reason == ("You may only bet on a style shown on a pile top (S1, S2, S3) "
                              "or the tower you just built (S4); S5 is not.")


def test_official_variant_keeps_the_chip_value_rule():
    state = after_build("S4", 3, options={"bet_on_built_tower": True})
    assert refused(state, 0, action="bet", tower="S4", chip=2).rule == "bet-chip-below-storeys"


@pytest.mark.parametrize("storeys, allowed", [(1, [1, 2, 3]), (2, [2, 3]), (3, [3])])
def test_bet_rule_at_least_after_one_any_chip_after_two_a_two_or_three_after_three_only_the_three(storeys, allowed):
    state = after_build("S4", storeys)
    assert [move_id for move_id in move_ids(state) if move_id.startswith("bet:S1:")] == [f"bet:S1:{v}" for v in allowed]
    for chip in allowed:
        assert play(state, 0, action="bet", tower="S1", chip=chip)["bets"]["S1"] == [{"seat": 0, "chips": [chip]}]


def test_bet_refused_when_chip_below_storeys_built():
    refusal = refused(after_build("S4", 2), 0, action="bet", tower="S1", chip=1)
    assert refusal.rule == "bet-chip-below-storeys"
    assert refusal.reason == "You built 2 storeys, so your chip must be worth at least 2 (2 or 3), not 1."


@pytest.mark.parametrize("storeys", [1, 2, 3])
def test_bet_rule_exact_allows_only_the_chip_equal_to_storeys(storeys):
    state = after_build("S4", storeys, options={"bet_rule": "exact"})
    assert [move_id for move_id in move_ids(state) if move_id.startswith("bet:S1:")] == [f"bet:S1:{storeys}"]
    for chip in {1, 2, 3} - {storeys}:
        refusal = refused(state, 0, action="bet", tower="S1", chip=chip)
        assert refusal.rule == "bet-chip-not-storeys"
        built = "1 storey" if storeys == 1 else f"{storeys} storeys"
        assert refusal.reason == f"You built {built}, so your chip must be worth exactly {storeys}, not {chip}."


def test_bet_refused_when_chip_value_used_up():
    state = after_build("S4", 3, chips=[{"1": 5, "2": 3, "3": 0}, {"1": 5, "2": 3, "3": 1}, {"1": 5, "2": 3, "3": 1}])
    refusal = refused(state, 0, action="bet", tower="S1", chip=3)
    assert refusal.rule == "bet-chip-used-up"
    assert refusal.reason == "You have no 3-chip left to bet."
    assert move_ids(state) == ["draw:3"]


def test_bet_refused_for_unknown_chip_value():
    assert refused(after_build("S4", 1), 0, action="bet", tower="S1", chip=4).rule == "unknown-chip"


def test_bet_refused_before_build():
    refusal = refused(table(), 0, action="bet", tower="S1", chip=1)
    assert refusal.rule == "build-before-bet"


def test_bet_refused_twice_in_a_turn():
    state = play(after_build("S4", 1), 0, action="bet", tower="S1", chip=1)
    refusal = refused(state, 0, action="bet", tower="S2", chip=1)
    assert refusal.rule == "one-bet-per-turn"
    assert refusal.reason == "You have already bet this turn; draw from pile 1."
    assert move_ids(state) == ["draw:1"]


def test_bet_order_is_kept_per_tower():
    state = after_build("S4", 1, bets={"S1": [{"seat": 2, "chips": [1]}]})
    assert play(state, 0, action="bet", tower="S1", chip=2)["bets"]["S1"] == [
        {"seat": 2, "chips": [1]}, {"seat": 0, "chips": [2]}]


def test_second_chip_on_a_tower_keeps_the_first_chip_position():
    state = after_build("S4", 1, bets={"S1": [{"seat": 0, "chips": [1]}, {"seat": 1, "chips": [3]}]})
    assert play(state, 0, action="bet", tower="S1", chip=2)["bets"]["S1"] == [
        {"seat": 0, "chips": [1, 2]}, {"seat": 1, "chips": [3]}]


def test_bet_moves_list_visible_towers_in_row_order_then_draw_to_skip():
    state = after_build("S4", 2, row=("S3", "S4", "S5", "S1", "S2"))
    assert move_ids(state) == ["draw:2", "bet:S3:2", "bet:S3:3", "bet:S1:2", "bet:S1:3", "bet:S2:2", "bet:S2:3"]


# --- 1.3 step 3: draw -------------------------------------------------------------------


@pytest.mark.parametrize("storeys", [1, 2, 3])
def test_draw_takes_the_top_of_pile_n_and_turns_the_next_face_up(storeys):
    state = after_build("S4", storeys)
    drawn = play(state, 0, action="draw", pile=storeys)
    assert drawn["hands"][0] == state["hands"][0] + [state["piles"][storeys - 1][-1]]
    assert drawn["piles"][storeys - 1] == state["piles"][storeys - 1][:-1]
    assert GAME.view(drawn, None)["piles"][storeys - 1]["top"] == "S4"
    assert [pile for index, pile in enumerate(drawn["piles"]) if index != storeys - 1] == [
        pile for index, pile in enumerate(state["piles"]) if index != storeys - 1]


def test_draw_after_one_storey_comes_from_pile_one():
    """The rules' example: after adding one storey, take the top card of pile 1."""
    assert move_ids(play(after_build("S4", 1), 0, action="bet", tower="S1", chip=1)) == ["draw:1"]
    assert play(after_build("S4", 1), 0, action="draw", pile=1)["hands"][0][-1] == "S1#08"


def test_draw_refused_from_another_pile():
    refusal = refused(after_build("S4", 1), 0, action="draw", pile=3)
    assert refusal.rule == "draw-from-pile-n"
    assert refusal.reason == "You built 1 storey, so you must draw from pile 1, not pile 3."


def test_draw_refused_before_build():
    assert refused(table(), 0, action="draw", pile=1).rule == "build-before-draw"


def test_draw_without_betting_ends_the_turn_and_play_passes_clockwise():
    state = play(after_build("S4", 2), 0, action="draw", pile=2)
    assert (state["turn"], state["step"], state["built"]) == (1, "build", None)
    last = play(table(turn=2, step="bet", built={"style": "S4", "storeys": 1}), 2, action="draw", pile=1)
    assert last["turn"] == 0


def test_full_turn_is_three_moves_by_the_same_seat():
    state = table()
    assert GAME.to_move(state) == (0,)
    state = play(state, 0, action="build", style="S1", storeys=2)
    assert GAME.to_move(state) == (0,)
    state = play(state, 0, action="bet", tower="S2", chip=3)
    assert GAME.to_move(state) == (0,)
    state = play(state, 0, action="draw", pile=2)
    assert GAME.to_move(state) == (1,)
    assert len(state["hands"][0]) == 3


# --- 1.4 end of game -----------------------------------------------------------------------


def test_game_ends_as_soon_as_a_pile_is_empty():
    piles = [["S2#08"], ["S5#09", "S4#09", "S2#09"], ["S5#10", "S4#10", "S3#10"]]
    state = play(play(table(piles=piles), 0, action="build", style="S1", storeys=1), 0, action="draw", pile=1)
    assert state["piles"][0] == [] and state["hands"][0][-1] == "S2#08"
    assert state["step"] == "over"
    assert GAME.to_move(state) == ()
    assert all(GAME.legal_moves(state, seat) == [] for seat in range(3))
    assert GAME.outcome(state) is not None
    assert refused(state, 1, action="build", style="S1", storeys=1).rule == "game-over"


def test_game_not_over_while_every_pile_has_cards():
    state = play(after_build("S4", 1), 0, action="draw", pile=1)
    assert GAME.outcome(state) is None and GAME.to_move(state) == (1,)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_game_ends_with_one_pile_empty_and_hands_of_three(players):
    rng = random.Random(players)
    state = new_game(players, players)
    while GAME.to_move(state):
        seat = GAME.to_move(state)[0]
        state = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)).args, rng)
    assert sorted(len(pile) == 0 for pile in state["piles"]) == [False, False, True]
    assert [len(hand) for hand in state["hands"]] == [3] * players


# --- 1.5 scoring ----------------------------------------------------------------------------


def finished(heights, bets, players=3, row=STYLES):
    return table(players=players, step="over", turn=None, heights=heights, bets=bets, row=row)


def scores(state):
    return list(GAME.outcome(state).scores)


def test_flags_go_to_the_four_highest_towers_8_6_4_2():
    bets = {style: [{"seat": 0, "chips": [1]}] for style in STYLES}
    assert scores(finished({"S1": 5, "S2": 4, "S3": 3, "S4": 2, "S5": 1}, bets)) == [8 + 6 + 4 + 2, 0, 0]


def test_scoring_one_bettor_takes_only_the_larger_value():
    assert scores(finished({"S1": 9}, {"S1": [{"seat": 1, "chips": [1]}]})) == [0, 8, 0]


def test_scoring_two_bettors_highest_stake_larger_value_second_smaller():
    bets = {"S1": [{"seat": 0, "chips": [1]}, {"seat": 2, "chips": [2, 1]}]}
    assert scores(finished({"S1": 9}, bets)) == [4, 0, 8]


def test_scoring_third_bettor_scores_nothing():
    bets = {"S2": [{"seat": 0, "chips": [1]}, {"seat": 1, "chips": [3]}, {"seat": 2, "chips": [2]}]}
    assert scores(finished({"S1": 9, "S2": 8}, bets)) == [0, 6, 3]


def test_scoring_tied_bettors_earlier_first_chip_wins():
    bets = {"S1": [{"seat": 1, "chips": [2]}, {"seat": 0, "chips": [1, 1]}]}
    assert scores(finished({"S1": 9}, bets)) == [4, 8, 0]


def test_scoring_tied_bettors_first_chip_position_counts_not_the_last_chip():
    bets = {"S1": [{"seat": 0, "chips": [1, 2]}, {"seat": 1, "chips": [3]}]}
    assert scores(finished({"S1": 9}, bets)) == [8, 4, 0]


def test_scoring_tie_for_second_place_goes_to_the_earlier_bettor():
    bets = {"S1": [{"seat": 2, "chips": [3]}, {"seat": 1, "chips": [1]}, {"seat": 0, "chips": [1]}]}
    assert scores(finished({"S1": 9}, bets)) == [0, 4, 8]


def test_scoring_lowest_tower_scores_nothing():
    bets = {"S5": [{"seat": 0, "chips": [3, 2, 2]}, {"seat": 1, "chips": [1]}]}
    state = finished({"S1": 4, "S2": 4, "S3": 4, "S4": 4, "S5": 3}, bets)
    assert scores(state) == [0, 0, 0]
    assert GAME.view(state, None)["result"]["tower_ranking"][-1] == "S5"


def test_tower_tie_further_left_ranks_higher():
    row = ("S4", "S3", "S2", "S1", "S5")
    bets = {"S2": [{"seat": 0, "chips": [1]}], "S4": [{"seat": 1, "chips": [1]}]}
    state = finished({"S2": 7, "S4": 7}, bets, row=row)
    assert scores(state) == [6, 8, 0]
    assert GAME.view(state, None)["result"]["tower_ranking"] == ["S4", "S2", "S3", "S1", "S5"]


def test_tower_tie_among_unbuilt_towers_also_goes_by_row_position():
    row = ("S5", "S4", "S3", "S2", "S1")
    bets = {"S1": [{"seat": 0, "chips": [2]}], "S2": [{"seat": 1, "chips": [1]}]}
    # S3 is built; S5, S4, S2, S1 stay at 0 and rank by row: S5, S4, S2 get flags, S1 does not.
    assert scores(finished({"S3": 1}, bets, row=row)) == [0, 2, 0]


def test_unplayed_chips_score_nothing():
    state = finished({"S1": 3}, {"S1": [{"seat": 0, "chips": [1]}]})
    assert state["chips"][1] == {"1": 5, "2": 3, "3": 1}
    assert scores(state) == [8, 0, 0]


def test_winner_has_most_points():
    outcome = GAME.outcome(finished({"S1": 9}, {"S1": [{"seat": 1, "chips": [1]}]}))
    assert list(outcome.ranking) == [2, 1, 2]
    assert outcome.summary == "Player 2 wins with 8 points."


def test_final_tie_is_a_shared_win():
    bets = {"S1": [{"seat": 0, "chips": [1]}], "S2": [{"seat": 2, "chips": [1]}], "S4": [{"seat": 2, "chips": [1]}]}
    outcome = GAME.outcome(finished({"S1": 9, "S2": 1}, bets))
    assert list(outcome.scores) == [8, 0, 6 + 2]
    assert list(outcome.ranking) == [1, 3, 1]
    assert outcome.summary == "Player 1, Player 3 share the win with 8 points."


# --- 1.6 hidden information --------------------------------------------------------------------


def test_hand_is_seen_only_by_its_owner():
    state = new_game(4, 3)
    for viewer in (None, 0, 1, 2, 3):
        shown = json.dumps(GAME.view(state, viewer))
        for seat, hand in enumerate(state["hands"]):
            assert all((card in shown) == (seat == viewer) for card in hand)


def test_pile_contents_and_surplus_are_seen_by_nobody_but_sizes_and_tops_are_public():
    state = new_game(4, 3)
    for viewer in (None, 0, 3):
        view = GAME.view(state, viewer)
        shown = json.dumps(view)
        assert not any(card in shown for pile in state["piles"] for card in pile)
        assert not any(card in shown for card in state["surplus"])
        assert [pile["size"] for pile in view["piles"]] == [17, 17, 17] and view["surplus_size"] == 2
        assert [pile["top"] for pile in view["piles"]] == [pile[-1].split("#")[0] for pile in state["piles"]]


def test_everything_else_is_public():
    state = play(after_build("S4", 1), 0, action="bet", tower="S1", chip=1)
    spectator = GAME.view(state, None)
    for key in ("row", "heights", "bets", "chips", "turn", "step", "built"):
        assert spectator[key] == state[key]
    assert spectator["hand_sizes"] == [2, 3, 3]
    assert "hand" not in spectator


def test_secrets_are_hands_face_down_pile_cards_and_surplus():
    state = new_game(3, 1)
    secrets = list(GAME.secrets(state))
    by_owner = Counter(secret.owner for secret in secrets)
    assert by_owner == {0: 3, 1: 3, 2: 3, None: 3 * 14 + 1}
    tops = {pile[-1] for pile in state["piles"]}
    assert not tops & {secret.value for secret in secrets}


def test_moves_carry_no_hidden_card():
    state = table()
    for move in GAME.legal_moves(state, 0) + GAME.legal_moves(after_build(), 0):
        assert "#" not in json.dumps(dict(move.args))


# --- legal moves agree with apply ------------------------------------------------------------

EVERY_MOVE_SHAPE = (
    [{"action": "build", "style": style, "storeys": n} for style in STYLES for n in (1, 2, 3)]
    + [{"action": "bet", "tower": style, "chip": n} for style in STYLES for n in (1, 2, 3)]
    + [{"action": "draw", "pile": n} for n in (1, 2, 3)]
)


@pytest.mark.parametrize("options", [{}, {"bet_on_built_tower": True}, {"bet_rule": "exact"}])
def test_listed_moves_are_exactly_the_moves_apply_accepts(options):
    rng = random.Random(11)
    for game in range(4):
        state = new_game(2 + game, game, **options)
        while GAME.to_move(state):
            seat = GAME.to_move(state)[0]
            listed = GAME.legal_moves(state, seat)
            assert len({move.id for move in listed}) == len(listed)
            listed_args = [dict(move.args) for move in listed]
            for move in EVERY_MOVE_SHAPE:
                before = copy.deepcopy(state)
                try:
                    GAME.apply(state, seat, move, rng)
                    accepted = True
                except IllegalMove:
                    accepted = False
                assert accepted == (move in listed_args), (move, state)
                assert state == before
            state = GAME.apply(state, seat, rng.choice(listed).args, rng)
