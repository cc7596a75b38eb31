"""How people read a seat: one naming for plugins, the CLI and the page.

The API counts seats from 0 (``seat`` fields, ``to_move``, bot seats); people
count players from 1. Everything a person reads names seat ``i`` as
"Player i+1", or by the player's own name where it is known (the CLI and the
page know it; rules do not: they see states, not players), with the game's
colour after it where the game gives seats colours: "Player 1 (red)".
Those names are ``Text``: the SDK's catalogue says them in each language it
has ("Joueur 1"), the colour in the plugin's words when it is a ``Text``.
"""

from __future__ import annotations

from typing import Sequence

from gamehost.sdk.i18n import Text


def player_number(seat: int) -> int:
    """The number people use for API seat ``seat``: counted from 1."""
    return seat + 1


def seat_name(seat: int, *, player: str = "", colour: str = "") -> str:
    """"Player 2", "Player 2 (red)"; the player's name instead of "Player 2"
    when given ("Ada", "Ada (red)"). A ``Text`` unless it is the player's name alone."""
    name = player or Text("Player {number}", number=player_number(seat))
    return Text("{name} ({colour})", name=name, colour=colour) if colour else name


def names_joined(names: Sequence[str]) -> str:
    """"Player 1 and Player 2 and Player 3": each name joined to the ones before it, a ``Text``
    when there are two or more, which the host says in each player's language."""
    joined = names[0]
    for name in names[1:]:
        joined = Text("{first} and {second}", first=joined, second=name)
    return joined


def seat_names(seats: int, colours: list[str] | tuple[str, ...] = ()) -> list[str]:
    """The names of seats 0 to ``seats - 1``, each with its colour if given."""
    return [seat_name(seat, colour=colours[seat] if seat < len(colours) else "") for seat in range(seats)]
