"""Where settings come from: flags over the environment over a TOML file over
the defaults. A bad value becomes one line that names the setting and the
source that gave it (SettingsError); nothing is half applied."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, Mapping, TypeVar

from pydantic import ValidationError
from pydantic_core import ErrorDetails
from pydantic_settings import BaseSettings, EnvSettingsSource, TomlConfigSettingsSource

from gamehost.host.ops.config import SettingsConflict

Settings = TypeVar("Settings", bound=BaseSettings)

CONFIG_ENV = "GAMEHOST_CONFIG"  # names the settings file when --config does not


class SettingsError(Exception):
    """One line for a person: which setting, from where, what is wrong."""


def flag_of(settings_cls: type[BaseSettings], name: str) -> str:
    extra = settings_cls.model_fields[name].json_schema_extra or {}
    return extra.get("flag") or f"--{name.replace('_', '-')}"  # type: ignore[union-attr, return-value]


def env_of(settings_cls: type[BaseSettings], name: str) -> str:
    return f"{settings_cls.model_config.get('env_prefix', '')}{name}".upper()


def read_settings_file(settings_cls: type[BaseSettings], path: str) -> dict[str, Any]:
    """The TOML file's top-level keys, one per setting."""
    if not Path(path).is_file():
        raise SettingsError(f"settings file {path}: no such file")
    try:
        return dict(TomlConfigSettingsSource(settings_cls, toml_file=Path(path))())
    except tomllib.TOMLDecodeError as error:
        raise SettingsError(f"settings file {path}: not TOML: {error}") from None
    except OSError as error:
        raise SettingsError(f"settings file {path}: {error.strerror}") from None


def load_settings(settings_cls: type[Settings], flags: Mapping[str, Any] | None = None,
                  config_file: str | None = None) -> Settings:
    """``flags``: the values given on the command line, by setting name;
    ``config_file``: a TOML file, or none."""
    layers: list[tuple[str, Mapping[str, Any]]] = [("flag", dict(flags or {}))]
    layers.append(("env", dict(EnvSettingsSource(settings_cls)())))
    if config_file:
        layers.append((config_file, read_settings_file(settings_cls, config_file)))
    values: dict[str, Any] = {}
    for _, given in reversed(layers):
        values.update(given)
    try:
        return settings_cls(**values)
    except ValidationError as invalid:
        raise SettingsError(_complaint(settings_cls, invalid.errors()[0], layers)) from None


def _origin(settings_cls: type[BaseSettings], name: str, layers) -> str:
    for source, given in layers:
        if name in given:
            if source == "flag":
                return f"argument {flag_of(settings_cls, name)}"
            if source == "env":
                return f"{env_of(settings_cls, name)} in the environment"
            return f"{name} in {source}"
    return f"{flag_of(settings_cls, name)}'s default"


def _conflict_origin(settings_cls: type[BaseSettings], name: str, layers) -> str:
    source = next((source for source, given in layers if name in given), None)
    where = {"flag": "the command line", "env": env_of(settings_cls, name), None: "its default"}.get(source, source)
    return f"{flag_of(settings_cls, name)} from {where}"


def _complaint(settings_cls: type[BaseSettings], error: ErrorDetails, layers) -> str:
    location = error["loc"]
    if error["type"] == "extra_forbidden":
        source = next(source for source, given in layers if location[0] in given)
        return (f"{location[0]} in {source}: not a setting (the file's keys are the flags' names with "
                f"underscores, e.g. web_port)")
    cause = (error.get("ctx") or {}).get("error")
    if isinstance(cause, SettingsConflict):
        return f"{cause} ({', '.join(_conflict_origin(settings_cls, name, layers) for name in cause.names)})"
    name = str(location[0]) if location else ""
    problem = str(cause) if isinstance(cause, ValueError) else _type_problem(error)
    return f"{_origin(settings_cls, name, layers)}: {problem}"


TYPE_PROBLEMS = {"int": "must be a whole number", "float": "must be a number", "bool": "must be true or false "
                 "(1/0, yes/no, on/off)", "string": "must be text"}


def _type_problem(error: ErrorDetails) -> str:
    kind = error["type"].split("_")[0]
    if error["type"] == "literal_error":
        problem = f"must be one of {error['ctx']['expected'].replace(' or ', ', ')}"
    else:
        problem = TYPE_PROBLEMS.get(kind, error["msg"])
    return f"{problem}, not {error['input']!r}"
