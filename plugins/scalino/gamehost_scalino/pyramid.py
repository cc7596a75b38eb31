"""The Scalino pyramid shared by both games: board geometry, pieces and staircases.

Spec: docs/rules/scalino.md sections 3.1 (components), 3.2 (geometry) and
3.6 (scoring). The geometry is data: a top-view map of each cell's final
height, so a better source can change the board without touching the rules.
"""

from __future__ import annotations

from functools import lru_cache

COLOURS = ("red", "blue", "yellow", "green")
"""The four piece colours (spec 3.1). The French example's player is green."""

PIECE_SIZES = (1, 2, 3)
PIECES_PER_COLOUR = {1: 6, 2: 3, 3: 3}
"""Per colour: six 1x1, three 1x2 and three 1x3 straight bars, 21 cells (spec 3.1)."""

GEOMETRIES = {
    # Model SQ, the spec's default (PROPOSED): concentric 7x7, 5x5, 3x3, 1x1.
    "squares": (
        "1111111",
        "1222221",
        "1233321",
        "1234321",
        "1233321",
        "1222221",
        "1111111",
    ),
    # Model DM (PROPOSED-ALT): concentric diamonds of 41, 25, 13 and 5 cells.
    "diamonds": (
        "....1....",
        "...121...",
        "..12321..",
        ".1234321.",
        "123444321",
        ".1234321.",
        "..12321..",
        "...121...",
        "....1....",
    ),
}
"""Top-view height maps: each digit is the highest level that cell reaches when
the pyramid is complete (h* in spec 3.6); '.' is off the board. Level k's
region is every cell whose digit is at least k. The cross is the centre cell."""


def triangular(steps: int) -> int:
    """Points for a staircase of ``steps`` steps: 1, 3, 6, 10, 15, 21, 28 ... (spec 3.6)."""
    return steps * (steps + 1) // 2


class Pyramid:
    """One board geometry, precomputed: cells are indices ``y * side + x``.

    Cell names are a column letter and a row number counted from the top
    left, like a spreadsheet: ``a1`` is the top-left corner.
    """

    def __init__(self, name: str, rows: tuple[str, ...]):
        self.name = name
        self.side = len(rows)
        self.top_height = [int(ch) if ch.isdigit() else 0 for row in rows for ch in row]
        self.levels = max(self.top_height)
        self.cells = range(self.side * self.side)
        self.names = [f"{chr(ord('a') + i % self.side)}{i // self.side + 1}" for i in self.cells]
        self.index = {name: i for i, name in enumerate(self.names)}
        self.cross = (self.side // 2) * self.side + self.side // 2
        # regions[k] is the region of level k + 1 (0-based lists, 1-based levels in play).
        self.regions = [frozenset(i for i in self.cells if self.top_height[i] >= level)
                        for level in range(1, self.levels + 1)]
        # steps[cell] = (up, left, right, down) neighbour, None off the board.
        self.steps = [self._steps(i) for i in self.cells]
        self.neighbours = [tuple(n for n in steps if n is not None) for steps in self.steps]
        # Every row and column, each with the two lines flanking it (None off the board).
        row_cells = [[y * self.side + x for x in range(self.side)] for y in range(self.side)]
        columns = [[y * self.side + x for y in range(self.side)] for x in range(self.side)]
        self.lines = [(line, group[k - 1] if k > 0 else None, group[k + 1] if k + 1 < self.side else None)
                      for group in (row_cells, columns) for k, line in enumerate(group)]
        self.bars = [{size: self._bars(region, size) for size in PIECE_SIZES} for region in self.regions]

    def xy(self, cell: int) -> tuple[int, int]:
        return cell % self.side, cell // self.side

    def _steps(self, cell: int) -> tuple[int | None, ...]:
        x, y = self.xy(cell)
        steps = ((x, y - 1), (x - 1, y), (x + 1, y), (x, y + 1))
        return tuple(ny * self.side + nx if 0 <= nx < self.side and 0 <= ny < self.side else None
                     for nx, ny in steps)

    def _bars(self, region: frozenset, size: int) -> list[tuple[int, ...]]:
        """Every straight bar of ``size`` cells lying inside ``region``."""
        bars = []
        for cell in sorted(region):
            x, y = self.xy(cell)
            shapes = [(1, 0)] if size == 1 else [(1, 0), (0, 1)]
            for dx, dy in shapes:
                if x + dx * (size - 1) >= self.side or y + dy * (size - 1) >= self.side:
                    continue
                bar = tuple((y + dy * k) * self.side + x + dx * k for k in range(size))
                if all(c in region for c in bar):
                    bars.append(bar)
        return bars

    def straight_bar(self, cells: list[int]) -> tuple[int, ...] | None:
        """The cells as a sorted straight bar of 1 to 3 cells, or None."""
        bar = tuple(sorted(cells))
        if not 1 <= len(bar) <= 3 or len(set(bar)) != len(bar):
            return None
        xs = {self.xy(c)[0] for c in bar}
        ys = {self.xy(c)[1] for c in bar}
        step = 1 if len(ys) == 1 else self.side if len(xs) == 1 else 0
        if len(bar) > 1 and (step == 0 or any(b - a != step for a, b in zip(bar, bar[1:]))):
            return None
        return bar

    def span(self, cells) -> str:
        """A bar's readable position: ``c4`` or ``c4-e4``."""
        cells = sorted(cells)
        return self.names[cells[0]] if len(cells) == 1 else f"{self.names[cells[0]]}-{self.names[cells[-1]]}"


@lru_cache(maxsize=None)
def pyramid(name: str) -> Pyramid:
    return Pyramid(name, GEOMETRIES[name])


def top_pieces(pyr: Pyramid, grid: list[list]) -> list[tuple[int, int | None]]:
    """For each cell, (level, piece) of the highest piece seen from above, or (0, None)."""
    top = []
    for cell in pyr.cells:
        seen: tuple[int, int | None] = (0, None)
        for level in range(pyr.top_height[cell], 0, -1):
            piece = grid[level - 1][cell]
            if piece is not None:
                seen = (level, piece)
                break
        top.append(seen)
    return top


# --- staircases (spec 3.6) -------------------------------------------------------------

def counted_cells(pyr: Pyramid, grid: list[list], pieces: list[dict]) -> dict[int, str]:
    """Counted cells and their colour: a cell counts only if a piece sits on it
    at its highest possible level h* (spec 3.6, the French example's c, b, c)."""
    counted = {}
    for cell in pyr.cells:
        height = pyr.top_height[cell]
        if height and grid[height - 1][cell] is not None:
            counted[cell] = pieces[grid[height - 1][cell]]["colour"]
    return counted


def staircase_graph(pyr: Pyramid, counted: dict[int, str], colour: str, steps: str) -> dict[int, list[int]]:
    """Counted cells of one colour, linked to orthogonal neighbours of that colour
    seen from above. ``steps="level-change"`` links only cells of different heights."""
    mine = [cell for cell in sorted(counted) if counted[cell] == colour]
    return {
        cell: [n for n in pyr.neighbours[cell]
               if counted.get(n) == colour and (steps == "adjacent" or pyr.top_height[n] != pyr.top_height[cell])]
        for cell in mine
    }


def components(graph: dict[int, list[int]]) -> list[list[int]]:
    """The connected groups of cells of a staircase graph."""
    seen, groups = set(), []
    for start in sorted(graph):
        if start in seen:
            continue
        group, stack = [], [start]
        seen.add(start)
        while stack:
            cell = stack.pop()
            group.append(cell)
            for n in graph[cell]:
                if n not in seen:
                    seen.add(n)
                    stack.append(n)
        groups.append(sorted(group))
    return groups


def best_staircases(graph: dict[int, list[int]]) -> list[list[int]]:
    """Split the graph into vertex-disjoint simple paths (staircases that may rise
    and fall but never branch; each step in exactly one staircase) scoring the most
    points in total (spec 3.6, PROPOSED exact reading).

    Exact search, one connected group at a time: the staircase holding the
    lowest remaining cell is tried in every possible shape, and the rest is
    solved the same way (memoised by the set of remaining cells).
    """
    staircases = []
    for group in components(graph):
        staircases.extend(_best_split(graph, group))
    return staircases


def _best_split(graph: dict[int, list[int]], cells: list[int]) -> list[list[int]]:
    bit = {cell: 1 << i for i, cell in enumerate(cells)}
    memo: dict[int, tuple[int, tuple]] = {0: (0, ())}

    def paths_from(start: int, free: int):
        """Every simple path starting at ``start`` through the ``free`` cells,
        with the cells it leaves free."""
        stack: list[tuple[tuple[int, ...], int]] = [((start,), free & ~bit[start])]
        while stack:
            path, left = stack.pop()
            yield path, left
            for n in graph[path[-1]]:
                if left & bit[n]:
                    stack.append((path + (n,), left & ~bit[n]))

    def solve(free: int) -> tuple[int, tuple]:
        if free in memo:
            return memo[free]
        lowest = cells[(free & -free).bit_length() - 1]
        best = (-1, ())
        # The staircase through the lowest cell: one end (head, reversed) then the other (tail).
        for head, left in paths_from(lowest, free):
            for tail, rest in paths_from(lowest, left | bit[lowest]):
                path = head[::-1] + tail[1:]
                points, others = solve(rest)
                if points + triangular(len(path)) > best[0]:
                    best = (points + triangular(len(path)), (path,) + others)
        memo[free] = best
        return best

    return [list(path) for path in solve((1 << len(cells)) - 1)[1]]
