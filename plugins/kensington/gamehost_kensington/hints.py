"""Hints for search bots: how good a Kensington move looks, cheaply.

No rule of the game lives here (``rules.py`` decides what is legal and who
wins); these are a bot's guesses. Windows and doors score only in a column
under a roof, distinct roofed heights score 1+2+..+k, cats score anywhere,
and a fully roofed building scores a point a column (spec 1.10). So a
building is worth (``building_value``):

- its score now;
- half the points waiting in columns not roofed yet (``OPEN_WEIGHT``): the
  windows and doors a later roof would make count.

A placement is worth what it adds to that value (``Facade.gain``: a roof over
waiting windows, a new roofed height, a cat), plus a chip when it is a
diamond tile and the supply has one (spec 1.7: a chip buys a roof). A draw is
worth the mean over the tiles it may yield of their best placement, less a
chip for a brown back; a steal, its tile's best placement less a chip.

The search orders the moves it tries by these values (``ordered``), and
playouts (``playout_choice``) place the best placement of the tiles in hand
while one adds value, and draw from the group whose tile adds most, judging
each group by one of its tiles drawn at random.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

from gamehost.sdk import Move, places, rank_shares

import gamehost_kensington.rules as rules
from gamehost_kensington.tiles import BROWN_BACKS, TILES

OPEN_WEIGHT = 0.5
"""A window or door not under a roof yet, against 1 under one: a roof may
still come, or may not."""

CHIP_VALUE = 0.5
"""A chip: a brown draw costs one (roofs come only that way), a diamond
placement earns one."""


def cell_points(code: str) -> int:
    """What a cell scores under a roof: 1 a window, 2 a door (spec 1.10)."""
    if code.startswith("door"):
        return 2
    return 1 if rules.is_window(code) else 0


def roofed(column: list[str]) -> bool:
    return bool(column) and column[-1] == "roof"


def triangle(levels: int) -> int:
    """1+2+..+k points for k distinct roofed heights."""
    return levels * (levels + 1) // 2


def building_value(building: dict) -> float:
    """The score now plus ``OPEN_WEIGHT`` per point waiting under no roof."""
    return rules.score(building)["total"] + OPEN_WEIGHT * waiting_points(building)


class Facade:
    """What one building's score hangs on, read once, so that the value a
    placement adds costs a few steps per tile cell (no copy of the building)."""

    def __init__(self, building: dict):
        self.building = building
        self.left = building["left"]
        self.columns = building["columns"]
        self.roofed_heights = Counter(len(column) for column in self.columns if roofed(column))
        self.unroofed = sum(1 for column in self.columns if not roofed(column))

    def gain(self, tile: dict, x: int, y: int) -> float:
        """``building_value`` after placing ``tile`` at (x, y) (a legal
        placement) less before. A tile never goes on a roof, so every column
        it touches was open."""
        added: dict[int, list[tuple[int, str]]] = {}
        for dx, dy, code in tile["cells"]:
            added.setdefault(x + dx, []).append((y + dy, code))
        gain = 0.0
        new_heights = set()
        unroofed = self.unroofed
        width = len(self.columns)
        for cx, cells in added.items():
            index = cx - self.left
            column = self.columns[index] if 0 <= index < width else []
            before = sum(cell_points(code) for code in column)
            more = sum(cell_points(code) for _, code in cells)
            gain += sum(1 for _, code in cells if code.endswith("-cat"))
            if max(cells)[1] == "roof":
                gain += before + more - OPEN_WEIGHT * before
                new_heights.add(len(column) + len(cells))
                unroofed -= 1 if column else 0
            else:
                gain += OPEN_WEIGHT * more
                unroofed += 0 if column else 1
        levels = len(self.roofed_heights)
        gain += triangle(len(new_heights | self.roofed_heights.keys())) - triangle(levels)
        columns_after = width + sum(1 for cx in added if not 0 <= cx - self.left < width)
        gain += (columns_after if unroofed == 0 else 0) - (width if self.unroofed == 0 else 0)
        return gain

    def best_gain(self, tile: dict, options) -> float | None:
        """The most a placement of ``tile`` adds, or None where it fits nowhere."""
        return max((self.gain(tile, x, y) for x, y in placements_to_compare(self.building, tile, options)),
                   default=None)


def placements_to_compare(building: dict, tile: dict, options) -> list[list[int]]:
    """The placements of ``tile`` whose values may differ: a roof's value depends
    on the columns it closes, but any other tile adds the same wherever it goes
    (its cells wait under no roof, and it leaves a column open), so the first
    place found stands for all of them."""
    return rules.placements(building, tile, options, first_only=tile["kind"] != "roof")


def chip_earned(state: dict, tile: dict) -> float:
    """A diamond tile placed earns a chip while the supply lasts (spec 1.7)."""
    return CHIP_VALUE if tile["diamond"] and state["supply"] > 0 else 0.0


def draw_value(state: dict, seat: int, facade: Facade, back: str, tokens: Sequence[str]) -> float:
    """A draw from a back-and-outline group: the mean best placement of the
    tiles it may yield (0 for one that fits nowhere: it waits in the
    warehouse), less a chip for a brown back."""
    faces: dict[tuple, list[str]] = {}  # copies of one face place alike
    for token in tokens:
        tile = TILES[token]
        faces.setdefault((tile["type"], tile["lighting"], tile["cat"]), []).append(token)
    total = sum(len(copies) * drawn_tile_value(state, facade, TILES[copies[0]]) for copies in faces.values())
    return total / len(tokens) - (CHIP_VALUE if back in BROWN_BACKS else 0.0)


def drawn_tile_value(state: dict, facade: Facade, tile: dict) -> float:
    """What a drawn tile adds at its best placement, with the chip a diamond
    tile earns; 0 where it fits nowhere (it waits in the warehouse)."""
    best = facade.best_gain(tile, state["options"])
    return 0.0 if best is None else best + chip_earned(state, tile)


def move_values(state: dict, seat: int, moves: Sequence[Move]) -> dict[str, float]:
    """Every move's value by id (see the module's list); ending the turn is 0."""
    facade = Facade(state["buildings"][seat])
    groups = rules.pile_groups(state["pile"])
    values = {}
    for move in moves:
        args = move.args
        action = args["action"]
        if action == "place":
            tile = TILES[args["tile"]]
            values[move.id] = facade.gain(tile, args["x"], args["y"]) + chip_earned(state, tile)
        elif action == "draw":
            values[move.id] = draw_value(state, seat, facade, args["back"], groups[(args["back"], args["shape"])])
        elif action == "steal":
            tile = TILES[state["warehouses"][args["from"]][args["spot"]]]
            best = facade.best_gain(tile, state["options"]) or 0.0
            values[move.id] = best + chip_earned(state, tile) - CHIP_VALUE
        else:
            values[move.id] = 0.0
    return values


def ordered(state: dict, seat: int, moves: Sequence[Move]) -> list[Move]:
    """``moves`` best valued first (ties keep their order)."""
    values = move_values(state, seat, moves)
    return sorted(moves, key=lambda move: values[move.id], reverse=True)


def best_placement(state: dict, seat: int) -> tuple[float, Move] | None:
    """The placement of a tile the seat may place now that adds most, with
    its value, or None when none fits."""
    facade = Facade(state["buildings"][seat])
    best = None
    for token in rules.own_tiles(state, seat):
        tile = TILES[token]
        bonus = chip_earned(state, tile)
        for x, y in placements_to_compare(facade.building, tile, state["options"]):
            value = facade.gain(tile, x, y) + bonus
            if best is None or value > best[0]:
                best = (value, place_move(token, x, y))
    return best


def place_move(token: str, x: int, y: int) -> Move:
    return Move(f"place:{token}:{x}:{y}", rules.placement_label(TILES[token], x, y),
                {"action": "place", "tile": token, "x": x, "y": y})


def waiting_points(building: dict) -> int:
    """Points of windows and doors in columns under no roof yet."""
    return sum(cell_points(code) for column in building["columns"] if not roofed(column) for code in column)


def playout_choice(state: dict, seat: int, rng) -> Move | None:
    """A playout player's move. In Build: the best placement while one adds
    value (a stolen tile always), else end the turn. In Take: the draw whose
    tile adds most, each back-and-outline group judged by one of its tiles
    drawn at random (``sampled_draw_value``). None where no draw is allowed
    (then a random take: a steal)."""
    if state["phase"] == "over" or state["turn"] != seat:
        return None
    if state["phase"] != "take":
        best = best_placement(state, seat)
        if best is not None and (best[0] > 0 or state["stolen"]):
            return best[1]
        return Move("done", "End the turn", {"action": "done"})
    groups = rules.pile_groups(state["pile"])
    options = sorted(key for key in groups if rules.may_draw(state, seat, key[0]))  # as rules.draw_options
    if not options:
        return None
    facade = Facade(state["buildings"][seat])
    back, shape = max(options, key=lambda option: sampled_draw_value(state, facade, option, groups[option], rng))
    return Move(f"draw:{back}:{shape}", "Draw a face-down tile", {"action": "draw", "back": back, "shape": shape})


def sampled_draw_value(state: dict, facade: Facade, group: tuple[str, str], tokens: Sequence[str], rng) -> float:
    """``draw_value`` guessed from one tile of the group drawn with ``rng``:
    a playout takes a draw a turn and cannot afford every face of every group."""
    tile = TILES[tokens[rng.randrange(len(tokens))]]
    return drawn_tile_value(state, facade, tile) - (CHIP_VALUE if group[0] in BROWN_BACKS else 0.0)


def listed(choice: Move | None, moves: Sequence[Move]) -> Move | None:
    """The move of ``moves`` with the id of ``choice``, or None."""
    if choice is None:
        return None
    return next((move for move in moves if move.id == choice.id), None)


def value_shares(state: Any) -> list[float]:
    """A guess at the result of an unfinished game: the seats ranked by
    ``building_value``, birds built breaking ties (spec 1.10)."""
    keys = [(building_value(building), building["birds"]) for building in state["buildings"]]
    return rank_shares(places(keys))
