"""The English-leak detector the browser tests use: English words of the
catalogues that no translation shares are found in a text; shared words,
proper names, numbers and coordinates are not."""

from __future__ import annotations

import json
from pathlib import Path

from gamehost.testing.english_leaks import EnglishLeaks, words

PAGE_FRENCH = Path(__file__).resolve().parents[1] / "clients" / "web" / "src" / "locales" / "fr.json"
CARDS = {"Draw the top card": "Piochez la carte du dessus", "Campanile": "Campanile",
         "{player} plays {card}": "{player} joue {card}"}


def test_a_french_page_with_an_english_sentence_is_flagged():
    leaks = EnglishLeaks.of_tables("fr", [CARDS])
    assert leaks.words_in("Campanile · À vous de jouer. Draw the top card") == ["Draw", "the", "top", "card"]


def test_shared_words_names_and_placeholders_are_not_flagged():
    leaks = EnglishLeaks.of_tables("fr", [CARDS])
    assert leaks.words_in("Campanile : Ann joue la carte 7 en b2") == []
    assert "player" not in leaks.english and "campanile" not in leaks.english  # {player} is a placeholder


def test_coordinates_and_numbers_are_no_words():
    assert words("X en a3, 3x3, Joueur 2 d’Ann") == {"x", "en", "joueur", "d", "ann"}


def test_one_letter_is_a_symbol_not_a_word():
    # A legend letter translated ("G" for green is "V" in French) says nothing about the board's column g.
    leaks = EnglishLeaks.of_tables("fr", [{"G": "V", "G green": "V vert"}])
    assert leaks.words_in("a b c d e f g\nC ## ##") == []
    assert leaks.words_in("V vert, G green") == ["green"]


def test_the_games_host_and_page_catalogues_together():
    from gamehost_tictactoe.game import TicTacToe

    page = json.loads(PAGE_FRENCH.read_text(encoding="utf-8"))
    leaks = EnglishLeaks.of_games([TicTacToe()], "fr", extra=[page])
    # "on" is French too ("On ne peut…"): a word both languages have is never flagged.
    assert leaks.words_in("Tic-tac-toe grid. Your turn. X on a3") == ["Tic", "tac", "toe", "grid", "Your", "turn"]
    assert leaks.words_in("Grille de morpion. À vous de jouer. X en a3. Dernier coup : Joueur 2 (robot) : O en b2") == []
    assert "hidden" in leaks.english  # the host's "a hidden move" ("un coup caché")


def test_the_page_table_keeps_every_placeholder():
    from gamehost.sdk.i18n import placeholders

    page = json.loads(PAGE_FRENCH.read_text(encoding="utf-8"))
    lost = {msgid: msgstr for msgid, msgstr in page.items() if placeholders(msgid) != placeholders(msgstr) or not msgstr}
    assert not lost
