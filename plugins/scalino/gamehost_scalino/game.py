"""Scalino's two games declared to the host: their options, their variants,
and each hook handed to the rules, the pictures or the search bots' hints.

They are separate games rather than an option because they share only the
board: different player counts, moves and scoring.
"""

from __future__ import annotations

from gamehost.sdk import Game, Text, Variant

from gamehost_scalino.how_to_play import HOW_TO_PLAY, PYRAMID_HOW_TO_PLAY

from gamehost_scalino import dismantle, hints, render, rules
from gamehost_scalino.pyramid import GEOMETRIES

GEOMETRY_OPTION = {"enum": sorted(GEOMETRIES), "default": "squares",
                   "description": Text("Board: concentric squares 7x7/5x5/3x3/1x1 or diamonds 41/25/13/5 cells.")}
"""The board option of both games (its JSON Schema)."""

DIAMONDS_VARIANT = Variant("diamonds", Text("Diamond pyramid"), {"geometry": "diamonds"},
                           Text("The alternative board of concentric diamonds (41, 25, 13 and 5 cells)."))
"""Both games offer the alternative board as a catalog variant."""


class Scalino(Game):
    id = "scalino"
    title = Text("Scalino")
    version = "1"
    summary = Text("Build a four-level pyramid of wooden bars together, each making long staircases in your colour.")
    how_to_play = HOW_TO_PLAY
    languages = ("en", "fr")  # catalogues in locale/<lang>/LC_MESSAGES/messages.po
    min_players = 2
    max_players = 4
    # Equal staircase totals share a place (places): players may also agree on a draw.
    can_draw_by_agreement = True
    player_counts = (2, 4)  # spec 3.3: one colour each for 4, two each for 2; 3 would split the colours unevenly
    options_schema = {
        "type": "object",
        "properties": {
            "geometry": GEOMETRY_OPTION,
            "pocket_rule": {"enum": list(rules.POCKET_RULES), "default": "rectangle",
                            "description": Text("How strictly the rule against shutting in empty cells is read: a rectangle, a single "
                                                "cell, any region, or not at all.")},
            "staircase_steps": {"enum": list(rules.STAIRCASE_STEPS), "default": "adjacent",
                                "description": Text("Whether flat neighbours continue a staircase or a level change "
                                                    "is needed.")},
            "start_player": {"enum": list(rules.START_PLAYERS), "default": "random",
                             "description": Text("Who places the first piece.")},
        },
        "additionalProperties": False,
    }
    variants = (DIAMONDS_VARIANT,)
    hidden_information = False
    chance = True  # only the start player (spec 3.7)

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

    def can_undo(self, state, seat, move):
        # Every piece is in plain sight and moves draw no chance: any last move may be taken back.
        return True

    def order_moves(self, state, seat, moves, rng):
        """For search bots: placements by the staircase points they gain, then size (hints.py)."""
        return hints.ordered(state, moves)

    def evaluate(self, state):
        return hints.staircase_shares(state)

    def render_text(self, view):
        return render.scalino_text(view, rules.colour_scores(view))

    def render_svg(self, view, moves):
        return render.scalino_svg(view, rules.colour_scores(view), moves)


class ScalinoPyramid(Game):
    id = "scalino-pyramid"
    title = Text("Scalino: Démonte la pyramide")
    version = "1"
    summary = Text("Take apart a finished Scalino pyramid piece by piece; bigger pieces score more.")
    how_to_play = PYRAMID_HOW_TO_PLAY
    languages = ("en", "fr")
    min_players = 2
    max_players = 6
    options_schema = {
        "type": "object",
        "properties": {
            "geometry": GEOMETRY_OPTION,
            "free_side": {"enum": list(dismantle.FREE_SIDE_RULES), "default": "whole-side",
                          "description": Text("A piece is free when a whole side is clear, or when any single "
                                              "face is.")},
            "start_player": {"enum": list(dismantle.START_PLAYERS), "default": "random",
                             "description": Text("Who takes the first piece.")},
        },
        "additionalProperties": False,
    }
    variants = (DIAMONDS_VARIANT,)
    hidden_information = False
    chance = True  # the starting pyramid and the start player

    def setup(self, seats, options, rng):
        return dismantle.setup(seats, {**self.default_options(), **options}, rng)

    def to_move(self, state):
        return dismantle.to_move(state)

    def legal_moves(self, state, seat):
        return dismantle.legal_moves(state, seat)

    def apply(self, state, seat, move, rng):
        return dismantle.play(state, seat, move)

    def outcome(self, state):
        return dismantle.outcome(state)

    def can_undo(self, state, seat, move):
        # Every piece is in plain sight and moves draw no chance: any last move may be taken back.
        return True

    def render_text(self, view):
        return render.pyramid_text(view, dismantle.collected_points(view))

    def render_svg(self, view, moves):
        return render.pyramid_svg(view, dismantle.collected_points(view), moves)
