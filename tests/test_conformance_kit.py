"""The conformance kit catches each kind of broken ruleset it promises to."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from gamehost.sdk import IllegalMove, Move, Part, Reveal, Secret
from gamehost.testing.conformance import run_conformance
from gamehost_tictactoe.game import TicTacToe
from gamehost_tictactoe.rules import cell_of


class MutatesItsInput(TicTacToe):
    def apply(self, state, seat, move, rng):
        result = super().apply(state, seat, move, rng)
        state["board"][cell_of(move)] = seat
        return result


class AcceptsOccupiedCells(TicTacToe):
    def apply(self, state, seat, move, rng):
        if seat != state["turn"]:
            raise IllegalMove("not your turn", "not-your-turn")
        board = list(state["board"])
        board[cell_of(move)] = seat
        return {"board": board, "turn": 1 - seat}


class ListsOccupiedCells(TicTacToe):
    def legal_moves(self, state, seat):
        if seat != state["turn"] or self.outcome(state):
            return []
        return [Move(f"c{cell}", str(cell), {"cell": cell}) for cell in range(9)]


class LeaksHiddenCodes(TicTacToe):
    hidden_information = True

    def setup(self, seats, options, rng):
        return {**super().setup(seats, options, rng), "codes": [f"code-{rng.randrange(10**6)}-{s}" for s in range(2)]}

    def apply(self, state, seat, move, rng):
        return {**super().apply(state, seat, move, rng), "codes": state["codes"]}

    def secrets(self, state):
        return [Secret(seat, code) for seat, code in enumerate(state["codes"])]


class HidesCodesProperly(LeaksHiddenCodes):
    def view(self, state, seat):
        return {**state, "codes": [code if s == seat else None for s, code in enumerate(state["codes"])]}


class UsesGlobalRandom(TicTacToe):
    def setup(self, seats, options, rng):
        return {**super().setup(seats, options, rng), "nonce": random.random()}

    def apply(self, state, seat, move, rng):
        return {**super().apply(state, seat, move, rng), "nonce": random.random()}


class CrashesOnMistypedCells(TicTacToe):
    """Takes any number as a cell: int(NaN) raises ValueError, a list index TypeError."""

    def apply(self, state, seat, move, rng):
        if seat != state["turn"]:
            raise IllegalMove("not your turn", "not-your-turn")
        cell = int(move["cell"])
        if not 0 <= cell <= 8 or state["board"][cell] is not None:
            raise IllegalMove("not an empty cell", "occupied")
        return super().apply(state, seat, {"cell": cell}, rng)


class NeverEnds(TicTacToe):
    def outcome(self, state):
        return None

    def to_move(self, state):
        return (state["turn"],)

    def legal_moves(self, state, seat):
        return [Move("pass", "pass", {"pass": True})] if seat == state["turn"] else []

    def apply(self, state, seat, move, rng):
        if seat != state["turn"] or move != {"pass": True}:
            raise IllegalMove("only pass", "only-pass")
        return {"board": state["board"], "turn": 1 - seat}

    def render_svg(self, view, moves):
        return "<svg/>"


class DrawsOffItsCanvas(TicTacToe):
    def render_svg(self, view, moves):
        return super().render_svg(view, moves).replace("</svg>", '<rect x="250" y="0" width="80" height="10"/></svg>')


class RendersBrokenXml(TicTacToe):
    def render_svg(self, view, moves):
        return super().render_svg(view, moves).replace("</svg>", "<g></svg>")


class AddressesTheReader(TicTacToe):
    """Its labels say "your": the log would show "Player 2: Put your X on b2" to everyone."""

    def legal_moves(self, state, seat):
        return [Move(move.id, f"Put your {move.label}", move.args) for move in super().legal_moves(state, seat)]


class OffersPartsByColumnThenRow(TicTacToe):
    """Tic-tac-toe's moves in parts: the column, then the row; the SVG marks
    the columns in a header row and the rows under data-after-part."""

    languages = ()  # its parts' words are plain English strings

    def legal_moves(self, state, seat):
        return [Move(move.id, move.label, move.args,
                     (Part(f"col:{move.id[0]}", f"column {move.id[0]}"), Part(f"row:{move.id}", f"row {move.id[1]}")))
                for move in super().legal_moves(state, seat)]

    def render_svg(self, view, moves):
        columns = {move.parts[0].id for move in moves}
        marks = "".join(f'<rect x="{10 * index}" y="0" width="8" height="8" data-part="{column}"/>'
                        for index, column in enumerate(sorted(columns)))
        marks += "".join(f'<g data-after-part="{move.parts[0].id}"><rect x="0" y="10" width="8" height="8" '
                         f'data-part="{move.parts[1].id}"/></g>' for move in moves if len(move.parts) > 1)
        return super().render_svg(view, []).replace("</svg>", marks + "</svg>")


class MarksRowsBeforeTheirColumn(OffersPartsByColumnThenRow):
    def render_svg(self, view, moves):
        # The rows sit under the wrong column: they never show when the move's column is chosen.
        return super().render_svg(view, moves).replace('data-after-part="col:a"', 'data-after-part="col:z"')


class OffersAPathThatIsAPrefix(OffersPartsByColumnThenRow):
    def legal_moves(self, state, seat):
        moves = super().legal_moves(state, seat)
        return [Move(move.id, move.label, move.args, move.parts[:1]) if index == 0 else move
                for index, move in enumerate(moves)]


class KeepsTuples(TicTacToe):
    def apply(self, state, seat, move, rng):
        result = super().apply(state, seat, move, rng)
        return {**result, "board": tuple(result["board"])}


class PlaysOutIntoTakenCells(TicTacToe):
    """Its playout_move (a bot hint) takes the first cell, free or not."""

    def playout_move(self, state, seat, rng):
        return Move("a3", "X on a3", {"cell": 0})


class OrdersAMoveAway(TicTacToe):
    """Its order_moves (a bot hint) drops the last legal move."""

    def order_moves(self, state, seat, moves, rng):
        return list(moves)[:-1]


@pytest.mark.parametrize(("game", "finding"), [
    (MutatesItsInput(), "(b) apply mutated its input"),
    (PlaysOutIntoTakenCells(), "(g) playout_move gave 'a3', not a legal move"),
    (OrdersAMoveAway(), "(g) order_moves does not list exactly the legal moves"),
    (AcceptsOccupiedCells(), "is not listed but was accepted"),
    (ListsOccupiedCells(), "(b) listed move"),
    (LeaksHiddenCodes(), "(c) seat 0 can see 'code-"),
    (UsesGlobalRandom(), "is every chance drawn from the rng"),
    (NeverEnds(), "(e) no end after 50 moves"),
    (KeepsTuples(), "(d) state does not survive a JSON round trip"),
    (CrashesOnMistypedCells(), "crashed apply with"),
    (DrawsOffItsCanvas(), "render_svg draws outside its canvas: a <rect> reaches (330, 10) on a 300 x 300 canvas"),
    (RendersBrokenXml(), "render_svg is not well-formed XML"),
    (AddressesTheReader(), "label 'Put your X on a3' addresses the reader"),
    (MarksRowsBeforeTheirColumn(), "SVG cannot compose the moves in parts"),
    (OffersAPathThatIsAPrefix(), "(b) malformed move parts"),
])
def test_kit_reports_the_broken_rule(game, finding):
    with pytest.raises(AssertionError) as caught:
        run_conformance(game, seats=2, playouts=20, max_moves=50)
    assert finding in str(caught.value)


class UndoesRolledMoves(TicTacToe):
    """Offers undo for every move, but each move rolls a die: taken back and played again, it would roll anew."""

    def apply(self, state, seat, move, rng):
        return {**super().apply(state, seat, move, rng), "roll": rng.randrange(6)}


class UndoesIntoAnotherPosition(TicTacToe):
    """can_undo answers something other than a bool."""

    def can_undo(self, state, seat, move):
        return "yes"


@pytest.mark.parametrize("game, finding", [
    (UndoesRolledMoves(), "(f) can_undo lets move"),
    (UndoesIntoAnotherPosition(), "(f) can_undo answered 'yes'"),
])
def test_kit_reports_an_unsafe_undo(game, finding):
    with pytest.raises(AssertionError) as caught:
        run_conformance(game, seats=2, playouts=2)
    assert finding in str(caught.value)


def test_kit_passes_a_game_whose_moves_come_in_parts_with_a_target_for_each():
    report = run_conformance(OffersPartsByColumnThenRow(), seats=2, playouts=10)
    assert report.playouts == 10


class RevealsTheOtherCode(HidesCodesProperly):
    """Each move reveals to everybody the code of the seat that did not move."""

    def revealed(self, before, seat, move, after):
        return [Reveal("the other code", after["codes"][1 - seat])]


class TellsTheMoverTheOtherCode(HidesCodesProperly):
    """Each move tells the mover alone the other seat's code: still not the mover's to see."""

    def revealed(self, before, seat, move, after):
        return [Reveal("the other code", after["codes"][1 - seat], seen_by=seat)]


class RevealsAtRandom(HidesCodesProperly):
    def revealed(self, before, seat, move, after):
        return [Reveal("a roll", random.randrange(10**9))]


class RevealsToAnOutsider(HidesCodesProperly):
    def revealed(self, before, seat, move, after):
        return [Reveal("a note", 1, seen_by=5)]


class TellsEachMoverItsOwnCode(HidesCodesProperly):
    languages = ("en",)  # its reveals' words are plain English: no other language to check

    def revealed(self, before, seat, move, after):
        return [Reveal("your code", after["codes"][seat], seen_by=seat), Reveal("a cell", move["cell"])]


@pytest.mark.parametrize(("game", "finding"), [
    (RevealsTheOtherCode(), "(c) seat 0 can see 'code-"),
    (TellsTheMoverTheOtherCode(), "which only seat 1 may see"),
    (RevealsAtRandom(), "(h) revealed() answers differently for the same step"),
    (RevealsToAnOutsider(), "(h) a reveal is for seat 5, not one of the 2 seats"),
])
def test_kit_reports_a_reveal_that_leaks_or_wavers(game, finding):
    with pytest.raises(AssertionError) as caught:
        run_conformance(game, seats=2, playouts=3)
    assert finding in str(caught.value)


def test_kit_passes_a_game_that_reveals_to_each_seat_its_own():
    report = run_conformance(TellsEachMoverItsOwnCode(), seats=2, playouts=5)
    assert report.playouts == 5


def test_kit_passes_a_game_that_hides_its_secrets():
    report = run_conformance(HidesCodesProperly(), seats=2, playouts=50)
    assert report.playouts == 50 and report.moves >= 5 * 50


def test_information_sets_catch_a_view_that_lists_face_down_numbers(monkeypatch):
    """The token search misses plain numbers; a resample of the face-down
    cards changes this view, so the kit names the leak."""
    monkeypatch.syspath_prepend(str(Path(__file__).parent / "fixtures" / "site"))
    from gamehost_fixture_plugins.numbers_in_view import NumbersInView

    with pytest.raises(AssertionError, match=r"\(c'\) seat 0 can tell a resampled state from the real one.*under\["):
        run_conformance(NumbersInView(), seats=2, playouts=1)


class DealsOwnHandAfresh(HidesCodesProperly):
    """Its sample_state redraws the viewer's own code, which the viewer sees."""

    def sample_state(self, state, seat, rng):
        return {**state, "codes": [f"code-{rng.randrange(10**6)}-{s}" for s in range(2)]}


def test_information_sets_catch_a_sample_that_changes_what_the_seat_knows():
    with pytest.raises(AssertionError, match=r"\(c'\) seat 0 can tell a resampled state.*codes\[0\]"):
        run_conformance(DealsOwnHandAfresh(), seats=2, playouts=1)


def test_twins_catch_a_log_label_that_keeps_a_re_hidden_number(monkeypatch):
    """The label is right while the card is face up, so every single
    moment's resample agrees with it; a twin dealt another card at that
    place shows the same view again once the card is face down, and its log
    reads another number."""
    monkeypatch.syspath_prepend(str(Path(__file__).parent / "fixtures" / "site"))
    from gamehost_fixture_plugins.number_in_label import NumberInLabel

    with pytest.raises(AssertionError, match=r"\(c''\) seat 0 reads the log entry of version \d+ as .*Turn \d+ back "
                                             r"face down.*the log keeps a fact the view no longer shows"):
        run_conformance(NumberInLabel(), seats=2, playouts=1)


def test_the_label_fixture_passes_the_check_of_one_moment(monkeypatch):
    """Without the twins the kit passes it: the twins are what catch it."""
    from gamehost.testing import conformance

    monkeypatch.syspath_prepend(str(Path(__file__).parent / "fixtures" / "site"))
    from gamehost_fixture_plugins.number_in_label import NumberInLabel

    monkeypatch.setattr(conformance, "_check_twins", lambda *args: None)
    report = run_conformance(NumberInLabel(), seats=2, playouts=1)
    assert report.playouts == 1
