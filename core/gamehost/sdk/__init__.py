"""What a game plugin author imports: the rules interface and the hook marker."""

from gamehost.sdk.chance import rng_for
from gamehost.sdk.hookspecs import hookimpl
from gamehost.sdk.rules import (
    SPECTATOR,
    Game,
    IllegalMove,
    InvalidOptions,
    MalformedMove,
    Move,
    Outcome,
    Secret,
    State,
    Variant,
    places,
)

__all__ = [
    "SPECTATOR",
    "Game",
    "IllegalMove",
    "InvalidOptions",
    "MalformedMove",
    "Move",
    "Outcome",
    "Secret",
    "State",
    "Variant",
    "places",
    "hookimpl",
    "rng_for",
]
