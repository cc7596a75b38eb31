"""Text and SVG pictures of a Kensington view: every building on its grid,
warehouses, chips, the pile by back and outline, and the scoring breakdown.

Every word is said with ``tr``/``gettext`` (or is a ``Text`` the rules made,
said with ``said``): the host binds them to the language of the request."""

from __future__ import annotations

from html import escape
from typing import Mapping, Sequence

from gamehost.sdk import Text, gettext as _, tr

from gamehost_kensington.rules import player_name, score
from gamehost_kensington.tiles import BACK_WORDS, COLOUR_WORDS, SHAPE_WORDS, SILHOUETTES, cells_of, tile_name

CELL_TEXT = {"lit": "L", "dark": "D", "lit-cat": "l", "dark-cat": "d", "wall": "#", "roof": "^", "door-red": "R"}
"""The letters of the text picture in English (the message ids of each language's letters)."""
CELL_FILL = {"lit": "#f7d54a", "dark": "#2f3440", "lit-cat": "#f7d54a", "dark-cat": "#2f3440", "wall": "#b5651d",
             "roof": "#7a3b2e", "door-red": "#c62828"}
DOOR_FILL = {"yellow": "#e6b800", "green": "#2e7d32", "blue": "#1565c0", "brown": "#6d4c41", "grey": "#757575"}
BACK_FILL = {"beige": "#e8d8b0", "beige-diamond": "#e8d8b0", "brown": "#8d5a3b", "brown-circle": "#8d5a3b"}
CELL = 16


def said(value: str) -> str:
    """A word the rules made (a move's label, a tile's name) in the language being rendered."""
    return tr(value.msgid, **value.args) if isinstance(value, Text) else value


def _cell_letters() -> dict[str, str]:
    """Each cell code's letter in the language being rendered: a window's letter is the first of its
    lighting's word, so each language has its own (its legend names them); the others are symbols."""
    return {**CELL_TEXT, "lit": _("L"), "dark": _("D"), "lit-cat": _("l"), "dark-cat": _("d")}


def _cell_text(code: str, letters: Mapping[str, str]) -> str:
    return "@" if code.startswith("door-") and code != "door-red" else letters[code]


def _tile_name(view: Mapping, token: str | None) -> str:
    if token is None:
        return "-"
    return said(tile_name(view["tiles"][token]))


def _status(view: Mapping) -> Text:
    if view["phase"] == "over":
        return Text("game over")
    player = player_name(view["turn"])
    return {"take": Text("{player} to take a tile", player=player), "build": Text("{player} to build", player=player),
            "final-build": Text("{player}: final build from the warehouse", player=player)}[view["phase"]]


def _breakdown(sheet: Mapping) -> str:
    return tr("{total} points: windows {windows}, doors {doors}, levels {level_points} ({levels} heights), "
              "cats {cats}, full roof {full_roof}; birds {birds}", **sheet)


def _pile_group(group: str, count: int) -> str:
    """A pile group and how many it holds: "7 beige single"."""
    back, shape = group.split(":")
    return tr("{count} {back} {outline}", count=count, back=BACK_WORDS[back], outline=SHAPE_WORDS[shape])


def render_text(view: Mapping) -> str:
    lines = [tr("Kensington: {status}. Pile {pile} tiles, bird roofs out {birds}/7, chip supply {supply}.",
                status=_status(view), pile=view["pile_size"], birds=view["birds_out"], supply=view["supply"])]
    lines.append(tr("Pile, face down by back and outline: {groups}",
                    groups=", ".join(_pile_group(group, count) for group, count in view["pile"].items())))
    if view["hand"]:
        tile = _tile_name(view, view["hand"])
        lines.append(tr("Taken this turn: {tile} (stolen: place it now)", tile=tile) if view["stolen"]
                     else tr("Taken this turn: {tile}", tile=tile))
    letters = _cell_letters()
    for seat, building in enumerate(view["buildings"]):
        spots = ", ".join(_tile_name(view, token) for token in view["warehouses"][seat])
        lines.append("")
        lines.append(tr("{player}: chips {chips}, warehouse [{spots}]", player=player_name(seat),
                        chips=view["chips"][seat], spots=spots))
        lines.append("  " + _breakdown(score(building)))
        columns = building["columns"]
        for y in range(max(len(column) for column in columns) - 1, -1, -1):
            lines.append(f"  {y:>2} " + "".join(_cell_text(column[y], letters) if y < len(column) else "."
                                                for column in columns))
        lines.append("     " + tr("x from {first} to {last}", first=building["left"],
                                  last=building["left"] + len(columns) - 1))
    lines.append("")
    lines.append(_("L lit window, D dark window, l/d with a cat, # wall, ^ roof, R red door, "
                   "@ the building's own door, . empty"))
    return "\n".join(lines)


WIDTH = 640
FONT = 'font-family="sans-serif"'
PILE = 12  # cell size of the pile's outlines
TILE = 16  # cell size of face-up tiles (taken, in warehouses)
BUILDING = 26  # cell size of the buildings, at most
HEADROOM = 3  # empty rows drawn above the tallest column: room for the next tile
WAREHOUSE_SPOT = 3 * TILE + 8
MAX_GRID_HEIGHT = 240


def _rect(x: float, y: float, fill: str, size: float = CELL) -> str:
    return f'<rect x="{x:g}" y="{y:g}" width="{size:g}" height="{size:g}" fill="{fill}" stroke="#444"/>'


def _shape(grid, left: float, top: float, fill: str, size: float = CELL) -> str:
    rows = len(grid)
    return "".join(_rect(left + x * size, top + (rows - 1 - y) * size, fill, size) for x, y in cells_of(grid))


MIN_FONT = 11  # 12 px on a 720 px page
CHARACTER_WIDTH = 0.55  # of the font size: a sans-serif line's average character, generously


def _line(x: float, y: float, size: int, text: str, right: float = WIDTH - 8) -> str:
    """A line of words that must end before ``right``: smaller type (down to MIN_FONT) when the
    language's words run longer than the English ones the layout was drawn for."""
    fitting = int((right - x) / (CHARACTER_WIDTH * max(len(text), 1)))
    return _text(x, y, max(MIN_FONT, min(size, fitting)), text)


def _text(x: float, y: float, size: int, text: str, extra: str = "") -> str:
    return f'<text x="{x:g}" y="{y:g}" font-size="{size}" {FONT}{extra}>{escape(text)}</text>'


def _pile(view: Mapping, legal: Mapping, top: float) -> tuple[str, float]:
    """The face-down pile by back and outline, each group a draw target when
    it may be drawn; wrapped to the picture's width."""
    parts = [_line(8, top + 12, 13, tr("Pile: {pile} tiles face down", pile=view["pile_size"]))]
    top += 20
    left, row_height = 8.0, 3 * PILE + 18
    for group, count in view["pile"].items():
        back, shape = group.split(":")
        grid = SILHOUETTES[shape]
        width = max(len(grid[0]) * PILE, 24)
        if left + width > WIDTH - 8:
            left, top = 8.0, top + row_height
        move_id = f"draw:{group}"
        target = f' data-move="{escape(move_id)}" style="cursor:pointer"' if move_id in legal else ""
        parts.append(f'<g{target}><title>{escape(_pile_group(group, count))}</title>'
                     f'<rect x="{left - 3:g}" y="{top - 3:g}" width="{width + 6:g}" height="{row_height - 2:g}" '
                     f'fill="#000" fill-opacity="0"/>'
                     + _shape(grid, left, top + (3 - len(grid)) * PILE, BACK_FILL[back], PILE)
                     + (f'<circle cx="{left + PILE / 2:g}" cy="{top + (3 - len(grid)) * PILE + PILE / 2:g}" r="3" '
                        f'fill="#999"/>' if back in ("beige-diamond", "brown-circle") else "")
                     + _text(left, top + 3 * PILE + 13, 11, f"x{count}") + "</g>")
        left += width + 18
    return "".join(parts), top + row_height


def _tile_group(view: Mapping, token: str, left: float, top: float, attributes: str, size: float = TILE) -> str:
    """A face-up tile in a spot 3 cells square, bottom-aligned; a dot marks
    the cell a player clicks to place it (its lowest-left cell)."""
    face = view["tiles"][token]
    grid = face["grid"]
    base = top + (3 - len(grid)) * size
    rest_x, rest_y = min(cells_of(grid), key=lambda cell: (cell[1], cell[0]))
    return (f'<g{attributes}><title>{escape(_tile_name(view, token))}</title>'
            f'<rect x="{left - 2:g}" y="{top - 2:g}" width="{3 * size + 4:g}" height="{3 * size + 4:g}" '
            f'fill="#000" fill-opacity="0" stroke="#999"/>'
            + _tile_picture(view, token, left, base, size)
            + f'<circle cx="{left + rest_x * size + size / 2:g}" cy="{base + (len(grid) - 1 - rest_y) * size + size / 2:g}" '
              f'r="2.5" fill="#fff" stroke="#222"/></g>')


def _target(legal: Mapping, move_id: str) -> str:
    return f' data-move="{escape(move_id)}" style="cursor:pointer"' if move_id in legal else ""


def _part_target(offered: set, token: str) -> str:
    part = f"tile:{token}"
    return f' data-part="{escape(part)}" style="cursor:pointer"' if part in offered else ""


def _turn_row(view: Mapping, legal: Mapping, offered: set, top: float) -> tuple[str, float]:
    """The tile taken this turn and the buttons that end the turn."""
    parts = []
    left = 8.0
    if view["hand"]:
        tile = _tile_name(view, view["hand"])
        taken = tr("Taken: {tile} (stolen: place it now)", tile=tile) if view["stolen"] else tr("Taken: {tile}", tile=tile)
        parts.append(_line(left, top + 12, 13, taken))
        parts.append(_tile_group(view, view["hand"], left + 2, top + 20, _part_target(offered, view["hand"])))
        left += 3 * TILE + 30
    # The buttons that end the turn, one under the other: their labels are long.
    button_top = top + 22  # under the "Taken" line
    left = max(left, 150.0)
    for move_id in ("done", "return"):
        move = legal.get(move_id)
        if move is None:
            continue
        label = said(move.label)
        width = min(12 + 7 * len(label), WIDTH - 8 - left)
        parts.append(f'<g{_target(legal, move_id)}><rect x="{left:g}" y="{button_top:g}" width="{width:g}" '
                     f'height="30" rx="6" fill="#e8eef8" stroke="#3a5a8c"/>'
                     + _line(left + 8, button_top + 20, 13, label) + "</g>")
        button_top += 36
    if not parts:
        return "", top
    return "".join(parts), max(top + 3 * TILE + 30, button_top)


def _building(view: Mapping, seat: int, legal: Mapping, offered_cells: set, offered: set, top: float,
              rows: int) -> tuple[str, float]:
    """One player's facade on its grid, with x and y numbered as the move
    labels give them, their score so far, and their two warehouse spots."""
    building = view["buildings"][seat]
    columns = building["columns"]
    sheet = score(building)
    store_left = WIDTH - 2 * WAREHOUSE_SPOT - 8  # the warehouse, on the right
    colour = said(COLOUR_WORDS[building["colour"]])
    parts = [_line(8, top + 14, 14, tr("{colour}: {total} points, chips {chips}, birds {birds}",
                                       colour=colour[:1].upper() + colour[1:], total=sheet["total"],
                                       chips=view["chips"][seat], birds=sheet["birds"]), store_left - 8),
             _line(8, top + 30, 11, tr("windows {windows}, doors {doors}, levels {level_points}, cats {cats}, "
                                       "full roof {full_roof}", **sheet), store_left - 8)]
    top += 40
    # The warehouse on the right; steal targets on opponents' tiles, place targets (parts) on the mover's own.
    parts.append(_text(store_left, top + 10, 11, _("warehouse")))
    for spot, token in enumerate(view["warehouses"][seat]):
        x: float = store_left + spot * WAREHOUSE_SPOT + 2
        if token is None:
            parts.append(f'<rect x="{x - 2:g}" y="{top + 16:g}" width="{3 * TILE + 4}" height="{3 * TILE + 4}" '
                         f'fill="none" stroke="#bbb" stroke-dasharray="3 3"/>')
            continue
        attributes = _target(legal, f"steal:{seat}:{spot}") or _part_target(offered, token)
        parts.append(_tile_group(view, token, x, top + 18, attributes))
    # Columns from a few left of the building to a few right of it: where a tile may go.
    first = building["left"] - HEADROOM
    count = len(columns) + 2 * HEADROOM
    # Wide or tall buildings get smaller cells, so the picture keeps its width and the page need not shrink it.
    size = min(BUILDING, (store_left - 40) / count, MAX_GRID_HEIGHT / rows)
    origin = 32
    ground = top + rows * size
    parts.append(f'<line x1="{origin}" y1="{ground:g}" x2="{origin + count * size:g}" y2="{ground:g}" '
                 f'stroke="#000" stroke-width="2"/>')
    for index in range(count):
        parts.append(_text(origin + index * size + size / 2, ground + 14, 11, str(first + index),
                           ' text-anchor="middle" fill="#555"'))
    for y in range(rows):
        parts.append(_text(origin - 6, ground - y * size - size / 2 + 4, 11, str(y), ' text-anchor="end" fill="#555"'))
    for index, column in enumerate(columns):
        x = origin + (index + HEADROOM) * size
        for y, code in enumerate(column):
            fill = DOOR_FILL[building["colour"]] if code.startswith("door-") and code != "door-red" else CELL_FILL[code]
            parts.append(_rect(x, ground - (y + 1) * size, fill, size))
            if code.endswith("-cat"):
                parts.append(f'<circle cx="{x + size / 2:g}" cy="{ground - y * size - size / 2:g}" r="4" fill="#fff"/>')
    for part_id in sorted(offered_cells):
        cell_x, cell_y = (int(value) for value in part_id.split(":")[1:])
        x = origin + (cell_x - first) * size
        parts.append(f'<rect x="{x:g}" y="{ground - (cell_y + 1) * size:g}" width="{size:g}" height="{size:g}" '
                     f'fill="#000" fill-opacity="0" data-part="{escape(part_id)}"/>')
    return "".join(parts), max(ground + 24, top + 3 * TILE + 30)


def render_svg(view: Mapping, moves: Sequence) -> str:
    """The status, the pile (draw targets), the taken tile and the buttons
    that end the turn, then each building on its numbered grid with its
    warehouse (steal targets). Placing is composed in parts: a tile (the
    taken one or one in the mover's warehouse), then the cell its dotted
    square takes, an invisible target the page highlights."""
    legal = {move.id: move for move in moves}
    offered = {move.parts[0].id for move in moves if move.parts}
    offered_cells = {move.parts[1].id for move in moves if move.parts}
    parts = [_line(8, 22, 16, tr("Kensington: {status}", status=_status(view))),
             _line(8, 40, 12, tr("bird roofs out {birds}/7, chip supply {supply}", birds=view["birds_out"],
                                 supply=view["supply"]))]
    pile, top = _pile(view, legal, 50)
    parts.append(pile)
    turn, top = _turn_row(view, legal, offered, top)
    parts.append(turn)
    tallest = max(len(column) for building in view["buildings"] for column in building["columns"])
    rows = max(tallest + HEADROOM, 4)
    for seat in range(len(view["buildings"])):
        drawn, top = _building(view, seat, legal, offered_cells if seat == view["turn"] else set(), offered,
                               top + 8, rows)
        parts.append(drawn)
    height = top + 8
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height:g}" width="{WIDTH}" '
            f'height="{height:g}"><rect width="{WIDTH}" height="{height:g}" fill="#fff"/>' + "".join(parts) + "</svg>")


def _tile_picture(view: Mapping, token: str, left: float, top: float, size: float = CELL) -> str:
    face = view["tiles"][token]
    if face["kind"] == "window":
        fill = CELL_FILL[face["lighting"]]
    else:
        fill = CELL_FILL["door-red" if face["kind"] == "door" else face["kind"]]
    return _shape(face["grid"], left, top, fill, size)
