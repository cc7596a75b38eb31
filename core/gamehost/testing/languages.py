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
PICTURES_EVERY = 5  # of the views the kit renders (``LanguageCheck.sampled``)
MAX_WALKED = 1 << 16  # Text objects remembered as proven; a game inventing endless ones only empties it


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
        # What is proven is not checked again: a message id's translations (present, placeholders kept) in
        # every language, once per check; and each Text object already walked with its arguments, by
        # identity (kept alive here, so no other object takes its id). A listing of hundreds of moves
        # repeats the same few message ids and shares its parts' Texts between steps.
        self._checked_ids: set[str] = set()
        self._walked: dict[int, Text] = {}
        self._picture_kinds: set[tuple[Any, ...]] = set()
        self._picture_steps = 0
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
        if not self.active or not value or id(value) in self._walked:
            return
        if isinstance(value, Mapping) and "msgid" in value:  # a message kept in a log or a result
            value = text_of(value)
        if not isinstance(value, Text):
            self._problem(("plain", str(value)), f"{what} {str(value)!r} is a plain string, shown in English in "
                                                 f"{', '.join(self.languages)}: say it as Text(...) at {step}")
            return
        if value.msgid not in self._checked_ids:
            self._checked_ids.add(value.msgid)
            self._translations(value.msgid, what, step)
        for name, argument in value.args.items():
            if isinstance(argument, Text) and id(argument) not in self._walked:
                self.word(argument, f"{what}'s {{{name}}}", step)
        if len(self._walked) >= MAX_WALKED:
            self._walked.clear()
        self._walked[id(value)] = value

    def _translations(self, msgid: str, what: str, step: str) -> None:
        for tag, translator in self.translators.items():
            if not translator.has(msgid):
                self._problem(("missing", tag + msgid), f"{what}: {msgid!r} has no {tag} translation "
                                                        f"(it would show in English) at {step}")
            else:
                self._placeholders(tag, msgid, translator.gettext(msgid), f"({what}, at {step})")

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
        if not self.active:
            return
        walked = self._walked
        for move in moves:  # the description of a word is made only for one not proven yet
            if id(move.label) not in walked:
                self.word(move.label, f"label of move {move.id!r}", step)
            for part in move.parts:
                if id(part.label) not in walked:
                    self.word(part.label, f"label of part {part.id!r}", step)

    def result(self, result: Mapping[str, Any], step: str) -> None:
        self.word(result.get("summary_text") or result.get("summary"), "result summary", step)

    def pictures(self, view: Mapping[str, Any], moves: list[Move], step: str, *, viewer: int | None = None,
                 last: bool = False) -> None:
        """The renderers' words, asked of each language's translator, on a sample of the positions the
        kit renders (``sampled``)."""
        if not self.sampled(view, moves, viewer, last):
            return
        for tag, translator in self.translators.items():
            missing: set[str] = set()
            with translating(_Recording(translator, missing)):
                self.game.render_text(view)
                self.game.render_svg(view, moves)
            for msgid in sorted(missing):
                self._problem(("missing", tag + msgid), f"picture word {msgid!r} has no {tag} translation (it "
                                                        f"would show in English) at {step}")

    def sampled(self, view: Mapping[str, Any], moves: list[Move], viewer: int | None, last: bool) -> bool:
        """Whether the pictures of this view are rendered in the other languages too. Rendering them
        again per language was a third of a sweep's cost, and a renderer says the same words for
        positions of the same kind, so: the first view of each kind (a spectator's or a seat's; to move
        or not; the view's keys and its ``phase`` or ``stage``, where a renderer's words change), the
        final positions (the result's words), and every PICTURES_EVERY-th other one (the viewers in turn,
        so a word that only some positions say is still met)."""
        self._picture_steps += 1
        kind = (viewer is None, bool(moves), tuple(view), _phase(view.get("phase")), _phase(view.get("stage")))
        if kind not in self._picture_kinds:
            self._picture_kinds.add(kind)
            return True
        return last or self._picture_steps % PICTURES_EVERY == 0


def _phase(value: Any) -> Any:
    return value if isinstance(value, (str, int, float, bool)) or value is None else type(value).__name__
