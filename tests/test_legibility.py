"""Pictures legible at 720 px wide: the kit measures text and move
targets, reports them for every game and fails the games that opted in."""

from __future__ import annotations

import random

import pytest

from gamehost.host.plugins import load_catalog
from gamehost.testing.conformance import run_conformance
from gamehost.testing.legibility import target_problems, text_problems
from gamehost_tictactoe.game import TicTacToe

# The games whose pictures pass both checks, and the kit's flags they pass in
# their own conformance tests: every game; a new game joins once it passes.
LEGIBLE_TEXT = {"burgbaumeister", "callisto", "campanile", "kensington", "scalino", "scalino-pyramid", "tictactoe"}
TAPPABLE_TARGETS = {"burgbaumeister", "callisto", "campanile", "kensington", "scalino", "scalino-pyramid", "tictactoe"}


def svg(body: str, width: int = 300) -> str:
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} 100" width="{width}">{body}</svg>'


class SixPixelText(TicTacToe):
    """Tic-tac-toe with a caption drawn 1200 units wide at 10 units: 6 px at 720 px."""

    def render_svg(self, view, moves):
        return (super().render_svg(view, moves).replace('viewBox="0 0 300 300"', 'viewBox="0 0 1200 300"')
                .replace("</svg>", '<text x="310" y="20" font-size="10">X to move</text></svg>'))


def test_the_kit_catches_six_pixel_text_in_a_game_that_opted_in():
    with pytest.raises(AssertionError) as caught:
        run_conformance(SixPixelText(), seats=2, playouts=2, legible_text=True)
    assert "text 'X to move' is 6.0 px at 720 px wide (at least 10)" in str(caught.value)


def test_the_kit_lists_small_text_without_failing_a_game_that_did_not_opt_in():
    report = run_conformance(SixPixelText(), seats=2, playouts=2)
    assert report.legibility == ["text 'X to move' is 6.0 px at 720 px wide (at least 10)"]


def test_text_size_follows_attributes_styles_css_and_transforms():
    # 300 units drawn 720 px wide: 2.4 px per unit.
    assert text_problems(svg('<text font-size="5">ok at 12 px</text>')) == []
    assert [p.what for p in text_problems(svg('<g font-size="4"><text>inherited 9.6 px</text></g>'))] == \
        ["'inherited 9.6 px'"]
    assert [round(p.pixels, 1) for p in text_problems(svg('<text style="font-size: 3px" font-size="9">a</text>'))] == [7.2]
    assert [p.what for p in text_problems(svg('<style>.tiny { font-size: 3px }</style>'
                                              '<text class="tiny">b</text><text>c</text>'))] == ["'b'"]
    assert [p.what for p in text_problems(svg('<g transform="scale(0.5)"><text font-size="6">d</text></g>'))] == ["'d'"]
    assert text_problems(svg('<text font-size="3"> </text>')) == []  # nothing to read


def test_move_targets_are_measured_on_their_shorter_side():
    assert [p.what for p in target_problems(svg('<rect data-move="a" width="40" height="8"/>'))] == ["'a'"]  # 19.2 px
    assert target_problems(svg('<rect data-move="a" width="40" height="10"/>')) == []  # 24 px
    assert [p.what for p in target_problems(svg('<circle data-move="c" r="4"/>'))] == ["'c'"]
    assert target_problems(svg('<g data-move="g"><rect width="20" height="10"/><text>Go</text></g>')) == []
    assert target_problems(svg('<path data-move="p" d="M0 0h1"/>')) == []  # not measured


def _positions(game, seats: int, moves: int = 40):
    """Every seat's and a spectator's view at each step of one random game."""
    rng = random.Random(7)
    state = game.setup(seats, game.default_options(), rng)
    for _ in range(moves):
        for viewer in [*range(seats), None]:
            yield game.view(state, viewer), game.legal_moves(state, viewer) if viewer is not None else []
        to_move = game.to_move(state)
        if not to_move:
            return
        seat = to_move[0]
        state = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)).args, rng)


@pytest.mark.parametrize("game_id", sorted(load_catalog().games))
def test_each_games_picture_is_legible_at_720_px(game_id):
    """Opted-in checks must pass; the others are reported (an expected failure lists them)."""
    game = load_catalog().games[game_id].game
    required, reported = set(), set()
    for view, moves in _positions(game, game.min_players):
        picture = game.render_svg(view, moves)
        for kind, problems in (("text", text_problems(picture)), ("target", target_problems(picture))):
            opted_in = game_id in (LEGIBLE_TEXT if kind == "text" else TAPPABLE_TARGETS)
            (required if opted_in else reported).update(str(problem) for problem in problems)
    assert not required, sorted(required)[:5]
    if reported:
        pytest.xfail(f"not opted in yet: {len(reported)} problems, e.g. {sorted(reported)[:3]}")
