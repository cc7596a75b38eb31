"""Text and SVG pictures of the Scalino pyramid seen from above, for both games.

Each cell shows its top piece: colour and level. Levels are shaded (higher is
darker) and nested outlines mark each level's region, so the steps read at a
glance. Scalino also shows the pieces in hand and each colour's staircases.
Their words go through the catalogue (``gettext``/``tr``) in the language
the host renders for; a colour's letter too (yellow is J in French).
"""

from __future__ import annotations

from html import escape

from gamehost.sdk import Part, gettext as _, seat_name, tr
from gamehost.sdk.i18n import current_translator

from gamehost_scalino.pyramid import COLOURS, PIECE_SIZES, Pyramid, pyramid, top_pieces
from gamehost_scalino.words import colour_name, colours_name

LETTERS = {"red": "R", "blue": "B", "yellow": "Y", "green": "G"}
FILLS = {"red": "#d1443a", "blue": "#3566c4", "yellow": "#e8b62c", "green": "#3e9a4c"}
# The level number drawn on a piece, in the colour that reads on it at WCAG AA (4.5:1).
INKS = {"red": "#fff", "blue": "#fff", "yellow": "#1a1a1a", "green": "#1a1a1a"}
LEVEL_SHADES = ("#f4efe4", "#e6dcc6", "#d5c6a6", "#c2ae86")
"""Background of empty board cells by final height (level 1 lightest)."""

CELL = 56
MARGIN = 28


def _board_text(view: dict, pyr: Pyramid) -> list[str]:
    """Rows of two-character cells: colour letter and level (lower case when the
    cell is not at its final height), ``..`` for a bare board cell."""
    top = top_pieces(pyr, view["grid"])
    lines = ["    " + " ".join(f"{chr(ord('a') + x):>2}" for x in range(pyr.side))]
    for y in range(pyr.side):
        row = []
        for x in range(pyr.side):
            cell = y * pyr.side + x
            level, piece = top[cell]
            if not pyr.top_height[cell]:
                row.append("  ")
            elif piece is None:
                row.append("..")
            else:
                letter = _(LETTERS[view["pieces"][piece]["colour"]])
                row.append(f"{letter if level == pyr.top_height[cell] else letter.lower()}{level}")
        lines.append(f"{y + 1:>3} " + " ".join(row))
    return lines


def scalino_text(view: dict, scores: dict) -> str:
    pyr = pyramid(view["options"]["geometry"])
    lines = []
    if view["over"]:
        lines.append(_("Scalino: game over."))
    else:
        to_place = ("Scalino: {player} ({colours}) to place (bonus piece on the new level)." if view["bonus"]
                    else "Scalino: {player} ({colours}) to place.")
        lines.append(tr(to_place, player=seat_name(view["turn"]), colours=colours_name(view["colours"][view["turn"]])))
        if view["skipped"]:
            lines.append(tr("Passed (no legal placement): {players}",
                            players=", ".join(tr("Player {number}", number=s + 1) for s in view["skipped"])))
    lines += _board_text(view, pyr)
    lines.append(_("Upper case: at its final height (counts); lower case: covered later or left low."))
    for seat, colours in enumerate(view["colours"]):
        for colour in colours:
            hand = view["hands"][colour]
            held = ", ".join(f"{hand[size - 1]} x {size}" for size in PIECE_SIZES)
            score = scores[colour]
            stairs = "; ".join("-".join(path) for path in score["staircases"]) or _("none")
            line = ("{player} {colour}: in hand {held}; staircases {stairs}: {points} points - {penalty} unplaced"
                    if score["penalty"] else "{player} {colour}: in hand {held}; staircases {stairs}: {points} points")
            lines.append(tr(line, player=seat_name(seat), colour=colour_name(colour), held=held, stairs=stairs,
                            points=score["points"], penalty=score["penalty"]))
    return "\n".join(lines)


def pyramid_text(view: dict, points: list[int]) -> str:
    pyr = pyramid(view["options"]["geometry"])
    if view["over"]:
        head = _("Démonte la pyramide: game over.")
    elif view["chain"] is not None:
        head = tr("Démonte la pyramide: {player} takes one more piece from level {level}.",
                  player=seat_name(view["turn"]), level=view["chain"])
    else:
        head = tr("Démonte la pyramide: {player} to take a piece.", player=seat_name(view["turn"]))
    lines = [head] + _board_text(view, pyr)
    for seat in range(view["seats"]):
        taken = [p["size"] for p in view["pieces"] if p["taken_by"] == seat]
        lines.append(tr("{player}: {count} pieces, {points} points", player=seat_name(seat), count=len(taken),
                        points=points[seat]))
    return "\n".join(lines)


# --- SVG ----------------------------------------------------------------------------------

def _origin(pyr: Pyramid, cell: int) -> tuple[int, int]:
    x, y = pyr.xy(cell)
    return MARGIN + x * CELL, MARGIN + y * CELL


def _board_svg(view: dict, pyr: Pyramid) -> list[str]:
    """Cells coloured by their top piece, piece edges drawn thick, level outlines."""
    top = top_pieces(pyr, view["grid"])
    parts = []
    for x in range(pyr.side):
        parts.append(f'<text x="{MARGIN + x * CELL + CELL // 2}" y="{MARGIN - 8}" font-size="12" '
                     f'text-anchor="middle">{chr(ord("a") + x)}</text>')
        parts.append(f'<text x="{MARGIN - 12}" y="{MARGIN + x * CELL + CELL // 2 + 4}" font-size="12" '
                     f'text-anchor="middle">{x + 1}</text>')
    for cell in pyr.cells:
        if not pyr.top_height[cell]:
            continue
        px, py = _origin(pyr, cell)
        level, piece = top[cell]
        if piece is None:
            parts.append(f'<rect x="{px}" y="{py}" width="{CELL}" height="{CELL}" '
                         f'fill="{LEVEL_SHADES[pyr.top_height[cell] - 1]}" stroke="#b9ab90"/>')
            if cell == pyr.cross and not view["pieces"]:
                parts.append(f'<path d="M{px + 16} {py + 16}L{px + 40} {py + 40}M{px + 40} {py + 16}L{px + 16} {py + 40}" '
                             f'stroke="#7a6a4c" stroke-width="3"/>')
            continue
        colour = view["pieces"][piece]["colour"]
        # Higher levels are drawn with a darker rim, lower with a lighter one.
        parts.append(f'<rect x="{px}" y="{py}" width="{CELL}" height="{CELL}" fill="{FILLS[colour]}" '
                     f'stroke="#222" stroke-opacity="{0.15 + 0.2 * level}" stroke-width="{level}"/>')
        style = "normal" if level == pyr.top_height[cell] else "italic"  # italic: not at its final height
        parts.append(f'<text x="{px + CELL - 8}" y="{py + 14}" font-size="11" text-anchor="middle" fill="{INKS[colour]}" '
                     f'font-style="{style}">{level}</text>')
    # Thick edges between different top pieces show the pieces' shapes.
    for cell in pyr.cells:
        if not pyr.top_height[cell]:
            continue
        px, py = _origin(pyr, cell)
        for direction, n in ((2, pyr.steps[cell][2]), (3, pyr.steps[cell][3])):
            if n is None or not pyr.top_height[n] or top[n] == top[cell] or (top[n][1] is None and top[cell][1] is None):
                continue
            x1, y1 = (px + CELL, py) if direction == 2 else (px, py + CELL)
            x2, y2 = (px + CELL, py + CELL)
            parts.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#111" stroke-width="2.5"/>')
    return parts


def scalino_svg(view: dict, scores: dict, moves) -> str:
    pyr = pyramid(view["options"]["geometry"])
    board = MARGIN + pyr.side * CELL
    width, height = board + 330, max(board + MARGIN, 120 + 70 * len(COLOURS))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
             f'height="{height}" font-family="sans-serif">',
             f'<rect width="{width}" height="{height}" fill="#fbf8f1"/>']
    parts += _board_svg(view, pyr)

    # Staircases: a line through the steps of each, a ring round single steps.
    for colour in COLOURS:
        for path in scores[colour]["staircases"]:
            centres = [(_origin(pyr, pyr.index[name])[0] + CELL / 2, _origin(pyr, pyr.index[name])[1] + CELL / 2)
                       for name in path]
            if len(centres) == 1:
                cx, cy = centres[0]
                parts.append(f'<circle cx="{cx}" cy="{cy}" r="9" fill="none" stroke="#fff" stroke-width="3" '
                             f'class="staircase"/>')
            else:
                points = " ".join(f"{cx},{cy}" for cx, cy in centres)
                parts.append(f'<polyline points="{points}" fill="none" stroke="#fff" stroke-width="5" '
                             f'stroke-linejoin="round" stroke-linecap="round" stroke-opacity="0.9" class="staircase"/>')

    # Legal placements come in parts: an invisible target over each cell where a
    # piece may start (the page highlights those of the piece picked) ...
    starts = sorted({move.parts[1].id for move in moves if move.parts})
    for part_id in starts:
        px, py = _origin(pyr, pyr.index[part_id[5:]])
        parts.append(f'<rect x="{px}" y="{py}" width="{CELL}" height="{CELL}" fill="#000" fill-opacity="0" '
                     f'data-part="{escape(part_id)}"/>')
    # Hands and scores.
    x0, y = board + 24, MARGIN
    if view["over"]:
        status = _("Game over")
    else:
        status = tr("{player} to place (bonus)" if view["bonus"] else "{player} to place", player=seat_name(view["turn"]))
    parts.append(f'<text x="{x0}" y="{y + 4}" font-size="16" font-weight="bold">{escape(status)}</text>')
    y += 28
    for seat, colours in enumerate(view["colours"]):
        for colour in colours:
            score = scores[colour]
            line = "{player} · {colour}: {points} points − {penalty}" if score["penalty"] else \
                "{player} · {colour}: {points} points"
            words = tr(line, player=seat_name(seat), colour=colour_name(colour), points=score["points"],
                       penalty=score["penalty"])
            parts.append(f'<text x="{x0}" y="{y}" font-size="13">{escape(words)}</text>')
            bx = x0
            for size in PIECE_SIZES:
                for _piece in range(view["hands"][colour][size - 1]):
                    parts.append(f'<rect x="{bx}" y="{y + 8}" width="{size * 9}" height="9" fill="{FILLS[colour]}" '
                                 f'stroke="#333" stroke-width="0.8"/>')
                    bx += size * 9 + 3
            y += 44
    parts.append(_piece_tray(moves, x0, y))
    parts.append("</svg>")
    return "".join(parts)


def _piece_tray(moves, left: int, top: int) -> str:
    """... and the pieces the seat may place, one per colour, size and lie,
    each a target for the first part of its placements."""
    kinds: dict[str, Part] = {}
    for move in moves:
        if move.parts:
            kinds.setdefault(move.parts[0].id, move.parts[0])
    if not kinds:
        return ""
    parts = [f'<text x="{left}" y="{top}" font-size="13">{escape(_("Pick a piece, then the cell where it starts:"))}'
             '</text>']
    say = current_translator().translate
    x, y = left, top + 10
    for part_id, part in kinds.items():
        colour, kind = part_id.split(":")[1:]
        length = 14 * int(kind[0])
        width, height = (14, length) if kind.endswith("v") else (length, 14)
        if x + max(width, 28) > left + 300:
            x, y = left, y + 56
        parts.append(f'<g data-part="{escape(part_id)}" style="cursor:pointer"><title>{escape(say(part.label))}</title>'
                     f'<rect x="{x}" y="{y}" width="{max(width, 28) + 8}" height="50" fill="#000" fill-opacity="0"/>'
                     f'<rect x="{x + 4}" y="{y + 4}" width="{width}" height="{height}" fill="{FILLS[colour]}" '
                     f'stroke="#000" stroke-width="0.8"/></g>')
        x += max(width, 28) + 14
    return "".join(parts)


def pyramid_svg(view: dict, points: list[int], moves) -> str:
    pyr = pyramid(view["options"]["geometry"])
    board = MARGIN + pyr.side * CELL
    width, height = board + 260, max(board + MARGIN, 80 + 26 * view["seats"])
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
             f'height="{height}" font-family="sans-serif">',
             f'<rect width="{width}" height="{height}" fill="#fbf8f1"/>']
    parts += _board_svg(view, pyr)
    # A takeable piece is never covered, so its whole outline is visible: click it.
    say = current_translator().translate
    for move in moves:
        cells = [pyr.index[name] for name in view["pieces"][move.args["piece"]]["cells"]]
        xs = [_origin(pyr, c)[0] for c in cells]
        ys = [_origin(pyr, c)[1] for c in cells]
        parts.append(f'<rect x="{min(xs) + 4}" y="{min(ys) + 4}" width="{max(xs) - min(xs) + CELL - 8}" '
                     f'height="{max(ys) - min(ys) + CELL - 8}" fill="#fff" fill-opacity="0.18" stroke="#fff" '
                     f'stroke-width="2" stroke-dasharray="5 3" data-move="{escape(move.id)}" style="cursor:pointer">'
                     f'<title>{escape(say(move.label))}</title></rect>')
    x0, y = board + 24, MARGIN
    if view["over"]:
        status = _("Game over")
    elif view["chain"] is not None:
        status = tr("{player}: one more from level {level}", player=seat_name(view["turn"]), level=view["chain"])
    else:
        status = tr("{player} to take", player=seat_name(view["turn"]))
    parts.append(f'<text x="{x0}" y="{y + 4}" font-size="15" font-weight="bold">{escape(status)}</text>')
    for seat in range(view["seats"]):
        y += 26
        words = tr("{player}: {points} points", player=seat_name(seat), points=points[seat])
        parts.append(f'<text x="{x0}" y="{y}" font-size="13">{escape(words)}</text>')
    parts.append("</svg>")
    return "".join(parts)
