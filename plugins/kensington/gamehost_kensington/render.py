"""Text and SVG pictures of a Kensington view: every building on its grid,
warehouses, chips, the pile by back and outline, and the scoring breakdown."""

from __future__ import annotations

from html import escape
from typing import Mapping, Sequence

from gamehost_kensington.rules import score
from gamehost.sdk import seat_name
from gamehost_kensington.tiles import PLAYER_COLOURS, SILHOUETTES, back_and_outline, cells_of, tile_name

CELL_TEXT = {"lit": "L", "dark": "D", "lit-cat": "l", "dark-cat": "d", "wall": "#", "roof": "^", "door-red": "R"}
LEGEND = "L lit window, D dark window, l/d with a cat, # wall, ^ roof, R red door, @ the building's own door, . empty"
CELL_FILL = {"lit": "#f7d54a", "dark": "#2f3440", "lit-cat": "#f7d54a", "dark-cat": "#2f3440", "wall": "#b5651d",
             "roof": "#7a3b2e", "door-red": "#c62828"}
DOOR_FILL = {"yellow": "#e6b800", "green": "#2e7d32", "blue": "#1565c0", "brown": "#6d4c41", "grey": "#757575"}
BACK_FILL = {"beige": "#e8d8b0", "beige-diamond": "#e8d8b0", "brown": "#8d5a3b", "brown-circle": "#8d5a3b"}
CELL = 16


def _cell_text(code: str) -> str:
    return "@" if code.startswith("door-") and code != "door-red" else CELL_TEXT[code]


def _tile_name(view: Mapping, token: str | None) -> str:
    if token is None:
        return "-"
    return tile_name(view["tiles"][token])


def _status(view: Mapping) -> str:
    if view["phase"] == "over":
        return "game over"
    colour = seat_name(view["turn"], colour=PLAYER_COLOURS[view["turn"]])
    return {"take": f"{colour} to take a tile", "build": f"{colour} to build",
            "final-build": f"{colour}: final build from the warehouse"}[view["phase"]]


def _breakdown(sheet: Mapping) -> str:
    return (f"{sheet['total']} points: windows {sheet['windows']}, doors {sheet['doors']}, "
            f"levels {sheet['level_points']} ({sheet['levels']} heights), cats {sheet['cats']}, "
            f"full roof {sheet['full_roof']}; birds {sheet['birds']}")


def render_text(view: Mapping) -> str:
    lines = [f"Kensington: {_status(view)}. Pile {view['pile_size']} tiles, bird roofs out {view['birds_out']}/7, "
             f"chip supply {view['supply']}."]
    lines.append("Pile, face down by back and outline: " + ", ".join(
        f"{count} {back_and_outline(group)}" for group, count in view["pile"].items()))
    if view["hand"]:
        lines.append(f"Taken this turn: {_tile_name(view, view['hand'])}{' (stolen: place it now)' if view['stolen'] else ''}")
    for seat, building in enumerate(view["buildings"]):
        spots = ", ".join(_tile_name(view, token) for token in view["warehouses"][seat])
        lines.append("")
        lines.append(f"{seat_name(seat, colour=building['colour'])}: chips {view['chips'][seat]}, warehouse [{spots}]")
        lines.append("  " + _breakdown(score(building)))
        columns = building["columns"]
        for y in range(max(len(column) for column in columns) - 1, -1, -1):
            lines.append(f"  {y:>2} " + "".join(_cell_text(column[y]) if y < len(column) else "." for column in columns))
        lines.append(f"     x from {building['left']} to {building['left'] + len(columns) - 1}")
    lines.append("")
    lines.append(LEGEND)
    return "\n".join(lines)


def _rect(x: float, y: float, fill: str) -> str:
    return f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="#444"/>'


def _shape(grid, left: float, top: float, fill: str) -> str:
    size = len(grid)
    return "".join(_rect(left + x * CELL, top + (size - 1 - y) * CELL, fill) for x, y in cells_of(grid))


def render_svg(view: Mapping, moves: Sequence) -> str:
    legal = {move.id: move for move in moves}
    parts = []
    top = 20
    parts.append(f'<text x="8" y="{top}" font-size="14">{escape(_status(view))}; pile {view["pile_size"]}, '
                 f'bird roofs out {view["birds_out"]}/7, chip supply {view["supply"]}</text>')
    top += 12
    left = 8
    for group, count in view["pile"].items():
        back, shape = group.split(":")
        move_id = f"draw:{group}"
        target = f' data-move="{escape(move_id)}" style="cursor:pointer"' if move_id in legal else ""
        grid = SILHOUETTES[shape]
        width = len(grid[0]) * CELL
        parts.append(f'<g{target}><title>{escape(back)} {escape(shape)}: {count}</title>'
                     + _shape(grid, left, top, BACK_FILL[back])
                     + (f'<circle cx="{left + CELL / 2}" cy="{top + CELL / 2}" r="4" fill="#999"/>'
                        if back in ("beige-diamond", "brown-circle") else "")
                     + f'<text x="{left}" y="{top + len(grid) * CELL + 12}" font-size="10">x{count}</text></g>')
        left += width + 10
    if view["hand"]:
        parts.append(f'<text x="{left + 10}" y="{top + 12}" font-size="12">taken: '
                     f'{escape(_tile_name(view, view["hand"]))}</text>'
                     + _tile_picture(view, view["hand"], left + 10, top + 18))
    supply_right = left + (240 if view["hand"] else 0)  # the taken tile's name and picture
    top += 4 * CELL + 30
    base = top + 14
    panel_left = 8
    # One ground line for every building, under the tallest one.
    tallest = max(len(column) for building in view["buildings"] for column in building["columns"]) + 4
    ground = base + tallest * CELL
    for seat, building in enumerate(view["buildings"]):
        columns = building["columns"]
        width = max(len(columns) + 8, 22) * CELL
        origin = panel_left + 4 * CELL - building["left"] * CELL
        sheet = score(building)
        parts.append(f'<text x="{panel_left}" y="{base - 20}" font-size="12">{escape(building["colour"])}: '
                     f'{sheet["total"]} points, chips {view["chips"][seat]}, birds {sheet["birds"]}</text>'
                     f'<text x="{panel_left}" y="{base - 6}" font-size="10">windows {sheet["windows"]}, '
                     f'doors {sheet["doors"]}, levels {sheet["level_points"]}, cats {sheet["cats"]}, '
                     f'full roof {sheet["full_roof"]}</text>')
        parts.append(f'<line x1="{panel_left}" y1="{ground}" x2="{panel_left + width}" y2="{ground}" stroke="#000"/>')
        for index, column in enumerate(columns):
            x = origin + (building["left"] + index) * CELL
            for y, code in enumerate(column):
                fill = DOOR_FILL[building["colour"]] if code.startswith("door-") and code != "door-red" else CELL_FILL[code]
                parts.append(_rect(x, ground - (y + 1) * CELL, fill))
                if code.endswith("-cat"):
                    parts.append(f'<circle cx="{x + CELL / 2}" cy="{ground - y * CELL - CELL / 2}" r="3" fill="#fff"/>')
        for number, token in enumerate(_own_tiles(view, seat)):
            for move_id, move in legal.items():
                if move.args.get("tile") == token:
                    cx = origin + move.args["x"] * CELL + 4 + number * 4
                    cy = ground - move.args["y"] * CELL - 4
                    parts.append(f'<circle data-move="{escape(move_id)}" cx="{cx}" cy="{cy}" r="4" fill="#4caf50" '
                                 f'style="cursor:pointer"><title>{escape(move.label)}</title></circle>')
        for spot, token in enumerate(view["warehouses"][seat]):
            x = panel_left + spot * 4 * CELL
            y = ground + 10
            parts.append(f'<rect x="{x}" y="{y}" width="{3.5 * CELL}" height="{3.5 * CELL}" fill="none" stroke="#999"/>')
            if token is not None:
                steal = f"steal:{seat}:{spot}"
                target = f' data-move="{steal}" style="cursor:pointer"' if steal in legal else ""
                parts.append(f'<g{target}><title>{escape(_tile_name(view, token))}</title>'
                             + _tile_picture(view, token, x + 2, y + 2) + "</g>")
        panel_left += width
    height = ground + 5 * CELL
    width = max(panel_left, supply_right, 400)  # the tile supply may be wider than the buildings
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">'
            + "".join(parts) + "</svg>")


def _own_tiles(view: Mapping, seat: int) -> list[str]:
    if view["turn"] != seat or view["phase"] not in ("build", "final-build"):
        return []
    return [token for token in [view["hand"], *view["warehouses"][seat]] if token]


def _tile_picture(view: Mapping, token: str, left: float, top: float) -> str:
    face = view["tiles"][token]
    if face["kind"] == "window":
        fill = CELL_FILL[face["lighting"]]
    else:
        fill = CELL_FILL["door-red" if face["kind"] == "door" else face["kind"]]
    return _shape(face["grid"], left, top, fill)
