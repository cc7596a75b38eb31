"""Words in the player's language: message ids with arguments, and the
plugin's catalogues that translate them.

A plugin says a word as ``Text("{mark} on {cell}", mark="X", cell="b2")``
wherever it gives the host a string (a move's or a part's label, an
outcome's summary). A ``Text`` *is* the English string (a ``str``), so a
host, a test or a client that knows nothing of languages reads it as
before; it also keeps its message id and arguments, from which the host
renders it in the locale a request asks for. Plain strings still work: they
are shown as they are in every language.

Renderers (``render_text``, ``render_svg``) make their pictures for one
locale: they translate their words with ``gettext`` (or ``tr`` for a
message with arguments) from this module, which the host binds to the
request's locale around the call (English, the message ids themselves,
when nobody bound one).

Catalogues are gettext ``.po`` files in the plugin's package,
``<package>/locale/<lang>/LC_MESSAGES/<domain>.po``, read with Babel when
first needed (no compile step: a plugin ships the files it edits). The
SDK's own words (``seat_name``'s "Player {number}", the search bots'
titles) come from its catalogue, ``gamehost/sdk/locale``, beneath every
plugin's: a plugin that says them gets them translated without a
catalogue entry of its own, and may still word them its own way.
"""

from __future__ import annotations

import contextvars
import functools
import re
import string
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

ENGLISH = "en"
DEFAULT_DOMAIN = "messages"
_FORMATTER = string.Formatter()


class Text(str):
    """A message id with its arguments, equal to its English rendering.

    ``msgid`` is the English sentence with ``{name}`` placeholders,
    ``args`` their values (plain values, or ``Text`` themselves: a piece's
    name translated inside a move's label)."""

    msgid: str
    args: Mapping[str, Any]
    _message: dict[str, Any]

    def __new__(cls, msgid: str, /, **args: Any) -> "Text":
        english = format_message(msgid, args, ENGLISH_TRANSLATOR)
        text = super().__new__(cls, english)
        text.msgid = msgid
        text.args = args
        return text

    def __reduce__(self) -> Any:
        return (_rebuilt, (self.msgid, dict(self.args)))

    def message(self) -> dict[str, Any]:
        """The plain-data form kept in logs and sent between processes (``text_of`` reads it back).
        Made once per Text (a listing sends its parts' shared Texts again and again); read it, never
        change it."""
        try:
            return self._message
        except AttributeError:
            pass
        message = {"msgid": self.msgid,
                   "args": {name: value.message() if isinstance(value, Text) else value
                            for name, value in self.args.items()} if self.args else {}}
        self._message = message
        return message


def _rebuilt(msgid: str, args: dict[str, Any]) -> Text:
    return Text(msgid, **args)


def _is_message(value: Any) -> bool:
    # Messages come from JSON or ``message()``: dicts; the exact type check spares the costly ABC check.
    return (type(value) is dict or (not isinstance(value, (str, int, float, list))
                                    and isinstance(value, Mapping))) and "msgid" in value


def text_of(message: Mapping[str, Any]) -> Text:
    """The ``Text`` whose ``message()`` is ``message``."""
    args = message.get("args")
    if not args:
        return Text(message["msgid"])
    return Text(message["msgid"], **{name: text_of(value) if _is_message(value) else value
                                     for name, value in args.items()})


class _ReadText(Text):
    """A ``Text`` read back from its message with its English already known (a move's label that
    crossed from a worker with both): made without formatting anything; its arguments are rebuilt
    from the message only when something asks for them (a translation, a pickle). Most listed moves'
    labels are only ever shown in English, or never shown at all."""

    _read: Mapping[str, Any]
    _args: Mapping[str, Any]

    @property
    def args(self) -> Mapping[str, Any]:  # type: ignore[override]
        try:
            return self._args
        except AttributeError:
            pass
        raw = self._read.get("args") or {}
        self._args = {name: text_of(value) if _is_message(value) else value for name, value in raw.items()}
        return self._args

    def message(self) -> dict[str, Any]:
        read = self._read
        return read if type(read) is dict else Text.message(self)


def text_read(english: str, message: Mapping[str, Any]) -> Text:
    """``text_of(message)`` when ``english`` is already its English rendering (``str(text)`` sent beside
    ``text.message()``), at the cost of a string: nothing is formatted until a translation needs it."""
    text = str.__new__(_ReadText, english)
    text.msgid = message["msgid"]
    text._read = message
    return text


def message_of(value: Any) -> dict[str, Any] | None:
    """``value.message()`` for a ``Text``, None for a plain string."""
    return value.message() if isinstance(value, Text) else None


def placeholders(message: str) -> set[str]:
    """The names of ``message``'s ``{name}`` placeholders (empty for a malformed message)."""
    try:
        return {name.split(".")[0].split("[")[0] for _, name, _, _ in _FORMATTER.parse(message) if name}
    except ValueError:
        return set()


def format_message(message: str, args: Mapping[str, Any], translator: "Translator") -> str:
    """``message`` with its placeholders filled, ``Text`` arguments in ``translator``'s language."""
    if not args:
        return message
    values = {name: translator.translate(value) if isinstance(value, Text) else value
              for name, value in args.items()}
    return message.format(**values)


class Translator:
    """One language's translations of one plugin's messages (English: none)."""

    def __init__(self, locale: str, messages: Mapping[str, str] | None = None) -> None:
        self.locale = locale
        self.messages: Mapping[str, str] = messages or {}

    def gettext(self, msgid: str) -> str:
        """``msgid`` in this language, or ``msgid`` itself when it has no translation."""
        return self.messages.get(msgid) or msgid

    def translate(self, value: str) -> str:
        """A label or summary as this language shows it: a ``Text`` translated, a plain string as it is."""
        if not isinstance(value, Text):
            return value
        return format_message(self.gettext(value.msgid), value.args, self)

    def has(self, msgid: str) -> bool:
        return bool(self.messages.get(msgid))


ENGLISH_TRANSLATOR = Translator(ENGLISH)
_current: contextvars.ContextVar[Translator] = contextvars.ContextVar("gamehost_translator",
                                                                      default=ENGLISH_TRANSLATOR)


def gettext(msgid: str) -> str:
    """``msgid`` in the language the host is rendering for (for renderers' words)."""
    return _current.get().gettext(msgid)


_ = gettext


def tr(msgid: str, /, **args: Any) -> str:
    """``Text(msgid, **args)`` rendered in the language the host is rendering for."""
    return _current.get().translate(Text(msgid, **args))


def current_translator() -> Translator:
    return _current.get()


class translating:
    """``with translating(translator): game.render_text(view)``: the renderers' words in its language."""

    def __init__(self, translator: Translator) -> None:
        self.translator = translator
        self._token: contextvars.Token[Translator] | None = None

    def __enter__(self) -> Translator:
        self._token = _current.set(self.translator)
        return self.translator

    def __exit__(self, *exc: Any) -> None:
        assert self._token is not None
        _current.reset(self._token)


# ------------------------------------------------------------------ options' words

VALUE_KEYWORDS = frozenset({"enum", "const", "default", "examples"})
"""JSON Schema keywords whose contents are option values a client sends back, never words."""
NAMED_SCHEMAS = frozenset({"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"})
"""JSON Schema keywords that map names (an option's, a definition's) to schemas."""
WORD_KEYWORDS = frozenset({"title", "description"})
"""JSON Schema keywords whose value a person reads."""


def schema_words(schema: Any, where: str = "options") -> Iterable[tuple[str, str]]:
    """Each word of an options' JSON Schema a person reads, with where it is: the ``title`` and
    ``description`` of the options and each choice (``oneOf``/``anyOf`` items), any ``Text`` elsewhere;
    never option names nor values (``enum``, ``const``, ``default``, ``examples``)."""
    if isinstance(schema, Text):
        yield where, schema
    elif isinstance(schema, Mapping):
        for key, value in schema.items():
            if key in VALUE_KEYWORDS:
                continue
            if key in NAMED_SCHEMAS and isinstance(value, Mapping):
                for name, inner in value.items():
                    yield from schema_words(inner, f"{where}.{name}")
            elif key in WORD_KEYWORDS and isinstance(value, str):
                yield f"{key} of {where}", value
            else:
                yield from schema_words(value, f"{where}.{key}")
    elif isinstance(schema, (list, tuple)):
        for index, item in enumerate(schema):
            yield from schema_words(item, f"{where}[{index}]")


def localized_schema(schema: Any, translator: "Translator") -> Any:
    """An options' JSON Schema with each ``Text`` it holds in ``translator``'s language (a copy as plain
    dicts and lists; names and values as they are)."""
    if isinstance(schema, Text):
        return translator.translate(schema)
    if isinstance(schema, Mapping):
        return {key: (value if key in VALUE_KEYWORDS
                      else {name: localized_schema(inner, translator) for name, inner in value.items()}
                      if key in NAMED_SCHEMAS and isinstance(value, Mapping)
                      else localized_schema(value, translator))
                for key, value in schema.items()}
    if isinstance(schema, (list, tuple)):
        return [localized_schema(item, translator) for item in schema]
    return schema


# ------------------------------------------------------------------ catalogues

def _language_dirs(locale_dir: Path) -> list[str]:
    return sorted(p.name for p in locale_dir.iterdir() if p.is_dir()) if locale_dir.is_dir() else []


@functools.lru_cache(maxsize=256)
def read_catalogue(path: Path) -> Mapping[str, str]:
    """A ``.po`` file's translated messages, msgid -> msgstr (fuzzy and empty ones left out)."""
    from babel.messages.pofile import read_po  # Babel is needed only where catalogues are read

    with path.open("rb") as file:
        catalog = read_po(file)
    return {message.id: message.string for message in catalog
            if message.id and isinstance(message.id, str) and isinstance(message.string, str)
            and message.string and not message.fuzzy}


SDK_LOCALE_DIR = Path(__file__).resolve().parent / "locale"
SDK_DOMAIN = "gamehost-sdk"


def sdk_messages(language: str) -> Mapping[str, str]:
    """The SDK's own words in ``language`` (``fr-CH``: its ``fr`` ones), msgid -> msgstr."""
    for tag in dict.fromkeys([language, language.split("-")[0]]):
        path = SDK_LOCALE_DIR / tag.replace("-", "_") / "LC_MESSAGES" / f"{SDK_DOMAIN}.po"
        if path.is_file():
            return read_catalogue(path)
    return {}


class Catalogues:
    """A plugin's ``.po`` catalogues: ``locale_dir/<lang>/LC_MESSAGES/<domain>.po``."""

    def __init__(self, locale_dir: Path | None, domain: str = DEFAULT_DOMAIN,
                 languages: Sequence[str] | None = None) -> None:
        """``languages``: those declared; None: those found in ``locale_dir``."""
        self.locale_dir = locale_dir
        self.domain = domain
        if languages is None:
            languages = _language_dirs(locale_dir) if locale_dir is not None else []
        self.languages: tuple[str, ...] = tuple(dict.fromkeys([ENGLISH, *languages]))
        self._translators: dict[str, Translator] = {}

    def path(self, language: str) -> Path | None:
        if self.locale_dir is None:
            return None
        path = self.locale_dir / language.replace("-", "_") / "LC_MESSAGES" / f"{self.domain}.po"
        return path if path.is_file() else None

    def translator(self, language: str) -> Translator:
        """The translator for ``language`` (one of ``languages``; English: the message ids): the
        catalogue's words over the SDK's. Made once per language (renderers ask for it on every call)."""
        if language == ENGLISH:
            return ENGLISH_TRANSLATOR
        made = self._translators.get(language)
        if made is None:
            path = self.path(language)
            own = read_catalogue(path) if path is not None else {}
            sdk = sdk_messages(language)
            made = Translator(language, {**sdk, **own} if sdk else own)
            self._translators[language] = made
        return made


@functools.lru_cache(maxsize=None)
def _package_locale_dir(module: str) -> Path | None:
    import importlib

    package = importlib.import_module(module.split(".")[0])
    origin = getattr(package, "__file__", None)
    return None if origin is None else Path(origin).parent / "locale"


def catalogues_of(game: Any) -> Catalogues:
    """The catalogues a game ships: in ``locale/`` beside the top-level package of the class that
    declares its ``languages`` (a game derived from another in a test keeps its catalogues), domain
    ``Game.message_domain``; its languages are those declared, else those found there."""
    cached = getattr(game, "_gamehost_catalogues", None)
    if cached is None:
        declaring = next((cls for cls in type(game).__mro__[:-1]
                          if "languages" in vars(cls) and cls.__module__ != "gamehost.sdk.rules"), None)
        locale_dir = _package_locale_dir((declaring or type(game)).__module__)
        cached = Catalogues(locale_dir, getattr(game, "message_domain", DEFAULT_DOMAIN),
                            None if declaring is None else tuple(getattr(game, "languages", ())))
        try:
            game._gamehost_catalogues = cached
        except AttributeError:  # a game with __slots__: read each time
            pass
    return cached


# ------------------------------------------------------------------ negotiation

_TAG = re.compile(r"^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$")


def valid_tag(tag: str) -> bool:
    """Whether ``tag`` has the shape of a BCP 47 language tag (``fr``, ``fr-CH``, ``zh-Hant-TW``)."""
    return len(tag) <= 64 and bool(_TAG.match(tag))


def preferences(header: str) -> list[str]:
    """An ``Accept-Language`` header's tags, most wanted first (``*`` and q=0 left out)."""
    ranked: list[tuple[float, int, str]] = []
    for index, item in enumerate(header.split(",")):
        tag, _, params = item.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        tag = tag.strip()
        if tag and tag != "*" and quality > 0 and valid_tag(tag):
            ranked.append((-quality, index, tag))
    return [tag for _, _, tag in sorted(ranked)]


def negotiate(preferred: Iterable[str], available: Sequence[str]) -> str:
    """The best of ``available`` languages for ``preferred`` tags (best first),
    English when none fits. ``fr-CH`` takes ``fr``; ``fr`` takes ``fr-FR``
    when only that is available."""
    from babel import negotiate_locale

    wanted = [tag.replace("-", "_") for tag in preferred]
    offered = [tag.replace("-", "_") for tag in available]
    chosen = negotiate_locale(wanted, offered) if wanted else None
    if chosen is None:  # Babel matches fr-CH to fr but not fr to fr-FR: try the language alone
        languages = {tag.split("_")[0].lower(): tag for tag in reversed(offered)}
        chosen = next((languages[tag.split("_")[0].lower()] for tag in wanted
                       if tag.split("_")[0].lower() in languages), None)
    return ENGLISH if chosen is None else chosen.replace("_", "-")
