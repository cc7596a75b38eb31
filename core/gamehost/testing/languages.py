"""The conformance kit's language check: every word a game shows exists in
every language it declares, and each translation keeps its placeholders.

A game that declares no language besides English is not checked. One that
does (``Game.languages`` or catalogues in its package) must say each word as
a ``Text`` (a plain string cannot be translated: it would show in English in
a French view), have a translation of each message id in each language (a
message id shown as it is is English leaking), with the same ``{name}``
placeholders; its pictures' words (``gettext``/``tr`` in the renderers)
too, and its catalog entry's: title, summary, how-to-play paragraphs, variants' titles and
descriptions, and the options' titles, descriptions and choice labels.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from gamehost.sdk.i18n import (
    ENGLISH, Catalogues, Text, Translator, catalogues_of, placeholders, schema_words, text_of, translating)
from gamehost.sdk.rules import Game, Move

MAX_PROBLEMS = 20  # listed: the first few distinct ones are plenty to act on


class _Recording(Translator):
    """A language's translator that notes the message ids it was asked for and lacks."""

    def __init__(self, base: Translator, missing: set[str]) -> None:
        super().__init__(base.locale, base.messages)
        self.missing = missing

    def gettext(self, msgid: str) -> str:
        if not self.has(msgid):
            self.missing.add(msgid)
        return super().gettext(msgid)


class LanguageCheck:
    def __init__(self, game: Game) -> None:
        self.game = game
        self.catalogues: Catalogues = catalogues_of(game)
        self.languages = [tag for tag in self.catalogues.languages if tag != ENGLISH]
        self.translators = {tag: self.catalogues.translator(tag) for tag in self.languages}
        self.problems: list[str] = []
        self._seen: set[tuple[str, str]] = set()
        for tag, translator in self.translators.items():
            if self.catalogues.path(tag) is None:
                self._problem(("catalogue", tag), f"{tag} is declared but {game.id} ships no catalogue "
                                                  f"locale/{tag}/LC_MESSAGES/{self.catalogues.domain}.po")
            for msgid, msgstr in translator.messages.items():
                self._placeholders(tag, msgid, msgstr, "in the catalogue")

    @property
    def active(self) -> bool:
        return bool(self.languages)

    def _problem(self, key: tuple[str, str], text: str) -> None:
        if key not in self._seen and len(self.problems) < MAX_PROBLEMS:
            self._seen.add(key)
            self.problems.append(text)

    def _placeholders(self, tag: str, msgid: str, msgstr: str, where: str) -> None:
        wanted, kept = placeholders(msgid), placeholders(msgstr)
        if wanted != kept:
            lost = ", ".join("{" + name + "}" for name in sorted(wanted - kept)) or "none"
            added = ", ".join("{" + name + "}" for name in sorted(kept - wanted)) or "none"
            self._problem(("placeholders", tag + msgid), f"the {tag} translation of {msgid!r} ({msgstr!r}) does not "
                                                         f"keep its placeholders (lost: {lost}; added: {added}) "
                                                         f"{where}")

    def word(self, value: Any, what: str, step: str) -> None:
        """A word the game shows (``what``: "label of move 'b2'", ...), at ``step``."""
        if not self.active or not value:
            return
        if isinstance(value, Mapping) and "msgid" in value:  # a message kept in a log or a result
            value = text_of(value)
        if not isinstance(value, Text):
            self._problem(("plain", str(value)), f"{what} {str(value)!r} is a plain string, shown in English in "
                                                 f"{', '.join(self.languages)}: say it as Text(...) at {step}")
            return
        for tag, translator in self.translators.items():
            if not translator.has(value.msgid):
                self._problem(("missing", tag + value.msgid), f"{what}: {value.msgid!r} has no {tag} translation "
                                                              f"(it would show in English) at {step}")
            else:
                self._placeholders(tag, value.msgid, translator.gettext(value.msgid), f"({what}, at {step})")
        for name, argument in value.args.items():
            if isinstance(argument, Text):
                self.word(argument, f"{what}'s {{{name}}}", step)

    def catalog(self) -> None:
        """The game's catalog entry, as ListGames says it in each language."""
        step = "the catalog"
        self.word(self.game.title, "the game's title", step)
        self.word(self.game.summary, "the game's summary", step)
        for number, paragraph in enumerate(self.game.how_to_play, start=1):
            self.word(paragraph, f"paragraph {number} of how_to_play", step)
        for variant in self.game.variants:
            self.word(variant.title, f"title of variant {variant.id!r}", step)
            self.word(variant.description, f"description of variant {variant.id!r}", step)
        for where, word in schema_words(self.game.options_schema):
            self.word(word, where, step)

    def moves(self, moves: Iterable[Move], step: str) -> None:
        for move in moves:
            self.word(move.label, f"label of move {move.id!r}", step)
            for part in move.parts:
                self.word(part.label, f"label of part {part.id!r}", step)

    def result(self, result: Mapping[str, Any], step: str) -> None:
        self.word(result.get("summary_text") or result.get("summary"), "result summary", step)

    def pictures(self, view: Mapping[str, Any], moves: list[Move], step: str) -> None:
        """The renderers' words, asked of each language's translator."""
        for tag, translator in self.translators.items():
            missing: set[str] = set()
            with translating(_Recording(translator, missing)):
                self.game.render_text(view)
                self.game.render_svg(view, moves)
            for msgid in sorted(missing):
                self._problem(("missing", tag + msgid), f"picture word {msgid!r} has no {tag} translation (it "
                                                        f"would show in English) at {step}")
