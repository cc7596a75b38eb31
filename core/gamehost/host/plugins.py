"""Finding game plugins and deciding which games the host serves.

Each entry point of group ``gamehost.games`` is loaded on its own and each of
its games validated on its own: a plugin that fails to import, raises from its
hook or offers an invalid game is reported and skipped, never fatal. Every
host builds its own ``PluginManager``, so tests can assemble hosts with
exactly the plugins they want.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any, Callable, Iterable

import pluggy
import structlog
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]  # jsonschema ships no type hints
from jsonschema.exceptions import SchemaError  # type: ignore[import-untyped]

from gamehost.sdk import hookspecs
from gamehost.sdk.rules import Game

ENTRY_POINT_GROUP = "gamehost.games"
GAME_ID = re.compile(r"^[a-z][a-z0-9-]{1,39}$")
REQUIRED_METHODS = ("setup", "to_move", "legal_moves", "apply", "outcome", "render_text", "render_svg")

log = structlog.get_logger("gamehost.plugins")


@dataclass
class PluginReport:
    """What ``gamehost plugins`` shows for one plugin."""

    name: str
    distribution: str = ""
    version: str = ""
    games: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def rules_key(game_id: str, rules_version: str) -> str:
    """How the host and its workers name one version of a game's rules."""
    return f"{game_id}@{rules_version}"


@dataclass
class GameEntry:
    """A validated game and where it came from; ``game`` is one version of
    its rules (the newest for the catalog's entry)."""

    game: Game
    plugin: str
    validator: Draft202012Validator
    # rules version -> the entry playing it, this one included (shared by all of them)
    versions: dict[str, "GameEntry"] = field(default_factory=dict, repr=False, compare=False)

    @property
    def rules_key(self) -> str:
        return rules_key(self.game.id, self.game.version)

    def at_version(self, rules_version: str) -> "GameEntry | None":
        """The entry playing ``rules_version`` of this game, if the plugin ships it."""
        return self.versions.get(rules_version)

    def versions_text(self) -> str:
        """The rules versions served, newest first, for messages."""
        return ", ".join([self.game.version] + sorted(set(self.versions) - {self.game.version}, reverse=True))


@dataclass
class Catalog:
    games: dict[str, GameEntry] = field(default_factory=dict)
    reports: list[PluginReport] = field(default_factory=list)
    plugin_manager: pluggy.PluginManager | None = None

    def get(self, game_id: str) -> GameEntry | None:
        return self.games.get(game_id)

    def all_rules(self) -> dict[str, Game]:
        """Every version of every game's rules, by ``rules_key``."""
        return {version.rules_key: version.game
                for entry in self.games.values() for version in entry.versions.values()}

    def clock_rule(self) -> Callable[..., Any] | None:
        """The plugins' ``gamehost_clock_ran_out`` hook, or None when no
        plugin implements it (the rules workers call it under a budget)."""
        if self.plugin_manager is None:
            return None
        hook = self.plugin_manager.hook.gamehost_clock_ran_out
        return hook if hook.get_hookimpls() else None

    def resign_rule(self) -> Callable[..., Any] | None:
        """The plugins' ``gamehost_seat_resigned`` hook, or None when no
        plugin implements it (the rules workers call it under a budget)."""
        if self.plugin_manager is None:
            return None
        hook = self.plugin_manager.hook.gamehost_seat_resigned
        return hook if hook.get_hookimpls() else None


def validation_errors(game: Any) -> list[str]:
    """Why ``game`` cannot be served, or an empty list."""
    if not isinstance(game, Game):
        return [f"{game!r} is not a gamehost.sdk.Game"]
    errors = []
    if not GAME_ID.match(game.id or ""):
        errors.append(f"game id {game.id!r} must match {GAME_ID.pattern}")
    if not game.title:
        errors.append("game has no title")
    if not (1 <= game.min_players <= game.max_players):
        errors.append(f"players {game.min_players}..{game.max_players} is not a valid range")
    elif game.player_counts and game.min_players not in game.allowed_player_counts():
        # CreateMatch takes min_players when no count is given: it must be one the game allows.
        errors.append(f"player_counts {list(game.player_counts)} must include min_players {game.min_players}")
    for method in REQUIRED_METHODS:
        if getattr(type(game), method) is getattr(Game, method):
            errors.append(f"game does not implement {method}()")
    try:
        Draft202012Validator.check_schema(dict(game.options_schema))
        defaults = game.default_options()
        problems = list(Draft202012Validator(dict(game.options_schema)).iter_errors(defaults))
        errors += [f"default options are invalid: {p.message}" for p in problems]
        for variant in game.variants:
            merged = {**defaults, **variant.options}
            errors += [f"variant {variant.id!r}: {p.message}"
                       for p in Draft202012Validator(dict(game.options_schema)).iter_errors(merged)]
    except SchemaError as error:
        errors.append(f"options_schema is not a valid JSON Schema: {error.message}")
    return errors


def _distribution_of(entry_point) -> tuple[str, str]:
    dist = getattr(entry_point, "dist", None)
    return (dist.name, dist.version) if dist is not None else ("", "")


def load_catalog(plugins: Iterable[tuple[str, Any]] = (), *, use_entry_points: bool = True) -> Catalog:
    """Build a plugin manager and catalog from installed entry points plus
    ``plugins`` given directly as (name, module-or-object) pairs."""
    manager = pluggy.PluginManager("gamehost")
    manager.add_hookspecs(hookspecs)
    catalog = Catalog(plugin_manager=manager)

    candidates: list[tuple[PluginReport, Any]] = []
    if use_entry_points:
        for entry_point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: ep.name):
            distribution, version = _distribution_of(entry_point)
            report = PluginReport(entry_point.name, distribution, version)
            try:
                candidates.append((report, entry_point.load()))
            except Exception as error:  # a broken plugin must never stop the host
                report.errors.append(f"import failed: {type(error).__name__}: {error}")
                catalog.reports.append(report)
                log.error("plugin skipped", plugin=entry_point.name, error=report.errors[-1])
    for name, plugin in plugins:
        candidates.append((PluginReport(name), plugin))

    for report, plugin in candidates:
        catalog.reports.append(report)
        try:
            manager.register(plugin, name=report.name)
        except Exception as error:
            report.errors.append(f"registration failed: {type(error).__name__}: {error}")
            log.error("plugin skipped", plugin=report.name, error=report.errors[-1])
            continue
        _add_games(catalog, manager, report, plugin)
    return catalog


def _add_games(catalog: Catalog, manager: pluggy.PluginManager, report: PluginReport, plugin: Any) -> None:
    # Call this plugin's implementation alone: one raising hook must not hide
    # the games of every other plugin, as a plain hook call would.
    impls = [impl for impl in manager.hook.gamehost_games.get_hookimpls() if impl.plugin is plugin]
    if not manager.get_hookcallers(plugin):
        report.errors.append("implements no gamehost hook (are its functions marked with @gamehost.sdk.hookimpl?)")
        log.error("plugin skipped", plugin=report.name, error=report.errors[-1])
    for impl in impls:
        try:
            offered: Any = impl.function()  # a plugin's answer: each game is validated below
            games = list(offered or [])
        except Exception as error:
            report.errors.append(f"gamehost_games() raised {type(error).__name__}: {error}")
            log.error("plugin skipped", plugin=report.name, error=report.errors[-1])
            continue
        for game in games:
            problems = validation_errors(game)
            if not problems and game.id in catalog.games:
                problems = [f"game id {game.id!r} is already provided by plugin {catalog.games[game.id].plugin!r}"]
            if problems:
                report.errors += [f"game {getattr(game, 'id', game)!r}: {p}" for p in problems]
                log.error("game skipped", plugin=report.name, game=getattr(game, "id", None), errors=problems)
                continue
            entry = GameEntry(game, report.name, Draft202012Validator(dict(game.options_schema)))
            entry.versions[game.version] = entry
            _add_earlier_versions(entry, report)
            catalog.games[game.id] = entry
            report.games.append(game.id)
            log.debug("game loaded", plugin=report.name, game=game.id)


def _add_earlier_versions(entry: GameEntry, report: PluginReport) -> None:
    """The older rules a game ships for the matches created under them; an
    invalid one is reported and skipped, the game itself is still served."""
    for earlier in getattr(entry.game, "earlier_versions", ()) or ():
        version: Any = getattr(earlier, "version", None)  # validated with the rest of the game below
        problems = validation_errors(earlier)
        if not problems and earlier.id != entry.game.id:
            problems = [f"has id {earlier.id!r}, not {entry.game.id!r}"]
        if not problems and version in entry.versions:
            problems = [f"rules version {version!r} is given twice"]
        if problems:
            report.errors += [f"game {entry.game.id!r}: earlier version {version!r}: {p}" for p in problems]
            log.error("earlier rules version skipped", plugin=report.name, game=entry.game.id, version=version,
                      errors=problems)
            continue
        older = GameEntry(earlier, report.name, Draft202012Validator(dict(earlier.options_schema)), entry.versions)
        entry.versions[version] = older
        log.debug("earlier rules version loaded", plugin=report.name, game=entry.game.id, version=version)
