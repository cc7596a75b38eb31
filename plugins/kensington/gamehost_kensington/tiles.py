"""The components of Kensington (spec 1.3, 1.5): every tile as data.

The exact tile set of the published game could not be found, so the window
and roof tiles below are the spec's PROPOSED list (1.5.1, 1.5.2), kept in one
table each with the shapes drawn as text grids: top row first, ``#`` a cell,
``.`` empty. Tiles never rotate or mirror, so each grid is also the printed,
fixed orientation. Change a row here and the game, its pile and its tests
follow.

Every physical tile becomes one entry of ``TILES`` under a unique token
(``"tile-17"``): the token is what the state stores, and a token still in the
face-down pile is a secret owned by nobody.
"""

from __future__ import annotations

from functools import cache

from gamehost.sdk import Text

# --- PROPOSED window tiles (spec 1.5.1) --------------------------------------
# id, shape, diamond, lit copies, dark copies, lit copies with a cat, dark copies with a cat.
# H3a/H3c and H4c/H5b share a shape: the spec's revision replaced the upside-down
# T and U by one-step shapes already in the list, and keeps the ids apart.
WINDOW_TILES = (
    ("E1", ("#",), False, 4, 4, 1, 1),
    ("E2", ("##",), False, 3, 3, 1, 0),
    ("E3", ("#",
            "#"), False, 3, 3, 0, 1),
    ("E4", ("###",), False, 2, 2, 0, 0),
    ("E5", ("#",
            "#",
            "#"), False, 2, 2, 0, 0),
    ("E6", ("##",
            "##"), False, 3, 3, 1, 1),
    ("E7", ("###",
            "###"), False, 2, 1, 0, 0),
    ("E8", ("##",
            "##",
            "##"), False, 1, 2, 0, 0),
    ("H1a", ("#.",
             "##"), True, 1, 1, 0, 1),
    ("H1b", (".#",
             "##"), True, 1, 1, 0, 0),
    ("H1c", ("##",
             "#."), True, 1, 1, 0, 0),
    ("H1d", ("##",
             ".#"), True, 1, 1, 0, 0),
    ("H2a", ("#.",
             "#.",
             "##"), True, 1, 0, 0, 0),
    ("H2b", (".#",
             ".#",
             "##"), True, 0, 1, 0, 0),
    ("H2c", ("##",
             "#.",
             "#."), True, 1, 0, 0, 0),
    ("H2d", ("##",
             ".#",
             ".#"), True, 0, 1, 0, 0),
    ("H2e", ("###",
             "#.."), True, 1, 0, 0, 0),
    ("H2f", ("#..",
             "###"), True, 0, 1, 0, 0),
    ("H3a", ("#.",
             "##",
             "#."), True, 1, 1, 0, 0),
    ("H3b", (".#.",
             "###"), True, 1, 1, 1, 0),
    ("H3c", ("#.",
             "##",
             "#."), True, 1, 0, 0, 0),
    ("H3d", (".#",
             "##",
             ".#"), True, 0, 1, 0, 0),
    ("H4a", (".##",
             "##."), True, 1, 1, 0, 1),
    ("H4b", ("##.",
             ".##"), True, 1, 1, 0, 0),
    ("H4c", ("#.",
             "##",
             ".#"), True, 1, 0, 0, 0),
    ("H4d", (".#",
             "##",
             "#."), True, 0, 1, 0, 0),
    ("H5a", ("#.#",
             "###"), True, 1, 1, 1, 0),
    ("H5b", ("#.",
             "##",
             ".#"), True, 1, 1, 0, 0),
)

# --- PROPOSED roof tiles (spec 1.5.2) ----------------------------------------
# id, shape, copies, copies with a bird. Every cell of a roof tile is roof.
ROOF_TILES = (
    ("R1", ("#",), 6, 2),
    ("R2", ("##",), 5, 2),
    ("R3", ("###",), 3, 1),
    ("R4", ("##",
            "##"), 2, 1),
    ("R5", (".#",
            "##"), 2, 1),
    ("R6", ("#.",
            "##"), 2, 1),
    ("R7", (".#.",
            "###"), 2, 1),
    ("R8", ("#.#",
            "###"), 2, 0),
)

# --- Wall tiles (spec 1.5.3, fixed by the French rules) ----------------------
WALL_SHAPE = ("#",)
DOOR_SHAPE = ("#",)
"""PROPOSED (spec 1.4): a door, the start door or a red one, is one cell like a
window. A taller door would need the start door and the door score (2 per
door, counted here per door cell) changed with it."""
WALL_COUNT = 3
RED_DOOR_COUNT = 3

PLAYER_COLOURS = ("yellow", "green", "blue", "brown", "grey")
"""The five player doors and warehouses, in seat order."""

# --- Backs (spec 1.12): what a face-down tile shows --------------------------
BACK_BEIGE = "beige"
BACK_DIAMOND = "beige-diamond"
BACK_BROWN = "brown"
BACK_CIRCLE = "brown-circle"
BEIGE_BACKS = (BACK_BEIGE, BACK_DIAMOND)
BROWN_BACKS = (BACK_BROWN, BACK_CIRCLE)

SILHOUETTES = {
    "square-1": ("#",),
    "bar-2": ("##",),
    "bar-3": ("###",),
    "corner-3": ("#.", "##"),
    "square-4": ("##", "##"),
    "L-4": ("#.", "#.", "##"),
    "T-4": (".#.", "###"),
    "S-4": (".##", "##."),
    "U-5": ("#.#", "###"),
    "rect-6": ("###", "###"),
}
"""Names of the free polyominoes (shape up to rotation and reflection) the
backs show: face-down you see the outline, not which way up the tile lies."""


def cells_of(grid: tuple[str, ...]) -> list[list[int]]:
    """The cells of a text grid as [column, row] with row 0 the bottom row."""
    height = len(grid)
    return [[col, height - 1 - row] for row, line in enumerate(grid) for col, mark in enumerate(line) if mark == "#"]


def free_form(cells) -> tuple:
    """A canonical form of a polyomino under the 8 rotations and reflections."""
    forms = []
    for flip in (1, -1):
        for turn in range(4):
            moved = []
            for x, y in cells:
                x = x * flip
                for _ in range(turn):
                    x, y = -y, x
                moved.append((x, y))
            low_x = min(x for x, _ in moved)
            low_y = min(y for _, y in moved)
            forms.append(tuple(sorted((x - low_x, y - low_y) for x, y in moved)))
    return min(forms)


SILHOUETTE_OF_FORM = {free_form(cells_of(grid)): name for name, grid in SILHOUETTES.items()}


@cache  # a move's label names its tile's outline: listing moves asks this thousands of times
def silhouette(grid: tuple[str, ...]) -> str:
    return SILHOUETTE_OF_FORM[free_form(cells_of(grid))]


def _window_faces():
    for type_id, grid, diamond, lit, dark, lit_cats, dark_cats in WINDOW_TILES:
        for lighting, copies, cats in (("lit", lit, lit_cats), ("dark", dark, dark_cats)):
            for copy in range(copies):
                yield {"type": type_id, "kind": "window", "grid": grid, "lighting": lighting,
                       "cat": copy < cats, "diamond": diamond, "bird": False,
                       "back": BACK_DIAMOND if diamond else BACK_BEIGE}


def _roof_faces():
    for type_id, grid, copies, birds in ROOF_TILES:
        for copy in range(copies):
            yield {"type": type_id, "kind": "roof", "grid": grid, "lighting": None, "cat": False,
                   "diamond": False, "bird": copy < birds, "back": BACK_BROWN}


def _wall_faces():
    for _ in range(WALL_COUNT):
        yield {"type": "wall", "kind": "wall", "grid": WALL_SHAPE, "lighting": None, "cat": False,
               "diamond": False, "bird": False, "back": BACK_CIRCLE}
    for _ in range(RED_DOOR_COUNT):
        yield {"type": "red-door", "kind": "door", "grid": DOOR_SHAPE, "lighting": None, "cat": False,
               "diamond": False, "bird": False, "back": BACK_CIRCLE}


def _cell_code(face: dict, cell: list[int], cat_cell: list[int]) -> str:
    """What one cell of a tile shows, as stored in a building column."""
    if face["kind"] == "window":
        return face["lighting"] + ("-cat" if face["cat"] and cell == cat_cell else "")
    if face["kind"] == "door":
        return "door-red"
    return face["kind"]


def rim_of(cells: list[list[int]]) -> list[list[int]]:
    """The cells sharing an edge with ``cells`` and not among them, each once."""
    own = {(x, y) for x, y in cells}
    rim = {(x + dx, y + dy) for x, y in cells for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1))} - own
    return [[x, y] for x, y in sorted(rim)]


def _build_tiles() -> dict[str, dict]:
    tiles = {}
    faces = [*_window_faces(), *_roof_faces(), *_wall_faces()]
    for number, face in enumerate(faces, start=1):
        cells = cells_of(face["grid"])
        # The cat sits in the bottom-left cell: lowest row, leftmost cell (spec 1.5.1).
        cat_cell = min(cells, key=lambda cell: (cell[1], cell[0]))
        token = f"tile-{number}"
        tiles[token] = {
            **face,
            "token": token,
            "cells": [[x, y, _cell_code(face, [x, y], cat_cell)] for x, y in cells],
            "width": len(face["grid"][0]),
            # The lowest cell of each tile column, [dx, dy]: where the tile rests.
            "bottoms": [[column, min(y for x, y in cells if x == column)] for column in sorted({x for x, _ in cells})],
            "silhouette": silhouette(face["grid"]),
            # The cells beside the tile (an edge away, outside it), [dx, dy]: what it would touch.
            "rim": rim_of(cells),
        }
        # How much higher each tile column's lowest cell sits than the one on its left (a polyomino
        # has every column from 0 to its width): a tile rests where the building rises the same.
        bottoms = tiles[token]["bottoms"]
        tiles[token]["steps"] = [right[1] - left[1] for left, right in zip(bottoms, bottoms[1:])]
        tiles[token]["group"] = (face["back"], tiles[token]["silhouette"])  # the pile group its back shows
        # Tiles with the same shape and cell kinds (a cat or a bird aside) fit the same places.
        tiles[token]["placed_alike"] = (face["type"], face["lighting"])
    return tiles


TILES = _build_tiles()
"""Every tile of the pile by token: its face, cells ([x, y, cell code]) and back."""

TOKEN_NUMBER = {token: int(token.split("-")[1]) for token in TILES}
BIRD_ROOFS = sum(1 for tile in TILES.values() if tile["bird"])


# --- Names for people ---------------------------------------------------------
# Each name is a Text: its English words are the message id, and the host shows it in the
# player's language from the catalogues in locale/. Tokens, codes and groups stay plain data.
SHAPE_WORDS = {
    "square-1": Text("single"), "bar-2": Text("bar of 2"), "bar-3": Text("bar of 3"),
    "corner-3": Text("corner of 3"), "square-4": Text("square of 4"), "L-4": Text("L of 4"),
    "T-4": Text("T of 4"), "S-4": Text("S of 4"), "U-5": Text("U of 5"), "rect-6": Text("block of 6"),
}
"""The outline of a tile in words, by silhouette (spec 1.5: squares, rectangles, L, T, S and U shapes)."""

BACK_WORDS = {BACK_BEIGE: Text("beige"), BACK_DIAMOND: Text("beige-diamond"), BACK_BROWN: Text("brown"),
              BACK_CIRCLE: Text("brown-circle")}
"""A tile back in words: its colour, and the grey diamond or circle some backs carry (spec 1.12)."""

COLOUR_WORDS = {"yellow": Text("yellow"), "green": Text("green"), "blue": Text("blue"), "brown": Text("brown"),
                "grey": Text("grey")}
"""The colours of the player doors, in words."""


def shape_text(grid: tuple[str, ...] | list[str]) -> str:
    """The printed orientation as the spec draws it, top row first: "#. / ##"."""
    return " / ".join(grid)


@cache  # a move's label names its tile: listing moves asks this thousands of times
def shape_words(grid: tuple[str, ...]) -> Text:
    """A tile's outline in words and its printed orientation: "L of 4 #. / #. / ##"."""
    return Text("{outline} {drawing}", outline=SHAPE_WORDS[silhouette(grid)], drawing=shape_text(grid))


def tile_name(face: dict) -> Text:
    """A tile as a person names it: what it shows and its shape (spec 1.5),
    e.g. "lit L of 4 #. / #. / ## window (diamond)", "roof corner of 3 .# / ## with a bird",
    "red door". Mirrored variants differ only in the drawing, so it is always given."""
    # Each message is written out whole (no message id built from parts): pybabel finds them all.
    if face["kind"] == "window":
        shape = shape_words(tuple(face["grid"]))
        name = Text("lit {shape} window", shape=shape) if face["lighting"] == "lit" else \
            Text("dark {shape} window", shape=shape)
        if face["diamond"] and face["cat"]:
            return Text("{tile} (diamond, cat)", tile=name)
        if face["diamond"]:
            return Text("{tile} (diamond)", tile=name)
        return Text("{tile} (cat)", tile=name) if face["cat"] else name
    if face["kind"] == "roof":
        shape = shape_words(tuple(face["grid"]))
        return Text("roof {shape} with a bird", shape=shape) if face["bird"] else Text("roof {shape}", shape=shape)
    return Text("red door") if face["kind"] == "door" else Text("wall")


def back_and_outline(group: str) -> Text:
    """A pile group ("beige-diamond:L-4") as a person sees it face down: "beige-diamond L of 4"
    (the outline only: which way up the tile lies does not show, spec 1.12)."""
    back, shape = group.split(":")
    return Text("{back} {outline}", back=BACK_WORDS[back], outline=SHAPE_WORDS[shape])
