"""Finding English in a page, a picture or a log that should be in another language.

The English words are taken from the message ids of the catalogues that made
the text (the host's, each game's, the web page's): every word of an English
message id that is not also a word of some translation into the target
language. A word both languages share ("Campanile", "score", "replay") and
anything that no catalogue says (numbers, cell names like "b2", players'
names) are never flagged; a French page that shows "Draw the top card" is.

    detector = EnglishLeaks.of_games([TicTacToe()], "fr", extra=[page_table])
    assert not detector.words_in(page_text)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping

from gamehost.sdk.i18n import Catalogues, catalogues_of, placeholders, read_catalogue

# A run of letters standing alone: not part of "b2", "x_1" or "3x3" (those are coordinates and names, no words).
_WORD = re.compile(r"(?<![\w])[^\W\d_]+(?![\w])")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def english_phrases(catalogue: Path, shortest: int = 3) -> list[re.Pattern[str]]:
    """The English phrases of one ``.po`` catalogue that none of its translations uses: each translated
    message id cut at its placeholders, as patterns that match whole words. Stricter than ``words_in``
    where a language shares single words with English but never a whole phrase."""
    messages = read_catalogue(catalogue)
    translated = " ".join(messages.values())
    phrases = set()
    for msgid, msgstr in messages.items():
        if msgstr == msgid:
            continue
        for piece in _PLACEHOLDER.split(msgid):
            piece = piece.strip(" .,:;()/-·−")
            if len(piece) >= shortest and piece not in translated:
                phrases.add(piece)
    return [re.compile(rf"(?<!\w){re.escape(piece)}(?!\w)") for piece in sorted(phrases)]

def words(text: str) -> set[str]:
    """The words of ``text``, lower-cased (apostrophes and hyphens split them: "match's" has "match" and "s")."""
    return {word.lower() for word in _WORD.findall(text.replace("’", " ").replace("'", " ").replace("-", " "))}


def _message_words(message: str) -> set[str]:
    """The words of a catalogue message, its ``{name}`` placeholders left out."""
    if placeholders(message) or "{" in message:
        message = _PLACEHOLDER.sub(" ", message)
    return words(message)


@dataclass(frozen=True)
class EnglishLeaks:
    """The English words of some catalogues that their translations into one language do not use."""

    language: str
    english: frozenset[str]

    @classmethod
    def of_tables(cls, language: str, tables: Iterable[Mapping[str, str]]) -> "EnglishLeaks":
        """From message tables, English message id -> its translation into ``language``."""
        english: set[str] = set()
        translated: set[str] = set()
        for table in tables:
            for msgid, msgstr in table.items():
                english |= _message_words(msgid)
                translated |= _message_words(msgstr)
        # One letter is a symbol, not a word of a language: a legend's "G" (green, "V" in French) is also
        # the board's column g and a row's name.
        return cls(language, frozenset(word for word in english - translated if len(word) > 1))

    @classmethod
    def of_games(cls, games: Iterable[Any], language: str, *, host: bool = True,
                 extra: Iterable[Mapping[str, str]] = ()) -> "EnglishLeaks":
        """From the catalogues of ``games`` (``catalogues_of``), the host's own when ``host``, and ``extra`` tables
        (the web page's); a game whose catalogues lack ``language`` adds nothing."""
        tables = [dict(table) for table in extra]
        catalogues = [catalogues_of(game) for game in games]
        if host:
            catalogues.append(host_catalogues())
        for catalogue in catalogues:
            if language in catalogue.languages:
                tables.append(dict(catalogue.translator(language).messages))
        return cls.of_tables(language, tables)

    def words_in(self, text: str) -> list[str]:
        """The English words found in ``text``, each once, in the order they first appear."""
        found: dict[str, None] = {}
        for word in _WORD.findall(text.replace("’", " ").replace("'", " ").replace("-", " ")):
            if word.lower() in self.english:
                found.setdefault(word, None)
        return list(found)


def host_catalogues() -> Catalogues:
    """The host's own catalogues (results and event labels it builds)."""
    from gamehost.host.rpc.locales import HOST_CATALOGUES

    return HOST_CATALOGUES
