"""argparse flags made from a settings class's fields: one per setting, with
its variable and default in the help. A flag left out is absent from the
parsed arguments (not its default), so the environment and the settings file
can give it (settings_sources.load_settings)."""

from __future__ import annotations

import argparse
from typing import Any, Iterable, Literal, get_args, get_origin

from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings

from gamehost.host.ops.settings_sources import env_of, flag_of


def add_setting_flags(parser: argparse.ArgumentParser, settings_cls: type[BaseSettings],
                      names: Iterable[str] | None = None) -> None:
    groups: dict[str, Any] = {}
    for name, field in settings_cls.model_fields.items():
        if names is not None and name not in names:
            continue
        extra: dict[str, Any] = field.json_schema_extra or {}  # type: ignore[assignment]
        group = extra.get("group", "")
        if group and group not in groups:
            groups[group] = parser.add_argument_group(group)
        target = groups[group] if group else parser
        env = env_of(settings_cls, name)
        if field.annotation is bool:
            target.add_argument(flag_of(settings_cls, name), dest=extra.get("dest", name), action="store_true",
                                default=argparse.SUPPRESS, help=_help(field, f"{env}=1", "off"))
        else:
            target.add_argument(flag_of(settings_cls, name), dest=extra.get("dest", name), default=argparse.SUPPRESS,
                                metavar=extra.get("metavar") or _choices(field), help=_help(field, env, _shown(field)))


def given_settings(args: argparse.Namespace, settings_cls: type[BaseSettings]) -> dict[str, Any]:
    """The settings given as flags, by setting name."""
    given = {}
    for name, field in settings_cls.model_fields.items():
        dest = (field.json_schema_extra or {}).get("dest", name)  # type: ignore[union-attr]
        if hasattr(args, dest):  # type: ignore[arg-type]
            given[name] = getattr(args, dest)  # type: ignore[arg-type]
    return given


def _help(field: FieldInfo, env: str, shown: str) -> str:
    return f"{field.description} (env {env}, default {shown})".replace("%", "%%")


def _choices(field: FieldInfo) -> str | None:
    if get_origin(field.annotation) is Literal:
        return "{" + ",".join(get_args(field.annotation)) + "}"
    return None


def _shown(field: FieldInfo) -> str:
    extra: dict[str, Any] = field.json_schema_extra or {}  # type: ignore[assignment]
    if "shown" in extra:
        return extra["shown"]
    default = field.default
    if default is None:
        return "off"
    if default == "":
        return "none"
    if isinstance(default, float):
        return f"{default:g}"
    return str(default)
