"""How to play: every shipped game's rules for a newcomer, served by the catalog
in the asked language over a real host, option and variant texts written for
players, the conformance kit refusing a game without the rules (or with a
paragraph a declared language lacks), and the web page's "How to play"
dialog in the lobby and on the match page, in English and in French."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from gamehost.client.structs import from_struct
from gamehost.host.plugins import load_catalog
from gamehost.sdk import Text
from gamehost.testing.conformance import run_conformance
from gamehost.testing.english_leaks import EnglishLeaks, words
from gamehost.v1 import gamehost_pb2 as pb
from gamehost_tictactoe.game import TicTacToe

from hosts import HostProcess

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "clients" / "web"
SCENARIO_TIMEOUT = 180
SHIPPED = ["burgbaumeister", "callisto", "campanile", "kensington", "scalino", "scalino-pyramid", "tictactoe"]
CATALOG = load_catalog()
# What a player never saw: the spec's markers and section numbers belong in docs/games/, not in the catalog.
DEVELOPER_WORDS = re.compile(r"PROPOSED|PROPOSÉ|\bspec\b|§|\[FR\]|Ambiguity|Ambiguïté|German reviews|termination guard",
                             re.IGNORECASE)


@pytest.fixture(scope="module")
def host():
    process = HostProcess().start()
    yield process
    process.stop()


@pytest.fixture(scope="module")
def client(host):
    with host.client() as connected:
        yield connected


def test_every_shipped_game_is_served():
    # Guards the parametrizations below against checking fewer games than we ship.
    assert set(SHIPPED) <= set(CATALOG.games)


@pytest.mark.parametrize("game_id", SHIPPED)
def test_get_game_serves_the_rules_in_english_and_in_french(client, game_id):
    game = CATALOG.games[game_id].game
    english = client.stub.GetGame(pb.GetGameRequest(name=f"games/{game_id}", locale="en"))
    french = client.stub.GetGame(pb.GetGameRequest(name=f"games/{game_id}", locale="fr"))
    unasked = client.stub.GetGame(pb.GetGameRequest(name=f"games/{game_id}"))

    assert english.how_to_play == unasked.how_to_play == "\n\n".join(game.how_to_play)
    assert 120 <= len(english.how_to_play.split()) <= 260, "a newcomer's text: about 120 to 250 words"
    assert french.locale == "fr" and french.how_to_play and french.how_to_play != english.how_to_play
    assert french.how_to_play.count("\n\n") == english.how_to_play.count("\n\n")  # one translation per paragraph
    leaks = EnglishLeaks.of_games([game], "fr")
    assert not leaks.words_in(french.how_to_play)
    assert {"tour", "partie"} & words(french.how_to_play)  # French, not English a detector missed
    listed = {g.id: g for g in client.stub.ListGames(pb.ListGamesRequest(locale="fr")).games}
    assert listed[game_id].how_to_play == french.how_to_play


@pytest.mark.parametrize("game_id", SHIPPED)
def test_option_and_variant_texts_are_for_players(client, game_id):
    for locale in ("en", "fr"):
        game = client.stub.GetGame(pb.GetGameRequest(name=f"games/{game_id}", locale=locale))
        schema = from_struct(game.options_schema)
        said = [spec.get("description", "") for spec in schema.get("properties", {}).values()]
        said += [text for variant in game.variants for text in (variant.title, variant.description)]
        said += [game.summary, game.how_to_play]
        assert not [text for text in said if DEVELOPER_WORDS.search(text)], locale


class WithoutRules(TicTacToe):
    """Tic-tac-toe as a plugin that ships no rules for players."""

    how_to_play = ()


class WithAnUntranslatedParagraph(TicTacToe):
    how_to_play = (*TicTacToe.how_to_play, Text("**Another tip.** The corners belong to three lines each."))


def test_the_kit_fails_a_game_without_how_to_play():
    with pytest.raises(AssertionError) as failed:
        run_conformance(WithoutRules(), seats=2, playouts=1)
    assert "tictactoe has no how-to-play text: set Game.how_to_play" in str(failed.value)


def test_the_kit_fails_a_how_to_play_paragraph_missing_in_a_declared_language():
    with pytest.raises(AssertionError) as failed:
        run_conformance(WithAnUntranslatedParagraph(), seats=2, playouts=1)
    assert ("paragraph 6 of how_to_play: '**Another tip.** The corners belong to three lines each.' "
            "has no fr translation") in str(failed.value)


def test_the_kit_passes_tictactoe_with_its_rules():
    report = run_conformance(TicTacToe(), seats=2, playouts=2)
    assert report.playouts == 2 and report.words is not None and not report.words.problems


# ------------------------------------------------------------ the page

def open_how_to_play(target: str, games: list[str], language: str) -> dict:
    command = [shutil.which("node") or "node", str(WEB / "e2e" / "how-to-play.mjs"), "--target", target,
               "--games", ",".join(games), "--language", language]
    done = subprocess.run(command, capture_output=True, text=True, timeout=SCENARIO_TIMEOUT, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, f"how-to-play.mjs failed:\n{done.stderr[-4000:]}"
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("language, button, heading", [
    ("en", "How to play", "How to play {title}"),
    ("fr", "Comment jouer", "Comment jouer à {title}"),
])
def test_the_page_opens_how_to_play_in_the_lobby_and_during_a_match(web_host, language, button, heading):
    games = ["tictactoe", "campanile"]
    shown = open_how_to_play(web_host.web_url, games, language)
    assert shown["lang"] == language
    for game_id in games:
        served = CATALOG.games[game_id].game
        with web_host.client() as connected:
            game = connected.stub.GetGame(pb.GetGameRequest(name=f"games/{game_id}", locale=language))
        lobby = shown["lobby"][game_id]
        assert lobby["label"] == button and lobby["heading"] == heading.format(title=game.title)
        assert lobby["closed"] and not lobby["unexpected"]  # nothing but the Markdown subset the renderer makes
        assert "STRONG" in lobby["tags"] and "**" not in lobby["text"]  # the Markdown is rendered, not shown
        first_words = re.sub(r"\*+", "", game.how_to_play.split("\n\n")[0])
        assert first_words in lobby["text"]
        if language == "fr":
            assert not EnglishLeaks.of_games([served], "fr").words_in(lobby["text"] + " " + lobby["heading"])
    assert "PRE" in shown["lobby"]["tictactoe"]["tags"]  # the grid diagram, as a block of text
    assert "OL" in shown["lobby"]["campanile"]["tags"]  # the turn's three steps, numbered
    match = shown["match"]
    assert match["label"] == button and match["closed"] and match["status"]
    assert match["heading"] == shown["lobby"]["tictactoe"]["heading"] and match["text"] == shown["lobby"]["tictactoe"]["text"]
