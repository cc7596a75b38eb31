"""The rules of tic-tac-toe, as plain functions of plain data.

Two players, X (seat 0) and O (seat 1), take turns marking an empty cell of a
3x3 grid. Three marks in a row, column or diagonal win; a full grid without a
line is a draw.

State: ``{"board": [None or seat, ...9 cells, row by row from the top left], "turn": seat}``.
"""

from __future__ import annotations

import math

from gamehost.sdk import IllegalMove, MalformedMove, Move, Outcome, Text

MARKS = ("X", "O")
LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
    (0, 4, 8), (2, 4, 6),             # diagonals
)
CELL_NAMES = ("a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1")


def start() -> dict:
    """An empty grid; X moves first."""
    return {"board": [None] * 9, "turn": 0}


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


def to_move(state: dict) -> tuple[int, ...]:
    return () if is_over(state) else (state["turn"],)


def legal_moves(state: dict, seat: int) -> list[Move]:
    """Every empty cell, for the seat whose turn it is."""
    if is_over(state) or seat != state["turn"]:
        return []
    return [
        Move(id=CELL_NAMES[cell], label=Text("{mark} on {cell}", mark=MARKS[seat], cell=CELL_NAMES[cell]),
             args={"cell": cell})
        for cell, mark in enumerate(state["board"])
        if mark is None
    ]


def cell_of(move) -> int:
    """The cell index a structured move names, or IllegalMove."""
    cell = move.get("cell") if hasattr(move, "get") else None
    # NaN and infinity are floats too, and have no int(): check them first.
    if isinstance(cell, bool) or not isinstance(cell, (int, float)) or not math.isfinite(cell) or cell != int(cell):
        raise MalformedMove("A move names a cell: {\"cell\": 0..8}, counted row by row from the top left.")
    if not 0 <= cell <= 8:
        raise IllegalMove(f"Cell {int(cell)} is off the board: cells are 0 to 8.", "off-board")
    return int(cell)


def play(state: dict, seat: int, move) -> dict:
    """The seat marks an empty cell; the turn passes to the other player."""
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


def outcome(state: dict) -> Outcome | None:
    """Three in a line wins; a full grid without one is a draw."""
    board = state["board"]
    won = winner(board)
    if won is not None:
        ranking = [1, 2] if won == 0 else [2, 1]
        scores = [1.0, 0.0] if won == 0 else [0.0, 1.0]
        return Outcome(scores=scores, ranking=ranking, summary=Text("{mark} wins.", mark=MARKS[won]))
    if is_full(board):
        return Outcome(scores=[0.5, 0.5], ranking=[1, 1], summary=Text("Draw."))
    return None
