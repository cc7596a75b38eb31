"""Kensington declared to the host: its options, its variants, and each hook
handed to the rules, the pictures or the search bots' hints."""

from __future__ import annotations

from gamehost.sdk import Game, Text, Variant

from gamehost_kensington.how_to_play import HOW_TO_PLAY

import gamehost_kensington.hints as hints
import gamehost_kensington.render as render
import gamehost_kensington.rules as rules

RULES_1_OPTIONS = {
    "strict_lighting": {
        "type": "boolean", "default": False,
        "description": Text("Lit and dark windows may never touch each other."),
    },
    "roof_on_ground": {
        "type": "boolean", "default": False,
        "description": Text("Roofs may also stand directly on the ground."),
    },
    "store_when_free": {
        "type": "boolean", "default": True,
        "description": Text("A tile you took but did not place goes to a free spot of your warehouse when there is "
                            "one, not back to the pile."),
    },
}
"""The options rules version 1 offered: every one but ``idle_rounds``."""

RULES_1_OPTIONS_SCHEMA = {"type": "object", "additionalProperties": False, "properties": RULES_1_OPTIONS}

IDLE_ROUNDS_MAXIMUM = 50
"""A bound a table would never want more of: a game that truly stalls must still end."""

OPTIONS_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        **RULES_1_OPTIONS,
        "idle_rounds": {
            "type": "integer", "default": rules.IDLE_ROUNDS_DEFAULT, "minimum": 3, "maximum": IDLE_ROUNDS_MAXIMUM,
            "description": Text("The game ends after this many full rounds in a row in which nobody placed a "
                                "tile (3 to 50): a safety net for a game that stalls, never reached while "
                                "players are still building."),
        },
    },
}


class KensingtonRules(Game):
    """Kensington under whichever rules version a subclass names."""
    id = "kensington"
    title = Text("Kensington")
    summary = Text("Build a Victorian facade from window, wall and roof tiles: windows and doors under roofs, "
                   "varied roof heights and cats score.")
    how_to_play = HOW_TO_PLAY
    languages = ("en", "fr")  # catalogues in locale/<lang>/LC_MESSAGES/messages.po
    min_players = 2
    max_players = 5
    variants = (
        Variant("standard", Text("Standard"), {}, Text("The usual rules.")),
        Variant("strict-lighting", Text("Strict lighting"), {"strict_lighting": True},
                Text("Lit and dark windows may never touch.")),
    )
    hidden_information = True
    chance = True
    # Search bots (hints.py): a playout of 4 rounds or so, then the buildings' value; games last 200+ moves.
    playout_horizon = 40

    def setup(self, seats, options, rng):
        """Spec 1.6: doors, warehouses, one chip each; the start player is random (PROPOSED)."""
        return rules.initial_state(seats, {**self.default_options(), **options}, rng.randrange(seats))

    def to_move(self, state):
        return rules.to_move(state)

    def legal_moves(self, state, seat):
        return rules.legal_moves(state, seat)

    def apply(self, state, seat, move, rng):
        return rules.play(state, seat, move, rng)

    def outcome(self, state):
        return rules.outcome(state)

    def view(self, state, seat):
        return rules.player_view(state, seat)

    def secrets(self, state):
        return rules.secrets(state)

    def revealed(self, before, seat, move, after):
        return rules.revealed(before, seat, move, after)

    def sample_state(self, state, seat, rng):
        """Nothing to draw afresh: the pile is an unordered set whose tiles
        follow from the public history (every tile shows its face once
        taken), and which tile a draw yields is chosen by the rng at
        ``apply``."""
        return state

    # Search bots' hints (hints.py): a bot's guesses, no rule of the game.
    def order_moves(self, state, seat, moves, rng):
        return hints.ordered(state, seat, moves)

    def rollout_move(self, state, seat, moves, rng):
        return hints.listed(hints.playout_choice(state, seat, rng), moves)

    def playout_move(self, state, seat, rng):
        return hints.playout_choice(state, seat, rng)

    def evaluate(self, state):
        """For search bots cutting a playout short: the seats ranked by what
        their buildings score now plus half the points waiting under no roof."""
        return hints.value_shares(state)

    def render_text(self, view):
        return render.render_text(view)

    def render_svg(self, view, moves):
        return render.render_svg(view, moves)


class KensingtonRules1(KensingtonRules):
    """The rules before ``idle_rounds``: three idle rounds ended the game. The
    matches created under them keep playing and replaying under them: their
    recorded options carry no ``idle_rounds``, which the rules read as three."""
    version = "1"
    options_schema = RULES_1_OPTIONS_SCHEMA


class Kensington(KensingtonRules):
    """The current rules: the idle-rounds net is the option ``idle_rounds``
    (default ten), since three rounds cut short games still being built."""
    version = "2"
    options_schema = OPTIONS_SCHEMA
    earlier_versions = (KensingtonRules1(),)
