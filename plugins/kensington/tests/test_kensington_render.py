"""Text and SVG pictures: buildings on their grid, warehouses, chips, the pile by back and outline, scores."""

import random
import re

from gamehost_kensington.rules import Kensington, clone, placement_label
from gamehost_kensington.tiles import TILES, anchor_cell, tile_name

GAME = Kensington()


def position():
    state = clone(GAME.setup(2, GAME.default_options(), random.Random(0)))
    lit = [t for t, tile in TILES.items() if tile["type"] == "E1" and tile["lighting"] == "lit" and not tile["cat"]]
    state["buildings"][0]["columns"] = [["door-yellow", "lit-cat", "roof"], ["lit"]]
    state["warehouses"][1] = [lit[0], None]
    state["pile"].remove(lit[0])
    state.update(turn=0, phase="take")
    return state


def test_text_shows_each_building_row_by_row_with_its_score_breakdown():
    text = GAME.render_text(GAME.view(position(), None))
    assert "   2 ^." in text and "   1 l." in text and "   0 @L" in text
    assert "Player 1 (yellow): chips 1, warehouse [-, -]" in text
    assert "Player 2 (green): chips 1, warehouse [lit single # window, -]" in text
    assert "5 points: windows 1, doors 2, levels 1 (1 heights), cats 1, full roof 0" in text


def test_text_shows_the_pile_by_back_and_outline_only():
    state = position()
    text = GAME.render_text(GAME.view(state, 1))
    assert "7 beige single" in text and "6 brown-circle single" in text
    assert not any(re.search(rf"\b{token}\b", text) for token in state["pile"])


def test_text_names_tiles_by_what_they_show_and_their_shape_not_their_table_id():
    """Issue 16: "H2a lit" meant nothing to a player; the spec's shapes and faces do."""
    names = {tile_name(tile) for tile in TILES.values()}
    assert "lit L of 4 #. / #. / ## window (diamond)" in names
    assert "dark single # window (cat)" in names
    assert "roof corner of 3 .# / ## with a bird" in names and "red door" in names and "wall" in names
    assert not any(re.search(r"\b[EHR]\d", name) for name in names)  # no table ids


def test_a_placement_label_names_a_cell_the_tile_covers():
    """The box's bottom-left corner of ".# / ##" is covered, of "#. / ##" too, but of
    "##. / .##" (S) it is empty: the label names the lowest row's leftmost cell instead."""
    s_tile = next(tile for tile in TILES.values() if tile["type"] == "H4b")
    assert anchor_cell(s_tile) == [1, 0]
    assert placement_label(s_tile, 3, 2).endswith("with its lowest left cell on (4, 2)")
    covered = {(3 + dx, 2 + dy) for dx, dy, _ in s_tile["cells"]}
    assert (4, 2) in covered and (3, 2) not in covered


def test_labels_name_seats_from_1_and_address_nobody():
    state = position()
    labels = [move.label for move in GAME.legal_moves(state, 0)]
    assert "Steal the lit single # window from Player 2 (green)'s warehouse (paying them 1 chip)" in labels
    state = GAME.apply(state, 0, {"action": "draw", "back": "beige", "shape": "bar-2"}, random.Random(0))
    assert "End the turn and store the tile in the warehouse" in [move.label for move in GAME.legal_moves(state, 0)]


def test_svg_marks_draws_and_steals_as_legal_move_targets():
    state = position()
    moves = GAME.legal_moves(state, 0)
    svg = GAME.render_svg(GAME.view(state, 0), moves)
    targets = set(re.findall(r'data-move="([^"]*)"', svg))
    assert targets == {move.id for move in moves}
    assert "steal:1:0" in targets and "draw:brown:square-1" in targets


def test_svg_marks_every_placement_of_the_taken_tile():
    state = GAME.apply(position(), 0, {"action": "draw", "back": "beige", "shape": "bar-2"}, random.Random(0))
    moves = GAME.legal_moves(state, 0)
    svg = GAME.render_svg(GAME.view(state, 0), moves)
    targets = set(re.findall(r'data-move="([^"]*)"', svg))
    assert targets == {move.id for move in moves if move.id != "done"}
    assert svg.startswith("<svg")
