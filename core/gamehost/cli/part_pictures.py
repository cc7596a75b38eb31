"""Small text pictures of the choices of a move offered in parts, drawn from
the view's SVG.

The protocol's ``MovePart`` has an id and a label, nothing to draw; but the
SVG the host renders marks each part's click target (``data-part="<id>"``),
and where a choice is a shape (a Callisto piece, one of its orientations)
that target draws it as equal squares on a grid. The terminal redraws those
squares as characters: ``#`` for a square, ``o`` for the square carrying a
dot (Callisto's cell that goes where the player places the piece). A target
with fewer than two squares (a board cell, a round column) is no shape and
gets no picture.
"""

from __future__ import annotations

from typing import Iterable, Sequence
from xml.etree import ElementTree

FILLED, DOTTED, EMPTY = "#", "o", "."
LINE_WIDTH = 72


def _tag(element: ElementTree.Element) -> str:
    return element.tag.rsplit("}", 1)[-1]


def _float(element: ElementTree.Element, name: str) -> float | None:
    try:
        return float(element.get(name, ""))
    except ValueError:
        return None


def _squares(target: ElementTree.Element) -> list[tuple[float, float, float]]:
    """The visible squares under ``target``: (x, y, size). Transparent hit areas are not drawn."""
    squares = []
    for element in target.iter():
        if _tag(element) != "rect" or element.get("fill-opacity") == "0" or element.get("fill") == "none":
            continue
        x, y, width, height = (_float(element, name) for name in ("x", "y", "width", "height"))
        if x is None or y is None or width is None or height is None or abs(width - height) > 0.01 or width <= 0:
            continue
        squares.append((x, y, width))
    return squares


def _dots(target: ElementTree.Element) -> list[tuple[float, float]]:
    return [(cx, cy) for element in target.iter() if _tag(element) == "circle"
            for cx, cy in [(_float(element, "cx"), _float(element, "cy"))] if cx is not None and cy is not None]


def picture(target: ElementTree.Element) -> list[str]:
    """The rows of ``target``'s shape, or [] when it draws no shape of squares of one size."""
    squares = _squares(target)
    sizes = {round(size, 2) for _x, _y, size in squares}
    if len(squares) < 2 or len(sizes) != 1:
        return []
    size = squares[0][2]
    left, top = min(x for x, _y, _s in squares), min(y for _x, y, _s in squares)
    cells = {(round((x - left) / size), round((y - top) / size)) for x, y, _s in squares}
    dotted = {(int((cx - left) // size), int((cy - top) // size)) for cx, cy in _dots(target)} & cells
    width, height = max(x for x, _y in cells) + 1, max(y for _x, y in cells) + 1
    return ["".join(DOTTED if (x, y) in dotted else FILLED if (x, y) in cells else EMPTY for x in range(width))
            for y in range(height)]


def part_pictures(svg: str) -> dict[str, list[str]]:
    """The picture of each part the SVG marks with a shape, by part id (the first target that draws one)."""
    if not svg:
        return {}
    try:
        root = ElementTree.fromstring(svg)
    except ElementTree.ParseError:
        return {}
    pictures: dict[str, list[str]] = {}
    for element in root.iter():
        part = element.get("data-part")
        if part is not None and part not in pictures:
            rows = picture(element)
            if rows:
                pictures[part] = rows
    return pictures


def side_by_side(numbered: Iterable[tuple[int, Sequence[str]]], width: int = LINE_WIDTH) -> list[str]:
    """Pictures in rows across the terminal, each under its number, a blank column between them."""
    lines: list[str] = []
    row: list[tuple[str, Sequence[str]]] = []
    used = 0

    def flush() -> None:
        if not row:
            return
        widths = [max(len(heading), *(len(line) for line in rows)) for heading, rows in row]
        height = max(len(rows) for _heading, rows in row)
        if lines:
            lines.append("")
        lines.append("    " + "  ".join(heading.ljust(w) for (heading, _rows), w in zip(row, widths)).rstrip())
        for depth in range(height):
            lines.append("    " + "  ".join((rows[depth] if depth < len(rows) else "").ljust(w)
                                            for (_heading, rows), w in zip(row, widths)).rstrip())
        row.clear()

    for number, rows in numbered:
        heading = f"{number}."
        cell = max(len(heading), *(len(line) for line in rows)) + 2
        if row and used + cell > width - 4:
            flush()
            used = 0
        row.append((heading, rows))
        used += cell
    flush()
    return lines
