"""Pictures of a Callisto view: plain text for terminals and SVG for browsers,
their words in the language the host renders for (``gettext``/``tr``)."""

from __future__ import annotations

from functools import lru_cache
from html import escape
from typing import Mapping, Sequence

from gamehost.sdk import Move, Text, gettext as _, tr

from gamehost_callisto.rules import (
    BORDER, COLOUR_NAMES, COLOURS, COLUMN, COLUMN_MARKS, EMPTY, EMPTY_CENTRE, FRAME, MARKS, OFF_BOARD,
    PIECE_MARKS, first_cell, orientations, outcome, penalty, piece_set, player_name,
)

FILL = {"blue": "#2f6fd0", "yellow": "#e8b923", "red": "#d23c3c", "green": "#2e9d4f"}
CELL_FILL = {
    EMPTY: "#f4f1ea", EMPTY_CENTRE: "#d9d2bf", BORDER: "#8c8c8c",
    **{mark: FILL[colour] for mark, colour in zip(PIECE_MARKS, COLOURS)},
    **{mark: FILL[colour] for mark, colour in zip(COLUMN_MARKS, COLOURS)},
}
CELL = 24
BOARD_LEFT, BOARD_TOP = 28, 50  # room for the status line and the coordinates
BOARD_PX = FRAME * CELL
WIDTH = BOARD_LEFT + BOARD_PX + 14
PANEL_LEFT = BOARD_LEFT
PANEL_RIGHT = WIDTH - 10
PICK = 12  # cell size of the pieces a player picks from
MINI = 6  # cell size of the other hands
FONT = 'font-family="sans-serif"'


def said(text: Text) -> str:
    """A message the rules made (a name, a result), in the language rendered for."""
    return tr(text.msgid, **text.args)


def status(view: Mapping) -> str:
    """One line: whose turn it is, or how the game ended."""
    if view["to_move"] is None:
        result = outcome(view)
        return said(result.summary) if result and isinstance(result.summary, Text) else _("Game over.")
    player = said(player_name(view["to_move"]))
    turn = (tr("{player} to move (opening: place a column).", player=player) if view["opening_turns"]
            else tr("{player} to move.", player=player))
    if view["games"] == 1:
        return turn
    return tr("Game {number} of {games}. {turn}", number=len(view["results"]) + 1, games=view["games"], turn=turn)


def seat_lines(view: Mapping) -> list[str]:
    """Per seat: colour, pieces still in hand, columns left, penalty so far."""
    lines = []
    for seat, hand in enumerate(view["hands"]):
        pieces = " ".join(f"{kind.id}" + (f"x{hand[kind.id]}" if hand[kind.id] > 1 else "")
                          for kind in piece_set(view["one_sided"]) if hand[kind.id])
        state = " " + _("[to move]") if view["to_move"] == seat else " " + _("[out]") if view["out"][seat] else ""
        numbers = {"player": said(player_name(seat)), "penalty": f"{penalty(hand, view['one_sided']):2}",
                   "columns": hand[COLUMN], "pieces": pieces or "-"}
        if view["games"] > 1 and view["results"]:
            line = tr("{player}: penalty {penalty}, match total {total}, columns {columns}, pieces: {pieces}",
                      total=sum(result[seat] for result in view["results"]), **numbers)
        else:
            line = tr("{player}: penalty {penalty}, columns {columns}, pieces: {pieces}", **numbers)
        lines.append(line + state)
    return lines


def render_text(view: Mapping) -> str:
    header = "    " + "".join(str(x // 10) if x % 10 == 0 else " " for x in range(FRAME))
    digits = "    " + "".join(str(x % 10) for x in range(FRAME))
    rows = [f"{y:2}  {row}" for y, row in enumerate(view["board"])]
    unused = PIECE_MARKS[len(view["hands"]):]
    items = [f"'{mark}' {_(meaning)}" for mark, meaning in MARKS.items()
             if mark != OFF_BOARD and mark.lower() not in unused]
    legend = items[0]
    for item in items[1:]:  # the separator is punctuation, spaced as each language spaces it
        legend = tr("{before}; {after}", before=legend, after=item)
    return "\n".join([status(view), header, digits, *rows, legend, *seat_lines(view)])


def _cell_xy(x: int, y: int) -> tuple[int, int]:
    return BOARD_LEFT + x * CELL, BOARD_TOP + y * CELL


@lru_cache(maxsize=1)
def _coordinates() -> str:
    """Column numbers above the board and row numbers left of it, as the
    move labels name cells (x09y02: column 9, row 2)."""
    parts = []
    for index in range(FRAME):
        x, y = _cell_xy(index, index)
        parts.append(f'<text x="{x + CELL / 2}" y="{BOARD_TOP - 6}" font-size="11" text-anchor="middle" '
                     f'fill="#555" {FONT}>{index}</text>')
        parts.append(f'<text x="{BOARD_LEFT - 5}" y="{y + CELL / 2 + 4}" font-size="11" text-anchor="end" '
                     f'fill="#555" {FONT}>{index}</text>')
    return "".join(parts)


@lru_cache(maxsize=64)
def _board_layer(board: tuple[str, ...]) -> str:
    """The octagon: empty, centre and border cells shaded, pieces in their
    colours with a dark line where a colour ends, columns as rings."""
    parts = []
    for y, row in enumerate(board):
        for x, mark in enumerate(row):
            if mark == OFF_BOARD:
                continue
            px, py = _cell_xy(x, y)
            parts.append(f'<rect x="{px}" y="{py}" width="{CELL}" height="{CELL}" fill="{CELL_FILL[mark]}" '
                         f'stroke="#bbb" stroke-width="0.5"/>')
            if mark in COLUMN_MARKS:
                parts.append(f'<circle cx="{px + CELL // 2}" cy="{py + CELL // 2}" r="{CELL // 3}" '
                             f'fill="#fff" fill-opacity="0.5" stroke="#222"/>')
            colour = mark.lower()
            if colour not in PIECE_MARKS:
                continue
            if x == FRAME - 1 or row[x + 1].lower() != colour:
                parts.append(f'<path d="M{px + CELL} {py}v{CELL}" stroke="#222" stroke-width="1.5"/>')
            if x == 0 or row[x - 1].lower() != colour:
                parts.append(f'<path d="M{px} {py}v{CELL}" stroke="#222" stroke-width="1.5"/>')
            if y == FRAME - 1 or board[y + 1][x].lower() != colour:
                parts.append(f'<path d="M{px} {py + CELL}h{CELL}" stroke="#222" stroke-width="1.5"/>')
            if y == 0 or board[y - 1][x].lower() != colour:
                parts.append(f'<path d="M{px} {py}h{CELL}" stroke="#222" stroke-width="1.5"/>')
    return "".join(parts)


def _cell_targets(moves: Sequence[Move]) -> str:
    """An invisible square over each cell some move's last part names: the
    page highlights those of the piece and orientation chosen."""
    cells = {move.parts[-1].id for move in moves if move.parts}
    parts = []
    for part_id in sorted(cells):
        x, y = int(part_id[6:8]), int(part_id[9:11])  # "cell:x09y02"
        px, py = _cell_xy(x, y)
        parts.append(f'<rect x="{px}" y="{py}" width="{CELL}" height="{CELL}" fill="#000" fill-opacity="0" '
                     f'data-part="{part_id}"/>')
    return "".join(parts)


def _shape(cells, left: float, top: float, size: int, fill: str, stroke: str = "#fff") -> str:
    return "".join(f'<rect x="{left + x * size}" y="{top + y * size}" width="{size}" height="{size}" '
                   f'fill="{fill}" stroke="{stroke}" stroke-width="0.5"/>' for x, y in cells)


def _picks(view: Mapping, moves: Sequence[Move], top: int) -> tuple[str, int]:
    """The hand of the seat to move, drawn to pick from: each piece (and the
    columns) a target for its first part; below, each piece's orientations,
    shown once the piece is picked, a dot on the cell that goes where the
    player clicks. Returns the drawing and the height it takes."""
    seat = view["to_move"]
    colour = FILL[COLOURS[seat]]
    hand = view["hands"][seat]
    offered = {move.parts[0].id for move in moves if move.parts}
    turns: dict[str, dict[str, Move]] = {}
    for move in moves:
        if len(move.parts) == 3:
            turns.setdefault(move.parts[0].id, {}).setdefault(move.parts[1].id, move)
    heading = tr("{seat}: pick a piece", seat=_seat_line(view, seat))
    parts = [f'<text x="{PANEL_LEFT}" y="{top + 14}" font-size="13" {FONT}>{escape(heading, quote=False)}</text>']
    top += 24
    x, row_height = PANEL_LEFT, 3 * PICK + 14
    items = [(COLUMN, ((0, 0),), hand[COLUMN])] + [(kind.id, kind.cells, hand[kind.id])
                                                  for kind in piece_set(view["one_sided"])]
    for kind_id, cells, count in items:
        if not count:
            continue
        width = (max(cx for cx, _ in cells) + 1) * PICK
        if x + width > PANEL_RIGHT:
            x, top = PANEL_LEFT, top + row_height
        part = f"piece:{kind_id}"
        target = f' data-part="{part}"' if part in offered else ' opacity="0.35"'
        parts.append(f'<g{target}><rect x="{x - 4}" y="{top - 4}" width="{width + 8}" height="{3 * PICK + 8}" '
                     f'fill="#000" fill-opacity="0" stroke="none"/>'
                     + (f'<circle cx="{x + PICK / 2}" cy="{top + PICK / 2}" r="{PICK / 2 - 1}" fill="{colour}" '
                        f'stroke="#222"/>' if kind_id == COLUMN else _shape(cells, x, top, PICK, colour))
                     + (f'<text x="{x}" y="{top + 3 * PICK + 12}" font-size="11" {FONT}>x{count}</text>'
                        if count > 1 else "") + "</g>")
        x += max(width, 2 * PICK) + 18
    top += row_height
    tray_top = top
    for piece_id, by_turn in turns.items():
        kind = next(kind for kind in piece_set(view["one_sided"]) if f"piece:{kind.id}" == piece_id)
        heading = tr("{piece}: how it lies, then the cell for its dot", piece=_(kind.name))
        parts.append(f'<g data-after-part="{piece_id}"><text x="{PANEL_LEFT}" y="{tray_top + 12}" font-size="13" '
                     f'{FONT}>{escape(heading, quote=False)}</text>')
        x = PANEL_LEFT
        for turn_id, move in by_turn.items():
            shape = orientations(kind, view["one_sided"])[move.args["orientation"]]
            width = (max(cx for cx, _ in shape) + 1) * PICK
            height = (max(cy for _, cy in shape) + 1) * PICK
            first_x, first_y = first_cell(shape)
            parts.append(f'<g data-part="{turn_id}"><rect x="{x - 4}" y="{tray_top + 20}" width="{width + 8}" '
                         f'height="{3 * PICK + 8}" fill="#000" fill-opacity="0" stroke="none"/>'
                         + _shape(shape, x, tray_top + 24 + (3 * PICK - height) / 2, PICK, colour)
                         + f'<circle cx="{x + first_x * PICK + PICK / 2}" '
                           f'cy="{tray_top + 24 + (3 * PICK - height) / 2 + first_y * PICK + PICK / 2}" r="3" '
                           f'fill="#fff" stroke="#222"/></g>')
            x += max(width, 3 * PICK) + 16
        parts.append("</g>")
    if turns:
        top = tray_top + 24 + 3 * PICK + 8
    return "".join(parts), top


def _seat_line(view: Mapping, seat: int) -> str:
    hand = view["hands"][seat]
    mark = " " + _("(to move)") if view["to_move"] == seat else " " + _("(out)") if view["out"][seat] else ""
    return tr("{colour}: penalty {penalty}, columns {columns}", colour=_(COLOUR_NAMES[seat]).capitalize(),
              penalty=penalty(hand, view["one_sided"]), columns=hand[COLUMN]) + mark


def _hand_lines(view: Mapping, top: int, skip: int | None) -> tuple[str, int]:
    """Each seat's penalty so far, columns left, and unplaced pieces drawn
    small; ``skip``, the seat picking from its hand, is drawn there instead."""
    parts = []
    for seat, hand in enumerate(view["hands"]):
        if seat == skip:
            continue
        colour = COLOURS[seat]
        line = escape(_seat_line(view, seat), quote=False)
        parts.append(f'<text x="{PANEL_LEFT}" y="{top + 13}" font-size="13" {FONT}>{line}</text>')
        x, row = PANEL_LEFT, top + 19
        for kind in piece_set(view["one_sided"]):
            for _ in range(hand[kind.id]):
                width = (max(cx for cx, _ in kind.cells) + 1) * MINI
                if x + width > PANEL_RIGHT:
                    x, row = PANEL_LEFT, row + 4 * MINI
                parts.append(_shape(kind.cells, x, row, MINI, FILL[colour]))
                x += width + MINI
        top = row + 3 * MINI + 6
    return "".join(parts), top


def render_svg(view: Mapping, moves: Sequence[Move]) -> str:
    """The octagon with coordinates (centre and outer border shaded, pieces
    in their colours, columns as rings) and, below, each seat's unplaced
    pieces and penalty. Moves come in parts (piece, orientation, cell): the
    hand of the seat to move carries the piece targets, each piece's
    orientations sit in a group shown once it is picked, and the cells are
    invisible targets the page highlights."""
    parts = [f'<text x="10" y="22" font-size="16" {FONT}>{escape(status(view), quote=False)}</text>',
             _coordinates(), _board_layer(tuple(view["board"])), _cell_targets(moves)]
    top = BOARD_TOP + BOARD_PX + 8
    picking = view["to_move"] if moves and view["to_move"] is not None else None
    if picking is not None:
        picks, top = _picks(view, moves, top)
        parts.append(picks)
    hands, top = _hand_lines(view, top, picking)
    parts.append(hands)
    height = top + 4
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" '
            f'height="{height}"><rect width="{WIDTH}" height="{height}" fill="#fff"/>' + "".join(parts) + "</svg>")
