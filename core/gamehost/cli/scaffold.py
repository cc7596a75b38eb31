"""``gamehost new``: a new game plugin package from the template.

The template (``plugin_template/``, files ending in ``.tmpl``) is a complete
small game with its renderers and tests; ``{{name}}`` placeholders take the
game's id, module, class and title.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from gamehost.host.plugins import GAME_ID

TEMPLATE_SUFFIX = ".tmpl"


class ScaffoldError(Exception):
    """Why a plugin cannot be written: a person reads it."""


@dataclass(frozen=True)
class PluginNames:
    game_id: str
    title: str

    @property
    def module(self) -> str:
        return "gamehost_" + self.game_id.replace("-", "_")

    @property
    def dist(self) -> str:
        return f"gamehost-{self.game_id}"

    @property
    def class_name(self) -> str:
        return "".join(part.capitalize() for part in self.game_id.split("-"))

    def placeholders(self) -> dict[str, str]:
        return {"game_id": self.game_id, "title": self.title, "module": self.module, "dist": self.dist,
                "class_name": self.class_name}


def names_for(game_id: str, title: str = "") -> PluginNames:
    if not GAME_ID.match(game_id):
        raise ScaffoldError(f"{game_id!r} is not a game id: lower-case letters, digits and dashes, starting with a "
                            f"letter, 2 to 40 characters (e.g. connect-four)")
    if not title:
        title = " ".join(part.capitalize() for part in game_id.split("-"))
    if any(quote in title for quote in ('"', "\\", "\n", "{", "}")):  # braces: the title is a message id
        raise ScaffoldError(f"--title {title!r}: quotes, backslashes, braces and line breaks are not allowed")
    return PluginNames(game_id, title)


def _fill(text: str, names: PluginNames) -> str:
    for key, value in names.placeholders().items():
        text = text.replace("{{" + key + "}}", value)
    return text


def _template_files(root: Traversable, prefix: str = "") -> list[tuple[str, Traversable]]:
    files = []
    for entry in sorted(root.iterdir(), key=lambda item: item.name):
        if entry.is_dir():
            files += _template_files(entry, f"{prefix}{entry.name}/")
        elif entry.name.endswith(TEMPLATE_SUFFIX):
            files.append((prefix + entry.name.removesuffix(TEMPLATE_SUFFIX), entry))
    return files


def write_plugin(names: PluginNames, directory: Path) -> list[Path]:
    """Write the package into ``directory`` (new or empty); the files written."""
    if directory.exists() and (not directory.is_dir() or any(directory.iterdir())):
        raise ScaffoldError(f"{directory} already exists and is not an empty directory: choose another --dir")
    template = resources.files("gamehost.cli").joinpath("plugin_template")
    written = []
    for relative, source in _template_files(template):
        target = directory / relative.replace("package/", f"{names.module}/", 1)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_fill(source.read_text(encoding="utf-8"), names), encoding="utf-8")
        written.append(target)
    return written
