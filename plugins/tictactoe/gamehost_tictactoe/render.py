"""Tic-tac-toe's pictures: the grid as text, and as SVG with each legal move a click target."""

from __future__ import annotations

from typing import Mapping, Sequence

from gamehost.sdk import Move, gettext as _

from gamehost_tictactoe.rules import MARKS


def render_text(view: Mapping) -> str:
    """Rows 3 to 1 from the top, columns a to c."""
    def mark(cell):
        return "." if view["board"][cell] is None else MARKS[view["board"][cell]]

    rows = []
    for row in range(3):
        cells = " ".join(mark(row * 3 + col) for col in range(3))
        rows.append(f"{3 - row} {cells}")
    rows.append("  a b c")
    return "\n".join(rows)


def render_svg(view: Mapping, moves: Sequence[Move]) -> str:
    target = {move.args["cell"]: move.id for move in moves}
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 300" width="300" height="300">',
             f'<title>{_("Tic-tac-toe grid")}</title>',
             '<rect width="300" height="300" fill="#fdfaf3"/>']
    for cell, mark in enumerate(view["board"]):
        x, y = (cell % 3) * 100, (cell // 3) * 100
        move_attr = f' data-move="{target[cell]}" style="cursor:pointer"' if cell in target else ""
        parts.append(f'<rect x="{x + 2}" y="{y + 2}" width="96" height="96" fill="#fff" stroke="#333"{move_attr}/>')
        if mark is not None:
            parts.append(f'<text x="{x + 50}" y="{y + 68}" font-size="56" text-anchor="middle" '
                         f'font-family="sans-serif" fill="{"#c0392b" if mark == 0 else "#2c3e90"}">{MARKS[mark]}</text>')
    parts.append("</svg>")
    return "".join(parts)
