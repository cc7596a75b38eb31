"""Callisto in French over a real host: a whole two-player match played
through the generic protocol with locale "fr" reads in the French rulebook's
words (its labels, parts, log, result, text picture and SVG, for the players
and for a spectator), and the same match read in English is unchanged."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from gamehost.sdk.i18n import placeholders, read_catalogue
from gamehost.v1 import gamehost_pb2 as pb
from hosts import HostProcess

import gamehost_callisto

CATALOGUE = Path(gamehost_callisto.__file__).parent / "locale" / "fr" / "LC_MESSAGES" / "messages.po"
RENDER = pb.RenderOptions(text=True, svg=True)
FINISHED = pb.MatchStatus.Value("MATCH_STATUS_FINISHED")


def english_fragments() -> dict[str, str]:
    """The English words of each message whose French differs: the text
    between its placeholders, kept where it has a word of three letters or
    more (" at " alone would match too much to say anything)."""
    fragments = {}
    for msgid, msgstr in read_catalogue(CATALOGUE).items():
        if msgstr == msgid:
            continue
        for piece in re.split(r"\{[^}]*\}", msgid):
            piece = piece.strip(" .:;,()")
            if re.search(r"[A-Za-z]{3,}", piece):
                fragments[piece] = msgid
    return fragments


def english_left(texts: list[str]) -> list[tuple[str, str]]:
    """(English fragment, its message id) of every catalogue message whose
    English shows in ``texts``, a whole word or phrase."""
    found = []
    for fragment, msgid in english_fragments().items():
        pattern = re.compile(r"(?<![A-Za-z])" + re.escape(fragment) + r"(?![A-Za-z])")
        if any(pattern.search(text) for text in texts):
            found.append((fragment, msgid))
    return found


def svg_words(svg: str) -> list[str]:
    """The words the SVG shows: the contents of its text and title elements."""
    return re.findall(r"<(?:text|title)[^>]*>([^<]*)</", svg)


@pytest.fixture(scope="module")
def host():
    process = HostProcess("--workers", "1").start()
    yield process
    process.stop()


@pytest.fixture(scope="module")
def french_match(host):
    """A two-player match played to its end, each move the first one the
    French view of the seat to move lists, and every French view seen on
    the way: (match name, tokens, the players' views, the spectator's views)."""
    with host.client() as client:
        match = client.create_match("callisto", seats=2, options={"start_seat": 0})
        tokens = [client.join(match.name).player_token for _ in range(2)]
        players, spectators = [], []
        while True:
            spectator = client.stub.GetView(pb.GetViewRequest(name=match.name, render=RENDER, locale="fr"))
            spectators.append(spectator)
            if spectator.status == FINISHED:
                break
            seat = spectator.to_move[0]
            view = client.stub.GetView(pb.GetViewRequest(name=match.name, player_token=tokens[seat],
                                                         render=RENDER, locale="fr"))
            players.append(view)
            client.stub.SubmitMove(pb.SubmitMoveRequest(name=match.name, player_token=tokens[seat],
                                                        move_id=view.legal_moves[0].id))
        yield match.name, tokens, players, spectators


def test_every_view_of_the_match_speaks_french(french_match):
    _, _, players, spectators = french_match
    assert len(players) > 20 and all(view.locale == "fr" for view in players + spectators)
    first = players[0]
    labels = {move.id: move.label for move in first.legal_moves}
    assert labels["col:x09y02"] == "Colonne en colonne 9, rangée 2"
    assert first.legal_moves[0].parts[0].label == "colonne"
    assert first.text.splitlines()[0] == "Au tour de Joueur 1 (bleu) (premiers tours : placez une colonne)."
    assert "'B' colonne bleue" in first.text and "bordure extérieure, hors jeu à ce nombre de joueurs" in first.text
    assert "Joueur 2 (jaune) : pénalité 68, colonnes 3, pièces : W5 X5 T5 U5" in first.text
    assert "Bleu : pénalité 68, colonnes 3 (à jouer) : choisissez une pièce" in first.svg
    assert "Jaune : pénalité 68, colonnes 3" in first.svg
    pieces = next(view for view in players if any(move.id.startswith("W5:") for move in view.legal_moves))
    placement = next(move for move in pieces.legal_moves if move.id.startswith("W5:r1:"))
    assert re.fullmatch(r"pentomino W tourné vers la droite, case en haut à gauche en colonne \d+, rangée \d+", placement.label)
    assert [part.label for part in placement.parts][:2] == ["pentomino W", "pentomino W tourné vers la droite"]
    assert "pentomino W : son orientation, puis la case de son point" in pieces.svg
    assert "Au tour de Joueur" in pieces.text and "[à jouer]" in pieces.text
    shown = [text for view in players + spectators for text in
             [view.text, *svg_words(view.svg), view.result.summary,
              *(move.label for move in view.legal_moves),
              *(part.label for move in view.legal_moves for part in move.parts)]]
    assert english_left(shown) == []


def test_the_result_log_and_a_spectators_watch_come_in_french(host, french_match):
    name, tokens, _, spectators = french_match
    end = spectators[-1]
    assert not end.legal_moves and end.seat == -1
    assert re.fullmatch(r"Joueur [12] \((bleu|jaune)\) remporte la partie avec un score de \d+\.",
                        end.result.summary), end.result.summary
    assert end.text.splitlines()[0] == end.result.summary
    assert f">{end.result.summary}</text>" in end.svg
    with host.client() as client:
        log = client.stub.GetMatchLog(pb.GetMatchLogRequest(name=name, player_token=tokens[0], locale="fr"))
        watched = list(client.stub.WatchMatch(pb.WatchMatchRequest(name=name, locale="fr", render=RENDER),
                                              timeout=30))
    moved = [event.label for event in log.events if event.kind == pb.EVENT_KIND_MOVED]
    assert log.locale == "fr" and log.result.summary == end.result.summary
    assert moved[:4] == [label for label in moved[:4] if re.fullmatch(r"Colonne en colonne \d+, rangée \d+", label)]
    assert any(re.fullmatch(r"pentomino W [\w ,éè]+, case en haut à gauche en colonne \d+, rangée \d+", label) for label in moved)
    assert [event.label for event in watched if event.kind == pb.EVENT_KIND_MOVED] == moved
    assert watched[-1].view.locale == "fr" and watched[-1].view.result.summary == end.result.summary
    assert watched[-1].view.text == end.text
    assert english_left([*moved, log.result.summary, *[event.label for event in log.events]]) == []


def test_the_same_match_read_in_english_is_unchanged(host, french_match):
    name, tokens, _, _ = french_match
    with host.client() as client:
        plain = client.stub.GetView(pb.GetViewRequest(name=name, render=RENDER))
        english = client.stub.GetView(pb.GetViewRequest(name=name, render=RENDER, locale="en"))
        log = client.stub.GetMatchLog(pb.GetMatchLogRequest(name=name, player_token=tokens[0]))
        english_log = client.stub.GetMatchLog(pb.GetMatchLogRequest(name=name, player_token=tokens[0],
                                                                    locale="en"))
        played = next(event.version for event in log.events if event.kind == pb.EVENT_KIND_MOVED)
        first = client.stub.GetView(pb.GetViewRequest(name=name, at_version=played, render=RENDER, locale="en"))
        first_fr = client.stub.GetView(pb.GetViewRequest(name=name, at_version=played, render=RENDER, locale="fr"))
    assert english.locale == "en"
    english.ClearField("locale")
    # Deterministic: the state's maps are otherwise written in any order.
    assert english.SerializeToString(deterministic=True) == plain.SerializeToString(deterministic=True)
    assert re.fullmatch(r"Player [12] \((blue|yellow)\) wins with \d+ penalty points\.", plain.result.summary)
    assert "Player 1 (blue): penalty" in plain.text and "Blue: penalty" in plain.svg
    english_log.ClearField("locale")
    assert english_log.SerializeToString(deterministic=True) == log.SerializeToString(deterministic=True)
    moved = [event.label for event in log.events if event.kind == pb.EVENT_KIND_MOVED]
    assert re.fullmatch(r"Column at column \d+, row \d+", moved[0])
    assert any(re.fullmatch(r"W-pentomino [\w ,]+, top-left square at column \d+, row \d+", label) for label in moved)
    assert first.text.splitlines()[0] == "Player 2 (yellow) to move (opening: place a column)."
    assert first_fr.text.splitlines()[0] == "Au tour de Joueur 2 (jaune) (premiers tours : placez une colonne)."


def test_every_message_keeps_its_placeholders_in_french():
    catalogue = read_catalogue(CATALOGUE)
    assert len(catalogue) > 60
    assert [msgid for msgid, msgstr in catalogue.items() if placeholders(msgid) != placeholders(msgstr)] == []
