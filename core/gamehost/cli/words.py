"""The CLI's own words in the user's language, and the language it asks the host for.

The language is ``--locale`` (a BCP 47 tag), else the environment's, read
as gettext reads it: ``LC_ALL``, then ``LC_MESSAGES``, then ``LANG``
(``fr_FR.UTF-8`` asks for French; ``C`` and ``POSIX`` for English). The
CLI's words come from its gettext catalogue, ``gamehost/cli/locale/<lang>/
LC_MESSAGES/gamehost-cli.po`` (read with Babel, as the plugins' are), in
the best language it has for that tag, English (the message ids) when
none fits. The host is asked for the same tag and negotiates on its own,
per game: each part says its words in the best language it has.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Mapping

from gamehost.sdk.i18n import ENGLISH, ENGLISH_TRANSLATOR, Catalogues, Text, Translator, negotiate, valid_tag

CLI_CATALOGUES = Catalogues(Path(__file__).resolve().parent / "locale", "gamehost-cli")
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")  # gettext's order: the first one set decides

_current: Translator = ENGLISH_TRANSLATOR


def tag_of_posix_locale(value: str) -> str:
    """The BCP 47 tag of a POSIX locale name: ``fr_FR.UTF-8`` -> ``fr-FR``, ``de_CH@euro`` -> ``de-CH``;
    "" for ``C``, ``POSIX`` and names that are no language."""
    name = value.split(".")[0].split("@")[0]
    if name in ("", "C", "POSIX"):
        return ""
    tag = name.replace("_", "-")
    return tag if valid_tag(tag) else ""


def wanted_locale(given: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The tag the user asks for: ``given`` (``--locale``), else the environment's; "" for none."""
    if given:
        return given
    environ = os.environ if environ is None else environ
    for variable in LOCALE_VARIABLES:
        value = environ.get(variable, "")
        if value:  # the first one set decides, even C: LC_ALL=C means English whatever LANG says
            return tag_of_posix_locale(value)
    return ""


def use_language(wanted: str) -> str:
    """Say the CLI's words in the best language it has for ``wanted`` (a tag, "" for English);
    returns that language's tag."""
    global _current
    tag = negotiate([wanted], CLI_CATALOGUES.languages) if wanted else ENGLISH
    _current = CLI_CATALOGUES.translator(tag)
    return tag


def _(msgid: str) -> str:
    """``msgid`` in the CLI's language."""
    return _current.gettext(msgid)


def tr(msgid: str, /, **args: Any) -> str:
    """``msgid`` with its ``{name}`` placeholders filled, in the CLI's language."""
    return _current.translate(Text(msgid, **args))
