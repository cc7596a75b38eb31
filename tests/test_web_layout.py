"""The game page's layout, board first, in a real browser (clients/web/e2e/layout.mjs driving Debian's chromium)
against a real host: for every shipped game and every player count it accepts, a match brought to mid-game over
the API is opened as its human seat at 1280x800 and at 390x844.

On the desktop the board (the player's hand is drawn in it), the legal moves and the last move are on the screen
together without scrolling; on the phone every control and board target is at least 32 px, every text at least
10 px, and nothing is wider than the screen; axe-core finds no serious or critical violation on the lobby, every
game's page and every game's replay, in the light and the dark theme. Screenshots of every game at both sizes go to
ci-artifacts/screenshots/layout/.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
from gamehost.v1 import gamehost_pb2 as pb

from hosts import wait_for

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "clients" / "web"
SCREENSHOTS = ROOT / "ci-artifacts" / "screenshots" / "layout"
SCENARIO_TIMEOUT = 600
# Own moves played before the page is opened: far enough into a match that hands, piles and boards are filled in,
# short of any game's end.
OWN_MOVES = 4
TARGET_PX = 32
TEXT_PX = 10
# The games this repository ships (its plugins/), not the test fixtures' plugins the test hosts also load.
SHIPPED = {tomllib.loads(project.read_text())["project"]["name"] for project in ROOT.glob("plugins/*/pyproject.toml")}
OVER = (pb.MATCH_STATUS_FINISHED, pb.MATCH_STATUS_ABANDONED, pb.MATCH_STATUS_ABORTED)


@pytest.fixture(scope="module")
def layout_host(web_host):
    return web_host


def to_move(client, match: str, token: str) -> pb.View:
    """The seat's view once it is to move or the match is over (bots answer at once on test hosts)."""
    seen: list[pb.View] = []

    def ready() -> bool:
        seen.append(client.view(match, token))
        return seen[-1].seat in seen[-1].to_move or seen[-1].status in OVER

    assert wait_for(ready, timeout=60), f"{match}: seat never came to move"
    return seen[-1]


def mid_game(client, game: pb.Game, players: int) -> dict:
    """A match of `game` at `players` seats, bots on every seat but the first, after OWN_MOVES random moves of the
    first seat, with the first seat to move; its token for the page. Seeds are tried in turn until one is that far
    into a match still being played."""
    for seed in range(1, 20):
        match = client.create_match(game.id, seats=players, bots=range(1, players), bot="random", seed=seed).name
        token = client.join(match, seat=0, player_name="Ann").player_token
        choose = random.Random(seed)
        view = to_move(client, match, token)
        for _ in range(OWN_MOVES):
            if view.status in OVER:
                break
            client.move(match, token, move_id=choose.choice(view.legal_moves).id, expected_version=view.version)
            view = to_move(client, match, token)
        if view.status == pb.MATCH_STATUS_ACTIVE:
            return {"game": game.id, "players": players, "match": match.split("/")[1], "token": token, "seat": 0}
    raise AssertionError(f"no seed brought {game.id} at {players} players to mid-game")


def finished(client, game: pb.Game) -> dict:
    """A match of `game` played to its end by random bots, for its replay."""
    match = client.create_match(game.id, seats=min(game.player_counts), bots=range(min(game.player_counts)),
                                bot="random", seed=7).name
    assert wait_for(lambda: client.match(match).status == pb.MATCH_STATUS_FINISHED, timeout=120), match
    return {"game": game.id, "match": match.split("/")[1], "version": client.match(match).version}


def measure(layout_host, tmp_path: Path, part: str) -> dict:
    """The scenario's measurements of every game at every player count and both sizes (``part`` "sizes"), or
    its axe runs (``part`` "accessibility")."""
    with layout_host.client() as client:
        games = sorted((game for game in client.games() if game.plugin.split()[0] in SHIPPED), key=lambda game: game.id)
        midgame = []
        for game in games:
            for players in sorted(game.player_counts):
                # axe runs on one page of each game (its smallest count): the page's frame is the same for all.
                midgame.append({**mid_game(client, game, players), "axe": players == min(game.player_counts)})
        cases = {"midgame": midgame, "finished": [finished(client, game) for game in games]}
    file = tmp_path / "cases.json"
    file.write_text(json.dumps(cases))
    if part == "sizes":
        shutil.rmtree(SCREENSHOTS, ignore_errors=True)
    done = subprocess.run([shutil.which("node") or "node", str(WEB / "e2e" / "layout.mjs"), "--target",
                           layout_host.web_url, "--cases", str(file), "--out", str(SCREENSHOTS), "--part", part],
                          capture_output=True, text=True, timeout=SCENARIO_TIMEOUT, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, f"layout.mjs failed:\n{done.stderr[-4000:]}"
    return {"games": [game.id for game in games], "cases": cases, **json.loads(done.stdout.strip().splitlines()[-1])}


def inside(box: dict, viewport: dict) -> bool:
    # Half a pixel of rounding on either side.
    return (box["left"] >= -0.5 and box["top"] >= -0.5 and box["right"] <= viewport["width"] + 0.5
            and box["bottom"] <= viewport["height"] + 0.5)


def check_every_game_and_player_count_was_measured_at_both_sizes(measured: dict) -> None:
    games = measured["games"]
    assert {"tictactoe", "campanile", "callisto", "burgbaumeister", "scalino", "kensington"} <= set(games)
    shown = [(entry["game"], entry["players"], entry["size"]) for entry in measured["measured"]]
    assert shown == [(case["game"], case["players"], size) for size in ("desktop", "phone")
                     for case in measured["cases"]["midgame"]]
    for entry in measured["measured"]:
        assert Path(entry["file"]).read_bytes().startswith(b"\x89PNG"), entry["file"]
        assert entry["legal"] > 0 and entry["board"], (entry["game"], entry["players"], entry["size"])


def check_on_a_desktop_the_board_the_moves_and_the_last_move_show_together_without_scrolling(measured: dict) -> None:
    for entry in (entry for entry in measured["measured"] if entry["size"] == "desktop"):
        where = (entry["game"], entry["players"])
        assert entry["viewport"] == {"width": 1280, "height": 800}
        # The whole picture, the hand drawn in it included.
        assert inside(entry["board"], entry["viewport"]), (where, entry["board"])
        assert inside(entry["moves"], entry["viewport"]), (where, entry["moves"])
        assert inside(entry["firstMove"], entry["viewport"]), (where, entry["firstMove"])
        assert inside(entry["turn"], entry["viewport"]), (where, entry["turn"])
        assert entry["lastMoveText"] and inside(entry["lastMove"], entry["viewport"]), (where, entry["lastMove"])
        # Big enough to play on: the board takes most of the screen's height or of its width.
        assert entry["board"]["height"] >= 0.6 * 800 or entry["board"]["width"] >= 0.5 * 1280, (where, entry["board"])


def check_on_a_phone_every_target_is_big_enough_to_tap_and_every_text_to_read(measured: dict) -> None:
    for entry in (entry for entry in measured["measured"] if entry["size"] == "phone"):
        where = (entry["game"], entry["players"])
        small = [target for target in entry["targets"] if min(target["width"], target["height"]) < TARGET_PX]
        assert small == [], where
        tiny = [font for font in entry["fonts"] if font["size"] < TEXT_PX]
        assert tiny == [], where
        # Nothing is cut off: the page is no wider than the screen (a zoomed board pans inside its frame).
        assert entry["scrollWidth"] <= entry["viewport"]["width"], where
        assert inside(entry["turn"], entry["viewport"]), (where, entry["turn"])


def check_the_boards_words_read_against_what_they_are_drawn_on(measured: dict) -> None:
    for entry in (entry for entry in measured["measured"] if entry["size"] == "desktop"):
        assert entry["lowContrast"] == [], (entry["game"], entry["players"])


def check_board_targets_are_marked_without_hovering(measured: dict) -> None:
    for entry in measured["measured"]:
        assert entry["unmarkedTargets"] == [], (entry["game"], entry["players"], entry["size"])


def check_no_serious_accessibility_violation_in_either_theme(measured: dict) -> None:
    pages = [(result["page"], result["colorScheme"]) for result in measured["accessibility"]]
    assert pages == [(page, scheme) for page in ["lobby", *(f"game {game}" for game in measured["games"]),
                                                 *(f"replay {game}" for game in measured["games"])]
                     for scheme in ("light", "dark")]
    # The dark theme was on: every page's background differs from its light one.
    backgrounds = {(result["page"], result["colorScheme"]): result["background"] for result in measured["accessibility"]}
    assert all(backgrounds[page, "light"] != backgrounds[page, "dark"] for page, _ in backgrounds), backgrounds
    serious = [(result["page"], result["colorScheme"], violation) for result in measured["accessibility"]
               for violation in result["violations"]]
    assert serious == []


# Two browser runs, each one test: split further, pytest-xdist's work stealing could run a scenario's setup once
# per worker.
@pytest.mark.long_running
@pytest.mark.timeout(SCENARIO_TIMEOUT + 120)
def test_every_game_page_is_board_first_on_a_desktop_and_tappable_on_a_phone(layout_host, tmp_path):
    measured = measure(layout_host, tmp_path, "sizes")
    check_every_game_and_player_count_was_measured_at_both_sizes(measured)
    check_on_a_desktop_the_board_the_moves_and_the_last_move_show_together_without_scrolling(measured)
    check_on_a_phone_every_target_is_big_enough_to_tap_and_every_text_to_read(measured)
    check_board_targets_are_marked_without_hovering(measured)
    check_the_boards_words_read_against_what_they_are_drawn_on(measured)


@pytest.mark.long_running
@pytest.mark.timeout(SCENARIO_TIMEOUT + 120)
def test_the_lobby_every_game_page_and_every_replay_are_accessible_in_both_themes(layout_host, tmp_path):
    check_no_serious_accessibility_violation_in_either_theme(measure(layout_host, tmp_path, "accessibility"))
