"""Callisto (Reiner Knizia, 2 to 4 players): the rules as gamehost plays them.

Section marks (§2.3, ...) point into docs/rules/callisto.md; [FR] is the
French rulebook it comes from. Each player owns one colour: 18 polyominoes
(68 cells) and 3 columns. Two rounds of columns open the game; then each turn
a player places one piece touching their own colour by a full edge, or their
third column. A player who cannot move is out; when nobody can move, the cells
of each player's unplaced pieces are penalty points and the lowest total wins.

State is plain JSON data. The board is 20 strings of 20 characters (row y,
column x), one character per cell of the 20x20 frame; see ``MARKS``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any, Callable, Iterable, Mapping

from gamehost.sdk import IllegalMove, InvalidOptions, MalformedMove, Move, Outcome, Part, Text, places

# --- §2.3 Board geometry ---------------------------------------------------

FRAME = 20
"""The board is drawn in a 20x20 frame; cell (x, y) has index y * 20 + x."""


def octagon(width: int, top_edge: int, offset: int) -> frozenset[int]:
    """Cell indices of an octagon ``width`` cells wide with a top edge of
    ``top_edge`` cells whose bounding square starts at (offset, offset) (§2.3:
    row dy from the nearer horizontal edge loses max(0, cut - dy) cells on
    each side, cut = (width - top_edge) / 2)."""
    cut = (width - top_edge) // 2
    cells = set()
    for local_y in range(width):
        margin = max(0, cut - min(local_y, width - 1 - local_y))
        for local_x in range(margin, width - margin):
            cells.add((offset + local_y) * FRAME + offset + local_x)
    return frozenset(cells)


BOARD = octagon(20, 6, 0)
"""The 288 cells of the physical board, all playable with 4 players (§2.3)."""

PLAYABLE = {4: BOARD, 3: octagon(20, 2, 0), 2: octagon(16, 2, 2)}
"""Playable area per player count (§2.3): 288, 220, 144 cells. The rest of the
board is the outer border, out of play with 2 and 3 players ([FR] Rule 2)."""

CENTRE = octagon(6, 2, 7)
"""The 24-cell centre (§2.3): pieces may cover it, columns may not."""

COLOURS = ("blue", "yellow", "red", "green")
"""PROPOSED (§2.2, §2.9.5): seat i plays COLOURS[i]. The state and the
errors name colours by these words; what players read says COLOUR_NAMES."""

COLOUR_NAMES = (Text("blue"), Text("yellow"), Text("red"), Text("green"))
"""The colours as players read them, translated (a colour alone, as a noun)."""


def player_name(seat: int) -> Text:
    """"Player 1 (blue)": people count seats from 1, as gamehost.sdk.seats
    names them, with the seat's colour; said as a message so that it reads in
    the player's language inside labels, results and pictures."""
    return Text("Player {number} ({colour})", number=seat + 1, colour=COLOUR_NAMES[seat])


OFF_BOARD, BORDER, EMPTY, EMPTY_CENTRE = " ", "-", ".", ":"
PIECE_MARKS = "byrg"
COLUMN_MARKS = "BYRG"
MARKS = {
    OFF_BOARD: Text("not part of the board"),
    BORDER: Text("outer border, out of play with this player count"),
    EMPTY: Text("empty cell"),
    EMPTY_CENTRE: Text("empty centre cell (pieces only)"),
    # Whole phrases per colour: the colour agrees with the noun in other languages.
    "b": Text("blue piece"), "y": Text("yellow piece"), "r": Text("red piece"), "g": Text("green piece"),
    "B": Text("blue column"), "Y": Text("yellow column"), "R": Text("red column"), "G": Text("green column"),
}


def cell_name(cell: int) -> str:
    return f"x{cell % FRAME:02d}y{cell // FRAME:02d}"


def cell_label(cell: int) -> Text:
    """A cell as players find it on the picture, whose column numbers run
    along the top and row numbers down the left (render.py)."""
    return Text("column {column}, row {row}", column=cell % FRAME, row=cell // FRAME)


def placement_label(turned: str, cell: int) -> Text:
    """A piece's move as a player reads it: the piece as it is turned, and
    the cell its top-left square lands on (the cell a player clicks)."""
    return Text("{piece}, top-left square at column {column}, row {row}", piece=turned,
                column=cell % FRAME, row=cell // FRAME)


def empty_board(players: int) -> list[str]:
    """The board for ``players`` with the overlay for that count under it (§2.5)."""
    def mark(cell: int) -> str:
        if cell not in BOARD:
            return OFF_BOARD
        if cell not in PLAYABLE[players]:
            return BORDER
        return EMPTY_CENTRE if cell in CENTRE else EMPTY

    return ["".join(mark(y * FRAME + x) for x in range(FRAME)) for y in range(FRAME)]


# --- §2.4 Pieces -------------------------------------------------------------

@dataclass(frozen=True)
class PieceKind:
    """One kind of piece: ``copies`` identical pieces per colour. ``shape`` is
    the r0 orientation, rows separated by "/"; each cell is one penalty point."""

    id: str
    name: Text
    shape: str
    copies: int

    @cached_property
    def cells(self) -> tuple[tuple[int, int], ...]:
        rows = [row.strip() for row in self.shape.split("/")]
        return tuple((x, y) for y, row in enumerate(rows) for x, char in enumerate(row) if char == "#")

    @cached_property
    def penalty(self) -> int:
        return len(self.cells)


TWO_SIDED_PIECES = (
    PieceKind("W5", Text("W-pentomino"), "#.. / ##. / .##", 1),
    PieceKind("X5", Text("X-pentomino"), ".#. / ### / .#.", 1),
    PieceKind("T5", Text("T-pentomino"), "### / .#. / .#.", 1),
    PieceKind("U5", Text("U-pentomino"), "#.# / ###", 1),
    PieceKind("L4", Text("L-tetromino"), "#. / #. / ##", 2),
    PieceKind("T4", Text("T-tetromino"), "### / .#.", 2),
    PieceKind("Z4", Text("S/Z-tetromino"), "##. / .##", 2),
    PieceKind("O4", Text("O-tetromino"), "## / ##", 2),
    PieceKind("V3", Text("V-tromino"), "#. / ##", 2),
    PieceKind("I3", Text("I-tromino"), "###", 2),
    PieceKind("I2", Text("domino"), "##", 2),
)
"""§2.4: 18 pieces, 68 cells per colour."""

ONE_SIDED_PIECES = (
    *TWO_SIDED_PIECES[:4],
    # §2.4 flag: without flipping, the chiral pairs become one L + one J and one S + one Z.
    PieceKind("L4", Text("L-tetromino"), "#. / #. / ##", 1),
    PieceKind("J4", Text("J-tetromino"), ".# / .# / ##", 1),
    TWO_SIDED_PIECES[5],
    PieceKind("Z4", Text("Z-tetromino"), "##. / .##", 1),
    PieceKind("S4", Text("S-tetromino"), ".## / ##.", 1),
    *TWO_SIDED_PIECES[7:],
)
COLUMN = "column"
COLUMNS_PER_PLAYER = 3
OPENING_ROUNDS = 2
"""[FR] "Au premier tour ... au deuxième tour": each player places a column in each of the first two rounds."""

ROTATIONS = ("r0", "r1", "r2", "r3")
REFLECTIONS = ("f0", "f1", "f2", "f3")
"""``rK``: K quarter turns clockwise; ``fK``: flipped left to right, then K quarter turns."""


TRANSFORM_WORDS = {
    "r0": "{piece} as drawn", "r1": "{piece} turned right", "r2": "{piece} turned upside down",
    "r3": "{piece} turned left", "f0": "{piece} flipped", "f1": "{piece} flipped, turned right",
    "f2": "{piece} flipped, upside down", "f3": "{piece} flipped, turned left",
}
"""How a piece in an orientation reads for a person (quarter turns are
clockwise): message ids of ``turn_part``'s labels. ``pybabel extract`` does not
see them here (no Text call around them): the catalogues list them by hand, and
the kit's language check fails a language that lacks one."""


def piece_set(one_sided: bool) -> tuple[PieceKind, ...]:
    return ONE_SIDED_PIECES if one_sided else TWO_SIDED_PIECES


def transformed(cells, transform: str) -> tuple[tuple[int, int], ...]:
    """``cells`` turned by ``transform``, moved so the smallest x and y are 0, sorted."""
    if transform[0] == "f":
        cells = [(-x, y) for x, y in cells]
    for _ in range(int(transform[1])):
        cells = [(-y, x) for x, y in cells]  # a quarter turn clockwise (y grows downwards)
    min_x = min(x for x, _ in cells)
    min_y = min(y for _, y in cells)
    return tuple(sorted((x - min_x, y - min_y) for x, y in cells))


def first_cell(shape) -> tuple[int, int]:
    """The cell of ``shape`` a player places by clicking: its first in reading
    order (top row, leftmost), always a cell of the piece, unlike the anchor."""
    return min(shape, key=lambda cell: (cell[1], cell[0]))


def orientations(kind: PieceKind, one_sided: bool) -> dict[str, tuple[tuple[int, int], ...]]:
    """The distinct orientations of ``kind`` (§2.4): rotations, and reflections
    unless one-sided. Symmetric transforms give the same shape; each shape is
    listed once, under the first transform name that makes it."""
    transforms = ROTATIONS if one_sided else ROTATIONS + REFLECTIONS
    distinct: dict[str, tuple[tuple[int, int], ...]] = {}
    for transform in transforms:
        shape = transformed(kind.cells, transform)
        if shape not in distinct.values():
            distinct[transform] = shape
    return distinct


# --- Placement tables (precomputed once per player count and piece set) -------

@dataclass(frozen=True)
class Orientation:
    """One distinct orientation of a piece kind. A placement is named by its
    anchor, the top-left corner of the piece's bounding box; ``offsets`` are
    the cells relative to the anchor, ``anchors`` the bitmask of anchors that
    keep the piece inside the playable area, ``moves`` the move per anchor."""

    name: str
    offsets: tuple[int, ...]
    anchors: int
    moves: dict[int, Move]


def piece_part(kind_id: str, name: Text) -> Part:
    return Part(f"piece:{kind_id}", name)


def turn_part(kind: PieceKind, transform: str) -> Part:
    # One message per orientation with the piece inside, not "{piece} {turn}": every listed move
    # carries this label to the host, and each nested message is more to encode and rebuild there.
    return Part(f"turn:{kind.id}:{transform}", Text(TRANSFORM_WORDS[transform], piece=kind.name))


def cell_part(cell: int) -> Part:
    return Part(f"cell:{cell_name(cell)}", cell_label(cell))


class Tables:
    """Every orientation of every piece kind with the anchors that fit the
    playable area of one player count, and every column move: the moves are
    built once and only selected during play. Each move also comes in parts
    for clients that compose it by clicks: the piece, its orientation, then
    the cell its first cell covers (a column: the column, then its cell)."""

    def __init__(self, players: int, one_sided: bool):
        area = PLAYABLE[players]
        self.kinds = piece_set(one_sided)
        self.kind_by_id = {kind.id: kind for kind in self.kinds}
        self.orientations = {kind.id: orientations(kind, one_sided) for kind in self.kinds}
        self.placeable: dict[str, list[Orientation]] = {}
        cells = {cell: cell_part(cell) for cell in area}
        for kind in self.kinds:
            self.placeable[kind.id] = []
            piece = piece_part(kind.id, kind.name)
            for name, shape in self.orientations[kind.id].items():
                turn = turn_part(kind, name)
                first_x, first_y = first_cell(shape)
                moves = {}
                for y in range(FRAME):
                    for x in range(FRAME):
                        if all(x + dx < FRAME and y + dy < FRAME and (y + dy) * FRAME + x + dx in area
                               for dx, dy in shape):
                            moves[y * FRAME + x] = Move(f"{kind.id}:{name}:x{x:02d}y{y:02d}",
                                                        placement_label(turn.label,
                                                                        (y + first_y) * FRAME + x + first_x),
                                                        {"piece": kind.id, "orientation": name, "x": x, "y": y},
                                                        (piece, turn, cells[(y + first_y) * FRAME + x + first_x]))
                offsets = tuple(dy * FRAME + dx for dx, dy in shape)
                anchors = sum(1 << anchor for anchor in moves)
                self.placeable[kind.id].append(Orientation(name, offsets, anchors, moves))
        self.offsets = sorted({offset for placeable in self.placeable.values()
                               for orientation in placeable for offset in orientation.offsets})
        column = piece_part(COLUMN, Text("column"))
        self.column_moves = {
            cell: Move(f"col:{cell_name(cell)}", Text("Column at {cell}", cell=cell_label(cell)),
                       {"piece": COLUMN, "x": cell % FRAME, "y": cell // FRAME}, (column, cells[cell]))
            for cell in sorted(area - CENTRE)
        }


@cache
def tables(players: int, one_sided: bool) -> Tables:
    return Tables(players, one_sided)


def mark_table(marks: str) -> bytes:
    return bytes(ord("1") if chr(byte) in marks else ord("0") for byte in range(256))


FREE_TABLE = mark_table(EMPTY + EMPTY_CENTRE)
COLUMN_FREE_TABLE = mark_table(EMPTY)
OWN_TABLES = [mark_table(piece + column) for piece, column in zip(PIECE_MARKS, COLUMN_MARKS)]
NOT_LEFT_EDGE = sum(1 << cell for cell in range(FRAME * FRAME) if cell % FRAME != 0)
NOT_RIGHT_EDGE = sum(1 << cell for cell in range(FRAME * FRAME) if cell % FRAME != FRAME - 1)


def mask(board_text: bytes, table: bytes) -> int:
    """Bitmask (bit i = cell i) of the cells whose mark ``table`` maps to "1"."""
    return int(board_text.translate(table)[::-1], 2)


def edge_neighbours(cells: int) -> int:
    """Bitmask of the cells sharing a full edge with a cell of ``cells``."""
    return (((cells << 1) & NOT_LEFT_EDGE) | ((cells >> 1) & NOT_RIGHT_EDGE)
            | (cells << FRAME) | (cells >> FRAME))


def bits(cells: int) -> list[int]:
    """The cell indices set in a bitmask, in increasing order."""
    if cells.bit_count() < 24:  # few cells: peel off the lowest bit
        found = []
        while cells:
            low = cells & -cells
            found.append(low.bit_length() - 1)
            cells ^= low
        return found
    digits = bin(cells)[:1:-1]
    return [index for index, digit in enumerate(digits) if digit == "1"]


# --- §2.5 Setup --------------------------------------------------------------

def new_game(players: int, one_sided: bool, start: int) -> dict[str, Any]:
    """A fresh game (§2.5): every player holds 18 pieces and 3 columns; play
    goes clockwise (seat order) from ``start``."""
    hand = {kind.id: kind.copies for kind in piece_set(one_sided)}
    hand[COLUMN] = COLUMNS_PER_PLAYER
    return {
        "board": empty_board(players),
        "hands": [dict(hand) for _ in range(players)],
        "order": [(start + step) % players for step in range(players)],
        "to_move": start,
        "opening_turns": OPENING_ROUNDS * players,
        "out": [False] * players,
    }


def setup(seats: int, options: Mapping[str, Any], rng) -> dict[str, Any]:
    """The opening position (§2.5); in a match, of its first game."""
    if not 2 <= seats <= 4:
        raise ValueError(f"Callisto is for 2 to 4 players, not {seats}.")
    start = options.get("start_seat", "random")
    if start == "random":
        start = rng.randrange(seats)
    elif start >= seats:
        raise InvalidOptions("start_seat", f"start_seat {start} does not exist with {seats} players "
                                           f"(seats 0 to {seats - 1}).")
    one_sided = bool(options.get("one_sided", False))
    state = {
        "one_sided": one_sided,
        "games": seats if options.get("match", False) else 1,
        "first_start": start,
        "results": [],
    }
    state.update(new_game(seats, one_sided, start))
    return state


# --- §2.6 Turns and legal moves ----------------------------------------------

def in_opening(state) -> bool:
    """The first two rounds, when every player places a column ([FR] Le jeu)."""
    return state["opening_turns"] > 0


def has_finished(hand: Mapping[str, int]) -> bool:
    """§2.6: a player who has placed all 18 pieces is finished; an unplaced
    third column does not keep them in the game."""
    return not any(count for kind, count in hand.items() if kind != COLUMN)


def column_cells(board_text: bytes) -> int:
    """Cells a column may take (§2.6, [FR] Rule 3): empty, playable, not the
    centre. The board marks the outer border and the centre apart from EMPTY."""
    return mask(board_text, COLUMN_FREE_TABLE)


def free_and_frontier(state, seat: int) -> tuple[int, int]:
    """Bitmasks of the free playable cells and of the "frontier": the free
    cells sharing a full edge with the seat's own colour ([FR] Rule 1)."""
    board_text = "".join(state["board"]).encode()
    free = mask(board_text, FREE_TABLE)
    return free, edge_neighbours(mask(board_text, OWN_TABLES[seat])) & free


def piece_placements(state, seat: int, kinds: Iterable[PieceKind] | None = None) -> list[Move]:
    """The piece placements ``seat`` may make (§2.6 a, [FR] Rules 1 and 2): a
    piece in hand, all its cells free and playable, at least one of them on
    the frontier; only of ``kinds`` if given. Each orientation is tried at
    every anchor at once on bitmasks: an anchor fits where every offset lands
    on a free cell and touches where some offset lands on the frontier."""
    table = tables(len(state["hands"]), state["one_sided"])
    free, frontier = free_and_frontier(state, seat)
    if not frontier:
        return []
    hand = state["hands"][seat]
    free_at = {offset: free >> offset for offset in table.offsets}
    frontier_at = {offset: frontier >> offset for offset in table.offsets}
    found: list[Move] = []
    for kind in table.kinds if kinds is None else kinds:
        if not hand[kind.id]:
            continue
        for orientation in table.placeable[kind.id]:
            fits, touches = orientation.anchors, 0
            for offset in orientation.offsets:
                fits &= free_at[offset]
                touches |= frontier_at[offset]
            anchors = fits & touches
            if anchors:
                moves = orientation.moves
                found += [moves[anchor] for anchor in bits(anchors)]
    return found


def some_piece_fits(state, seat: int) -> bool:
    """Whether ``piece_placements`` would list anything; tries the smallest
    pieces first, as they fit most often."""
    table = tables(len(state["hands"]), state["one_sided"])
    free, frontier = free_and_frontier(state, seat)
    if not frontier:
        return False
    hand = state["hands"][seat]
    for kind in reversed(table.kinds):
        if hand[kind.id]:
            for orientation in table.placeable[kind.id]:
                fits, touches = orientation.anchors, 0
                for offset in orientation.offsets:
                    fits &= free >> offset
                    touches |= frontier >> offset
                if fits & touches:
                    return True
    return False


def column_placements(state) -> list[Move]:
    """Every column move (§2.6 column placement): one per cell a column may take."""
    table = tables(len(state["hands"]), state["one_sided"])
    return [table.column_moves[cell] for cell in bits(column_cells("".join(state["board"]).encode()))]


def no_shortcut(state, seat: int, move: Mapping[str, Any]) -> list[int] | None:
    """The Python rules take no shortcut: ``check_piece`` checks every placement."""
    return None


@dataclass(frozen=True)
class PlacementSearch:
    """The searches for placements the rules make at every turn: ``placements``
    answers as ``piece_placements`` (the same moves in the same order),
    ``some_fits`` as ``some_piece_fits``, ``columns`` as ``column_placements``;
    ``quick_cells`` may give the cells of a piece move it finds legal, else
    None and ``check_piece`` decides (and says why). The functions above are
    the reference; gamehost_callisto.compiled offers a compiled twin that
    the conformance kit holds to the same answers."""

    placements: Callable[[Any, int, Iterable[PieceKind] | None], list[Move]]
    some_fits: Callable[[Any, int], bool]
    columns: Callable[[Any], list[Move]] = column_placements
    quick_cells: Callable[[Any, int, Mapping[str, Any]], list[int] | None] = no_shortcut


PYTHON_SEARCH = PlacementSearch(piece_placements, some_piece_fits)


def can_move(state, seat: int, search: PlacementSearch = PYTHON_SEARCH) -> bool:
    """Whether ``seat`` has any legal move (§2.6 Player out)."""
    hand = state["hands"][seat]
    if has_finished(hand):
        return False
    if hand[COLUMN] and any(EMPTY in row for row in state["board"]):
        return True  # a column may go on any EMPTY cell (column_cells)
    return not in_opening(state) and search.some_fits(state, seat)


def legal_moves(state, seat: int, search: PlacementSearch = PYTHON_SEARCH) -> list[Move]:
    """Every legal move of ``seat``: columns only in the opening (§2.6 Round 1
    and 2), afterwards every piece placement and, while one is left, the
    third column (§2.6 b)."""
    if state["to_move"] != seat:
        return []
    moves = [] if in_opening(state) else search.placements(state, seat, None)
    if state["hands"][seat][COLUMN]:
        moves += search.columns(state)
    return moves


def next_turn(state: dict[str, Any], search: PlacementSearch = PYTHON_SEARCH) -> None:
    """Pass the turn clockwise (§2.6): each player in turn who has no legal
    move, or has finished, is out for good (the board only fills up) and is
    skipped. When nobody can move the game ends (to_move None)."""
    order = state["order"]
    position = order.index(state["to_move"])
    for step in range(1, len(order) + 1):
        seat = order[(position + step) % len(order)]
        if state["out"][seat]:
            continue
        if can_move(state, seat, search):
            state["to_move"] = seat
            return
        state["out"][seat] = True
    state["to_move"] = None


# --- Reading and checking a move ------------------------------------------------

def _coordinate(move: Mapping[str, Any], key: str) -> int:
    value = move.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedMove(f'A move gives "{key}" as a whole number 0..19 (the frame column x or row y).')
    return value


def _cell_on_board(state, x: int, y: int, what: str) -> int:
    """The cell (x, y), refused if off the board or on the outer border ([FR] Rule 2)."""
    if not (0 <= x < FRAME and 0 <= y < FRAME) or y * FRAME + x not in BOARD:
        raise IllegalMove(f"{what} would stick out of the board at x{x:02d}y{y:02d}.", "off-board")
    cell = y * FRAME + x
    players = len(state["hands"])
    if cell not in PLAYABLE[players]:
        raise IllegalMove(f"{what} would cover x{x:02d}y{y:02d} on the outer border, "
                          f"which is out of play with {players} players.", "outer-border")
    return cell


def check_column(state, seat: int, move: Mapping[str, Any]) -> int:
    """The cell of a legal column move (§2.6 column placement, [FR] Rule 3):
    any empty playable cell except the centre; no contact needed."""
    if not state["hands"][seat][COLUMN]:
        raise IllegalMove("You have placed all three of your columns.", "no-column-left")
    x, y = _coordinate(move, "x"), _coordinate(move, "y")
    cell = _cell_on_board(state, x, y, "The column")
    if cell in CENTRE:
        raise IllegalMove(f"x{x:02d}y{y:02d} is in the centre: columns may not stand there (pieces may).",
                          "column-on-centre")
    if state["board"][y][x] not in (EMPTY, EMPTY_CENTRE):
        raise IllegalMove(f"x{x:02d}y{y:02d} is already taken.", "cell-occupied")
    return cell


def check_piece(state, seat: int, move: Mapping[str, Any]) -> list[int]:
    """The cells of a legal piece placement (§2.6 a, [FR] Rules 1 and 2)."""
    table = tables(len(state["hands"]), state["one_sided"])
    kind = table.kind_by_id[move["piece"]]
    if in_opening(state):
        raise IllegalMove("In the first two rounds every player places a column: play a column "
                          "(piece \"column\") on an empty cell outside the centre.", "columns-first")
    if not state["hands"][seat][kind.id]:
        raise IllegalMove(f"You have no {kind.name} left.", "piece-not-in-hand")
    orientation = move.get("orientation")
    if state["one_sided"] and orientation in REFLECTIONS:
        raise IllegalMove("Pieces may not be flipped in this game (one-sided pieces): "
                          "use orientation r0, r1, r2 or r3.", "no-reflection")
    if orientation not in ROTATIONS + REFLECTIONS:
        raise MalformedMove('A piece move gives "orientation" as r0..r3 (quarter turns clockwise) '
                            "or f0..f3 (flipped, then turned).")
    distinct = table.orientations[kind.id]
    if orientation not in distinct:
        same = next(name for name, shape in distinct.items() if shape == transformed(kind.cells, orientation))
        raise IllegalMove(f"The {kind.name} turned {orientation} looks the same as {same}: "
                          f"use orientation {same}.", "duplicate-orientation")
    x, y = _coordinate(move, "x"), _coordinate(move, "y")
    cells = [_cell_on_board(state, x + dx, y + dy, f"The {kind.name}") for dx, dy in distinct[orientation]]
    board = state["board"]
    for cell in cells:
        if board[cell // FRAME][cell % FRAME] not in (EMPTY, EMPTY_CENTRE):
            raise IllegalMove(f"The {kind.name} would cover {cell_name(cell)}, which is already taken.",
                              "cell-occupied")
    own = mask("".join(board).encode(), OWN_TABLES[seat])
    placed = sum(1 << cell for cell in cells)
    if not edge_neighbours(own) & placed:
        rows_apart = (own << FRAME) | (own >> FRAME)
        corner = ((rows_apart << 1) & NOT_LEFT_EDGE) | ((rows_apart >> 1) & NOT_RIGHT_EDGE)
        how = "only at a corner" if corner & placed else "nowhere"
        raise IllegalMove(f"The {kind.name} touches your {COLOURS[seat]} pieces and columns {how}: "
                          "it must share a full edge with one of them.", "no-edge-contact")
    return cells


def placed_on(board: list[str], cells: list[int], mark: str) -> list[str]:
    """A copy of ``board`` with ``mark`` on ``cells``."""
    rows = list(board)
    for cell in cells:
        y, x = divmod(cell, FRAME)
        rows[y] = rows[y][:x] + mark + rows[y][x + 1:]
    return rows


# --- §2.7 Scoring and tie-break ------------------------------------------------

def penalty(hand: Mapping[str, int], one_sided: bool) -> int:
    """Cells (dots) of the unplaced pieces; columns count 0 ([FR] Fin de la partie)."""
    return sum(kind.penalty * hand[kind.id] for kind in piece_set(one_sided))


def game_ranking(penalties: list[int], order: list[int]) -> list[int]:
    """Places for one game (§2.7): lowest penalty first; between equal
    penalties the player who started later in the turn order is ahead."""
    started = {seat: position for position, seat in enumerate(order)}

    def ahead(other: int, seat: int) -> bool:
        return (penalties[other], -started[other]) < (penalties[seat], -started[seat])

    return [1 + sum(ahead(other, seat) for other in range(len(penalties))) for seat in range(len(penalties))]


def match_ranking(totals: list[int]) -> list[int]:
    """Places for a match (§2.7 Match variant): lowest total first; equal
    totals share a place (PROPOSED)."""
    return places([-total for total in totals])


def outcome(state) -> Outcome | None:
    if state["to_move"] is not None:
        return None
    one_sided = state["one_sided"]
    names = [player_name(seat) for seat in range(len(state["hands"]))]
    if state["games"] == 1:
        penalties = [penalty(hand, one_sided) for hand in state["hands"]]
        ranking = game_ranking(penalties, state["order"])
        winner = ranking.index(1)
        tied = [seat for seat in range(len(penalties)) if penalties[seat] == penalties[winner]]
        if len(tied) > 1:
            others = listed([names[seat] for seat in tied if seat != winner],
                            lambda whole, name: Text("{names}, {name}", names=whole, name=name))
            summary = Text("{winner} wins with {points} penalty points (tied with {others}; started later).",
                           winner=names[winner], points=penalties[winner], others=others)
        else:
            summary = Text("{winner} wins with {points} penalty points.", winner=names[winner],
                           points=penalties[winner])
        return Outcome([float(points) for points in penalties], ranking, summary)
    totals = [sum(result[seat] for result in state["results"]) for seat in range(len(state["hands"]))]
    ranking = match_ranking(totals)
    winners = listed([names[seat] for seat in range(len(totals)) if ranking[seat] == 1],
                     lambda whole, name: Text("{names} and {name}", names=whole, name=name))
    if ranking.count(1) == 1:
        summary = Text("{winners} wins the match with {points} penalty points over {games} games.",
                       winners=winners, points=min(totals), games=state["games"])
    else:
        summary = Text("{winners} tie for the match with {points} penalty points over {games} games.",
                       winners=winners, points=min(totals), games=state["games"])
    return Outcome([float(total) for total in totals], ranking, summary)


def listed(names: list[Text], joined: Callable[[Text, Text], Text]) -> Text:
    """``names`` joined one by one, ``joined(names so far, next name)``: the
    list stays a message, translated as a whole ("A, B", "A et B")."""
    whole = names[0]
    for name in names[1:]:
        whole = joined(whole, name)
    return whole


# --- §2.6 A turn; §2.7 the match variant ---------------------------------------

def play(state, seat: int, move: Mapping[str, Any], search: PlacementSearch = PYTHON_SEARCH) -> dict[str, Any]:
    """The state after ``seat`` places the column or piece ``move`` names
    (§2.6), with the turn passed on; ``state`` itself is left untouched.
    ``search`` may check a legal placement quickly (else ``check_piece``
    does, and says why a move is refused) and finds whether the next players
    can still place a piece."""
    if state["to_move"] is None:
        raise IllegalMove("The game is over.", "game-over")
    if seat != state["to_move"]:
        raise IllegalMove(f"It is {player_name(state['to_move'])}'s turn.", "not-your-turn")
    piece = move.get("piece") if isinstance(move, Mapping) else None
    if not isinstance(piece, str):
        piece = None
    if piece == COLUMN:
        cells, mark = [check_column(state, seat, move)], COLUMN_MARKS[seat]
    elif piece in tables(len(state["hands"]), state["one_sided"]).kind_by_id:
        cells, mark = search.quick_cells(state, seat, move) or check_piece(state, seat, move), PIECE_MARKS[seat]
    else:
        kinds = ", ".join(kind.id for kind in piece_set(state["one_sided"]))
        raise MalformedMove(f'A move names a "piece": "column" or one of {kinds}.')
    hands = list(state["hands"])
    hands[seat] = {**hands[seat], piece: hands[seat][piece] - 1}
    after = {
        **state,
        "board": placed_on(state["board"], cells, mark),
        "hands": hands,
        "out": list(state["out"]),
        "opening_turns": max(0, state["opening_turns"] - 1),
    }
    next_turn(after, search)
    return game_over(after) if after["to_move"] is None else after


def game_over(state: dict[str, Any]) -> dict[str, Any]:
    """Record the penalties of a finished game; in a match, start the next
    game with the next player clockwise as start player ([FR] Astuce)."""
    players = len(state["hands"])
    results = state["results"] + [[penalty(hand, state["one_sided"]) for hand in state["hands"]]]
    if len(results) == state["games"]:
        return {**state, "results": results}
    start = (state["first_start"] + len(results)) % players
    return {**state, "results": results, **new_game(players, state["one_sided"], start)}
