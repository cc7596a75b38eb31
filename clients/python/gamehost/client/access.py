"""Who may see, join and watch a match, by name or by the protocol's value."""

from __future__ import annotations

from typing import Literal, TypeVar, Union

from gamehost.v1 import gamehost_pb2 as pb

VisibilityLevel = Union[Literal["", "public", "unlisted", "private"], pb.Visibility]
SpectatorsPolicy = Union[Literal["", "anyone", "players", "none"], pb.Spectators]

VISIBILITIES: dict[str, pb.Visibility] = {
    "": pb.VISIBILITY_UNSPECIFIED, "public": pb.VISIBILITY_PUBLIC, "unlisted": pb.VISIBILITY_UNLISTED,
    "private": pb.VISIBILITY_PRIVATE}
SPECTATORS: dict[str, pb.Spectators] = {
    "": pb.SPECTATORS_UNSPECIFIED, "anyone": pb.SPECTATORS_ANYONE, "players": pb.SPECTATORS_PLAYERS,
    "none": pb.SPECTATORS_NONE}

Value = TypeVar("Value", pb.Visibility, pb.Spectators)


def _value(given: str | Value, names: dict[str, Value], what: str) -> Value:
    if not isinstance(given, str):
        return given
    try:
        return names[given]
    except KeyError:
        raise ValueError(f"{what} is one of {', '.join(repr(n) for n in names if n)}, not {given!r}") from None


def visibility_value(given: VisibilityLevel) -> pb.Visibility:
    """``pb.Visibility`` for "public", "unlisted", "private" ("": unspecified, the host's public)."""
    return _value(given, VISIBILITIES, "visibility")


def spectators_value(given: SpectatorsPolicy) -> pb.Spectators:
    """``pb.Spectators`` for "anyone", "players", "none" ("": unspecified, anyone)."""
    return _value(given, SPECTATORS, "spectators")
