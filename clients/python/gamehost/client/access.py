"""Who may see, join and watch a match, by name or by the protocol's value."""

from __future__ import annotations

from typing import Literal, Union

from gamehost.v1 import gamehost_pb2 as pb

VisibilityLevel = Union[Literal["", "public", "unlisted", "private"], int]
SpectatorsPolicy = Union[Literal["", "anyone", "players", "none"], int]

VISIBILITIES = {"": pb.VISIBILITY_UNSPECIFIED, "public": pb.VISIBILITY_PUBLIC,
                "unlisted": pb.VISIBILITY_UNLISTED, "private": pb.VISIBILITY_PRIVATE}
SPECTATORS = {"": pb.SPECTATORS_UNSPECIFIED, "anyone": pb.SPECTATORS_ANYONE,
              "players": pb.SPECTATORS_PLAYERS, "none": pb.SPECTATORS_NONE}


def _value(given: str | int, names: dict[str, int], what: str) -> int:
    if isinstance(given, int):
        return given
    try:
        return names[given]
    except KeyError:
        raise ValueError(f"{what} is one of {', '.join(repr(n) for n in names if n)}, not {given!r}") from None


def visibility_value(given: VisibilityLevel) -> int:
    """``pb.Visibility`` for "public", "unlisted", "private" ("": unspecified, the host's public)."""
    return _value(given, VISIBILITIES, "visibility")


def spectators_value(given: SpectatorsPolicy) -> int:
    """``pb.Spectators`` for "anyone", "players", "none" ("": unspecified, anyone)."""
    return _value(given, SPECTATORS, "spectators")
