"""Campanile played in French over a real host: every word a seat or a
spectator sees (move labels, the log, the result, the text picture, the SVG,
a replayed view) comes from the French catalogue, in the French rules' own
terms; the same match asked in English reads as it always did."""

from __future__ import annotations

import random
import re
import string
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from gamehost.v1 import gamehost_pb2 as pb
from hosts import HostProcess

import gamehost_campanile

CATALOGUE = Path(gamehost_campanile.__file__).parent / "locale" / "fr" / "LC_MESSAGES" / "messages.po"
RENDER = pb.RenderOptions(text=True, svg=True)


@pytest.fixture(scope="module")
def host():
    process = HostProcess().start(timeout=90)  # beside the conformance sweep's workers a host starts slowly
    yield process
    process.stop()


@pytest.fixture(scope="module")
def client(host):
    with host.client() as connected:
        yield connected


def catalogue() -> dict[str, str]:
    with CATALOGUE.open("rb") as file:
        return {message.id: message.string for message in read_po(file) if message.id}


def english_fragments() -> list[str]:
    """The English words of each message whose French differs, cut at its
    placeholders, that no French message says as well ("pile" is both)."""
    messages = catalogue()
    french = " ".join(literal for msgstr in messages.values() for literal, _, _, _ in string.Formatter().parse(msgstr))
    fragments = set()
    for msgid, msgstr in messages.items():
        if msgid == msgstr:
            continue
        for literal, _, _, _ in string.Formatter().parse(msgid):
            fragment = literal.strip(" ,;:.()+")
            if re.search("[A-Za-z]", fragment) and fragment not in french:
                fragments.add(fragment)
    return sorted(fragments)


ENGLISH = english_fragments()


def english_in(text: str) -> list[str]:
    return [fragment for fragment in ENGLISH if re.search(rf"(?<!\w){re.escape(fragment)}(?!\w)", text)]


def svg_words(svg: str) -> str:
    """The words an SVG shows (its text and titles), not its move ids."""
    return "\n".join("".join(element.itertext()) for element in ElementTree.fromstring(svg).iter()
                     if element.tag.rsplit("}", 1)[-1] in ("text", "title"))


def shown(view: pb.View) -> dict[str, str]:
    """What a view shows a person, by where."""
    words = {"text": view.text, "svg": svg_words(view.svg), "result": view.result.summary}
    for move in view.legal_moves:
        words[f"label of {move.id}"] = move.label
        for part in move.parts:
            words[f"label of part {part.id} of {move.id}"] = part.label
    return words


def choose(moves, rng: random.Random):
    """Mostly one-storey builds (the game ends sooner) and bets where offered, so that every kind of label shows."""
    bets = [move for move in moves if move.id.startswith("bet:")]
    if bets and rng.random() < 0.6:
        return rng.choice(bets)
    ones = [move for move in moves if move.id.endswith(":1") and move.id.startswith("build:")]
    return rng.choice(ones if ones and rng.random() < 0.7 else list(moves))


def log_events(client, name: str, token: str = "", locale: str = "") -> list[pb.MatchEvent]:
    events, page = [], ""
    while True:
        answer = client.stub.GetMatchLog(pb.GetMatchLogRequest(name=name, player_token=token, page_token=page,
                                                               locale=locale))
        events += answer.events
        page = answer.next_page_token
        if not page:
            return events


@pytest.fixture(scope="module")
def french_match(client):
    """A whole two-seat match played through French views: the match's name,
    the seats' tokens, every view seen (seats and a spectator) and the French
    labels of the moves played, in order."""
    match = client.create_match("campanile", seats=2, seed=32)
    tokens = [client.join(match.name).player_token for _ in range(2)]
    rng = random.Random(32)
    seen: list[tuple[str, pb.View]] = []
    played: list[str] = []
    while True:
        spectator = client.stub.GetView(pb.GetViewRequest(name=match.name, render=RENDER, locale="fr"))
        seen.append(("spectator", spectator))
        if spectator.status == pb.MATCH_STATUS_FINISHED:
            break
        seat = spectator.to_move[0]
        view = client.stub.GetView(pb.GetViewRequest(name=match.name, player_token=tokens[seat], render=RENDER,
                                                     locale="fr"))
        assert view.locale == "fr"
        seen.append((f"seat {seat}", view))
        move = choose(view.legal_moves, rng)
        played.append(move.label)
        client.stub.SubmitMove(pb.SubmitMoveRequest(name=match.name, player_token=tokens[seat], move_id=move.id))
    for seat, token in enumerate(tokens):
        seen.append((f"seat {seat} at the end", client.stub.GetView(pb.GetViewRequest(
            name=match.name, player_token=token, render=RENDER, locale="fr"))))
    return match.name, tokens, seen, played


def test_every_word_of_a_french_match_is_french(french_match):
    _, _, seen, _ = french_match
    assert ENGLISH, "the catalogue has English words to look for"
    leaks = {f"{who} v{view.version} {where}: {english_in(words)}"
             for who, view in seen for where, words in shown(view).items() if english_in(words)}
    assert not leaks


def test_the_views_say_the_french_rules_terms(french_match):
    _, _, seen, played = french_match
    labels = {move.label for _, view in seen for move in view.legal_moves}
    assert any(re.fullmatch(r"Ajouter 1 étage à la tour S[1-5], puis piocher dans la pile 1", label) for label in labels)
    assert any(re.fullmatch(r"Ajouter [23] étages à la tour S[1-5], puis piocher dans la pile [23]", label)
               for label in labels)
    assert any(re.fullmatch(r"Parier un jeton de valeur [123] sur la tour S[1-5]", label) for label in labels)
    assert any(re.fullmatch(r"Ne pas parier ; prendre la carte du dessus de la pile [123]", label) for label in labels)
    assert any(label.startswith("Parier un jeton") for label in played)

    first = seen[1][1]  # the first seat's first view: its hand, its turn to build
    assert "Tours, de gauche à droite (en cas d'égalité, celle de gauche l'emporte) :" in first.text
    assert re.search(r"^  pile 1 : dessus S[1-5], 13 cartes$", first.text, re.MULTILINE)
    assert re.search(rf"^Main de Joueur {first.seat + 1} : S[1-5] S[1-5] S[1-5]$", first.text, re.MULTILINE)
    assert f"Au tour de Joueur {first.seat + 1} : construire." in first.text
    assert "Jetons restants : Joueur 1 : 5x1 3x2 1x3 ; Joueur 2 : 5x1 3x2 1x3" in first.text
    assert f"Main de Joueur {first.seat + 1} :" in svg_words(first.svg)
    assert "jetons 5x1 3x2 1x3" in svg_words(first.svg)
    assert any("pari 3" in svg_words(view.svg) or "pari 2" in svg_words(view.svg) for _, view in seen)

    spectator = seen[0][1]
    assert "Main de" not in spectator.text and "Main de" not in svg_words(spectator.svg)
    assert "Tours, de gauche à droite" in spectator.text and "paris : -" in spectator.text


def test_the_end_the_log_and_a_replay_come_in_french(client, french_match):
    name, tokens, seen, played = french_match
    end = seen[-1][1]
    assert re.fullmatch(r"Joueur [12] gagne avec \d+ points\.|Joueur 1, Joueur 2 se partagent la victoire "
                        r"avec \d+ points\.", end.result.summary)
    assert "Partie terminée." in end.text and re.search(r"^  drapeau 8/4 sur S[1-5] : ", end.text, re.MULTILINE)
    assert re.search(r"^  pas de drapeau sur S[1-5]$", end.text, re.MULTILINE)
    assert re.search(r"^Points : Joueur 1 : \d+, Joueur 2 : \d+$", end.text, re.MULTILINE)
    assert re.search(r"Points : Joueur 1 : \d+ · Joueur 2 : \d+", svg_words(end.svg))

    for token in ("", tokens[0]):
        events = log_events(client, name, token, "fr")
        moved = [event.label for event in events if event.kind == pb.EVENT_KIND_MOVED]
        assert moved == played
        assert not [label for label in moved if english_in(label)]
    match = client.stub.GetMatch(pb.GetMatchRequest(name=name, locale="fr"))
    assert (match.locale, match.result.summary) == ("fr", end.result.summary)

    watched = list(client.stub.WatchMatch(pb.WatchMatchRequest(name=name, render=RENDER, locale="fr"), timeout=30))
    assert [event.label for event in watched if event.kind == pb.EVENT_KIND_MOVED] == played
    replayed = client.stub.GetView(pb.GetViewRequest(name=name, render=RENDER, locale="fr", at_version=5))
    assert replayed.locale == "fr" and "Tours, de gauche à droite" in replayed.text
    assert not english_in(replayed.text) and not english_in(svg_words(replayed.svg))


def test_the_same_match_in_english_is_unchanged(client, french_match):
    name, tokens, _, played = french_match
    for token in ("", tokens[1]):
        plain = client.stub.GetView(pb.GetViewRequest(name=name, player_token=token, render=RENDER))
        english = client.stub.GetView(pb.GetViewRequest(name=name, player_token=token, render=RENDER, locale="en"))
        assert english.locale == "en" and plain.locale == ""
        english.ClearField("locale")
        # deterministic: the state's Struct is a map, whose order on the wire is not fixed otherwise
        assert english.SerializeToString(deterministic=True) == plain.SerializeToString(deterministic=True)
        assert "Towers, left to right (the left one wins a tie):" in plain.text and "Game over." in plain.text
        assert re.fullmatch(r"Player [12] wins with \d+ points\.|Player 1, Player 2 share the win with \d+ points\.",
                            plain.result.summary)
        assert re.search(r"Scores: Player 1: \d+ · Player 2: \d+", svg_words(plain.svg))
    moved = [event.label for event in log_events(client, name, locale="en") if event.kind == pb.EVENT_KIND_MOVED]
    assert moved == [event.label for event in log_events(client, name) if event.kind == pb.EVENT_KIND_MOVED]
    assert len(moved) == len(played)
    english_label = (r"Build tower S[1-5] up (1 storey|[23] storeys), then draw from pile [123]|"
                     r"Bet a [123]-chip on tower S[1-5]|(Bet nothing; d|D)raw the top card of pile [123]")
    assert [label for label in moved if not re.fullmatch(english_label, label)] == []
    assert any(re.fullmatch(r"Build tower S[1-5] up 1 storey, then draw from pile 1", label) for label in moved)
    assert any(re.fullmatch(r"Bet a [123]-chip on tower S[1-5]", label) for label in moved)


def test_the_catalog_names_campanile_in_french(client):
    game = client.stub.GetGame(pb.GetGameRequest(name="games/campanile", locale="fr"))
    assert (game.title, game.locale) == ("Campanile", "fr")
    assert game.summary == ("Construisez cinq tours rivales étage par étage et pariez vos jetons sur celles "
                            "qui seront les plus hautes.")
