"""Which language a request's words come in, and the translator that says them.

A request asks with its ``locale`` field (a BCP 47 tag), or on the web port
with the browser's Accept-Language header (forwarded as metadata); asking
nothing keeps the answer exactly as it was before languages existed
(English, ``locale`` empty), so that path costs nothing. A request that asks
gets the best language the game's plugin offers (``negotiate``), English
when none fits, and the answer names it.

The host's own words (a result it decides, a hidden move's label) come from
its catalogue, ``gamehost/host/locale``; the plugin's catalogue wins where
both say the same message.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from gamehost.host import errors
from gamehost.host.rpc.gate import call_metadata
from gamehost.sdk.i18n import (
    ENGLISH, Catalogues, Translator, catalogues_of, negotiate, preferences, text_of, valid_tag)
from gamehost.sdk.rules import Game

HOST_CATALOGUES = Catalogues(Path(__file__).resolve().parents[1] / "locale", "gamehost")
MAX_TAGS = 16  # of an Accept-Language header, the most wanted ones


@dataclass(frozen=True)
class Locale:
    """A negotiated language: its tag, as answers name it, and its words."""

    tag: str
    translator: Translator

    @property
    def english(self) -> bool:
        return self.tag == ENGLISH

    def say(self, english: str, message: Mapping[str, Any] | None) -> str:
        """A word kept in English with its message (``summary_text``, ``label_text``), in this language;
        a word the host says itself (no message kept) by its English text."""
        if self.english:
            return english
        if message is not None:
            return self.translator.translate(text_of(message))
        return self.translator.gettext(english) if english else english


def asked(request: Any, context: Any = None, header: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The languages a request asks for, most wanted first; empty: none asked. Its ``locale`` field
    first, else the call's Accept-Language (``header``: already read, for a stream's requests)."""
    tag = request.locale
    if tag:
        if not valid_tag(tag):
            raise errors.invalid_field("locale", f"{tag[:64]!r} is not a BCP 47 language tag: send e.g. "
                                                 "\"fr\" or \"fr-CH\", or nothing for English.", "INVALID_LOCALE")
        return (tag,)
    return header or header_languages(context)


def header_languages(context: Any) -> tuple[str, ...]:
    """The languages of the call's Accept-Language metadata (the web port forwards the header)."""
    header = call_metadata(context).get("accept-language") if context is not None else None
    return tuple(preferences(header)[:MAX_TAGS]) if header else ()


class Locales:
    """Negotiated languages, remembered per (game, tags asked): the same few repeat."""

    def __init__(self) -> None:
        self._chosen: dict[tuple[str, tuple[str, ...]], Locale] = {}

    def for_game(self, game: Game | None, wanted: Sequence[str]) -> Locale | None:
        """The language of ``game``'s words for ``wanted`` (None: nothing asked). Without the game
        (a match whose rules this host lacks), the host's own languages."""
        if not wanted:
            return None
        key = ("" if game is None else f"{game.id}/{game.version}", tuple(wanted))
        chosen = self._chosen.get(key)
        if chosen is None:
            catalogues = HOST_CATALOGUES if game is None else catalogues_of(game)
            tag = negotiate(wanted, catalogues.languages)
            plugin = catalogues.translator(tag)
            host = HOST_CATALOGUES.translator(tag) if tag in HOST_CATALOGUES.languages else None
            words = {**(host.messages if host else {}), **plugin.messages}
            chosen = Locale(tag, Translator(tag, words))
            if len(self._chosen) > 4096:  # a client inventing tags only empties it
                self._chosen.clear()
            self._chosen[key] = chosen
        return chosen
