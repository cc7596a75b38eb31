"""Text and SVG renderers: the face-down layout with places, the face-up card,
every wall with its specials, scores, and a click target for every move."""

from __future__ import annotations

import random
import re

from gamehost_burgbaumeister.game import Burgbaumeister

GAME = Burgbaumeister()


def position(walls, table, *, seat=0, revealed=None, options=None, seen=(), phase=None):
    tokens = [None] * 45
    for place, number in table.items():
        tokens[place] = f"card-{number}"
    return {
        "options": GAME.default_options() | (options or {}),
        "table": tokens,
        "seen": [place in seen for place in range(45)],
        "walls": [list(wall) for wall in walls],
        "discard": [],
        "spent_magicians": [],
        "seat": seat,
        "phase": phase or ("reveal" if revealed is None else "decide"),
        "revealed": revealed,
        "turn": 4,
        "idle_turns": 0,
        "end": None,
    }


def svg_targets(state, seat=None):
    seat = state["seat"] if seat is None else seat
    svg = GAME.render_svg(GAME.view(state, seat), GAME.legal_moves(state, seat))
    return re.findall(r'data-move="([^"]*)"', svg)


def test_text_shows_the_grid_the_face_up_card_walls_with_specials_and_scores():
    state = position([[1, 6, 40], [1, 5]], {0: 17, 1: 30, 12: 44}, revealed=1, options={"special_cards": True})
    text = GAME.render_text(GAME.view(state, None))
    lines = text.splitlines()
    assert lines[0] == "Turn 5: Player 1 takes the face-up card or turns it back."
    assert lines[2].startswith("A     ##   [30]   .     .  ")
    assert "Face up at A2: 30" in text
    assert "> Player 1 (6 points): 1+ 6T+ 40K" in text  # 3 cards + king 3
    assert "  Player 2 (3 points): 1+ 5R" in text  # 2 cards + raven 1
    assert "17" not in text and "44" not in text


def test_text_shows_remembered_cards_only_with_the_memory_aid():
    state = position([[1], [1]], {0: 17, 1: 30}, seen=[0], options={"memory_aid": True})
    assert "(17)" in GAME.render_text(GAME.view(state, 1))
    state["options"]["memory_aid"] = False
    assert "17" not in GAME.render_text(GAME.view(state, 1))


def test_svg_lets_the_player_click_every_face_down_card_to_turn_it_up():
    state = GAME.setup(3, GAME.default_options(), random.Random(4))
    assert sorted(svg_targets(state)) == sorted(move.id for move in GAME.legal_moves(state, state["seat"]))
    assert len(svg_targets(state)) == 45


def test_svg_targets_take_magician_and_decline():
    state = position([[1, 10, 27, 30], [1]], {4: 14}, revealed=4, options={"special_cards": True})
    assert sorted(svg_targets(state)) == ["decline", "magician"]
    state = position([[1, 10], [1]], {4: 14}, revealed=4)
    assert sorted(svg_targets(state)) == ["decline", "take"]


def test_svg_targets_every_card_a_cannon_may_remove():
    state = position([[1, 10, 18], [1, 3, 6, 9], [1, 2]], {4: 14}, phase="fire", options={"special_cards": True})
    assert sorted(svg_targets(state)) == sorted(["fire:1:3", "fire:1:9", "fire:2:2"])


def test_svg_offers_no_target_to_a_player_not_to_move():
    state = position([[1, 10], [1]], {4: 14}, revealed=4)
    assert svg_targets(state, seat=1) == []
    assert "<svg" in GAME.render_svg(GAME.view(state, None), [])
