"""Tic-tac-toe: the smallest complete gamehost plugin.

Two players, X (seat 0) and O (seat 1), take turns marking an empty cell of a
3x3 grid. Three marks in a row, column or diagonal win; a full grid without a
line is a draw. The plugin guide (docs/plugin-guide.md) walks through this file.
"""

from __future__ import annotations

import math

from gamehost.sdk import Game, IllegalMove, MalformedMove, Move, Outcome, hookimpl

MARKS = ("X", "O")
LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
    (0, 4, 8), (2, 4, 6),             # diagonals
)
CELL_NAMES = ("a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1")


def winner(board: list) -> int | None:
    """The seat with three in a line, if any."""
    for a, b, c in LINES:
        if board[a] is not None and board[a] == board[b] == board[c]:
            return board[a]
    return None


def is_full(board: list) -> bool:
    return all(cell is not None for cell in board)


def is_over(state: dict) -> bool:
    return winner(state["board"]) is not None or is_full(state["board"])


def cell_of(move) -> int:
    """The cell index a structured move names, or IllegalMove."""
    cell = move.get("cell") if hasattr(move, "get") else None
    # NaN and infinity are floats too, and have no int(): check them first.
    if isinstance(cell, bool) or not isinstance(cell, (int, float)) or not math.isfinite(cell) or cell != int(cell):
        raise MalformedMove("A move names a cell: {\"cell\": 0..8}, counted row by row from the top left.")
    if not 0 <= cell <= 8:
        raise IllegalMove(f"Cell {int(cell)} is off the board: cells are 0 to 8.", "off-board")
    return int(cell)


class TicTacToe(Game):
    id = "tictactoe"
    title = "Tic-tac-toe"
    version = "1"
    summary = "Mark three cells in a row on a 3x3 grid before your opponent does."
    min_players = 2
    max_players = 2
    options_schema = {"type": "object", "properties": {}, "additionalProperties": False}

    def setup(self, seats, options, rng):
        return {"board": [None] * 9, "turn": 0}

    def to_move(self, state):
        return () if is_over(state) else (state["turn"],)

    def legal_moves(self, state, seat):
        if is_over(state) or seat != state["turn"]:
            return []
        return [
            Move(id=CELL_NAMES[cell], label=f"{MARKS[seat]} on {CELL_NAMES[cell]}", args={"cell": cell})
            for cell, mark in enumerate(state["board"])
            if mark is None
        ]

    def apply(self, state, seat, move, rng):
        if is_over(state):
            raise IllegalMove("The game is over.", "game-over")
        if seat != state["turn"]:
            raise IllegalMove(f"It is {MARKS[state['turn']]}'s turn.", "not-your-turn")
        cell = cell_of(move)
        if state["board"][cell] is not None:
            raise IllegalMove(f"Cell {CELL_NAMES[cell]} is already taken by {MARKS[state['board'][cell]]}.", "cell-occupied")
        board = list(state["board"])
        board[cell] = seat
        return {"board": board, "turn": 1 - seat}

    def outcome(self, state):
        board = state["board"]
        won = winner(board)
        if won is not None:
            ranking = [1, 2] if won == 0 else [2, 1]
            scores = [1.0, 0.0] if won == 0 else [0.0, 1.0]
            return Outcome(scores=scores, ranking=ranking, summary=f"{MARKS[won]} wins.")
        if is_full(board):
            return Outcome(scores=[0.5, 0.5], ranking=[1, 1], summary="Draw.")
        return None

    def can_undo(self, state, seat, move):
        # Nothing is hidden and nothing is drawn: any last move may be taken back.
        return True

    def render_text(self, view):
        def mark(cell):
            return "." if view["board"][cell] is None else MARKS[view["board"][cell]]

        rows = []
        for row in range(3):
            cells = " ".join(mark(row * 3 + col) for col in range(3))
            rows.append(f"{3 - row} {cells}")
        rows.append("  a b c")
        return "\n".join(rows)

    def render_svg(self, view, moves):
        target = {move.args["cell"]: move.id for move in moves}
        parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 300" width="300" height="300">',
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


@hookimpl
def gamehost_games():
    return [TicTacToe()]
