"""Scalino (Peter Pallat; Edition Perlhuhn 1982, Abacusspiele 2005), 2 or 4 players.

Players build a four-level pyramid of straight wooden bars together, each
trying to form long staircases of their own colour as seen from above.
Spec: docs/rules/scalino.md sections 3.3 to 3.7 (French original:
shared/seeds/002_61a8e91d03a4ca12.txt).

State (plain JSON): ``grid[level - 1][cell]`` is the index in ``pieces`` of
the piece on that cell of that level, or None; each piece is
``{"colour", "size", "level", "cells"}`` with cell names; ``hands[colour]``
counts the unplaced 1-, 2- and 3-cell bars of a colour. ``turn`` is the seat
to move, ``bonus`` is true while that seat owes the level-completion piece,
``skipped`` lists the seats that just had to pass.
"""

from __future__ import annotations

from functools import cache

from gamehost.sdk import IllegalMove, MalformedMove, Move, Outcome, Part, Text, places, seat_name

from gamehost_scalino.pyramid import (
    COLOURS,
    PIECE_SIZES,
    PIECES_PER_COLOUR,
    Pyramid,
    best_staircases,
    counted_cells,
    pyramid,
    staircase_graph,
    triangular,
)
from gamehost_scalino.words import colours_name, piece_name, verdict

POCKET_RULES = ("rectangle", "cell", "region", "off")
"""Readings of "no empty cell or group of cells bordered by pieces on more than
two sides" (spec 3.4 rule 4); "rectangle" is the PROPOSED default."""

STAIRCASE_STEPS = ("adjacent", "level-change")
"""Which neighbouring counted cells continue a staircase (spec 3.6): any
orthogonal neighbour (PROPOSED default) or only one on another level."""

START_PLAYERS = ("random", "first-seat")
"""Who starts: the players choose [FR]; PROPOSED: a random seat."""


def seat_colours(seats: int) -> list[list[str]]:
    """4 players: one colour each; 2 players: two colours each (spec 3.3)."""
    if seats == 4:
        return [[colour] for colour in COLOURS]
    return [[COLOURS[0], COLOURS[2]], [COLOURS[1], COLOURS[3]]]


def current_level(state: dict, pyr: Pyramid) -> int | None:
    """The lowest level not yet full (levels are filled in order, spec 3.4),
    or None once the pyramid is complete."""
    for level, region in enumerate(pyr.regions, start=1):
        grid = state["grid"][level - 1]
        if any(grid[cell] is None for cell in region):
            return level
    return None


# --- placement rules (spec 3.4) ------------------------------------------------------

class Site:
    """The level being built, as the placement rules see it."""

    def __init__(self, state: dict, pyr: Pyramid, level: int):
        self.pyr = pyr
        self.level = level
        self.region = pyr.regions[level - 1]
        self.grid = state["grid"][level - 1]
        self.below = state["grid"][level - 2] if level > 1 else None
        self.pieces = state["pieces"]
        self.pocket_rule = state["options"]["pocket_rule"]
        self.first_of_game = not self.pieces
        self.opening = not any(self.grid[cell] is not None for cell in self.region)

    def colour_at(self, grid: list, cell: int) -> str | None:
        piece = grid[cell]
        return None if piece is None else self.pieces[piece]["colour"]


def first_piece_on_cross(site: Site, bar: tuple) -> tuple[str, str] | None:
    """Rule 1: the first piece of the game covers the centre cross."""
    if site.first_of_game and site.pyr.cross not in bar:
        return "first-piece-on-cross", (f"The first piece of the game must cover the centre cross "
                                        f"({site.pyr.names[site.pyr.cross]}).")
    return None


def touches_a_piece(site: Site, bar: tuple) -> tuple[str, str] | None:
    """Rule 2: a piece touches a piece of its level along an edge, except the
    first piece of the game and the first piece on a new level."""
    if site.first_of_game or site.opening:
        return None
    if not any(site.grid[n] is not None for cell in bar for n in site.pyr.neighbours[cell]):
        return "no-contact", f"A piece must touch a piece already on level {site.level} along at least one side."
    return None


def no_same_colour_beside(site: Site, colour: str, bar: tuple) -> tuple[str, str] | None:
    """Rule 3 (i): no face contact with a piece of the same colour on the same level."""
    for cell in bar:
        for n in site.pyr.neighbours[cell]:
            if n not in bar and site.colour_at(site.grid, n) == colour:
                return "same-colour-beside", (f"A {colour} piece may not touch another {colour} piece side by side "
                                              f"({site.pyr.names[cell]} is next to {site.pyr.names[n]}).")
    return None


def no_same_colour_below(site: Site, colour: str, bar: tuple) -> tuple[str, str] | None:
    """Rule 3 (ii): no piece directly on top of a piece of the same colour."""
    if site.below is None:
        return None
    for cell in bar:
        if site.colour_at(site.below, cell) == colour:
            return "same-colour-above", (f"A {colour} piece may not lie on another {colour} piece "
                                         f"({site.pyr.names[cell]} on level {site.level - 1} is {colour}).")
    return None


def rectangle_pocket(pyr: Pyramid, region: frozenset, filled: list) -> bool:
    """The "rectangle" reading: an empty rectangle of the level lined by pieces
    along three or more full sides (the level's outer edge counts as open).

    Three lined sides always include two opposite ones, and then the row (or
    column) of the rectangle next to the third side is itself such a pocket:
    an empty run with a piece at both ends and a fully filled line beside it.
    So scanning the runs of every row and column finds every pocket.
    """
    for line, flank_before, flank_after in pyr.lines:
        start, length = 0, len(line)
        while start < length:
            if line[start] not in region or filled[line[start]] is not None:
                start += 1
                continue
            end = start
            while end < length and line[end] in region and filled[line[end]] is None:
                end += 1
            closed = start > 0 and end < length and filled[line[start - 1]] is not None and filled[line[end]] is not None
            if closed:
                for flank in (flank_before, flank_after):
                    if flank and all(filled[flank[k]] is not None for k in range(start, end)):
                        return True
            start = end
    return False


def cell_pocket(pyr: Pyramid, region: frozenset, filled: list) -> bool:
    """The "cell" reading: an empty cell with pieces on 3 or 4 of its sides."""
    return any(filled[cell] is None and sum(filled[n] is not None for n in pyr.neighbours[cell]) >= 3
               for cell in region)


def region_pocket(pyr: Pyramid, region: frozenset, filled: list) -> bool:
    """The "region" reading: a connected group of empty cells enclosed by pieces
    on more than two of its four sides (a side is enclosed when every cell of
    the group facing that way, and not facing the group, faces a piece)."""
    seen = set()
    for start in sorted(region):
        if filled[start] is not None or start in seen:
            continue
        group, stack = {start}, [start]
        while stack:
            for n in pyr.neighbours[stack.pop()]:
                if n in region and filled[n] is None and n not in group:
                    group.add(n)
                    stack.append(n)
        seen |= group
        enclosed = 0
        for direction in range(4):
            facing = [pyr.steps[cell][direction] for cell in group]
            facing = [n for n in facing if n not in group]
            if all(n is not None and filled[n] is not None for n in facing):
                enclosed += 1
        if enclosed > 2:
            return True
    return False


POCKET_CHECKS = {"rectangle": rectangle_pocket, "cell": cell_pocket, "region": region_pocket}


def no_pocket(site: Site, bar: tuple) -> tuple[str, str] | None:
    """Rule 4: placing may not leave empty cells bordered by pieces on more than two sides."""
    check = POCKET_CHECKS.get(site.pocket_rule)
    if check is None:
        return None
    filled = list(site.grid)
    for cell in bar:
        filled[cell] = -1
    if check(site.pyr, site.region, filled):
        return "pocket", (f"This piece would leave empty cells on level {site.level} bordered by pieces "
                          f"on more than two sides.")
    return None


def placement_problem(site: Site, colour: str, bar: tuple) -> tuple[str, str] | None:
    """The first placement rule a piece of ``colour`` on ``bar`` breaks, as
    (rule, reason), or None when it may be placed."""
    taken = [cell for cell in bar if site.grid[cell] is not None]
    if taken:
        return "cell-occupied", f"{site.pyr.names[taken[0]]} on level {site.level} already holds a piece."
    return (first_piece_on_cross(site, bar) or touches_a_piece(site, bar)
            or no_same_colour_beside(site, colour, bar) or no_same_colour_below(site, colour, bar)
            or no_pocket(site, bar))


def piece_kind(pyr: Pyramid, bar) -> str:
    """A bar's size and, for bars, how it lies: "1", "2h", "3v"."""
    cells = sorted(bar)
    if len(cells) == 1:
        return "1"
    return f"{len(cells)}{'v' if cells[1] - cells[0] == pyr.side else 'h'}"


def placement_parts(pyr: Pyramid, colour: str, bar) -> tuple[Part, Part]:
    """A placement composed by clicks: the piece (colour, size, lie), then the
    cell where it starts (its top or left cell)."""
    kind = piece_kind(pyr, bar)
    lie = {"1": "", "h": "across", "v": "down"}[kind[-1]]
    start = pyr.names[min(bar)]
    return (Part(f"piece:{colour}:{kind}", piece_name(colour, len(bar), lie=lie)),
            Part(f"cell:{start}", Text("{cell}", cell=start)))


def legal_placements(state: dict, seat: int):
    """Every (colour, bar) the seat may place now on the level being built.

    The same rules as ``placement_problem``, in an order for speed (search
    bots list moves millions of times): free cells (one set test a bar), then the colour rules,
    then the rules that do not depend on the colour, checked once per bar
    (a seat with two colours would otherwise check each bar's pockets twice).
    """
    pyr = pyramid(state["options"]["geometry"])
    level = current_level(state, pyr)
    if level is None:
        return
    site = Site(state, pyr, level)
    free = {cell for cell in site.region if site.grid[cell] is None}
    free_bars = {size: [bar for bar in pyr.bars[level - 1][size] if free.issuperset(bar)] for size in PIECE_SIZES}
    # Rule 3 (i) as ``no_same_colour_beside`` checks it, for every bar at once: the free cells next
    # to a piece of the colour (a bar's own cells are free, so they never count against it).
    beside = {colour: {cell for cell in free
                       if any(site.colour_at(site.grid, n) == colour for n in pyr.neighbours[cell])}
              for colour in state["colours"][seat]}
    fits_any_colour: dict[tuple, bool] = {}
    for colour in state["colours"][seat]:
        for size in PIECE_SIZES:
            if state["hands"][colour][size - 1] == 0:
                continue
            for bar in free_bars[size]:
                if not beside[colour].isdisjoint(bar) or no_same_colour_below(site, colour, bar):
                    continue
                fits = fits_any_colour.get(bar)
                if fits is None:
                    fits = fits_any_colour[bar] = not (first_piece_on_cross(site, bar) or touches_a_piece(site, bar)
                                                       or no_pocket(site, bar))
                if fits:
                    yield colour, bar


def can_place(state: dict, seat: int) -> bool:
    return next(legal_placements(state, seat), None) is not None


# --- turn order and the end (spec 3.4 rules 5 and 7, 3.5) ---------------------------

def after_placement(state: dict, seat: int, pyr: Pyramid, level: int) -> dict:
    """Whose turn it is after ``seat`` placed on ``level``: the same seat owes one
    more piece on the next level when it just completed one (rule 5; PROPOSED:
    the duty lapses when it has no legal piece), otherwise the next seat that
    can place, passing the others (rule 7). Nobody can place, or the pyramid is
    complete: the game is over (spec 3.5)."""
    next_level = current_level(state, pyr)
    if next_level is None:
        return {**state, "over": True, "bonus": False, "skipped": []}
    if next_level != level and can_place(state, seat):
        return {**state, "turn": seat, "bonus": True, "skipped": []}
    seats = state["seats"]
    skipped: list[int] = []
    for step in range(1, seats + 1):
        candidate = (seat + step) % seats
        if can_place(state, candidate):
            return {**state, "turn": candidate, "bonus": False, "skipped": skipped}
        skipped.append(candidate)
    return {**state, "over": True, "bonus": False, "skipped": skipped}


# --- scoring (spec 3.6) -----------------------------------------------------------------

def colour_scores(state: dict) -> dict[str, dict]:
    """Per colour: its staircases (cell names), their points, and the penalty for
    unplaced pieces. Spec 3.6: the penalty applies only to a pyramid left
    incomplete, so only once the game is over (while it runs every piece in
    hand may still be placed: no penalty is shown)."""
    pyr = pyramid(state["options"]["geometry"])
    counted = counted_cells(pyr, state["grid"], state["pieces"])
    penalised = state["over"] and current_level(state, pyr) is not None
    scores = {}
    for colour in COLOURS:
        graph = staircase_graph(pyr, counted, colour, state["options"]["staircase_steps"])
        staircases = best_staircases(graph)
        penalty = 0 if not penalised else sum(size * state["hands"][colour][size - 1] for size in PIECE_SIZES)
        scores[colour] = {
            "staircases": [[pyr.names[cell] for cell in path] for path in staircases],
            "points": sum(triangular(len(path)) for path in staircases),
            "penalty": penalty,
        }
    return scores


def seat_totals(state: dict) -> list[int]:
    """A seat's score: staircase points minus penalties over its colours."""
    scores = colour_scores(state)
    return [sum(scores[c]["points"] - scores[c]["penalty"] for c in colours) for colours in state["colours"]]


# --- the game ---------------------------------------------------------------------------

def parse_placement(pyr: Pyramid, move) -> tuple[str, int, tuple]:
    """(colour, level, bar) from ``{"colour", "level", "cells"}``, or IllegalMove."""
    shape = 'A placement is {"colour": "red", "level": 1, "cells": ["d4", "e4"]}.'
    if not hasattr(move, "get"):
        raise MalformedMove(shape)
    colour, level, cells = move.get("colour"), move.get("level"), move.get("cells")
    if colour not in COLOURS or isinstance(level, bool) or not isinstance(level, int) or not isinstance(cells, list):
        raise MalformedMove(shape)
    if not 1 <= level <= pyr.levels:
        raise IllegalMove(f"Levels are numbered 1 to {pyr.levels}.", "no-such-level")
    if not all(isinstance(name, str) and name in pyr.index for name in cells):
        raise IllegalMove(f"Cells are named a1 to {pyr.names[-1]} on this board.", "no-such-cell")
    bar = pyr.straight_bar([pyr.index[name] for name in cells])
    if bar is None:
        raise IllegalMove("A piece is a straight bar of 1, 2 or 3 cells in one row or one column.",
                          "not-a-straight-piece")
    return colour, level, bar


# --- the game (spec 3.3 to 3.7) ---------------------------------------------------------

def setup(seats: int, options: dict, rng):
    """Spec 3.3: 4 players one colour each, 2 players two colours each; all pieces in hand.
    `options` has every default filled in."""
    if seats not in (2, 4):
        raise ValueError("Scalino is played by 2 or 4 players.")
    pyr = pyramid(options["geometry"])
    start = rng.randrange(seats) if options["start_player"] == "random" else 0
    return {
        "options": options,
        "seats": seats,
        "colours": seat_colours(seats),
        "hands": {colour: [PIECES_PER_COLOUR[size] for size in PIECE_SIZES] for colour in COLOURS},
        "grid": [[None] * len(pyr.cells) for _ in range(pyr.levels)],
        "pieces": [],
        "turn": start,
        "bonus": False,
        "skipped": [],
        "over": False,
    }


def to_move(state: dict):
    return () if state["over"] else (state["turn"],)


def legal_moves(state: dict, seat: int):
    if state["over"] or seat != state["turn"]:
        return []
    pyr = pyramid(state["options"]["geometry"])
    level = current_level(state, pyr)
    return [placement_move(pyr, colour, bar, level) for colour, bar in legal_placements(state, seat)]


@cache  # a Move is immutable: made once, as search bots list the moves at every step of every playout
def placement_move(pyr: Pyramid, colour: str, bar: tuple, level: int) -> Move:
    span = pyr.span(bar)
    return Move(id=f"{colour}:{span}",
                label=Text("{piece} on {cells} (level {level})",
                           piece=piece_name(colour, len(bar), capital=True), cells=span, level=level),
                args={"colour": colour, "level": level, "cells": [pyr.names[c] for c in bar]},
                parts=placement_parts(pyr, colour, bar))


def play(state: dict, seat: int, move):
    if state["over"]:
        raise IllegalMove("The game is over.", "game-over")
    if seat != state["turn"]:
        raise IllegalMove(f"It is Player {state['turn'] + 1}'s turn.", "not-your-turn")
    pyr = pyramid(state["options"]["geometry"])
    colour, level, bar = parse_placement(pyr, move)
    if colour not in state["colours"][seat]:
        raise IllegalMove(f"You play {' and '.join(state['colours'][seat])}, not {colour}.", "not-your-colour")
    if state["hands"][colour][len(bar) - 1] == 0:
        raise IllegalMove(f"You have no {colour} {len(bar)}-cell piece left.", "no-piece-left")
    building = current_level(state, pyr)
    assert building is not None  # a complete pyramid has ended the game (state["over"])
    if level != building:
        if level > building:
            raise IllegalMove(f"Level {building} must be full before level {level} is started.", "levels-in-order")
        raise IllegalMove(f"Level {level} is full: pieces now go on level {building}.", "levels-in-order")
    outside = [cell for cell in bar if cell not in pyr.regions[level - 1]]
    if outside:
        raise IllegalMove(f"{pyr.names[outside[0]]} is not part of level {level}.", "outside-level")
    problem = placement_problem(Site(state, pyr, level), colour, bar)
    if problem:
        raise IllegalMove(problem[1], problem[0])

    grid = list(state["grid"])
    grid[level - 1] = list(grid[level - 1])
    for cell in bar:
        grid[level - 1][cell] = len(state["pieces"])
    hand = list(state["hands"][colour])
    hand[len(bar) - 1] -= 1
    placed = {
        **state,
        "grid": grid,
        "pieces": state["pieces"] + [{"colour": colour, "size": len(bar), "level": level,
                                      "cells": [pyr.names[c] for c in bar]}],
        "hands": {**state["hands"], colour: hand},
    }
    return after_placement(placed, seat, pyr, level)


def outcome(state: dict):
    if not state["over"]:
        return None
    totals = seat_totals(state)
    ranking = places(totals)
    winners = [Text("{player} ({colours})", player=seat_name(seat), colours=colours_name(state["colours"][seat]))
               for seat in range(state["seats"]) if ranking[seat] == 1]
    complete = current_level(state, pyramid(state["options"]["geometry"])) is None
    how = Text("The pyramid is complete.") if complete else Text("Nobody can place: unplaced pieces cost their size.")
    return Outcome(scores=[float(t) for t in totals], ranking=ranking,
                   summary=Text("{reason} {verdict}", reason=how, verdict=verdict(winners, max(totals))))
