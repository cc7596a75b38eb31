"""Tic-tac-toe declared to the host: its catalog entry, and each hook handed to the rules or the pictures."""

from __future__ import annotations

from gamehost.sdk import Game, Text

from gamehost_tictactoe.how_to_play import HOW_TO_PLAY

from gamehost_tictactoe import render, rules


class TicTacToe(Game):
    id = "tictactoe"
    title = Text("Tic-tac-toe")
    version = "1"
    summary = Text("Mark three cells in a row on a 3x3 grid before your opponent does.")
    how_to_play = HOW_TO_PLAY
    languages = ("en", "fr")  # catalogues in locale/<lang>/LC_MESSAGES/messages.po
    min_players = 2
    max_players = 2
    # A full grid without a line is a draw: players may also agree on one.
    can_draw_by_agreement = True
    options_schema = {"type": "object", "properties": {}, "additionalProperties": False}

    def setup(self, seats, options, rng):
        return rules.start()

    def to_move(self, state):
        return rules.to_move(state)

    def legal_moves(self, state, seat):
        return rules.legal_moves(state, seat)

    def apply(self, state, seat, move, rng):
        return rules.play(state, seat, move)

    def outcome(self, state):
        return rules.outcome(state)

    def can_undo(self, state, seat, move):
        # Nothing is hidden and nothing is drawn: any last move may be taken back.
        return True

    def render_text(self, view):
        return render.render_text(view)

    def render_svg(self, view, moves):
        return render.render_svg(view, moves)
