"""Campanile declared to the host: its options, its variants, and each hook
handed to the rules, the pictures or the search bots' hints."""

from __future__ import annotations

from gamehost.sdk import Game, Text, Variant

from gamehost_campanile.how_to_play import HOW_TO_PLAY

import gamehost_campanile.hints as hints
import gamehost_campanile.render as render
import gamehost_campanile.rules as rules


class Campanile(Game):
    id = "campanile"
    title = Text("Campanile")
    version = "1"
    summary = Text("Build five rival towers storey by storey and bet power chips on the ones that will stand tallest.")
    how_to_play = HOW_TO_PLAY
    languages = ("en", "fr")  # catalogues in locale/<lang>/LC_MESSAGES/messages.po
    min_players = 2
    max_players = 5
    hidden_information = True
    chance = True
    options_schema = {
        "type": "object",
        "properties": {
            "bet_rule": {
                "enum": list(rules.BET_RULES), "default": "at_least",
                "description": Text("Your bet chip must be worth at least, or exactly, the storeys you built this turn."),
            },
            "bet_on_built_tower": {
                "type": "boolean", "default": False,
                "description": Text("Official variant: you may also bet on the tower you just built."),
            },
            "start_player": {
                "enum": ["random", "first-seat"], "default": "random",
                "description": Text("Who takes the first turn: a random player, or Player 1."),
            },
            "tower_order": {
                "enum": ["random", "fixed"], "default": "random",
                "description": Text("Left-to-right order of the towers: shuffled, or S1 to S5."),
            },
        },
        "additionalProperties": False,
    }
    variants = (
        Variant("standard", Text("Standard"), {},
                Text("The usual rules: a chip worth at least the storeys you built.")),
        Variant("official-variant", Text("Official variant"), {"bet_on_built_tower": True},
                Text("You may also bet on the tower you have just built.")),
        Variant("exact-bets", Text("Exact bets"), {"bet_rule": "exact"},
                Text("Your chip must be worth exactly the storeys you built.")),
    )

    def setup(self, seats, options, rng):
        return rules.setup(seats, {**self.default_options(), **options}, rng)

    def to_move(self, state):
        return rules.to_move(state)

    def legal_moves(self, state, seat):
        return rules.legal_moves(state, seat)

    def apply(self, state, seat, move, rng):
        return rules.play(state, seat, move)

    def outcome(self, state):
        return rules.outcome(state)

    # --- hidden information (1.6) ---

    def view(self, state, seat):
        return rules.player_view(state, seat)

    def secrets(self, state):
        return rules.secrets(state)

    def revealed(self, before, seat, move, after):
        return rules.revealed(before, seat, move, after)

    def sample_state(self, state, seat, rng):
        return rules.sample_state(state, seat, rng)

    # --- hints for search bots (hints.py: a bot's guesses, no rule) ---

    def order_moves(self, state, seat, moves, rng):
        return hints.ordered(state, seat, moves)

    def rollout_move(self, state, seat, moves, rng):
        return hints.playout_choice(state, seat, moves, rng)

    def evaluate(self, state):
        return hints.points_now_shares(state)

    # --- renderers ---

    def render_text(self, view):
        return render.text(view)

    def render_svg(self, view, moves):
        return render.svg(view, moves)
