"""Campanile's hints for search bots (hints.py): no rule of the game, a
bot's guess at how good a move is from the points if the game ended now."""

from __future__ import annotations

import copy
import random

import pytest

from gamehost_campanile import hints, rules
from gamehost_campanile.game import Campanile
from gamehost_campanile.rules import STYLES

GAME = Campanile()
ALL_CHIPS = {"1": 5, "2": 3, "3": 1}


def table(*, heights=None, bets=None, hands=None, step="build", built=None, chips=None, options=None):
    """A 3-player position built directly, seat 0 to move, towers S1..S5
    left to right. Pile tops: S1 on pile 1, S2 on pile 2, S3 on pile 3."""
    return {
        "players": 3,
        "options": {**GAME.default_options(), **(options or {})},
        "row": list(STYLES),
        "heights": {**{style: 0 for style in STYLES}, **(heights or {})},
        "bets": {**{style: [] for style in STYLES}, **(bets or {})},
        "chips": chips or [dict(ALL_CHIPS) for _ in range(3)],
        "hands": hands or [["S1#01", "S4#01", "S5#01"], ["S1#02", "S4#02", "S5#02"], ["S1#03", "S4#03", "S5#03"]],
        "piles": [["S5#08", "S4#08", "S1#08"], ["S5#09", "S4#09", "S2#09"], ["S5#10", "S4#10", "S3#10"]],
        "surplus": [],
        "known": [[], [], []],
        "turn": 0,
        "step": step,
        "built": built,
    }


def score(state, move_id: str) -> int:
    move = next(move for move in GAME.legal_moves(state, 0) if move.id == move_id)
    return hints.MoveScore(state, 0)(move)


def random_positions(count: int, seed: int = 0):
    """Positions of random games over every player count and rule variant."""
    rng = random.Random(seed)
    variants = [variant.options for variant in GAME.variants]
    for index in range(count):
        state = GAME.setup(2 + index % 4, dict(variants[index % len(variants)]), rng)
        while GAME.outcome(state) is None:
            yield state
            seat = GAME.to_move(state)[0]
            moves = GAME.legal_moves(state, seat)
            state = GAME.apply(state, seat, moves[rng.randrange(len(moves))].args, rng)


def test_points_now_counts_as_the_final_scoring_does():
    """The hints' quick count of the points if the game ended now (1.5:
    flags by tower rank, left wins ties, two biggest stakes, earlier first
    chip wins ties) agrees with the rules' own scoring in every position."""
    for state in random_positions(40):
        assert hints.points_now(state) == rules.final_scores(state)["scores"]


def test_a_bet_scores_the_points_it_adds_now_plus_its_chip():
    """Seat 1 leads the highest tower S1 with 2; seat 0's 3-chip takes its
    8 (seat 1 drops to 4): 8 points now, plus the chip's 3."""
    state = table(heights={"S1": 5}, bets={"S1": [{"seat": 1, "chips": [2]}]}, step="bet",
                  built={"style": "S4", "storeys": 1})
    assert score(state, "bet:S1:3") == 8 + 3
    # A 1-chip only comes second under S1: its 4, plus 1.
    assert score(state, "bet:S1:1") == 4 + 1


def test_a_bet_on_the_lowest_tower_scores_nothing_like_drawing_without_a_bet():
    """The fifth tower carries no flag (1.5 step 2): chips there score nothing now."""
    state = table(heights={"S2": 1, "S3": 1, "S4": 1, "S5": 1}, step="bet", built={"style": "S4", "storeys": 1})
    assert score(state, "bet:S1:2") == 0
    assert score(state, "bet:S2:2") == 8 + 2  # first of four equal towers, the furthest left: the 8/4 flag
    assert score(state, "draw:1") == 0


def test_a_build_scores_lifting_its_own_stake_over_a_rivals():
    """Seat 0 leads S4, seat 1 leads S5, both low: building S4 up lifts seat
    0's flag and is tried before building S5, which lifts seat 1's."""
    state = table(heights={"S1": 3, "S2": 3, "S3": 3}, chips=[{"1": 5, "2": 3, "3": 0}] * 3,
                  bets={"S4": [{"seat": 0, "chips": [1]}], "S5": [{"seat": 1, "chips": [1]}]})
    assert score(state, "build:S4:3") > score(state, "build:S5:3")
    order = [move.id for move in GAME.order_moves(state, 0, GAME.legal_moves(state, 0), random.Random(0))]
    assert order.index("build:S4:3") < order.index("build:S5:3")


def test_a_build_scores_the_best_bet_it_opens():
    """With only the 1-chips left, a build of 1 storey opens a bet (at least
    the storeys built, 1.3 step 2), one of 2 or 3 storeys none."""
    state = table(chips=[{"1": 5, "2": 0, "3": 0}] + [dict(ALL_CHIPS)] * 2)
    # After S5 goes up 1, S1 (on pile 1's top) ranks second: a 1-chip there scores 6, plus 1.
    assert score(state, "build:S5:1") == 6 + 1
    assert score(state, "build:S5:2") == score(state, "build:S5:3") == 0


def test_a_build_scores_drawing_a_card_of_a_tower_with_the_builders_stake():
    """Pile 2's top is an S2 card: with a chip under S2, drawing it (after
    building 2 storeys, 1.3 step 3) earns the bonus; pile 3's S3 card does not."""
    state = table(chips=[{"1": 5, "2": 0, "3": 0}] + [dict(ALL_CHIPS)] * 2, heights={"S1": 9, "S2": 9, "S3": 9},
                  bets={"S2": [{"seat": 0, "chips": [1]}]})
    assert score(state, "build:S5:2") == score(state, "build:S5:3") + hints.DRAWN_STAKE_BONUS


def test_order_lists_exactly_the_legal_moves_and_changes_nothing():
    for state in random_positions(12, seed=1):
        seat = GAME.to_move(state)[0]
        moves = GAME.legal_moves(state, seat)
        frozen = copy.deepcopy(state)
        order = GAME.order_moves(state, seat, moves, random.Random(0))
        assert sorted(move.id for move in order) == sorted(move.id for move in moves)
        assert state == frozen


def test_playout_move_is_legal_changes_nothing_and_follows_the_rng():
    for state in random_positions(12, seed=2):
        seat = GAME.to_move(state)[0]
        moves = GAME.legal_moves(state, seat)
        frozen = copy.deepcopy(state)
        chosen = GAME.rollout_move(state, seat, moves, random.Random(7))
        assert chosen.id in {move.id for move in moves}
        assert state == frozen
        assert GAME.rollout_move(state, seat, moves, random.Random(7)).id == chosen.id


def assert_twins_get_the_same_hints(state):
    """Positions the seat to move cannot tell apart from ``state`` (other
    hands, face-down pile cards and the surplus dealt afresh by
    sample_state) get the same order and the same playout move for the
    same rng."""
    seat = GAME.to_move(state)[0]
    twins = [GAME.sample_state(state, seat, random.Random(draw)) for draw in range(3)]
    moves = GAME.legal_moves(state, seat)
    orders = {tuple(move.id for move in GAME.order_moves(twin, seat, moves, random.Random(0))) for twin in twins}
    assert len(orders) == 1
    picks = {GAME.rollout_move(twin, seat, moves, random.Random(5)).id for twin in twins}
    assert len(picks) == 1


def test_hints_use_only_what_the_seat_knows():
    for index, state in enumerate(random_positions(8, seed=3)):
        if index % 3 == 0:
            assert_twins_get_the_same_hints(state)


@pytest.mark.parametrize("players", [2, 4])
def test_evaluate_ranks_the_seats_by_their_points_now(players):
    state = GAME.setup(players, {"tower_order": "fixed"}, random.Random(0))
    assert GAME.evaluate(state) == [0.5] * players  # nobody has bet: all equal
    state["heights"]["S1"] = 2
    state["bets"]["S1"] = [{"seat": 1, "chips": [1]}]
    shares = GAME.evaluate(state)
    assert shares[1] == 1.0
    assert len({share for seat, share in enumerate(shares) if seat != 1}) == 1 and shares[0] < 0.5


NO_CHIPS = {"1": 0, "2": 0, "3": 0}


def near_the_end(*, leader: int, pile_sizes=(1, 3, 3)):
    """A table where ``leader`` alone holds a stake (a 3-chip under the
    highest tower, S1) and the piles hold ``pile_sizes`` cards, their tops
    still S1, S2 and S3. Seat 0 has no chip left when it is not the leader
    (no bet of its own changes who leads)."""
    chips = [dict(ALL_CHIPS) if leader == 0 else dict(NO_CHIPS)] + [dict(ALL_CHIPS)] * 2
    state = table(heights={"S1": 5}, bets={"S1": [{"seat": leader, "chips": [3]}]}, chips=chips)
    state["piles"] = [cards[len(cards) - size:] for cards, size in zip(state["piles"], pile_sizes)]
    return state


def test_a_build_that_ends_the_game_while_first_scores_the_end_weight_and_comes_first():
    """Pile 1 holds one card: any build of 1 storey draws it and ends the
    game (1.4). Seat 0 leads, so ending it wins: those builds score
    END_WEIGHT, above every other move."""
    state = near_the_end(leader=0)
    assert score(state, "build:S4:1") == hints.END_WEIGHT
    order = GAME.order_moves(state, 0, GAME.legal_moves(state, 0), random.Random(0))
    assert all(move.args["storeys"] == 1 for move in order[:3])
    assert all(score(state, move.id) < hints.END_WEIGHT for move in order[3:])


def test_a_build_that_ends_the_game_while_behind_scores_below_every_other_build():
    """Seat 1 leads: ending the game now leaves seat 0 sharing the last
    place with seat 2 (a quarter of the others beaten), so ending scores
    -END_WEIGHT / 2, below the builds that play on."""
    state = near_the_end(leader=1)
    assert score(state, "build:S4:1") == -hints.END_WEIGHT // 2
    order = GAME.order_moves(state, 0, GAME.legal_moves(state, 0), random.Random(0))
    assert all(move.args["storeys"] == 1 for move in order[-3:])
    assert all(move.args["storeys"] != 1 for move in order[:-3])


def test_a_build_that_leaves_its_pile_one_card_loses_by_the_next_players_share():
    """Drawing pile 2 down to one card lets seat 1, next to move, end the
    game: with seat 1 leading that costs HAND_OVER_WEIGHT; with seat 2
    leading (who moves after seat 1), nothing beyond seat 1's share."""
    for leader, taken in ((1, hints.HAND_OVER_WEIGHT), (2, hints.HAND_OVER_WEIGHT // 4)):
        three_left = near_the_end(leader=leader, pile_sizes=(3, 3, 3))
        two_left = near_the_end(leader=leader, pile_sizes=(3, 2, 3))
        assert score(three_left, "build:S5:2") - score(two_left, "build:S5:2") == taken


@pytest.mark.parametrize("leader, ends", [(0, True), (1, False)])
def test_a_playout_ends_the_game_when_that_wins_and_plays_on_when_it_loses(leader, ends):
    """While a pile holds one card a playout compares every move, not 3 drawn
    at random: the leader always ends the game, a player behind never does."""
    state = near_the_end(leader=leader)
    moves = GAME.legal_moves(state, 0)
    for seed in range(20):
        chosen = GAME.rollout_move(state, 0, moves, random.Random(seed))
        assert (chosen.args["storeys"] == 1) is ends


def test_hints_near_the_end_use_only_what_the_seat_knows():
    """The builds of positions where a pile holds one or two cards, which
    the end reading scores."""
    near = [state for state in random_positions(12, seed=4)
            if min(len(cards) for cards in state["piles"]) <= 2 and state["step"] == "build"]
    assert len(near) >= 12
    for state in near:
        assert_twins_get_the_same_hints(state)


def test_a_playout_builds_at_random_away_from_the_end_and_bets_where_it_pays():
    """Playouts stay about as cheap as random moves: away from the end a
    build is drawn at random (every one of the 9 comes up), and a bet is
    the best scored of 3 drawn, so a playout bets under the lowest tower
    (S3 here, on a pile top but scoring nothing) less than half as often
    as drawing at random would."""
    state = table(heights={"S1": 5, "S2": 4, "S4": 3, "S5": 2})
    builds = GAME.legal_moves(state, 0)
    assert {GAME.rollout_move(state, 0, builds, random.Random(seed)).id for seed in range(60)} == \
        {move.id for move in builds}
    betting = GAME.apply(state, 0, {"action": "build", "style": "S5", "storeys": 1}, random.Random(0))
    bets = GAME.legal_moves(betting, 0)
    picks = [GAME.rollout_move(betting, 0, bets, random.Random(seed)) for seed in range(60)]
    on_the_lowest = sum(1 for move in picks if move.args.get("tower") == "S3")
    assert on_the_lowest < 60 * sum(1 for move in bets if move.args.get("tower") == "S3") / len(bets) / 2
