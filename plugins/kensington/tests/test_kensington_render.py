"""Text and SVG pictures: buildings on their grid, warehouses, chips, the pile by back and outline, scores."""

import random
import re

import xml.etree.ElementTree as ElementTree

from gamehost.client.composing import composed, path_problems
from gamehost.sdk.i18n import catalogues_of, translating
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


def cat_and_plain_copy():
    """Seat 0 building with a lit single showing a cat in hand and a plain copy of it in the warehouse."""
    state = clone(GAME.setup(2, GAME.default_options(), random.Random(0)))
    singles = [t for t, tile in TILES.items() if tile["type"] == "E1" and tile["lighting"] == "lit"]
    cat = next(t for t in singles if TILES[t]["cat"])
    plain = next(t for t in singles if not TILES[t]["cat"])
    for token in (cat, plain):
        state["pile"].remove(token)
    state["warehouses"][0] = [plain, None]
    state.update(turn=0, phase="build", hand=cat)
    return state, cat, plain


def in_french(value):
    return catalogues_of(GAME).translator("fr").translate(value)


def test_a_cat_tile_and_its_plain_copy_get_different_labels_in_english_and_french():
    """The cat scores a point: two placements differing only by it must not read the same."""
    state, cat, plain = cat_and_plain_copy()
    moves = {move.id: move for move in GAME.legal_moves(state, 0)}
    pairs = [(moves[move_id], moves[move_id.replace(f":{cat}:", f":{plain}:")]) for move_id in moves
             if move_id.startswith(f"place:{cat}:")]
    assert pairs and all(f"place:{plain}:" in plain_move.id for _, plain_move in pairs)
    for with_cat, without in pairs:
        assert with_cat.label != without.label and with_cat.parts[0].label != without.parts[0].label
        assert in_french(with_cat.label) != in_french(without.label)
        assert in_french(with_cat.parts[0].label) != in_french(without.parts[0].label)
        assert with_cat.label.startswith("Place the lit single # window (cat) with its lowest left cell on ")
        assert without.label.startswith("Place the lit single # window with its lowest left cell on ")
        assert in_french(with_cat.label).startswith("Placer la tuile-fenêtre éclairée en carré de 1 # (chat), ")
        assert "(chat)" not in in_french(without.label)
        assert in_french(with_cat.parts[0].label).endswith("(chat)")


def test_a_steal_label_and_the_pictures_name_the_cat_in_english_and_french():
    state, cat, plain = cat_and_plain_copy()
    state["warehouses"] = [[cat, None], [plain, None]]
    state.update(turn=1, phase="take", hand=None)
    steal = next(move for move in GAME.legal_moves(state, 1) if move.id.startswith("steal:"))
    assert "(cat)" in steal.label and "(chat)" in in_french(steal.label)
    view = GAME.view(state, None)
    assert "warehouse [lit single # window (cat), -]" in GAME.render_text(view)
    assert "warehouse [lit single # window, -]" in GAME.render_text(view)
    assert "window (cat)" in GAME.render_svg(view, [])
    with translating(catalogues_of(GAME).translator("fr")):
        text, svg = GAME.render_text(view), GAME.render_svg(view, [])
    assert "(chat)" in text and "(chat)" in svg
