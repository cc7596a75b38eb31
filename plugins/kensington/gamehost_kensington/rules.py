"""Kensington (Piatnik 2019), as specified in docs/rules/kensington.md.

Each player builds the front of a house on a grid, starting from their door at
(0, 0). On a turn you take one tile (a free beige draw, a brown draw paid with
a chip, or a steal from an opponent's warehouse paid to them), then build with
it and with your own warehouse tiles. The game ends when the 7th bird roof is
drawn (after a final build-only round) or when nobody can place any more.
Windows and doors under a roof, levels of different roofed heights and cats
score.

State (plain JSON data):

* ``buildings[seat]``: ``left`` (x of the first column), ``columns`` (each a
  list of cell codes from the ground up: ``lit``, ``dark``, ``lit-cat``,
  ``dark-cat``, ``wall``, ``roof``, ``door-red``, ``door-<colour>``) and
  ``birds`` (bird roofs built, the tie-break).
  Tiles cannot overhang and nothing goes below the door, so every column is a
  solid stack from the ground (spec 1.4): a column list is the whole truth.
* ``pile``: tokens of the face-down tiles, sorted (a secret owned by nobody);
  ``warehouses[seat]``: two spots, a token or None; ``chips``, ``supply``.
* ``turn``, ``phase`` (``take``, ``build``, ``final-build``, ``over``),
  ``hand`` (the tile taken this turn), ``stolen`` (the hand must be placed
  first), ``placed_this_turn``, ``idle_turns`` (turns in a row without a
  tile placed), ``final`` (the 7th-bird
  trigger and the seats still owed a final build), ``end``.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Iterator, Mapping

from gamehost.sdk import IllegalMove, MalformedMove, Move, Outcome, Part, Reveal, Secret, Text, places

from gamehost_kensington.tiles import (
    BEIGE_BACKS,
    BIRD_ROOFS,
    BROWN_BACKS,
    COLOUR_WORDS,
    PLAYER_COLOURS,
    TILES,
    TOKEN_NUMBER,
    back_and_outline,
    tile_name,
)

def player_name(seat: int) -> Text:
    """"Player 2 (green)": people count seats from 1; each seat builds in its door's colour."""
    return Text("Player {number} ({colour})", number=seat + 1, colour=COLOUR_WORDS[PLAYER_COLOURS[seat]])


CHIPS_PER_PLAYER = 4
"""Supply: 8 / 12 / 16 / 20 chips for 2 / 3 / 4 / 5 players (spec 1.6)."""
START_CHIPS = 1
FOUR_CHIP_LIMIT = 4
BIRDS_TO_END = 7
IDLE_ROUNDS_DEFAULT = 10
"""Full rounds without a tile placed that end the game (spec 1.9 C, option ``idle_rounds``)."""
IDLE_ROUNDS_OF_RULES_1 = 3
"""What rules version 1 ended after: its matches' options carry no ``idle_rounds``."""
WAREHOUSE_SPOTS = 2


def clone(state: dict) -> dict:
    """A copy of the state whose lists a move changes in place are its own:
    chips, the pile and the warehouses (a building is replaced, never
    changed; ``final`` too). A deep copy through JSON cost a third of a
    random playout's time, which bounds the search bots."""
    return {**state, "chips": list(state["chips"]), "pile": list(state["pile"]),
            "warehouses": [list(spots) for spots in state["warehouses"]], "buildings": list(state["buildings"])}


# --- Buildings (spec 1.4) -------------------------------------------------------

def height(building: dict, x: int) -> int:
    """h(x): how many cells column x holds (0 outside the building)."""
    index = x - building["left"]
    columns = building["columns"]
    return len(columns[index]) if 0 <= index < len(columns) else 0


def cell_at(building: dict, x: int, y: int) -> str | None:
    """The code of cell (x, y), or None where it is empty."""
    index = x - building["left"]
    columns = building["columns"]
    if 0 <= index < len(columns) and y >= 0:
        column = columns[index]
        if y < len(column):
            return column[y]
    return None


def start_building(colour: str) -> dict:
    """The player's door, pre-placed at (0, 0) (spec 1.4, 1.6)."""
    return {"colour": colour, "left": 0, "columns": [[f"door-{colour}"]], "birds": 0}


def is_window(code: str | None) -> bool:
    return code is not None and (code.startswith("lit") or code.startswith("dark"))


def lighting_of(code: str) -> str:
    return code.split("-")[0]


# --- Placement legality (spec 1.8) ----------------------------------------------

def placement_problem(building: dict, tile: dict, x: int, y: int, options: Mapping) -> tuple[str, str] | None:
    """Why ``tile`` may not go with its bottom-left corner at (x, y), as
    (reason, rule), or None when the placement is legal (spec 1.8, rules 1-5)."""
    cells = [(x + dx, y + dy, code) for dx, dy, code in tile["cells"]]
    # A tile column is a solid run of cells, and so is a building column from the
    # ground: each tile column's lowest cell is the one to check for rules 1 to 3.
    lowest = [(x + dx, y + dy) for dx, dy in tile["bottoms"]]
    for cx, cy in lowest:
        if cy < 0:
            return (f"The cell at ({cx}, {cy}) would be below the ground floor: nothing is built under the door.",
                    "below-ground")
        if cy < height(building, cx):
            return f"The cell at ({cx}, {cy}) is already built.", "cell-occupied"
    for cx, cy in lowest:
        if cy > 0:
            below = cell_at(building, cx, cy - 1)
            if below is None:
                return (f"The tile would overhang: nothing holds up its cell at ({cx}, {cy}). "
                        "Its lower edge must rest on the ground or on other tiles.", "no-overhang")
            if below == "roof":
                return f"The cell at ({cx}, {cy}) would stand on a roof: nothing is built on a roof.", "nothing-on-roof"
    beside = [cell_at(building, x + dx, y + dy) for dx, dy in tile["rim"]]
    touching = [code for code in beside if code is not None]
    if not touching:
        return "The tile must touch your building: no separate pieces.", "connected"
    return kind_problem(tile, cells, touching, options)


def kind_problem(tile: dict, cells: list, touching: list[str], options: Mapping) -> tuple[str, str] | None:
    """The rule of the tile's own kind (spec 1.8, rule 5)."""
    kind = tile["kind"]
    if kind == "window":
        lighting = tile["lighting"]
        other = "dark" if lighting == "lit" else "lit"
        if options.get("strict_lighting") and any(is_window(code) and lighting_of(code) == other for code in touching):
            return (f"Strict lighting: a {lighting} window tile may not touch a {other} window.", "strict-lighting")
        # Every contact qualifies but a window of the other lighting.
        if all(code.startswith(other) for code in touching):
            return (f"A {lighting} window tile must touch a {lighting} window, a door, a wall or a roof; "
                    f"here it would touch only {other} windows.", "window-contact")
    elif kind == "door":
        if any(cy != 0 for _, cy, _ in cells):
            return "A red door goes on the ground floor.", "door-on-ground-floor"
    elif kind == "roof":
        if not options.get("roof_on_ground") and any(cy == 0 for _, cy, _ in cells):
            return "A roof goes on tiles, not on the ground.", "roof-not-on-ground"
    return None


def placements(building: dict, tile: dict, options: Mapping, first_only: bool = False) -> list[list[int]]:
    """Every legal [x, y] for ``tile`` (or the first one found). Columns are
    solid stacks, so the lowest cell of each tile column must sit right on top
    of its building column: one y per x, and only those x where the building's
    rises from column to column are the tile's (``steps``) go through the full
    check."""
    left = building["left"]
    width = len(building["columns"])
    # The column heights from x = left - tile width (index 0) to one past the
    # building's right edge and the tile's width beyond: the ground is 0.
    margin = tile["width"] + 1
    heights = [0] * margin + [len(column) for column in building["columns"]] + [0] * margin
    rises = [after - before for before, after in zip(heights, heights[1:])]
    steps = tile["steps"]
    first_bottom = tile["bottoms"][0][1]
    found = []
    for index in range(width + margin):  # x = left - tile width + index
        y = heights[index + 1] - first_bottom
        if (y >= 0 and rises[index + 1:index + 1 + len(steps)] == steps
                and placement_problem(building, tile, left - margin + 1 + index, y, options) is None):
            found.append([left - margin + 1 + index, y])
            if first_only:
                break
    return found


def fits(building: dict, tile: dict, options: Mapping) -> bool:
    return bool(placements(building, tile, options, first_only=True))


def built(building: dict, token: str, x: int, y: int) -> dict:
    """A new building with tile ``token`` added at (x, y) (already checked legal)."""
    tile = TILES[token]
    left = building["left"]
    columns = [list(column) for column in building["columns"]]
    for cx, cy, code in sorted((x + dx, y + dy, code) for dx, dy, code in tile["cells"]):
        while cx < left:
            columns.insert(0, [])
            left -= 1
        while cx >= left + len(columns):
            columns.append([])
        columns[cx - left].append(code)
    return {**building, "left": left, "columns": columns, "birds": building["birds"] + tile["bird"]}


# --- Scoring (spec 1.10) ----------------------------------------------------------

def score(building: dict) -> dict:
    """The scoring breakdown: 1 per window and 2 per door in a roofed column,
    1+2+..+k for k distinct roofed heights, 1 per cat anywhere, and 1 per
    column when every column is roofed."""
    columns = building["columns"]
    roofed = [column for column in columns if column and column[-1] == "roof"]
    windows = sum(1 for column in roofed for code in column if is_window(code))
    doors = sum(2 for column in roofed for code in column if code.startswith("door"))
    levels = len({len(column) for column in roofed})
    cats = sum(1 for column in columns for code in column if code.endswith("-cat"))
    full_roof = len(columns) if len(roofed) == len(columns) else 0
    level_points = levels * (levels + 1) // 2
    return {"windows": windows, "doors": doors, "levels": levels, "level_points": level_points, "cats": cats,
            "full_roof": full_roof, "total": windows + doors + level_points + cats + full_roof,
            "birds": building["birds"]}


# --- Setup (spec 1.6) --------------------------------------------------------------

def initial_state(players: int, options: Mapping, start: int) -> dict:
    state = {
        "players": players,
        "options": dict(options),
        "buildings": [start_building(PLAYER_COLOURS[seat]) for seat in range(players)],
        "warehouses": [[None] * WAREHOUSE_SPOTS for _ in range(players)],
        "chips": [START_CHIPS] * players,
        "supply": CHIPS_PER_PLAYER * players - START_CHIPS * players,
        "pile": sorted(TILES, key=TOKEN_NUMBER.__getitem__),
        "turn": start,
        "phase": "take",
        "hand": None,
        "stolen": False,
        "placed_this_turn": 0,
        "idle_turns": 0,
        "final": None,
        "end": None,
    }
    return begin_turn(state, start)


# --- Taking a tile (spec 1.7, step 1) ------------------------------------------------

def may_draw(state: dict, seat: int, back: str) -> bool:
    """Beige draws are free but forbidden from 4 chips up; brown draws cost a chip."""
    chips = state["chips"][seat]
    return chips < FOUR_CHIP_LIMIT if back in BEIGE_BACKS else chips >= 1


def pile_groups(pile: list[str]) -> dict[tuple[str, str], list[str]]:
    """The pile as the backs show it: (back category, outline) -> tokens."""
    groups: dict[tuple[str, str], list[str]] = {}
    for token in pile:
        groups.setdefault(TILES[token]["group"], []).append(token)
    return groups


def stealable(state: dict, seat: int) -> list[tuple[int, int, str]]:
    """(opponent, spot, token) a seat may steal: it costs a chip, and the tile
    must fit in the building as it stands now (PROPOSED, spec 1.7 c)."""
    if state["chips"][seat] < 1:
        return []
    building = state["buildings"][seat]
    return [(other, spot, token) for other in range(state["players"]) if other != seat
            for spot, token in enumerate(state["warehouses"][other])
            if token is not None and fits(building, TILES[token], state["options"])]


def draw_options(state: dict, seat: int) -> list[tuple[str, str]]:
    return sorted(key for key in pile_groups(state["pile"]) if may_draw(state, seat, key[0]))


def birds_out_of_pile(state: dict) -> int:
    """Bird roofs built, stored or in hand: all but those in the pile (spec 1.9 A)."""
    return BIRD_ROOFS - sum(1 for token in state["pile"] if TILES[token]["bird"])


# --- Turn flow (spec 1.7, 1.9) ---------------------------------------------------------

def begin_turn(state: dict, seat: int) -> dict:
    """Start ``seat``'s turn, or end the game when nobody can place (spec 1.9 B).
    With no legal Take the player goes straight to Build (PROPOSED)."""
    state.update(turn=seat, hand=None, stolen=False, placed_this_turn=0)
    if nobody_can_place(state):
        state.update(phase="over", end="nobody-can-place")
    elif may_take(state, seat):
        state["phase"] = "take"
    else:
        state["phase"] = "build"
    return state


def may_take(state: dict, seat: int) -> bool:
    """Whether any Take is legal: a draw the seat's chips allow, or a steal."""
    return (any(may_draw(state, seat, TILES[token]["back"]) for token in state["pile"])
            or bool(stealable(state, seat)))


def placeable_candidates(state: dict, seat: int) -> Iterator[str]:
    """The tiles a seat could place this turn or take to place: the pile tiles
    its chips let it draw, its warehouse, the opponents' warehouses if it has
    a chip. Lazily: a turn starts with this question, usually settled by the
    first tile that fits (the pile first: its single windows, tokens 1 to 8,
    fit almost anywhere; a stored tile is often one that fits nowhere)."""
    players = state["players"]
    yield from (token for token in state["pile"] if may_draw(state, seat, TILES[token]["back"]))
    yield from (token for token in state["warehouses"][seat] if token is not None)
    if state["chips"][seat] >= 1:
        yield from (token for other in range(players) if other != seat
                    for token in state["warehouses"][other] if token is not None)


def nobody_can_place(state: dict) -> bool:
    """Spec 1.9 B, judged on the real pile: no player has a warehouse tile that
    fits, nor a tile they could legally take (by their chips) that fits."""
    players = state["players"]
    options = state["options"]
    for offset in range(players):
        seat = (state["turn"] + offset) % players
        building = state["buildings"][seat]
        tried = set()
        for token in placeable_candidates(state, seat):
            key = TILES[token]["placed_alike"]
            if key not in tried:
                tried.add(key)
                if fits(building, TILES[token], options):
                    return False
    return True


def idle_rounds_to_end(options: Mapping) -> int:
    """How many full rounds in a row without a tile placed end the game
    (spec 1.9 C). A match begun under rules version 1 has no such option in
    its options, and those rules ended after three: it replays as it was."""
    return options.get("idle_rounds", IDLE_ROUNDS_OF_RULES_1)


def end_turn(state: dict) -> dict:
    """After Build: the final round if the 7th bird came out, else the next
    player clockwise; ``idle_rounds`` rounds without a placement end the game
    (spec 1.9)."""
    players = state["players"]
    if state["phase"] == "final-build":
        remaining = state["final"]["remaining"][1:]
        state["final"] = {**state["final"], "remaining": remaining}
        if not remaining:
            state.update(phase="over", hand=None, end="seventh-bird")
            return state
        state.update(turn=remaining[0], placed_this_turn=0)
        return state
    if state["final"] is not None:
        trigger = state["final"]["trigger"]
        remaining = [(trigger + step) % players for step in range(1, players)]
        state["final"] = {"trigger": trigger, "remaining": remaining}
        state.update(phase="final-build", turn=remaining[0], hand=None, stolen=False, placed_this_turn=0)
        return state
    state["idle_turns"] = 0 if state["placed_this_turn"] else state["idle_turns"] + 1
    if state["idle_turns"] >= idle_rounds_to_end(state["options"]) * players:
        state.update(phase="over", end="idle-rounds", hand=None)
        return state
    return begin_turn(state, (state["turn"] + 1) % players)


def take_draw(state: dict, seat: int, back: str, shape: str, rng) -> dict:
    """Spec 1.7 a/b and 1.12: choose a face-down tile by its back and outline;
    the tile you get is a random one of those matching."""
    if back not in BEIGE_BACKS + BROWN_BACKS:
        raise IllegalMove(f"No tile back is called {back!r}: backs are {', '.join(BEIGE_BACKS + BROWN_BACKS)}.",
                          "unknown-back")
    if back in BEIGE_BACKS and not may_draw(state, seat, back):
        raise IllegalMove("You hold 4 or more chips, so you must spend one: draw a brown tile or steal "
                          "from an opponent's warehouse.", "four-chip-rule")
    if back in BROWN_BACKS and not may_draw(state, seat, back):
        raise IllegalMove("A brown tile costs one chip and you have none.", "brown-draw-costs-a-chip")
    matching = [token for token in state["pile"] if TILES[token]["group"] == (back, shape)]
    if not matching:
        raise IllegalMove(f"No face-down tile with a {back} back and a {shape} outline is left in the pile.",
                          "no-such-tile")
    token = matching[rng.randrange(len(matching))]
    state = clone(state)
    if back in BROWN_BACKS:
        state["chips"][seat] -= 1
        state["supply"] += 1
    state["pile"].remove(token)
    state.update(hand=token, phase="build")
    if TILES[token]["bird"] and state["final"] is None and birds_out_of_pile(state) >= BIRDS_TO_END:
        state["final"] = {"trigger": seat, "remaining": []}
    return state


def take_steal(state: dict, seat: int, other: int, spot: int) -> dict:
    """Spec 1.7 c: pay one chip to the opponent and take a tile from their
    warehouse; it must be placed at once."""
    if other == seat or not 0 <= other < state["players"]:
        raise IllegalMove("Steal from an opponent's warehouse, not your own.", "steal-from-opponent")
    if not 0 <= spot < WAREHOUSE_SPOTS or state["warehouses"][other][spot] is None:
        raise IllegalMove("That warehouse spot is empty.", "empty-spot")
    if state["chips"][seat] < 1:
        raise IllegalMove("Stealing costs one chip, paid to the opponent, and you have none.", "steal-costs-a-chip")
    token = state["warehouses"][other][spot]
    if not fits(state["buildings"][seat], TILES[token], state["options"]):
        raise IllegalMove("That tile cannot be placed in your building now, and a stolen tile must be placed "
                          "at once.", "stolen-tile-must-fit")
    state = clone(state)
    state["chips"][seat] -= 1
    state["chips"][other] += 1
    state["warehouses"][other][spot] = None
    state.update(hand=token, stolen=True, phase="build")
    return state


def own_tiles(state: dict, seat: int) -> list[str]:
    """Tiles the player may place now: the stolen tile alone until it is
    placed, else the taken tile and their own warehouse tiles."""
    if state["stolen"]:
        return [state["hand"]]
    warehouse = [token for token in state["warehouses"][seat] if token is not None]
    return ([state["hand"]] if state["hand"] else []) + warehouse


def build_tile(state: dict, seat: int, token: str, x: int, y: int) -> dict:
    """Spec 1.7 step 2: place a tile; a diamond tile earns a chip from the
    supply (none when it is empty)."""
    if state["stolen"] and token != state["hand"]:
        raise IllegalMove("Place the tile you stole first: it must go into your building at once.",
                          "place-stolen-first")
    if token not in own_tiles(state, seat):
        raise IllegalMove("You can place only the tile you took this turn and tiles from your own warehouse.",
                          "not-your-tile")
    tile = TILES[token]
    problem = placement_problem(state["buildings"][seat], tile, x, y, state["options"])
    if problem:
        raise IllegalMove(*problem)
    state = clone(state)
    state["buildings"][seat] = built(state["buildings"][seat], token, x, y)
    if token == state["hand"]:
        state.update(hand=None, stolen=False)
    else:
        spots = state["warehouses"][seat]
        spots[spots.index(token)] = None
    if tile["diamond"] and state["supply"] > 0:
        state["supply"] -= 1
        state["chips"][seat] += 1
    state["placed_this_turn"] += 1
    return state


def finish_build(state: dict, seat: int, send_back: bool) -> dict:
    """End Build: an unplaced taken tile goes to a free warehouse spot, else
    face-down back into the pile (spec 1.7)."""
    if state["stolen"]:
        raise IllegalMove("Place the tile you stole first: it must go into your building at once.",
                          "place-stolen-first")
    spots = state["warehouses"][seat]
    free = None in spots
    if send_back:
        if state["hand"] is None:
            raise IllegalMove("You hold no taken tile to send back to the pile.", "nothing-to-return")
        if not free:
            raise IllegalMove("Your warehouse is full, so ending the turn sends the tile back to the pile: "
                              "choose done.", "return-is-done-when-full")
        if state["options"].get("store_when_free", True):
            raise IllegalMove("A spot in your warehouse is free, so the tile must be stored there.",
                              "store-when-free")
    state = clone(state)
    if state["hand"] is not None:
        if free and not send_back:
            spots = state["warehouses"][seat]
            spots[spots.index(None)] = state["hand"]
        else:
            state["pile"] = sorted([*state["pile"], state["hand"]], key=TOKEN_NUMBER.__getitem__)
        state["hand"] = None
    return end_turn(state)


# --- Moves ----------------------------------------------------------------------------

def _int_arg(move: Mapping, name: str) -> int:
    value = move.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedMove(f"The move needs an integer {name!r}.")
    return value


def _str_arg(move: Mapping, name: str) -> str:
    value = move.get(name)
    if not isinstance(value, str):
        raise MalformedMove(f"The move needs a string {name!r}.")
    return value


ACTIONS = ("draw", "steal", "place", "done", "return")


# --- The game (spec 1.7 to 1.10) ------------------------------------------------------------

def to_move(state: dict):
    return () if state["phase"] == "over" else (state["turn"],)


def legal_moves(state: dict, seat: int):
    if state["phase"] == "over" or seat != state["turn"]:
        return []
    if state["phase"] == "take":
        return take_moves(state, seat)
    return build_moves(state, seat)


def take_moves(state: dict, seat: int):
    """Step 1 of a turn: draw a face-down tile by its back and outline, or steal one."""
    moves = [Move(f"draw:{back}:{shape}", draw_label(back, shape), {"action": "draw", "back": back, "shape": shape})
             for back, shape in draw_options(state, seat)]
    moves += [Move(f"steal:{other}:{spot}",
                   Text("Steal the {tile} from {player}'s warehouse (paying them 1 chip)",
                        tile=describe(TILES[token]), player=player_name(other)),
                   {"action": "steal", "from": other, "spot": spot})
              for other, spot, token in stealable(state, seat)]
    return moves


# Labels are cached: a Text formats its English words when made, and search bots list moves
# thousands of times a turn; the same few draws, cells and placements come back turn after turn.
@cache
def draw_label(back: str, shape: str) -> Text:
    group = back_and_outline(f"{back}:{shape}")
    if back in BROWN_BACKS:
        return Text("Draw a face-down {group} (pay 1 chip)", group=group)
    return Text("Draw a face-down {group}", group=group)


def build_moves(state: dict, seat: int):
    """Step 2: place a tile of your own where it fits, or end the turn."""
    building = state["buildings"][seat]
    moves = []
    for token in own_tiles(state, seat):
        tile = TILES[token]
        # In parts: the tile, then the cell its lowest-left cell takes (part of the tile, unlike (x, y)).
        tile_part = Part(f"tile:{token}", describe(tile))
        rest_x, rest_y = resting_cell(tile)
        for x, y in placements(building, tile, state["options"]):
            moves.append(Move(f"place:{token}:{x}:{y}", _placement_label(token, x, y),
                              {"action": "place", "tile": token, "x": x, "y": y},
                              (tile_part, cell_part(x + rest_x, y + rest_y))))
    if state["stolen"]:
        return moves
    hand = state["hand"]
    free = None in state["warehouses"][seat]
    if hand is None:
        moves.append(Move("done", Text("End the turn"), {"action": "done"}))
    else:
        moves.append(Move("done", END_AND_STORE if free else END_AND_RETURN, {"action": "done"}))
        if free and not state["options"].get("store_when_free", True):
            moves.append(Move("return", END_AND_RETURN, {"action": "return"}))
    return moves


END_AND_STORE = Text("End the turn and store the tile in the warehouse")
END_AND_RETURN = Text("End the turn and send the tile back to the pile")


def play(state: dict, seat: int, move, rng):
    if not isinstance(move, Mapping) or move.get("action") not in ACTIONS:
        raise MalformedMove(f"A move is an object with an action among {', '.join(ACTIONS)}.")
    if state["phase"] == "over":
        raise IllegalMove("The game is over.", "game-over")
    if seat != state["turn"]:
        raise IllegalMove(f"It is {player_name(state['turn'])}'s turn.", "not-your-turn")
    action = move["action"]
    if action in ("draw", "steal"):
        if state["phase"] == "final-build":
            raise IllegalMove("The final round is build-only: place tiles from your warehouse or end.",
                              "final-round-build-only")
        if state["phase"] != "take":
            raise IllegalMove("You have already taken a tile this turn.", "one-take-per-turn")
        if action == "draw":
            return take_draw(state, seat, _str_arg(move, "back"), _str_arg(move, "shape"), rng)
        return take_steal(state, seat, _int_arg(move, "from"), _int_arg(move, "spot"))
    if state["phase"] == "take":
        raise IllegalMove("Take a tile first: draw from the pile or steal from a warehouse.", "take-first")
    if action == "place":
        token = _str_arg(move, "tile")
        x, y = _int_arg(move, "x"), _int_arg(move, "y")
        if token not in TILES:
            raise IllegalMove(f"There is no tile {token!r}.", "not-your-tile")
        return build_tile(state, seat, token, x, y)
    return finish_build(state, seat, send_back=action == "return")


def outcome(state: dict):
    if state["phase"] != "over":
        return None
    sheets = [score(building) for building in state["buildings"]]
    keys = [(sheet["total"], sheet["birds"]) for sheet in sheets]
    ranking = places(keys)
    winners = [player_name(seat) for seat, place in enumerate(ranking) if place == 1]
    best = max(sheet["total"] for sheet in sheets)
    reason = end_reason(state)
    if len(winners) == 1:
        summary = Text("{winner} wins with {points} points (the game ended because {reason}).",
                       winner=winners[0], points=best, reason=reason)
    else:
        summary = Text("{winners} win with {points} points (the game ended because {reason}).",
                       winners=names_joined(winners), points=best, reason=reason)
    return Outcome([sheet["total"] for sheet in sheets], ranking, summary)


END_REASONS = {"seventh-bird": Text("the 7th bird roof was drawn"),
               "nobody-can-place": Text("nobody could place a tile")}


def end_reason(state: dict) -> Text:
    """Why the game ended, in words: the idle rounds say how many they were."""
    if state["end"] == "idle-rounds":
        return Text("{rounds} rounds passed in a row without a tile placed",
                    rounds=idle_rounds_to_end(state["options"]))
    return END_REASONS[state["end"]]


def names_joined(names: list[Text]) -> Text:
    """"Player 1 (yellow) and Player 3 (blue)", each "and" a word of the player's language."""
    joined = names[0]
    for name in names[1:]:
        joined = Text("{first} and {second}", first=joined, second=name)
    return joined


def player_view(state: dict, seat: int | None):
    view = {key: value for key, value in state.items() if key != "pile"}
    # The pile as its backs show it: "back:outline" -> how many.
    groups = sorted(pile_groups(state["pile"]).items())
    view["pile"] = {f"{back}:{shape}": len(tokens) for (back, shape), tokens in groups}
    view["pile_size"] = len(state["pile"])
    view["birds_out"] = birds_out_of_pile(state)
    # Faces of the loose face-up tiles; placed tiles show in the building columns.
    loose = [token for spots in state["warehouses"] for token in spots if token is not None]
    loose += [state["hand"]] if state["hand"] else []
    view["tiles"] = {token: face_of(TILES[token]) for token in loose}
    return view


def secrets(state: dict):
    return [Secret(None, token) for token in state["pile"]]


def revealed(before: dict, seat: int, move: Mapping, after: dict) -> list[Reveal]:
    """Spec 1.7 a/b: a draw turns the chosen face-down tile face up for all;
    the move names only its back and outline."""
    if move.get("action") != "draw" or not after.get("hand"):
        return []
    tile = TILES[after["hand"]]
    return [Reveal(Text("The draw turns up a {tile}", tile=describe(tile)), face_of(tile))]


def face_of(tile: dict) -> dict:
    """What a face-up tile shows, for views and renderers."""
    return {key: tile[key] for key in ("type", "kind", "lighting", "cat", "bird", "diamond", "grid")}


def resting_cell(tile: dict) -> tuple[int, int]:
    """The tile's lowest cell, leftmost of the lowest row, as (dx, dy) from
    its bottom-left corner: the cell a player clicks to place it."""
    dx, dy, _ = min(tile["cells"], key=lambda cell: (cell[1], cell[0]))
    return dx, dy


def describe(tile: dict) -> Text:
    """A tile in a move's label: its full name, the cat included, since a cat
    scores a point and a plain copy of the tile must not read the same."""
    token = tile.get("token")
    if token is None:
        return tile_name(tile)
    return _described(token)


@cache  # every placement's label and part names its tile: one name per tile, not per move
def _described(token: str) -> Text:
    return tile_name(TILES[token])


def placement_label(tile: dict, x: int, y: int) -> Text:
    """Names the cell the tile's anchor covers (the box's corner may be empty)."""
    dx, dy = resting_cell(tile)
    return Text("Place the {tile} with its lowest left cell on ({x}, {y})", tile=describe(tile), x=x + dx, y=y + dy)


@lru_cache(maxsize=1 << 14)
def _placement_label(token: str, x: int, y: int) -> Text:
    return placement_label(TILES[token], x, y)


@lru_cache(maxsize=1 << 12)
def cell_part(x: int, y: int) -> Part:
    """The cell a placement's lowest-left cell takes, the second part of a placement."""
    return Part(f"cell:{x}:{y}", Text("({x}, {y})", x=x, y=y))
