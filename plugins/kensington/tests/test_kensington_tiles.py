"""The PROPOSED tile table against every count the French rules give (spec 1.3, 1.5)."""

from collections import Counter

from gamehost_kensington.tiles import (
    ROOF_TILES,
    TILES,
    WINDOW_TILES,
    cells_of,
    free_form,
)

WINDOWS = [tile for tile in TILES.values() if tile["kind"] == "window"]
ROOFS = [tile for tile in TILES.values() if tile["kind"] == "roof"]
SPECIALS = [tile for tile in TILES.values() if tile["kind"] in ("wall", "door")]


def test_seventy_window_tiles_35_lit_and_35_dark():
    assert len(WINDOWS) == 70
    assert Counter(tile["lighting"] for tile in WINDOWS) == {"lit": 35, "dark": 35}


def test_forty_easy_window_tiles_and_thirty_with_the_grey_diamond():
    assert Counter(tile["diamond"] for tile in WINDOWS) == {False: 40, True: 30}


def test_diamond_shows_on_the_back_of_the_harder_window_tiles():
    assert {tile["back"] for tile in WINDOWS if tile["diamond"]} == {"beige-diamond"}
    assert {tile["back"] for tile in WINDOWS if not tile["diamond"]} == {"beige"}


def test_window_shapes_are_squares_rectangles_l_t_s_and_u():
    families = {"square-1": "square", "square-4": "square", "bar-2": "rectangle", "bar-3": "rectangle",
                "rect-6": "rectangle", "corner-3": "L", "L-4": "L", "T-4": "T", "S-4": "S", "U-5": "U"}
    assert {families[tile["silhouette"]] for tile in WINDOWS} == {"square", "rectangle", "L", "T", "S", "U"}


def test_twenty_four_roof_tiles_nine_with_a_bird_all_brown_backed():
    assert len(ROOFS) == 24
    assert sum(tile["bird"] for tile in ROOFS) == 9
    assert {tile["back"] for tile in ROOFS} == {"brown"}


def test_roof_shapes_are_squares_rectangles_l_t_and_u():
    families = {"square-1": "square", "square-4": "square", "bar-2": "rectangle", "bar-3": "rectangle",
                "corner-3": "L", "T-4": "T", "U-5": "U"}
    assert {families[tile["silhouette"]] for tile in ROOFS} == {"square", "rectangle", "L", "T", "U"}


def test_six_wall_tiles_three_walls_and_three_red_doors_with_the_grey_circle_back():
    assert Counter(tile["kind"] for tile in SPECIALS) == {"wall": 3, "door": 3}
    assert {tile["back"] for tile in SPECIALS} == {"brown-circle"}
    assert all(tile["silhouette"] == "square-1" for tile in SPECIALS)


def test_proposed_table_totals_230_window_cells_63_roof_cells_and_10_cats():
    assert sum(len(tile["cells"]) for tile in WINDOWS) == 230
    assert sum(len(tile["cells"]) for tile in ROOFS) == 63
    assert sum(code.endswith("-cat") for tile in WINDOWS for _, _, code in tile["cells"]) == 10


def test_proposed_table_rows_match_their_row_counts():
    for type_id, _grid, _diamond, lit, dark, lit_cats, dark_cats in WINDOW_TILES:
        copies = [tile for tile in WINDOWS if tile["type"] == type_id]
        assert Counter(tile["lighting"] for tile in copies) == Counter({"lit": lit, "dark": dark}) - Counter()
        assert sum(tile["cat"] and tile["lighting"] == "lit" for tile in copies) == lit_cats
        assert sum(tile["cat"] and tile["lighting"] == "dark" for tile in copies) == dark_cats
    for type_id, _grid, copies, birds in ROOF_TILES:
        assert [tile["bird"] for tile in ROOFS if tile["type"] == type_id].count(True) == birds
        assert sum(tile["type"] == type_id for tile in ROOFS) == copies


def test_cat_sits_in_the_bottom_left_cell_of_its_tile():
    for tile in WINDOWS:
        if tile["cat"]:
            bottom = min(y for _, y, _ in tile["cells"])
            leftmost = min(x for x, y, _ in tile["cells"] if y == bottom)
            assert [code for x, y, code in tile["cells"] if code.endswith("-cat")] == [f"{tile['lighting']}-cat"]
            assert [(x, y) for x, y, code in tile["cells"] if code.endswith("-cat")] == [(leftmost, bottom)]


def test_every_tile_column_is_one_unbroken_run_so_buildings_stay_solid_stacks():
    for tile in TILES.values():
        for column in {x for x, _, _ in tile["cells"]}:
            rows = sorted(y for x, y, _ in tile["cells"] if x == column)
            assert rows == list(range(rows[0], rows[-1] + 1)), tile["type"]


def test_mirrored_variants_are_separate_tiles_with_the_same_outline():
    h1 = {tile["type"]: tile for tile in WINDOWS if tile["type"].startswith("H1")}
    assert len({tuple(map(tuple, cells_of(tile["grid"]))) for tile in h1.values()}) == 4
    assert len({free_form(cells_of(tile["grid"])) for tile in h1.values()}) == 1


def test_tokens_are_unique_tile_numbers():
    assert list(TILES) == [f"tile-{number}" for number in range(1, 101)]
