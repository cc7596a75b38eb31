"""Callisto declared to the host: its options, its variants, and each hook
handed to the rules, the pictures or the search bots' hints."""

from __future__ import annotations

from gamehost.sdk import Game, Text, Variant

from gamehost_callisto.how_to_play import HOW_TO_PLAY

import gamehost_callisto.compiled as compiled
import gamehost_callisto.hints as hints
import gamehost_callisto.render as render
import gamehost_callisto.rules as rules

OPTIONS_SCHEMA = {
    "type": "object",
    "properties": {
        "one_sided": {
            "type": "boolean", "default": False,
            "description": Text("Pieces may be turned but not flipped over; instead of two L and two S pieces you have "
                                "one L and one J, one S and one Z."),
        },
        "start_seat": {
            "enum": ["random", 0, 1, 2, 3], "default": "random",
            "description": Text("Who starts the first game: the player with that seat number, or one drawn at random."),
        },
        "match": {
            "type": "boolean", "default": False,
            "description": Text("Play one game per player, each started by the next player in turn, and add up the "
                                "penalties."),
        },
    },
    "additionalProperties": False,
}


class Callisto(Game):
    id = "callisto"
    title = Text("Callisto")
    version = "1"
    summary = Text("Place your polyominoes on an octagonal board, each touching your own colour "
                   "by an edge; the fewest cells left over wins.")
    how_to_play = HOW_TO_PLAY
    languages = ("en", "fr")  # catalogues in locale/<lang>/LC_MESSAGES/messages.po
    min_players = 2
    max_players = 4
    # Matches of several games end tied on equal totals (match_ranking): players may also agree on a draw.
    can_draw_by_agreement = True
    options_schema = OPTIONS_SCHEMA
    variants = (
        Variant("standard", Text("Callisto"), {}, Text("Pieces may be turned and flipped; one game.")),
        Variant("one-sided", Text("One-sided pieces"), {"one_sided": True},
                Text("Pieces may be turned but not flipped: L + J and S + Z instead of two of each.")),
        Variant("match", Text("Match"), {"match": True},
                Text("One game per player, rotating the start player; the lowest total penalty wins.")),
    )
    hidden_information = False
    chance = True  # only the start player may be drawn (§2.8)

    def __init__(self, search: rules.PlacementSearch | None = None):
        # The compiled placement search when gamehost-callisto-native is installed; the same moves either way.
        self.search = compiled.fastest() if search is None else search

    def setup(self, seats, options, rng):
        return rules.setup(seats, options, rng)

    def to_move(self, state):
        return () if state["to_move"] is None else (state["to_move"],)

    def legal_moves(self, state, seat):
        return rules.legal_moves(state, seat, self.search)

    def apply(self, state, seat, move, rng):
        return rules.play(state, seat, move, self.search)

    def outcome(self, state):
        return rules.outcome(state)

    def can_undo(self, state, seat, move):
        # Pieces are in plain sight and no move draws chance: any last move may be taken back.
        return True

    def order_moves(self, state, seat, moves, rng):
        return hints.ordered(state, seat, moves)

    def rollout_move(self, state, seat, moves, rng):
        return hints.biggest_piece_move(state, seat, moves, rng)

    def playout_move(self, state, seat, rng):
        return hints.quick_biggest_piece_move(state, seat, rng, self.search)

    def evaluate(self, state):
        return hints.cells_in_hand_shares(state)

    def render_text(self, view):
        return render.render_text(view)

    def render_svg(self, view, moves):
        return render.render_svg(view, moves)
