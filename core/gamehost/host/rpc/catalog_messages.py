"""The catalog (ListGames, GetGame) as protobuf messages, in each language asked.

The English catalog is built once, when the host starts. A language's is
built the first time someone asks for it and kept: the lobby reads the
catalog on every page load, and a game's words do not change while the host
runs. Each game is said in the language negotiated for its own plugin
(``Locales``), so one answer may mix French games with English ones, each
``Game.locale`` saying which.

What a plugin gives as ``Text`` is translated: the title and summary, the
how-to-play paragraphs (joined by blank lines into one Markdown text), each
variant's title and description, and every word of the options' JSON Schema
(``title``, ``description``, a choice's ``title`` under ``oneOf``/``anyOf``).
Values a client sends back (``enum``, ``const``, ``default``, ``examples``)
stay as they are, whatever their type.
"""

from __future__ import annotations

from typing import Callable, Iterable, Mapping

from gamehost.client.structs import to_struct
from gamehost.host.bots import BOT_CATALOG
from gamehost.host.plugins import Catalog
from gamehost.host.rpc.locales import Locale, Locales
from gamehost.host.store.base import PlayerRating
from gamehost.sdk.i18n import localized_schema
from gamehost.sdk.rules import Game, offers_undo
from gamehost.v1 import gamehost_pb2 as pb

MAX_ASKED_KEPT = 256  # distinct Accept-Language lists remembered; a client inventing them only empties it


class CatalogMessages:
    """Every game of ``catalog`` as a Game message: English, and per language once asked.
    ``bots``: the names of the bots the host seats (built-in and plugins')."""

    def __init__(self, catalog: Catalog, bots: Iterable[str], locales: Locales) -> None:
        self.catalog = catalog
        self.locales = locales
        self.bots = self._bots_pb(bots)
        self.english = [self._game_message(game_id) for game_id in sorted(catalog.games)]
        self._by_language: dict[tuple[str, str], pb.Game] = {}  # (game id, negotiated tag) -> its message
        self._by_asked: dict[tuple[str, ...], list[pb.Game]] = {}

    def games(self, wanted: tuple[str, ...]) -> list[pb.Game]:
        """The catalog for the languages ``wanted`` (best first; none: English, ``locale`` empty)."""
        if not wanted:
            return self.english
        games = self._by_asked.get(wanted)
        if games is None:
            games = [self._localized(shared, wanted) for shared in self.english]
            if len(self._by_asked) >= MAX_ASKED_KEPT:
                self._by_asked.clear()
            self._by_asked[wanted] = games
        return games

    def _localized(self, shared: pb.Game, wanted: tuple[str, ...]) -> pb.Game:
        game = self.catalog.games[shared.id].game
        locale = self.locales.for_game(game, wanted)
        assert locale is not None  # something was asked
        key = (shared.id, locale.tag)
        message = self._by_language.get(key)
        if message is None:
            message = localized_game(shared, game, locale)
            self._by_language[key] = message  # bounded: one per game and language a plugin offers
        return message

    def _game_message(self, game_id: str) -> pb.Game:
        entry = self.catalog.games[game_id]
        game = entry.game
        report = next((r for r in self.catalog.reports if r.name == entry.plugin), None)
        plugin = " ".join(filter(None, [report.distribution or report.name, report.version])) if report else ""
        return pb.Game(
            name=f"games/{game.id}", id=game.id, title=game.title, summary=game.summary,
            how_to_play=how_to_play_markdown(game, str),
            rules_version=game.version, min_players=game.min_players, max_players=game.max_players,
            player_counts=game.allowed_player_counts(),
            options_schema=to_struct(dict(game.options_schema)), default_options=to_struct(game.default_options()),
            variants=[pb.Variant(id=v.id, title=v.title, description=v.description,
                                 options=to_struct(dict(v.options))) for v in game.variants],
            hidden_information=game.hidden_information, chance=game.chance, plugin=plugin,
            bots=self.bots, undo=offers_undo(game),
            draw_by_agreement=game.can_draw_by_agreement)

    @staticmethod
    def _bots_pb(bots: Iterable[str]) -> list[pb.GameBot]:
        """The built-in bots (each plays every game), then the plugins' bots by name."""
        known = {name for name, _, _ in BOT_CATALOG}
        return [pb.GameBot(name=name, title=title, level=level) for name, title, level in BOT_CATALOG] + \
            [pb.GameBot(name=name, title=name) for name in sorted(bots) if name not in known]


def with_agents(games: list[pb.Game], agents_for: Callable[[str], list[str]]) -> list[pb.Game]:
    """``games`` with, after each one's bots, the remote agents playing it now
    (``agents_for(game id)``: their bot names), on copies: the cached
    messages stay as they are. An agent's title is its name, said in no language."""
    shown = []
    for game in games:
        agents = agents_for(game.id)
        if agents:
            copy = pb.Game()
            copy.CopyFrom(game)
            copy.bots.extend(pb.GameBot(name=bot, title=bot.partition(":")[2], agent=True) for bot in agents)
            game = copy
        shown.append(game)
    return shown


def with_bot_ratings(games: list[pb.Game], rated: Mapping[str, Mapping[str, PlayerRating]]) -> list[pb.Game]:
    """``games`` with each built-in level's rating in that game (``rated``:
    by game id, then bot name), on copies: the cached messages stay as they are."""
    shown = []
    for game in games:
        levels = rated.get(game.id)
        if levels and any(bot.name in levels for bot in game.bots):
            copy = pb.Game()
            copy.CopyFrom(game)
            for bot in copy.bots:
                if (rating := levels.get(bot.name)) is not None and not bot.agent:
                    bot.rating.CopyFrom(pb.BotRating(mu=rating.mu, sigma=rating.sigma, rating=rating.rating,
                                                     games=rating.games, wins=rating.wins, losses=rating.losses,
                                                     draws=rating.draws))
            game = copy
        shown.append(game)
    return shown


def how_to_play_markdown(game: Game, say: Callable[[str], str]) -> str:
    """``game``'s how-to-play paragraphs, each said by ``say``, as one Markdown text."""
    return "\n\n".join(say(paragraph).strip() for paragraph in game.how_to_play)


def localized_game(shared: pb.Game, game: Game, locale: Locale) -> pb.Game:
    """A copy of ``shared`` (``game``'s English message) with its words in ``locale``, marked with it."""
    message = pb.Game()
    message.CopyFrom(shared)
    message.locale = locale.tag
    if locale.english:
        return message
    say = locale.translator.translate
    message.title, message.summary = say(game.title), say(game.summary)
    message.how_to_play = how_to_play_markdown(game, say)
    for variant, words in zip(message.variants, game.variants):
        variant.title, variant.description = say(words.title), say(words.description)
    message.options_schema.CopyFrom(to_struct(localized_schema(dict(game.options_schema), locale.translator)))
    for bot in message.bots:  # the built-in bots' titles are the host's words
        bot.title = locale.say(bot.title, None)
    return message
