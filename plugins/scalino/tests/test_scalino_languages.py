"""Scalino and Démonte la pyramide in French over a real host: whole matches
played through the generic protocol with locale "fr", each view's labels,
parts, text and SVG in the French rules' words (pièce, case, niveau,
escalier), the log and the result too, a spectator's view as well; the same
match asked in English is exactly what a client asking no language gets."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hosts import HostProcess

import gamehost_scalino
from gamehost.testing.english_leaks import english_phrases
from gamehost.v1 import gamehost_pb2 as pb

CATALOGUE = Path(gamehost_scalino.__file__).parent / "locale" / "fr" / "LC_MESSAGES" / "messages.po"
RENDER = pb.RenderOptions(text=True, svg=True)
COLOURS = "(rouge|bleue|jaune|verte)"
PIECE = rf"ièce {COLOURS} (d'une case|de [23] cases)"
FRENCH_LABEL = {
    "scalino": re.compile(rf"^P{PIECE} en [a-g][1-7](-[a-g][1-7])? \(niveau [1-4]\)$"),
    "scalino-pyramid": re.compile(rf"^Prendre la p{PIECE} en [a-g][1-7](-[a-g][1-7])? \(niveau [1-4]\)$"),
}
FRENCH_PART = re.compile(rf"^(p{PIECE}(, horizontale|, verticale)?|[a-g][1-7])$")
ENGLISH_LABEL = {
    "scalino": re.compile(r"^(Red|Blue|Yellow|Green) (single|[23]-cell bar) on \S+ \(level [1-4]\)$"),
    "scalino-pyramid": re.compile(r"^Take the (red|blue|yellow|green) (single|[23]-cell bar) on \S+ \(level [1-4]\)$"),
}
SVG_WORDS = re.compile(r">([^<>]+)<")


ENGLISH = english_phrases(CATALOGUE, shortest=3)


def words_of(view: pb.View) -> list[str]:
    """Every word a view shows a person: labels, parts, result, text picture, the SVG's text and titles."""
    words = [move.label for move in view.legal_moves] + [part.label for m in view.legal_moves for part in m.parts]
    return words + [view.result.summary, view.text, *SVG_WORDS.findall(view.svg)]


def assert_french(words: list[str], where: str) -> None:
    for word in words:
        leaks = [pattern.pattern for pattern in ENGLISH if pattern.search(word)]
        assert not leaks, f"English {leaks} in {word!r} ({where})"


@pytest.fixture(scope="module")
def client():
    host = HostProcess().start()
    try:
        with host.client() as connected:
            yield connected
    finally:
        host.stop()


@pytest.mark.parametrize(("game", "seats"), [("scalino", 2), ("scalino-pyramid", 3)])
def test_a_whole_match_in_french_and_the_same_in_english(client, game, seats):
    assert ENGLISH, "the catalogue's English words were found"
    match = client.create_match(game, seats=seats, seed=11)
    tokens = [client.join(match.name).player_token for _ in range(seats)]
    rng = random.Random(11)
    for step in range(200):
        spectator = client.stub.GetView(pb.GetViewRequest(name=match.name, render=RENDER, locale="fr"))
        assert spectator.locale == "fr" and spectator.seat == -1
        assert_french(words_of(spectator), f"spectator, step {step}")
        if spectator.status == pb.MATCH_STATUS_FINISHED:
            break
        seat = spectator.to_move[0]
        asked = pb.GetViewRequest(name=match.name, player_token=tokens[seat], render=RENDER)
        view = client.stub.GetView(pb.GetViewRequest(name=match.name, player_token=tokens[seat], render=RENDER,
                                                     locale="fr"))
        assert view.locale == "fr"
        assert_french(words_of(view), f"seat {seat}, step {step}")
        labels = [move.label for move in view.legal_moves]
        assert labels and all(FRENCH_LABEL[game].match(label) for label in labels), labels
        assert all(FRENCH_PART.match(part.label) for move in view.legal_moves for part in move.parts)
        if game == "scalino":
            assert re.match(rf"^Scalino : Joueur {seat + 1} \((rouge/jaune|bleu/vert)\) pose une pièce",
                            view.text.splitlines()[0])
            assert "Majuscule : au plus haut niveau possible (comptée)" in view.text
            assert "Choisissez une pièce, puis la case où elle commence :" in view.svg
            assert re.search(r"Joueur \d (rouge|bleu|jaune|vert) : en main \d x 1, \d x 2, \d x 3 ; escaliers ",
                             view.text)
        else:
            assert re.match(rf"^Démonte la pyramide : Joueur {seat + 1} prend (encore )?une pièce",
                            view.text.splitlines()[0])
            assert f"<title>{labels[0]}</title>".replace("'", "&#x27;") in view.svg
        english = client.stub.GetView(pb.GetViewRequest(name=match.name, player_token=tokens[seat], render=RENDER,
                                                        locale="en"))
        plain = client.stub.GetView(asked)
        assert english.locale == "en" and plain.locale == ""
        english.ClearField("locale")
        assert english == plain  # field by field: serialized Struct maps need not keep one order
        assert all(ENGLISH_LABEL[game].match(move.label) for move in plain.legal_moves)
        move = rng.choice(list(view.legal_moves))
        client.stub.SubmitMove(pb.SubmitMoveRequest(name=match.name, player_token=tokens[seat], move_id=move.id))
    else:
        pytest.fail("the match did not end")

    final = client.stub.GetView(pb.GetViewRequest(name=match.name, render=RENDER, locale="fr"))
    assert re.search(r"(gagne|se partagent la victoire) avec -?\d+ points\.$", final.result.summary), \
        final.result.summary
    assert final.text.splitlines()[0] in ("Scalino : partie terminée.", "Démonte la pyramide : partie terminée.")
    assert "Partie terminée" in final.svg

    log = client.stub.GetMatchLog(pb.GetMatchLogRequest(name=match.name, locale="fr"))
    assert log.locale == "fr" and log.result.summary == final.result.summary
    labels = [event.label for event in log.events if event.kind == pb.EVENT_KIND_MOVED]
    assert labels and all(FRENCH_LABEL[game].match(label) for label in labels), labels
    assert_french(labels + [log.result.summary], "the log")

    english_log = client.stub.GetMatchLog(pb.GetMatchLogRequest(name=match.name, locale="en"))
    plain_log = client.stub.GetMatchLog(pb.GetMatchLogRequest(name=match.name))
    english_log.ClearField("locale")
    assert english_log == plain_log
    assert all(ENGLISH_LABEL[game].match(event.label) for event in plain_log.events if event.kind == pb.EVENT_KIND_MOVED)
    assert re.search(r"(wins|share the win) with -?\d+ points\.$", plain_log.result.summary)


def test_the_catalog_names_both_games_in_french(client):
    scalino = client.stub.GetGame(pb.GetGameRequest(name="games/scalino", locale="fr"))
    pyramid = client.stub.GetGame(pb.GetGameRequest(name="games/scalino-pyramid", locale="fr"))
    assert (scalino.locale, pyramid.locale) == ("fr", "fr")
    assert scalino.summary.startswith("Construisez ensemble une pyramide de quatre niveaux")
    assert pyramid.title == "Scalino : Démonte la pyramide"
