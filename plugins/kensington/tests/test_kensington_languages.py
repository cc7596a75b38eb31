"""Kensington in French over a real host: a whole two-player match played
through the generic protocol with locale "fr", every view's move and part
labels, the log, the result, the text picture and the SVG in the words of the
French rules; a spectator's view too; the same match read in English is the
English it always was."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from gamehost.sdk.i18n import placeholders, read_catalogue
from gamehost.v1 import gamehost_pb2 as pb
from hosts import HostProcess

import gamehost_kensington

CATALOGUE = read_catalogue(Path(gamehost_kensington.__file__).parent / "locale" / "fr" / "LC_MESSAGES" / "messages.po")
RENDER = pb.RenderOptions(text=True, svg=True)
RENDER_EVERY = 6  # a picture every few steps keeps the match quick; the longest lines are always drawn
SEED = 11


def english_fragments() -> list[re.Pattern]:
    """The English words of each message whose French differs, as whole words: the text between its
    placeholders ("Draw a face-down", "wall"), none of which may show in a French answer. Single
    letters (the text picture's window letters) are left out: any word holds them."""
    patterns = []
    for msgid, msgstr in CATALOGUE.items():
        if msgid == msgstr:
            continue
        literal = msgid
        for name in placeholders(msgid):
            literal = literal.replace("{" + name + "}", "\0")
        for fragment in (part.strip(" ,.:;()[]") for part in literal.split("\0")):
            if len(fragment) >= 2 and re.search(r"[A-Za-z]{2}", fragment) and fragment not in CATALOGUE.values():
                patterns.append(re.compile(r"(?<!\w)" + re.escape(fragment) + r"(?!\w)"))
    return patterns


ENGLISH = english_fragments()


def english_in(words: str) -> list[str]:
    return [pattern.pattern for pattern in ENGLISH if pattern.search(words)]


def svg_words(svg: str) -> str:
    """The words an SVG shows (its texts and titles), without its attributes (move and part ids)."""
    return "\n".join(text for element in ElementTree.fromstring(svg).iter() for text in (element.text,) if text)


def overflowing_lines(svg: str) -> list[str]:
    """The lines of words (left-aligned texts) that would run past the picture's right edge, at a
    generous 0.55 of the font size per character: French words run longer than English ones."""
    root = ElementTree.fromstring(svg)
    width = float(root.get("viewBox").split()[2])
    return [text.text for text in root.iter("{http://www.w3.org/2000/svg}text")
            if text.text and text.get("text-anchor") is None
            and float(text.get("x")) + 0.55 * float(text.get("font-size")) * len(text.text) > width]


def choose(moves, rng: random.Random):
    """A builder's move: place a tile when one fits, else take one (brown backs first: roofs end the
    game sooner), else end the turn."""
    by_action: dict[str, list] = {}
    for move in moves:
        by_action.setdefault(move.id.split(":")[0], []).append(move)
    for action in ("place", "steal"):
        if by_action.get(action):
            return rng.choice(by_action[action])
    draws = by_action.get("draw", [])
    brown = [move for move in draws if move.id.startswith("draw:brown")]
    if brown and rng.random() < 0.6:
        return rng.choice(brown)
    if draws:
        return rng.choice(draws)
    return by_action["done"][0] if "done" in by_action else rng.choice(moves)


@pytest.fixture(scope="module")
def host():
    process = HostProcess().start()
    yield process
    process.stop()


@pytest.fixture(scope="module")
def french_match(host):
    """A whole match played in French: (match name, seat tokens, every French view the players saw)."""
    rng = random.Random(SEED)
    with host.client() as client:
        match = client.create_match("kensington", seats=2, seed=SEED)
        tokens = [client.join(match.name).player_token for _ in range(2)]
        views = []
        for step in range(3000):
            seats = client.stub.GetView(pb.GetViewRequest(name=match.name, locale="fr")).to_move
            if not seats:
                break
            view = client.stub.GetView(pb.GetViewRequest(name=match.name, player_token=tokens[seats[0]],
                                                         locale="fr", render=RENDER if step % RENDER_EVERY == 0 else None))
            if not view.text and (view.state["stolen"] or view.state["phase"] == "final-build"):
                view = client.stub.GetView(pb.GetViewRequest(name=match.name, player_token=tokens[seats[0]],
                                                             locale="fr", render=RENDER))
            views.append(view)
            move = choose(view.legal_moves, rng)
            client.stub.SubmitMove(pb.SubmitMoveRequest(name=match.name, player_token=tokens[seats[0]],
                                                        move_id=move.id, locale="fr"))
        else:
            pytest.fail("the match did not end in 3000 moves")
        finished = client.stub.GetView(pb.GetViewRequest(name=match.name, player_token=tokens[0], locale="fr",
                                                         render=RENDER))
        assert finished.status == pb.MATCH_STATUS_FINISHED
        views.append(finished)
    return match.name, tokens, views


def test_every_move_and_part_label_is_in_french(french_match):
    _, _, views = french_match
    labels = [move.label for view in views for move in view.legal_moves]
    parts = [part.label for view in views for move in view.legal_moves for part in move.parts]
    assert all(view.locale == "fr" for view in views)
    assert "Tirer une tuile face cachée au dos beige en carré de 1" in labels
    assert "Tirer une tuile face cachée au dos marron en carré de 1 (en remettant 1 jeton-bonus)" in labels
    assert "Finir le tour et mettre la tuile dans l'entrepôt" in labels
    assert any(re.fullmatch(r"Placer la tuile-(fenêtre (éclairée|sombre)|toit) en .+, sa case basse la plus à "
                            r"gauche en \(-?\d+, \d+\)", label) for label in labels)
    assert any(label.startswith("tuile-toit en ") for label in parts)
    leaks = {label: english_in(label) for label in labels + parts if english_in(label)}
    assert not leaks


def test_the_pictures_are_in_french(french_match):
    _, _, views = french_match
    drawn = [view for view in views if view.text]
    assert len(drawn) > 10
    for view in drawn:
        assert not english_in(view.text), view.text
        assert not english_in(svg_words(view.svg)), svg_words(view.svg)
        assert not overflowing_lines(view.svg)
    text = drawn[-1].text
    assert text.startswith("Kensington : partie terminée. Tuiles dans le stock : ")
    assert "Stock face cachée, par dos et par forme : " in text
    assert "Joueur 1 (jaune) : jetons-bonus " in text and "Joueur 2 (vert) : jetons-bonus " in text
    assert "É fenêtre éclairée, S fenêtre sombre, é/s avec un chat, # tuile-mur, ^ toit" in text
    assert re.search(r"^  score \d+ : fenêtres \d+, portes \d+, niveaux \d+", text, re.M)
    # The windows' letters are the French ones: É (éclairée) and S (sombre), never L or D.
    rows = [match.group(1) for match in re.finditer(r"^ {2,3}\d+ (\S+)$", text, re.M)]
    assert rows and all(set(row) <= set("ÉSés#^R@.") for row in rows)
    assert any(set(row) & set("ÉS") for row in rows)
    svg = svg_words(drawn[-1].svg)
    assert "Kensington : partie terminée" in svg and "entrepôt" in svg and "Jaune : score " in svg


def test_the_result_and_the_log_are_in_french(host, french_match):
    name, _, views = french_match
    summary = views[-1].result.summary
    assert re.fullmatch(r"Joueur [12] \((jaune|vert)\) gagne avec un score de \d+ \(la partie s'est terminée car "
                        r".+\)\.|Joueur 1 \(jaune\) et Joueur 2 \(vert\) gagnent ex aequo .+", summary), summary
    with host.client() as client:
        log = client.stub.GetMatchLog(pb.GetMatchLogRequest(name=name, locale="fr"))
    moved = [event.label for event in log.events if event.kind == pb.EVENT_KIND_MOVED]
    assert log.locale == "fr" and log.result.summary == summary
    assert moved[0].startswith("Tirer une tuile face cachée ")
    assert any(label.startswith("Placer la tuile-") for label in moved)
    assert not {label: english_in(label) for label in moved if english_in(label)}


def test_a_spectator_sees_the_match_in_french(host, french_match):
    name, _, _ = french_match
    with host.client() as client:
        view = client.stub.GetView(pb.GetViewRequest(name=name, locale="fr", render=RENDER))
        game = client.stub.GetGame(pb.GetGameRequest(name="games/kensington", locale="fr"))
    assert view.locale == "fr" and view.result.summary.startswith("Joueur ")
    assert "Stock face cachée" in view.text and not english_in(view.text)
    assert not english_in(svg_words(view.svg))
    assert (game.locale, game.title) == ("fr", "Kensington")
    assert game.summary.startswith("Construire un immeuble victorien avec des tuiles-fenêtres")


def test_the_same_match_read_in_english_is_unchanged(host, french_match):
    name, tokens, _ = french_match
    with host.client() as client:
        plain = client.stub.GetView(pb.GetViewRequest(name=name, player_token=tokens[0], render=RENDER))
        english = client.stub.GetView(pb.GetViewRequest(name=name, player_token=tokens[0], render=RENDER,
                                                        locale="en"))
        plain_log = client.stub.GetMatchLog(pb.GetMatchLogRequest(name=name))
        english_log = client.stub.GetMatchLog(pb.GetMatchLogRequest(name=name, locale="en"))
    assert english.locale == "en" and plain.locale == ""
    english.ClearField("locale")
    # Deterministic: the state's maps would otherwise serialize in whichever order they were filled.
    assert english.SerializeToString(deterministic=True) == plain.SerializeToString(deterministic=True)
    assert plain.text.startswith("Kensington: game over. Pile ")
    assert "L lit window, D dark window, l/d with a cat, # wall, ^ roof, R red door" in plain.text
    assert re.search(r" wins? with \d+ points \(the game ended because ", plain.result.summary)
    labels = [event.label for event in plain_log.events if event.kind == pb.EVENT_KIND_MOVED]
    assert [event.label for event in english_log.events if event.kind == pb.EVENT_KIND_MOVED] == labels
    assert labels[0].startswith("Draw a face-down ")
    assert any(label.startswith("Place the ") for label in labels)
