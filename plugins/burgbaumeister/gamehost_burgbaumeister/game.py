"""Der Wettkampf der Burgbaumeister declared to the host: its options, its
variants, and each hook handed to the rules, the pictures or the hints."""

from __future__ import annotations

from gamehost.sdk import Game, Text, Variant

from gamehost_burgbaumeister.how_to_play import HOW_TO_PLAY

from gamehost_burgbaumeister import hints, render, rules

OPTIONS_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "special_cards": {
            "type": "boolean", "default": False,
            "description": Text("Points variant: the king, the queen, princes, princesses and ravens score bonuses; "
                                "cannons, towers and the magician act."),
        },
        "memory_aid": {
            "type": "boolean", "default": False,
            "description": Text("Memory aid: hidden cards that were already turned up show their number."),
        },
        "start_card_is_tower": {
            "type": "boolean", "default": False,
            "description": Text("The start card 1 counts as a tower against cannons: one tower in your wall then protects "
                                "every card to its left."),
        },
        "start_card_scores": {
            "type": "boolean", "default": True,
            "description": Text("Points variant: the start card 1 scores its 1 point like every wall card."),
        },
        "start_card_removable": {
            "type": "boolean", "default": False,
            "description": Text("A cannon may remove the start card 1."),
        },
        "cannon_hits_own_wall": {
            "type": "boolean", "default": False,
            "description": Text("A cannon may also remove a card from your own wall."),
        },
        "stall_turns_per_face_down_card": {
            "type": "integer", "minimum": 1, "default": 2,
            "description": Text("The game ends, scored as when nobody can take a card, after this many turns per hidden "
                                "card in a row in which nobody took one."),
        },
    },
}


class Burgbaumeister(Game):
    id = "burgbaumeister"
    title = Text("Der Wettkampf der Burgbaumeister")
    version = "1"
    summary = Text("Turn face-down cards one at a time and build the first ascending wall of 10 cards.")
    how_to_play = HOW_TO_PLAY
    languages = ("en", "fr")  # catalogues in locale/<lang>/LC_MESSAGES/messages.po
    min_players = 2
    max_players = 4
    options_schema = OPTIONS_SCHEMA
    variants = (
        Variant("basic", Text("Basic game"), {}, Text("The first 10-card ascending wall wins.")),
        Variant("points", Text("Points variant"), {"special_cards": True},
                Text("Special cards score bonuses, cannons shoot, towers protect, the magician inserts a card.")),
    )
    hidden_information = True
    chance = True

    # --- rules -----------------------------------------------------------

    def setup(self, seats, options, rng):
        return rules.setup_state(seats, options, rng)

    def to_move(self, state):
        return rules.to_move(state)

    def legal_moves(self, state, seat):
        return rules.legal_moves(state, seat)

    def apply(self, state, seat, move, rng):
        return rules.play(state, seat, move)

    def outcome(self, state):
        return rules.outcome(state)

    # --- information -------------------------------------------------------

    def view(self, state, seat):
        return rules.public_view(state, seat)

    def secrets(self, state):
        return rules.secrets(state)

    def revealed(self, before, seat, move, after):
        return rules.revealed(before, seat, move, after)

    def sample_state(self, state, seat, rng):
        return rules.sample_state(state, rng)

    # --- search bots and pictures -----------------------------------------

    def rollout_move(self, state, seat, moves, rng):
        return hints.room_keeping_move(state, seat, moves)

    def evaluate(self, state):
        return hints.wall_shares(state)

    def render_text(self, view):
        return render.render_text(view)

    def render_svg(self, view, moves):
        return render.render_svg(view, moves)
