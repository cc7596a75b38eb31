"""Pictures of a Callisto view: plain text for terminals and SVG for browsers."""

from __future__ import annotations

from functools import lru_cache
from html import escape
from typing import Mapping, Sequence

from gamehost.sdk import Move

from gamehost_callisto.rules import (
    BORDER, COLOURS, COLUMN, COLUMN_MARKS, EMPTY, EMPTY_CENTRE, FRAME, MARKS, OFF_BOARD, PIECE_MARKS,
    outcome, penalty, piece_set, player_name,
)

FILL = {"blue": "#2f6fd0", "yellow": "#e8b923", "red": "#d23c3c", "green": "#2e9d4f"}
CELL_FILL = {
    EMPTY: "#f4f1ea", EMPTY_CENTRE: "#d9d2bf", BORDER: "#8c8c8c",
    **{mark: FILL[colour] for mark, colour in zip(PIECE_MARKS, COLOURS)},
    **{mark: FILL[colour] for mark, colour in zip(COLUMN_MARKS, COLOURS)},
}
CELL = 22
BOARD_PX = FRAME * CELL
PANEL_X = BOARD_PX + 30
MINI = 7


def status(view: Mapping) -> str:
    """One line: whose turn it is, or how the game ended."""
    games = "" if view["games"] == 1 else f"Game {len(view['results']) + 1} of {view['games']}. "
    if view["to_move"] is None:
        result = outcome(view)
        return result.summary if result else "Game over."
    phase = " (opening: place a column)" if view["opening_turns"] else ""
    return f"{games}{player_name(view['to_move'])} to move{phase}."


def seat_lines(view: Mapping) -> list[str]:
    """Per seat: colour, pieces still in hand, columns left, penalty so far."""
    lines = []
    for seat, hand in enumerate(view["hands"]):
        pieces = " ".join(f"{kind.id}" + (f"x{hand[kind.id]}" if hand[kind.id] > 1 else "")
                          for kind in piece_set(view["one_sided"]) if hand[kind.id])
        state = " [to move]" if view["to_move"] == seat else " [out]" if view["out"][seat] else ""
        totals = ""
        if view["games"] > 1 and view["results"]:
            totals = f", match total {sum(result[seat] for result in view['results'])}"
        lines.append(f"{player_name(seat)}: penalty {penalty(hand, view['one_sided']):2}"
                     f"{totals}, columns {hand[COLUMN]}, pieces: {pieces or '-'}{state}")
    return lines


def render_text(view: Mapping) -> str:
    header = "    " + "".join(str(x // 10) if x % 10 == 0 else " " for x in range(FRAME))
    digits = "    " + "".join(str(x % 10) for x in range(FRAME))
    rows = [f"{y:2}  {row}" for y, row in enumerate(view["board"])]
    unused = PIECE_MARKS[len(view["hands"]):]
    legend = "; ".join(f"'{mark}' {meaning}" for mark, meaning in MARKS.items()
                       if mark != OFF_BOARD and mark.lower() not in unused)
    return "\n".join([status(view), header, digits, *rows, legend, *seat_lines(view)])


@lru_cache(maxsize=64)
def _board_layer(board: tuple[str, ...]) -> str:
    """The octagon: empty, centre and border cells shaded, pieces in their
    colours with a dark line where a colour ends, columns as rings."""
    parts = []
    for y, row in enumerate(board):
        for x, mark in enumerate(row):
            if mark == OFF_BOARD:
                continue
            px, py = 10 + x * CELL, 40 + y * CELL
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


def _column_targets(moves: Sequence[Move]) -> str:
    """A clickable, invisible square over each cell where a column may go."""
    return "".join(
        f'<rect x="{10 + move.args["x"] * CELL}" y="{40 + move.args["y"] * CELL}" width="{CELL}" '
        f'height="{CELL}" fill="#000" fill-opacity="0" data-move="{escape(move.id)}" style="cursor:pointer"/>'
        for move in moves if move.args.get("piece") == COLUMN)


@lru_cache(maxsize=64)
def _hand_layer(one_sided: bool, hands: tuple[tuple[tuple[str, int], ...], ...], to_move, out: tuple) -> str:
    """Each seat's unplaced pieces drawn small, with the penalty they add up to."""
    parts = []
    top = 40
    for seat, items in enumerate(hands):
        hand = dict(items)
        colour = COLOURS[seat]
        mark = " (to move)" if to_move == seat else " (out)" if out[seat] else ""
        parts.append(f'<text x="{PANEL_X}" y="{top + 12}" font-size="13" font-family="sans-serif">'
                     f'{colour.capitalize()}: penalty {penalty(hand, one_sided)}, '
                     f'columns {hand[COLUMN]}{mark}</text>')
        x = PANEL_X
        for kind in piece_set(one_sided):
            for _ in range(hand[kind.id]):
                width = max(cx for cx, _ in kind.cells) + 1
                if x + width * MINI > PANEL_X + 280:
                    x, top = PANEL_X, top + 4 * MINI
                for cx, cy in kind.cells:
                    parts.append(f'<rect x="{x + cx * MINI}" y="{top + 20 + cy * MINI}" width="{MINI}" '
                                 f'height="{MINI}" fill="{FILL[colour]}" stroke="#fff" stroke-width="0.5"/>')
                x += (width + 1) * MINI
        top += 20 + 4 * MINI + 14
    return "".join(parts)


def render_svg(view: Mapping, moves: Sequence[Move]) -> str:
    """The octagon (centre and outer border shaded, pieces in their colours,
    columns as rings), each seat's unplaced pieces and penalty. Every empty cell
    where a column may go carries that column move's ``data-move``; piece
    placements have no single cell to click and are listed by the client."""
    width, height = PANEL_X + 300, max(BOARD_PX + 50, 40 + len(view["hands"]) * 140)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
             f'width="{width}" height="{height}">',
             f'<rect width="{width}" height="{height}" fill="#fff"/>',
             f'<text x="10" y="24" font-size="15" font-family="sans-serif">{escape(status(view))}</text>']
    parts.append(_board_layer(tuple(view["board"])))
    parts.append(_column_targets(moves))
    hands = tuple(tuple(hand.items()) for hand in view["hands"])
    parts.append(_hand_layer(view["one_sided"], hands, view["to_move"], tuple(view["out"])))
    parts.append("</svg>")
    return "".join(parts)
