"""Der Wettkampf der Burgbaumeister in French over a real host: a whole match
of the points variant played through the generic protocol with locale "fr",
each view's labels, text and SVG in the French rules' words (rempart, face
cachée, carte retournée), the log and the result too, a spectator's view as
well; the same match asked in English is exactly what a client asking no
language gets."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hosts import HostProcess

import gamehost_burgbaumeister
from gamehost.testing.english_leaks import english_phrases
from gamehost.v1 import gamehost_pb2 as pb

CATALOGUE = Path(gamehost_burgbaumeister.__file__).parent / "locale" / "fr" / "LC_MESSAGES" / "messages.po"
RENDER = pb.RenderOptions(text=True, svg=True)
FRENCH_LABEL = re.compile(r"^(Retourner la carte en|Intégrer la carte en|Magicien : insérer la carte en|"
                          r"Reposer face cachée la carte en) [A-E][1-9]|^Canon : enlever le \d+ du rempart de Joueur \d")
ENGLISH_LABEL = re.compile(r"^(Turn up the card at|Take the card at|Magician: insert the card at|Turn the card at) "
                           r"[A-E][1-9]|^Cannon: remove \d+ from Player \d's wall$")
SVG_WORDS = re.compile(r">([^<>]+)<")


ENGLISH = english_phrases(CATALOGUE, shortest=4)


def words_of(view: pb.View) -> list[str]:
    """Every word a view shows a person: labels, parts, result, text picture, the SVG's text."""
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


def choose(view: pb.View, rng: random.Random) -> pb.LegalMove:
    """Any face-down card; then the magician, a take, or turning it back; a cannon's first target."""
    moves = {move.id: move for move in view.legal_moves}
    for preferred in ("magician", "take", "decline"):
        if preferred in moves:
            return moves[preferred]
    return rng.choice(list(view.legal_moves)) if view.legal_moves[0].id.startswith("reveal:") else view.legal_moves[0]


def test_a_whole_points_match_in_french_and_the_same_in_english(client):
    assert ENGLISH, "the catalogue's English words were found"
    match = client.create_match("burgbaumeister", seats=2, seed=7, options={"special_cards": True})
    tokens = [client.join(match.name).player_token for _ in range(2)]
    rng = random.Random(7)
    seen = {"reveal": False, "decide": False}
    for step in range(2000):
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
        assert all(FRENCH_LABEL.match(move.label) for move in view.legal_moves), [m.label for m in view.legal_moves]
        assert "Ro roi, Re reine, Pr prince, Ps princesse, Co/CC corbeaux, Ca canon" in view.text
        assert f"Joueur {seat + 1}</text>" in view.svg
        if view.legal_moves[0].id.startswith("reveal:"):
            seen["reveal"] = True
            assert re.match(rf"^Tour \d+ : Joueur {seat + 1} retourne une carte face cachée\.$", view.text.splitlines()[0])
        if "decline" in {move.id for move in view.legal_moves}:
            seen["decide"] = True
            assert "Carte retournée en " in view.text and "prend la carte retournée ou la repose face cachée" in view.text
        english = client.stub.GetView(pb.GetViewRequest(name=match.name, player_token=tokens[seat], render=RENDER,
                                                        locale="en"))
        plain = client.stub.GetView(asked)
        assert english.locale == "en" and plain.locale == ""
        english.ClearField("locale")
        assert english == plain  # field by field: serialized Struct maps need not keep one order
        assert all(ENGLISH_LABEL.match(move.label) for move in plain.legal_moves)
        move = choose(view, rng)
        client.stub.SubmitMove(pb.SubmitMoveRequest(name=match.name, player_token=tokens[seat], move_id=move.id))
    else:
        pytest.fail("the match did not end")
    assert all(seen.values())

    final = client.stub.GetView(pb.GetViewRequest(name=match.name, render=RENDER, locale="fr"))
    assert re.search(r"(gagne|se partagent la victoire) avec \d+ points?\.$", final.result.summary), \
        final.result.summary
    assert final.text.startswith("Partie terminée après ")

    log = client.stub.GetMatchLog(pb.GetMatchLogRequest(name=match.name, locale="fr"))
    assert log.locale == "fr" and log.result.summary == final.result.summary
    labels = [event.label for event in log.events if event.kind == pb.EVENT_KIND_MOVED]
    assert labels and all(FRENCH_LABEL.match(label) for label in labels), labels
    assert_french(labels + [log.result.summary], "the log")

    english_log = client.stub.GetMatchLog(pb.GetMatchLogRequest(name=match.name, locale="en"))
    plain_log = client.stub.GetMatchLog(pb.GetMatchLogRequest(name=match.name))
    english_log.ClearField("locale")
    assert english_log == plain_log
    assert all(ENGLISH_LABEL.match(event.label) for event in plain_log.events if event.kind == pb.EVENT_KIND_MOVED)
    assert re.search(r"(wins|share the win) with \d+ points?\.$", plain_log.result.summary)


def test_the_catalog_gives_the_summary_in_french(client):
    game = client.stub.GetGame(pb.GetGameRequest(name="games/burgbaumeister", locale="fr"))
    assert game.locale == "fr"
    assert game.summary.startswith("Retournez les cartes face cachée une à une")
    assert game.title == "Der Wettkampf der Burgbaumeister"  # the game's own name, in every language
