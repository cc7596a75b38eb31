"""Callisto rules, one test per rule of docs/rules/callisto.md (sections §2.x)."""

from __future__ import annotations

import copy
import json
import random
import xml.etree.ElementTree as ElementTree

import pytest
from gamehost.client.composing import composed, path_problems
from gamehost.sdk import IllegalMove
from gamehost.sdk.part_targets import part_targets, target_problems

from gamehost_callisto import rules
from gamehost_callisto.game import Callisto
from gamehost_callisto.render import CELL_FILL

GAME = Callisto()

# §2.3, copied from the spec: C centre, . playable with 2-4 players, 3 with 3-4, 4 with 4 only.
SPEC_MAP = """\
 0        443344       
 1       44333344      
 2      4433..3344     
 3     4433....3344    
 4    4433......3344   
 5   4433........3344  
 6  4433..........3344 
 7 4433.....CC.....3344
 8 433.....CCCC.....334
 9 33.....CCCCCC.....33
10 33.....CCCCCC.....33
11 433.....CCCC.....334
12 4433.....CC.....3344
13  4433..........3344 
14   4433........3344  
15    4433......3344   
16     4433....3344    
17      4433..3344     
18       44333344      
19        443344       """
PLAYABLE_MARKS = {4: "43.C", 3: "3.C", 2: ".C"}


def spec_cells(marks: str) -> set[tuple[int, int]]:
    """(x, y) of the spec map cells drawn with one of ``marks``."""
    cells = set()
    for line in SPEC_MAP.splitlines():
        y, row = int(line[:2]), line[3:].ljust(20)
        cells |= {(x, y) for x, char in enumerate(row) if char in marks}
    return cells


def cell(x: int, y: int) -> int:
    return y * 20 + x


def hand(one_sided: bool = False, column: int = 0, **counts: int) -> dict[str, int]:
    """A hand holding exactly ``counts`` pieces and ``column`` columns."""
    held = {kind.id: counts.get(kind.id, 0) for kind in rules.piece_set(one_sided)}
    held[rules.COLUMN] = column
    return held


def full_hand(one_sided: bool = False, column: int = 1) -> dict[str, int]:
    return hand(one_sided, column, **{kind.id: kind.copies for kind in rules.piece_set(one_sided)})


def position(players: int = 2, marks: dict[str, list[tuple[int, int]]] | None = None, *, to_move: int = 0,
             hands: list[dict] | None = None, opening_turns: int = 0, start: int = 0,
             one_sided: bool = False, match: bool = False) -> dict:
    """A state built directly: ``marks`` maps a board mark (b, Y, ...) to the cells it covers."""
    state = GAME.setup(players, {"one_sided": one_sided, "start_seat": start, "match": match}, random.Random(0))
    board = state["board"]
    for mark, cells in (marks or {}).items():
        board = rules.placed_on(board, [cell(x, y) for x, y in cells], mark)
    state.update(board=board, to_move=to_move, opening_turns=opening_turns,
                 hands=hands or [full_hand(one_sided) for _ in range(players)])
    return state


def refused(state, seat: int, move: dict, rule: str) -> str:
    """Assert ``move`` is refused for ``rule`` and leaves ``state`` unchanged; the reason."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as refusal:
        GAME.apply(state, seat, move, random.Random(0))
    assert refusal.value.rule == rule, refusal.value.reason
    assert state == before
    assert move_ids(state, seat).isdisjoint({move_id(move)})
    return refusal.value.reason


def move_id(move: dict) -> str:
    if move["piece"] == rules.COLUMN:
        return f"col:x{move['x']:02d}y{move['y']:02d}"
    return f"{move['piece']}:{move.get('orientation')}:x{move['x']:02d}y{move['y']:02d}"


def move_ids(state, seat: int) -> set[str]:
    return {move.id for move in GAME.legal_moves(state, seat)}


def play(state, seat: int, move: dict) -> dict:
    assert move_id(move) in move_ids(state, seat)
    return GAME.apply(state, seat, move, random.Random(0))


def column(x: int, y: int) -> dict:
    return {"piece": "column", "x": x, "y": y}


def piece(kind: str, orientation: str, x: int, y: int) -> dict:
    return {"piece": kind, "orientation": orientation, "x": x, "y": y}


# --- §2.3 Board geometry ----------------------------------------------------------

@pytest.mark.parametrize("players, count", [(4, 288), (3, 220), (2, 144)])
def test_playable_area_per_player_count_matches_the_spec_map(players, count):
    area = {(c % 20, c // 20) for c in rules.PLAYABLE[players]}
    assert area == spec_cells(PLAYABLE_MARKS[players])
    assert len(area) == count


def test_outer_border_is_68_cells_with_three_players_and_144_with_two():
    assert len(rules.BOARD - rules.PLAYABLE[3]) == 68
    assert len(rules.BOARD - rules.PLAYABLE[2]) == 144


def test_centre_is_24_cells_inside_every_playable_area():
    assert {(c % 20, c // 20) for c in rules.CENTRE} == spec_cells("C")
    assert len(rules.CENTRE) == 24
    assert all(rules.CENTRE <= rules.PLAYABLE[players] for players in (2, 3, 4))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_empty_board_shades_the_outer_border_and_the_centre(players):
    board = GAME.setup(players, GAME.default_options(), random.Random(0))["board"]
    marked = {char: {(x, y) for y, row in enumerate(board) for x, c in enumerate(row) if c == char}
              for char in (rules.BORDER, rules.EMPTY_CENTRE, rules.EMPTY)}
    assert marked[rules.EMPTY_CENTRE] == spec_cells("C")
    assert marked[rules.EMPTY] == spec_cells(PLAYABLE_MARKS[players].replace("C", ""))
    assert marked[rules.BORDER] == spec_cells("43.C") - spec_cells(PLAYABLE_MARKS[players])


# --- §2.4 Pieces -------------------------------------------------------------------

@pytest.mark.parametrize("one_sided", [False, True])
def test_each_colour_has_18_pieces_of_68_cells(one_sided):
    kinds = rules.piece_set(one_sided)
    assert sum(kind.copies for kind in kinds) == 18
    assert sum(kind.copies * len(kind.cells) for kind in kinds) == 68
    assert all(2 <= len(kind.cells) <= 5 for kind in kinds)


def test_penalty_of_a_piece_is_its_cell_count():
    assert [(kind.id, kind.penalty) for kind in rules.TWO_SIDED_PIECES] == [
        ("W5", 5), ("X5", 5), ("T5", 5), ("U5", 5), ("L4", 4), ("T4", 4), ("Z4", 4), ("O4", 4),
        ("V3", 3), ("I3", 3), ("I2", 2)]


def brute_force_orientations(cells, flips: bool) -> set[frozenset]:
    """The distinct shapes of ``cells`` under the 4 rotation matrices (and their mirror images)."""
    matrices = [(1, 0, 0, 1), (0, -1, 1, 0), (-1, 0, 0, -1), (0, 1, -1, 0)]
    if flips:
        matrices += [(-a, b, -c, d) for a, b, c, d in matrices]
    shapes = set()
    for a, b, c, d in matrices:
        turned = [(a * x + b * y, c * x + d * y) for x, y in cells]
        low_x, low_y = min(x for x, _ in turned), min(y for _, y in turned)
        shapes.add(frozenset((x - low_x, y - low_y) for x, y in turned))
    return shapes


@pytest.mark.parametrize("one_sided", [False, True])
def test_orientations_list_each_distinct_shape_once(one_sided):
    for kind in rules.piece_set(one_sided):
        listed = [frozenset(shape) for shape in rules.orientations(kind, one_sided).values()]
        assert len(set(listed)) == len(listed)
        assert set(listed) == brute_force_orientations(kind.cells, flips=not one_sided), kind.id


def test_one_sided_option_splits_the_chiral_pairs_into_l_j_and_s_z():
    kinds = {kind.id: kind for kind in rules.ONE_SIDED_PIECES}
    assert {name: kinds[name].copies for name in ("L4", "J4", "Z4", "S4")} == {"L4": 1, "J4": 1, "Z4": 1, "S4": 1}
    for kind, mirror in (("L4", "J4"), ("Z4", "S4")):
        turned = brute_force_orientations(kinds[kind].cells, flips=False)
        mirror_images = brute_force_orientations(kinds[kind].cells, flips=True) - turned
        assert brute_force_orientations(kinds[mirror].cells, flips=False) == mirror_images


# --- §2.5 Setup ----------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_gives_every_player_18_pieces_and_3_columns(players):
    state = GAME.setup(players, GAME.default_options(), random.Random(0))
    for held in state["hands"]:
        assert held[rules.COLUMN] == 3
        assert sum(count for kind, count in held.items() if kind != rules.COLUMN) == 18
    assert json.loads(json.dumps(state)) == state


def test_start_seat_option_starts_and_play_goes_clockwise():
    state = GAME.setup(4, {**GAME.default_options(), "start_seat": 2}, random.Random(0))
    seats = []
    for _ in range(8):
        seats.append(state["to_move"])
        state = GAME.apply(state, state["to_move"], GAME.legal_moves(state, state["to_move"])[0].args,
                           random.Random(0))
    assert seats == [2, 3, 0, 1, 2, 3, 0, 1]


def test_random_start_seat_is_drawn_from_the_rng():
    starts = {GAME.setup(3, GAME.default_options(), random.Random(seed))["to_move"] for seed in range(30)}
    assert starts == {0, 1, 2}
    assert (GAME.setup(3, GAME.default_options(), random.Random(5))
            == GAME.setup(3, GAME.default_options(), random.Random(5)))


def test_setup_refuses_a_start_seat_the_player_count_lacks():
    with pytest.raises(ValueError, match="start_seat 3"):
        GAME.setup(2, {**GAME.default_options(), "start_seat": 3}, random.Random(0))


# --- §2.6 Opening: two rounds of columns ---------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_first_two_rounds_offer_only_columns_on_playable_cells_outside_the_centre(players):
    state = GAME.setup(players, {**GAME.default_options(), "start_seat": 0}, random.Random(0))
    expected = spec_cells(PLAYABLE_MARKS[players]) - spec_cells("C")
    moves = GAME.legal_moves(state, 0)
    assert {(move.args["x"], move.args["y"]) for move in moves} == expected
    assert all(move.args["piece"] == "column" for move in moves)


def test_piece_refused_during_the_column_rounds():
    state = position(2, {"B": [(5, 9)]}, opening_turns=3)
    reason = refused(state, 0, piece("I2", "r0", 6, 9), "columns-first")
    assert "column" in reason


def test_each_player_places_two_columns_then_pieces():
    state = GAME.setup(2, {**GAME.default_options(), "start_seat": 0}, random.Random(0))
    for seat, (x, y) in ((0, (5, 9)), (1, (14, 9)), (0, (5, 10)), (1, (14, 10))):
        assert all(move.args["piece"] == "column" for move in GAME.legal_moves(state, seat))
        state = play(state, seat, column(x, y))
    assert [held["column"] for held in state["hands"]] == [1, 1]
    pieces = {move.args["piece"] for move in GAME.legal_moves(state, 0)}
    assert "W5" in pieces and "column" in pieces


def test_column_refused_on_the_centre():
    state = GAME.setup(2, {**GAME.default_options(), "start_seat": 0}, random.Random(0))
    reason = refused(state, 0, column(9, 9), "column-on-centre")
    assert "centre" in reason


@pytest.mark.parametrize("players, x, y", [(2, 3, 5), (2, 1, 9), (3, 2, 5), (3, 8, 0)])
def test_column_refused_on_the_outer_border(players, x, y):
    state = GAME.setup(players, {**GAME.default_options(), "start_seat": 0}, random.Random(0))
    reason = refused(state, 0, column(x, y), "outer-border")
    assert f"{players} players" in reason


@pytest.mark.parametrize("x, y", [(0, 0), (20, 9), (-1, 9)])
def test_column_refused_off_the_board(x, y):
    state = GAME.setup(4, {**GAME.default_options(), "start_seat": 0}, random.Random(0))
    refused(state, 0, column(x, y), "off-board")


def test_column_refused_on_a_taken_cell():
    state = position(2, {"Y": [(5, 9)]}, opening_turns=3)
    refused(state, 0, column(5, 9), "cell-occupied")


def test_columns_need_no_contact_with_anything():
    state = position(2, {"B": [(5, 9)], "Y": [(12, 9)]}, opening_turns=2)
    after = play(state, 0, column(10, 15))
    assert after["board"][15][10] == "B"


# --- §2.6 (a) Pieces ---------------------------------------------------------------------

def test_piece_sharing_an_edge_with_own_column_is_accepted():
    state = position(2, {"B": [(5, 9)], "Y": [(12, 9)]})
    after = play(state, 0, piece("I2", "r0", 6, 9))
    assert after["board"][9][5:8] == "Bbb"
    assert after["hands"][0]["I2"] == 1
    assert after["to_move"] == 1


def test_piece_sharing_an_edge_with_own_piece_is_accepted():
    state = position(2, {"B": [(5, 9)], "b": [(6, 9), (7, 9)], "Y": [(12, 9)]})
    play(state, 0, piece("I3", "r1", 8, 7))  # x8 y7..9: its bottom cell touches b at x7y9


def test_piece_refused_for_corner_only_contact():
    state = position(2, {"B": [(5, 9)], "Y": [(12, 9)]})
    reason = refused(state, 0, piece("I2", "r0", 6, 10), "no-edge-contact")
    assert "only at a corner" in reason and "full edge" in reason


def test_piece_refused_without_any_contact():
    state = position(2, {"B": [(5, 9)], "Y": [(12, 9)]})
    reason = refused(state, 0, piece("I2", "r0", 8, 12), "no-edge-contact")
    assert "nowhere" in reason


def test_piece_touching_only_another_colour_is_refused():
    state = position(2, {"B": [(5, 9)], "Y": [(12, 9)]})
    refused(state, 0, piece("I2", "r0", 13, 9), "no-edge-contact")


def test_piece_may_touch_other_colours_too():
    state = position(2, {"B": [(3, 9)], "Y": [(6, 9)]})
    after = play(state, 0, piece("I2", "r0", 4, 9))
    assert after["board"][9][3:7] == "BbbY"


def test_piece_refused_on_the_outer_border():
    state = position(2, {"B": [(3, 9)], "Y": [(12, 9)]})
    reason = refused(state, 0, piece("I2", "r0", 1, 9), "outer-border")
    assert "2 players" in reason


def test_piece_may_cover_the_outer_cells_with_four_players():
    state = position(4, {"B": [(3, 9)], "Y": [(12, 9)], "R": [(9, 3)], "G": [(9, 16)]})
    play(state, 0, piece("I3", "r0", 0, 9))


def test_piece_may_cover_the_centre():
    state = position(2, {"B": [(6, 9)], "Y": [(12, 4)]})
    after = play(state, 0, piece("I3", "r0", 7, 9))
    assert after["board"][9][6:10] == "Bbbb"


def test_piece_refused_on_a_taken_cell():
    state = position(2, {"B": [(5, 9)], "Y": [(7, 9)]})
    refused(state, 0, piece("I2", "r0", 6, 9), "cell-occupied")


def test_piece_refused_off_the_board():
    state = position(4, {"B": [(0, 9)], "Y": [(12, 4)], "R": [(9, 3)], "G": [(9, 16)]})
    refused(state, 0, piece("I2", "r0", 19, 10), "off-board")


def test_piece_refused_when_none_of_that_kind_is_left():
    state = position(2, {"B": [(5, 9)], "Y": [(12, 9)]}, hands=[hand(I3=1), full_hand()])
    reason = refused(state, 0, piece("I2", "r0", 6, 9), "piece-not-in-hand")
    assert "domino" in reason


def test_flipped_piece_is_allowed_by_default():
    state = position(2, {"B": [(5, 9)], "Y": [(12, 9)]})
    assert any(move.args.get("orientation", "").startswith("f") for move in GAME.legal_moves(state, 0))
    play(state, 0, piece("L4", "f0", 5, 6))


def test_flipped_piece_is_refused_when_one_sided():
    state = position(2, {"B": [(5, 9)], "Y": [(12, 9)]}, one_sided=True)
    assert not any(move.args.get("orientation", "").startswith("f") for move in GAME.legal_moves(state, 0))
    refused(state, 0, piece("L4", "f0", 5, 6), "no-reflection")
    play(state, 0, piece("J4", "r0", 5, 6))


def test_symmetric_duplicate_orientation_is_refused_with_the_listed_name():
    state = position(2, {"B": [(5, 9)], "Y": [(12, 9)]})
    reason = refused(state, 0, piece("O4", "r1", 6, 9), "duplicate-orientation")
    assert "use orientation r0" in reason
    play(state, 0, piece("O4", "r0", 6, 9))


def test_malformed_moves_are_refused():
    state = position(2, {"B": [(5, 9)], "Y": [(12, 9)]})
    for move in ({"piece": "Q9", "x": 6, "y": 9}, piece("I2", "r9", 6, 9), piece("I2", "r0", "6", 9),
                 {"x": 6, "y": 9}, {"piece": ["I2"], "x": 6, "y": 9}, column(6, True)):
        before = copy.deepcopy(state)
        with pytest.raises(IllegalMove) as refusal:
            GAME.apply(state, 0, move, random.Random(0))
        assert refusal.value.rule == "malformed-move"
        assert state == before


# --- §2.6 (b) The third column -----------------------------------------------------------

def test_third_column_may_be_played_any_time_and_uses_the_whole_turn():
    state = position(2, {"B": [(5, 9), (5, 10)], "Y": [(12, 14), (12, 4)]})
    after = play(state, 0, column(9, 15))
    assert after["hands"][0]["column"] == 0
    assert after["to_move"] == 1
    assert not any(move.args["piece"] == "column" for move in GAME.legal_moves({**after, "to_move": 0}, 0))


def test_no_fourth_column():
    state = position(2, {"B": [(5, 9)], "Y": [(12, 9)]}, hands=[full_hand(column=0), full_hand()])
    refused(state, 0, column(9, 15), "no-column-left")


def test_third_column_refused_on_the_centre():
    state = position(2, {"B": [(5, 9)], "Y": [(12, 9)]})
    refused(state, 0, column(10, 10), "column-on-centre")


# --- §2.6 Turns, players out, end of game ------------------------------------------------

def test_move_out_of_turn_is_refused():
    state = position(2, {"B": [(5, 9)], "Y": [(12, 9)]})
    reason = refused(state, 1, piece("I2", "r0", 13, 9), "not-your-turn")
    assert "blue" in reason
    assert GAME.legal_moves(state, 1) == []


def enclosed(x: int, y: int) -> list[tuple[int, int]]:
    """The four cells sharing an edge with (x, y)."""
    return [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]


def test_player_without_a_legal_move_is_out_and_skipped_for_good():
    # Yellow's only column is walled in by blue and yellow has no column left.
    state = position(3, {"B": [(5, 9)], "Y": [(12, 9)], "b": enclosed(12, 9), "R": [(9, 4)]},
                     hands=[full_hand(), full_hand(column=0), full_hand()])
    state = play(state, 0, piece("I2", "r0", 6, 9))
    assert state["to_move"] == 2
    assert state["out"] == [False, True, False]
    state = play(state, 2, piece("I2", "r0", 10, 4))
    assert state["to_move"] == 0
    assert GAME.to_move(state) == (0,)


def test_player_with_no_piece_that_fits_must_still_place_the_third_column():
    state = position(2, {"B": [(5, 9)], "Y": [(12, 9)], "b": enclosed(12, 9)},
                     hands=[full_hand(), full_hand(column=1)])
    state = play(state, 0, piece("I2", "r0", 6, 9))
    assert state["to_move"] == 1 and not state["out"][1]
    assert {move.args["piece"] for move in GAME.legal_moves(state, 1)} == {"column"}


def test_player_who_placed_every_piece_is_finished_despite_a_third_column():
    state = position(2, {"B": [(5, 9)], "Y": [(12, 9)]}, to_move=1,
                     hands=[hand(column=1), full_hand()])
    state = play(state, 1, piece("I2", "r0", 13, 9))
    assert state["out"] == [True, False]
    assert state["to_move"] == 1


def test_game_ends_when_nobody_can_move():
    state = position(2, {"B": [(5, 9)], "Y": [(12, 9)], "b": enclosed(12, 9)},
                     hands=[hand(I2=1, column=1), full_hand(column=0)])
    state = play(state, 0, piece("I2", "r0", 6, 9))
    assert state["to_move"] is None
    assert GAME.to_move(state) == ()
    assert GAME.legal_moves(state, 0) == [] and GAME.legal_moves(state, 1) == []
    assert GAME.outcome(state).ranking == [1, 2]
    refused(state, 0, column(9, 15), "game-over")


def test_no_outcome_while_someone_can_move():
    assert GAME.outcome(position(2, {"B": [(5, 9)], "Y": [(12, 9)]})) is None


# --- §2.7 Scoring and tie-break -----------------------------------------------------------

def finished(players: int, hands: list[dict], start: int = 0, **options) -> dict:
    return {**position(players, start=start, **options), "hands": hands, "to_move": None,
            "out": [True] * players}


def test_penalty_counts_the_cells_of_unplaced_pieces_and_never_columns():
    state = finished(2, [hand(W5=1, I2=2, column=1), hand(O4=1, column=0)])
    result = GAME.outcome(state)
    assert list(result.scores) == [9.0, 4.0]


def test_lowest_penalty_wins():
    result = GAME.outcome(finished(3, [hand(V3=1), hand(I2=1), hand(X5=1)]))
    assert list(result.ranking) == [2, 1, 3]
    assert result.winners == [1]
    assert "Player 2 (yellow) wins with 2" in result.summary


def test_tie_goes_to_the_player_who_started_last():
    # Seat 1 started: turn order 1, 0, so seat 0 started last.
    result = GAME.outcome(finished(2, [hand(I3=1), hand(V3=1)], start=1))
    assert list(result.ranking) == [1, 2]
    assert "started later" in result.summary
    result = GAME.outcome(finished(2, [hand(I3=1), hand(V3=1)], start=0))
    assert list(result.ranking) == [2, 1]


def test_three_way_tie_ranked_by_later_start_in_turn_order():
    # Turn order 2, 3, 0, 1: among the tied seats 3, 0 and 1, seat 1 started last.
    hands = [hand(I2=1), hand(I2=1), hand(X5=1), hand(I2=1)]
    result = GAME.outcome(finished(4, hands, start=2))
    assert list(result.ranking) == [2, 1, 4, 3]


# --- §2.7 Match variant ----------------------------------------------------------------------

def end_game(state) -> dict:
    """Finish the current game at once: every hand as it is, nobody able to move."""
    return rules.game_over({**state, "to_move": None, "out": [True] * len(state["hands"])})


def test_match_plays_one_game_per_player_rotating_the_start():
    state = GAME.setup(3, {**GAME.default_options(), "match": True, "start_seat": 1}, random.Random(0))
    starts = [state["to_move"]]
    for _ in range(2):
        state = end_game({**state, "hands": [hand(I2=1)] * 3})
        assert GAME.outcome(state) is None
        assert state["opening_turns"] == 6 and state["hands"][0]["column"] == 3
        assert state["board"] == rules.empty_board(3)
        assert f"Game {len(state['results']) + 1} of 3" in GAME.render_text(state)
        starts.append(state["to_move"])
    assert starts == [1, 2, 0]
    state = end_game({**state, "hands": [hand(I2=1)] * 3})
    assert GAME.to_move(state) == ()
    assert len(state["results"]) == 3


def test_match_adds_up_penalties_and_tied_totals_share_a_place():
    state = GAME.setup(2, {**GAME.default_options(), "match": True, "start_seat": 0}, random.Random(0))
    state = end_game({**state, "hands": [hand(W5=1), hand(I2=1)]})
    state = end_game({**state, "hands": [hand(I2=1), hand(X5=1)]})
    result = GAME.outcome(state)
    assert list(result.scores) == [7.0, 7.0]
    assert list(result.ranking) == [1, 1]
    assert "tie for the match" in result.summary


# --- Legal-move generation ------------------------------------------------------------------

def brute_force_moves(state, seat: int) -> int:
    """Count the legal moves of ``seat`` after the columns from first principles: every
    remaining piece kind under the 8 matrices (or 4 if one-sided) at every offset, each
    distinct set of cells once, plus every column cell."""
    players = len(state["hands"])
    playable = spec_cells(PLAYABLE_MARKS[players])
    board = state["board"]
    free = {(x, y) for x, y in playable if board[y][x] in ".:"}
    own = {(x, y) for y, row in enumerate(board) for x, c in enumerate(row) if c.lower() == "byrg"[seat]}
    touching = {(x + dx, y + dy) for x, y in own for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}
    count = 0
    for kind in rules.piece_set(state["one_sided"]):
        if not state["hands"][seat][kind.id]:
            continue
        placements = set()
        for shape in brute_force_orientations(kind.cells, flips=not state["one_sided"]):
            for y in range(-5, 25):
                for x in range(-5, 25):
                    cells = frozenset((x + dx, y + dy) for dx, dy in shape)
                    if cells <= free and cells & touching:
                        placements.add(cells)
        count += len(placements)
    if state["hands"][seat]["column"]:
        count += len(free - spec_cells("C"))
    return count


@pytest.mark.parametrize("players, one_sided", [(2, False), (3, False), (4, False), (2, True)])
def test_legal_move_count_after_the_columns_matches_brute_force(players, one_sided):
    state = GAME.setup(players, {"one_sided": one_sided, "start_seat": 0, "match": False}, random.Random(0))
    columns = [(5, 9), (14, 10), (9, 4), (10, 15), (6, 7), (13, 12), (8, 6), (11, 13)]
    for x, y in columns[:2 * players]:
        state = play(state, state["to_move"], column(x, y))
    for seat in range(players):
        moves = GAME.legal_moves({**state, "to_move": seat}, seat)
        assert len({move.id for move in moves}) == len(moves)
        assert len(moves) == brute_force_moves(state, seat)


def test_legal_moves_match_brute_force_in_a_random_middle_game():
    rng = random.Random(7)
    state = GAME.setup(3, GAME.default_options(), rng)
    for _ in range(20):
        seat = state["to_move"]
        state = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)).args, rng)
    assert len(GAME.legal_moves(state, state["to_move"])) == brute_force_moves(state, state["to_move"])


def test_quick_fit_check_agrees_with_the_full_move_list_through_random_games():
    rng = random.Random(11)
    for players in (2, 3, 4):
        state = GAME.setup(players, GAME.default_options(), rng)
        while state["to_move"] is not None:
            if not rules.in_opening(state):
                for seat in range(players):
                    assert rules.some_piece_fits(state, seat) == bool(rules.piece_placements(state, seat))
            seat = state["to_move"]
            state = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)).args, rng)


def test_every_listed_move_is_accepted_and_leaves_the_state_unchanged():
    rng = random.Random(3)
    state = GAME.setup(2, GAME.default_options(), rng)
    for _ in range(12):
        state = GAME.apply(state, state["to_move"], rng.choice(GAME.legal_moves(state, state["to_move"])).args, rng)
    before = copy.deepcopy(state)
    for move in GAME.legal_moves(state, state["to_move"]):
        GAME.apply(state, state["to_move"], move.args, rng)
    assert state == before


def test_move_ids_are_compact_and_name_piece_orientation_and_anchor():
    state = position(2, {"B": [(5, 9)], "Y": [(12, 9)]})
    ids = move_ids(state, 0)
    assert "I2:r0:x06y09" in ids and "col:x09y15" in ids
    assert all(len(move) <= 12 for move in ids)


# --- Renderers ----------------------------------------------------------------------------------

def test_text_render_shows_the_board_the_hands_and_the_penalties():
    state = position(2, {"B": [(5, 9)], "b": [(6, 9), (7, 9)], "Y": [(12, 9)]},
                     hands=[hand(W5=1, column=1), full_hand()])
    text = GAME.render_text(GAME.view(state, None))
    row = next(line for line in text.splitlines() if line.startswith(" 9  "))
    assert row[4:] == state["board"][9]
    assert "Player 1 (blue): penalty  5" in text and "Player 2 (yellow): penalty 68" in text
    assert "Player 1 (blue) to move" in text


def test_every_move_comes_in_parts_piece_orientation_cell_that_name_it():
    state = position(2, {"B": [(5, 9)], "b": [(6, 9), (7, 9)], "Y": [(12, 9)]})
    moves = GAME.legal_moves(state, 0)
    assert path_problems(moves) == []
    for move in moves:
        assert composed(moves, [part.id for part in move.parts]) is move
    x5 = next(move for move in moves if move.id.startswith("X5:"))
    # The cell part is the piece's first cell in reading order, covered by the piece (the anchor is not).
    assert [part.id for part in x5.parts] == ["piece:X5", "turn:X5:r0",
                                              f"cell:x{x5.args['x'] + 1:02d}y{x5.args['y']:02d}"]
    column = next(move for move in moves if move.args["piece"] == "column")
    assert [part.id for part in column.parts] == ["piece:column", f"cell:{column.id[4:]}"]


def test_svg_marks_a_target_for_every_part_with_coordinates_and_shades_centre_border_and_colours():
    state = position(2, {"B": [(5, 9)], "b": [(6, 9), (7, 9)], "Y": [(12, 9)]})
    moves = GAME.legal_moves(state, 0)
    svg = GAME.render_svg(GAME.view(state, 0), moves)
    root = ElementTree.fromstring(svg)
    assert target_problems(svg, moves) == []
    # Orientations show only once their piece is picked.
    assert part_targets(svg)["turn:X5:r0"] == [frozenset({"piece:X5"})]
    texts = [element.text for element in root.iter("{http://www.w3.org/2000/svg}text")]
    assert all(texts.count(str(index)) >= 2 for index in range(20))  # column and row numbers
    fills = [element.get("fill") for element in root.iter("{http://www.w3.org/2000/svg}rect")]
    for mark in (rules.BORDER, rules.EMPTY_CENTRE, "b", "B", "Y"):
        assert CELL_FILL[mark] in fills
    assert "penalty 68" in svg


def test_finished_game_render_names_the_winner():
    state = finished(2, [hand(I3=1), hand(V3=1)], start=1)
    assert "Player 1 (blue) wins with 3 penalty points" in GAME.render_text(state)
    assert "Player 1 (blue) wins" in GAME.render_svg(state, [])


# --- §2.6 No pass; §2.8 Perfect information, no chance after setup -------------------------------

def test_no_voluntary_pass():
    state = position(2, {"B": [(5, 9)], "Y": [(12, 9)]})
    assert {move.args["piece"] for move in GAME.legal_moves(state, 0)} <= {"column"} | {
        kind.id for kind in rules.TWO_SIDED_PIECES}
    refused(state, 0, {"piece": "pass", "x": 0, "y": 0}, "malformed-move")


def test_everything_is_public_and_moves_involve_no_chance():
    state = position(3, {"B": [(5, 9)], "Y": [(12, 9)], "R": [(9, 4)]})
    assert all(GAME.view(state, viewer) == state for viewer in (0, 1, 2, None))
    assert list(GAME.secrets(state)) == []
    move = piece("I2", "r0", 6, 9)
    assert GAME.apply(state, 0, move, random.Random(1)) == GAME.apply(state, 0, move, random.Random(2))


# --- Hints for search bots (not rules: what a bot's playouts assume) ---------

def _after_opening(seed: int):
    rng = random.Random(seed)
    state = GAME.setup(2, {}, rng)
    while rules.in_opening(state):
        seat = GAME.to_move(state)[0]
        moves = GAME.legal_moves(state, seat)
        state = GAME.apply(state, seat, moves[rng.randrange(len(moves))].args, rng)
    return state


def test_playouts_place_the_biggest_piece_that_fits():
    state = _after_opening(5)
    seat = GAME.to_move(state)[0]
    moves = GAME.legal_moves(state, seat)
    chosen = {GAME.rollout_move(state, seat, moves, random.Random(run)).args["piece"] for run in range(20)}
    assert chosen <= {"W5", "X5", "T5", "U5"} and len(chosen) > 1  # a pentomino, not always the same
    smaller = [move for move in moves if move.args["piece"] in ("I2", "V3")]
    assert GAME.rollout_move(state, seat, smaller, random.Random(0)).args["piece"] == "V3"


def test_playouts_leave_the_opening_columns_to_chance():
    state = GAME.setup(2, {}, random.Random(1))
    seat = GAME.to_move(state)[0]
    assert GAME.rollout_move(state, seat, GAME.legal_moves(state, seat), random.Random(0)) is None


def test_evaluation_ranks_the_fewest_cells_in_hand_first():
    state = _after_opening(6)
    assert GAME.evaluate(state) == [0.5, 0.5]  # both hold all 68 cells
    seat = GAME.to_move(state)[0]
    big = next(move for move in GAME.legal_moves(state, seat) if move.args["piece"] == "X5")
    after = GAME.apply(state, seat, big.args, random.Random(0))
    expected = [0.0, 0.0]
    expected[seat] = 1.0
    assert GAME.evaluate(after) == expected
