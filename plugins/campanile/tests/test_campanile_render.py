"""Campanile text and SVG renderers: towers with heights and chips in bet order,
piles with tops and sizes, the viewer's own hand, scores at the end."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ElementTree

from gamehost_campanile.game import Campanile
from gamehost_campanile.rules import STYLES

GAME = Campanile()


def position():
    """Seat 1 has built S2 by 2 storeys and may bet or draw; the row is fixed."""
    return {
        "players": 3,
        "options": GAME.default_options(),
        "row": ["S3", "S1", "S5", "S2", "S4"],
        "heights": {"S1": 4, "S2": 9, "S3": 0, "S4": 1, "S5": 6},
        "bets": {**{style: [] for style in STYLES},
                 "S2": [{"seat": 2, "chips": [1]}, {"seat": 0, "chips": [2, 1]}]},
        "chips": [{"1": 4, "2": 2, "3": 1}, {"1": 5, "2": 3, "3": 1}, {"1": 4, "2": 3, "3": 1}],
        "hands": [["S1#01", "S3#01", "S3#02"], ["S4#01", "S5#01"], ["S2#01", "S2#02", "S5#02"]],
        "piles": [["S4#05", "S1#05"], ["S3#06", "S4#06", "S2#06"], ["S5#07"]],
        "surplus": [],
        "turn": 1,
        "step": "bet",
        "built": {"style": "S2", "storeys": 2},
    }


def test_text_shows_towers_left_to_right_with_heights_and_chips_in_bet_order():
    text = GAME.render_text(GAME.view(position(), None))
    tower_lines = [line.split()[0] for line in text.splitlines() if line.startswith("  S")]
    assert tower_lines == ["S3", "S1", "S5", "S2", "S4"]
    s2 = next(line for line in text.splitlines() if line.startswith("  S2"))
    assert " 9 " in s2 and s2.endswith("bets: Player 3 (1), Player 1 (2+1)")


def test_text_shows_piles_with_tops_and_sizes():
    text = GAME.render_text(GAME.view(position(), None))
    assert "pile 1: top S1, 2 cards" in text
    assert "pile 2: top S2, 3 cards" in text
    assert "pile 3: top S5, 1 card" in text


def test_text_shows_own_hand_only_to_its_owner():
    assert "Hand of Player 1: S1 S3 S3" in GAME.render_text(GAME.view(position(), 0))
    assert "Your hand" not in GAME.render_text(GAME.view(position(), None))
    assert "Player 2 to move: bet or draw (built S2 +2; draws from pile 2)." in GAME.render_text(GAME.view(position(), 2))


def test_text_shows_flags_and_scores_at_the_end():
    state = {**position(), "step": "over", "turn": None, "built": None}
    text = GAME.render_text(GAME.view(state, None))
    assert "flag 8/4 on S2: Player 1 8, Player 3 4" in text
    assert "no flag on S3" in text
    assert "Scores: Player 1: 8, Player 2: 0, Player 3: 4" in text


def test_svg_is_well_formed_and_every_legal_move_is_clickable():
    state = position()
    for state in (state, GAME.apply(state, 1, {"action": "bet", "tower": "S2", "chip": 2}, random.Random(0)),
                  {**state, "step": "build", "built": None}):
        moves = GAME.legal_moves(state, 1)
        root = ElementTree.fromstring(GAME.render_svg(GAME.view(state, 1), moves))
        targets = {element.get("data-move") for element in root.iter() if element.get("data-move")}
        assert targets == {move.id for move in moves}


def test_svg_shows_own_hand_and_scores_at_the_end():
    state = {**position(), "step": "over", "turn": None, "built": None}
    svg = GAME.render_svg(GAME.view(state, 0), [])
    ElementTree.fromstring(svg)
    assert "Hand of Player 1:" in svg and "Player 1: 8" in svg
    assert "Your hand" not in GAME.render_svg(GAME.view(state, None), [])


def test_renderers_handle_every_position_of_a_random_game():
    rng = random.Random(3)
    state = GAME.setup(5, GAME.default_options(), rng)
    while True:
        seat = GAME.to_move(state)[0] if GAME.to_move(state) else None
        moves = GAME.legal_moves(state, seat) if seat is not None else []
        for viewer in (None, 0, 4):
            view = GAME.view(state, viewer)
            assert GAME.render_text(view)
            ElementTree.fromstring(GAME.render_svg(view, moves if viewer == seat else []))
        if not moves:
            break
        state = GAME.apply(state, seat, rng.choice(moves).args, rng)
