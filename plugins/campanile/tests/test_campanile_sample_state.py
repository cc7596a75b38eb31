"""1.6: what a seat knows of the other hands. A card drawn from a pile was
its face-up top, so everyone saw which style went into which hand; the
search bots' samples keep those cards, views show them, and the
conformance kit catches a sample that forgets them."""

import random

import pytest

from gamehost.testing.conformance import run_conformance
from gamehost_campanile.game import Campanile
from gamehost_campanile.rules import card_style

GAME = Campanile()


def play_until(predicate, seed: int = 3, seats: int = 2, state=None):
    rng = random.Random(seed)
    state = state or GAME.setup(seats, GAME.default_options(), rng)
    while not predicate(state):
        seat = GAME.to_move(state)[0]
        moves = GAME.legal_moves(state, seat)
        state = GAME.apply(state, seat, moves[rng.randrange(len(moves))].args, rng)
    return state


def test_a_card_drawn_face_up_is_known_in_that_hand_until_a_build_of_its_style():
    state = play_until(lambda s: any(s["known"]))
    drawer = next(seat for seat, styles in enumerate(state["known"]) if styles)
    style = state["known"][drawer][0]
    assert style in [card_style(card) for card in state["hands"][drawer]]
    assert style in GAME.view(state, None)["known_in_hands"][drawer]
    # The drawer's next build; the other seat's turn in between leaves its hand as it is.
    turn = play_until(lambda s: s["turn"] == drawer and s["step"] == "build", state=state)
    assert turn["known"][drawer] == state["known"][drawer]
    built = GAME.apply(turn, drawer, {"action": "build", "style": style, "storeys": 1}, random.Random(0))
    assert built["known"][drawer].count(style) == turn["known"][drawer].count(style) - 1


@pytest.mark.parametrize("viewer", [0, None])
def test_samples_keep_every_card_an_opponent_drew_face_up(viewer):
    state = play_until(lambda s: sum(len(styles) for styles in s["known"]) >= 3, seats=3)
    for draw in range(20):
        sample = GAME.sample_state(state, viewer, random.Random(draw))
        for seat in range(3):
            if seat == viewer:
                assert sample["hands"][seat] == state["hands"][seat]
                continue
            styles = [card_style(card) for card in sample["hands"][seat]]
            for style in set(state["known"][seat]):
                assert styles.count(style) >= state["known"][seat].count(style)
        assert GAME.view(sample, viewer) == GAME.view(state, viewer)


class ForgetsFaceUpDraws(Campanile):
    """The sample_state Campanile had: every other hand dealt afresh."""

    def sample_state(self, state, seat, rng):
        hands = [list(hand) if owner == seat else [] for owner, hand in enumerate(state["hands"])]
        unknown = [card for owner, hand in enumerate(state["hands"]) if owner != seat for card in hand]
        unknown += [card for cards in state["piles"] for card in cards[:-1]] + list(state["surplus"])
        unknown.sort()
        rng.shuffle(unknown)
        deal_from = iter(unknown)
        for owner, hand in enumerate(state["hands"]):
            if owner != seat:
                hands[owner] = [next(deal_from) for _ in hand]
        piles = [[next(deal_from) for _ in cards[:-1]] + cards[-1:] for cards in state["piles"]]
        surplus = [next(deal_from) for _ in state["surplus"]]
        return {**state, "hands": hands, "piles": piles, "surplus": surplus}


def test_the_kit_catches_a_sample_that_forgets_face_up_draws():
    with pytest.raises(AssertionError, match=r"\(c'\) (seat \d|a spectator) can tell a resampled state from the real "
                                             r"one.*known_in_hands"):
        run_conformance(ForgetsFaceUpDraws(), seats=2, playouts=3)
