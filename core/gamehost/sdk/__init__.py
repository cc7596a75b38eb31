"""What a game plugin author imports: the rules interface and the hook marker."""

from gamehost.sdk.chance import rng_for
from gamehost.sdk.hookspecs import hookimpl
from gamehost.sdk.i18n import Text, gettext, tr
from gamehost.sdk.seats import names_joined, player_number, seat_name, seat_names
from gamehost.sdk.rules import (
    SPECTATOR,
    Game,
    IllegalMove,
    InvalidOptions,
    MalformedMove,
    Move,
    Outcome,
    Part,
    Reveal,
    Secret,
    State,
    Variant,
    places,
    rank_shares,
)

__all__ = [
    "SPECTATOR",
    "Game",
    "IllegalMove",
    "InvalidOptions",
    "MalformedMove",
    "Move",
    "Outcome",
    "Part",
    "Reveal",
    "Secret",
    "State",
    "Variant",
    "places",
    "rank_shares",
    "hookimpl",
    "player_number",
    "names_joined", "seat_name",
    "seat_names",
    "rng_for",
    "Text",
    "gettext",
    "tr",
]
