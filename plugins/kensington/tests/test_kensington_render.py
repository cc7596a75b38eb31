"""Text and SVG pictures: buildings on their grid, warehouses, chips, the pile by back and outline, scores."""

import random
import re

import xml.etree.ElementTree as ElementTree

from gamehost.client.composing import composed, path_problems
from gamehost.sdk.part_targets import target_problems

from gamehost_kensington.game import Kensington
from gamehost_kensington.rules import clone, placement_label, resting_cell
from gamehost_kensington.tiles import TILES, tile_name

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
    """A label like "H2a lit" means nothing to a player; the spec's shapes and faces do."""
    names = {tile_name(tile) for tile in TILES.values()}
    assert "lit L of 4 #. / #. / ## window (diamond)" in names
    assert "dark single # window (cat)" in names
    assert "roof corner of 3 .# / ## with a bird" in names and "red door" in names and "wall" in names
    assert not any(re.search(r"\b[EHR]\d", name) for name in names)  # no table ids


def test_a_placement_label_names_a_cell_the_tile_covers():
    """The box's bottom-left corner of ".# / ##" is covered, of "#. / ##" too, but of
    "##. / .##" (S) it is empty: the label names the lowest row's leftmost cell instead."""
    s_tile = next(tile for tile in TILES.values() if tile["type"] == "H4b")
    assert resting_cell(s_tile) == (1, 0)
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


def test_svg_marks_every_placement_of_the_taken_tile_in_parts_and_the_end_of_the_turn():
    state = GAME.apply(position(), 0, {"action": "draw", "back": "beige", "shape": "bar-2"}, random.Random(0))
    moves = GAME.legal_moves(state, 0)
    svg = GAME.render_svg(GAME.view(state, 0), moves)
    assert set(re.findall(r'data-move="([^"]*)"', svg)) == {"done"}
    places = [move for move in moves if move.id.startswith("place:")]
    assert places and all(len(move.parts) == 2 for move in places)
    assert target_problems(svg, moves) == []
    assert svg.startswith("<svg")


def test_a_placement_is_composed_of_the_tile_then_the_cell_its_lowest_left_cell_takes():
    state = GAME.apply(position(), 0, {"action": "draw", "back": "beige", "shape": "bar-2"}, random.Random(0))
    moves = GAME.legal_moves(state, 0)
    assert path_problems(moves) == []
    for move in moves:
        if move.parts:
            tile, cell = move.parts
            assert tile.id == f"tile:{move.args['tile']}"
            # A bar lies flat: its lowest-left cell is its bottom-left corner.
            assert cell.id == f"cell:{move.args['x']}:{move.args['y']}"
            assert composed(moves, [tile.id, cell.id]) is move


def test_a_placement_clicks_a_cell_of_the_tile_even_where_its_corner_is_empty():
    corner_less = next(tile for tile in TILES.values() if tile["type"] == "H4c")  # "#." / "##" / ".#"
    assert resting_cell(corner_less) == (1, 0)


def test_the_picture_fits_a_720_pixel_page_with_numbered_rows_and_columns():
    state = GAME.apply(position(), 0, {"action": "draw", "back": "beige", "shape": "bar-2"}, random.Random(0))
    svg = GAME.render_svg(GAME.view(state, 0), GAME.legal_moves(state, 0))
    root = ElementTree.fromstring(svg)
    width = float(root.get("viewBox").split()[2])
    sizes = [float(text.get("font-size")) for text in root.iter("{http://www.w3.org/2000/svg}text")]
    assert min(sizes) * 700 / width >= 10  # the page shows the picture about 700 px wide
    texts = [text.text for text in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "-1" in texts and "0" in texts and "2" in texts
