"""Words both Scalino games share, said as message ids (``Text``) that the
host renders in each player's language: colours and pieces.

A piece's name is one message per colour (``"red {size}-cell bar"``), not a
colour inside a sentence: other languages make the colour agree with the
piece ("pièce rouge", "pièce verte"). The state never holds a word: these
are built when a label, a summary or a picture is made."""

from __future__ import annotations

from typing import Sequence

from gamehost.sdk import Text, names_joined


def colour_name(colour: str) -> Text:
    """A colour as a seat plays it: "red"."""
    return Text(colour)


def colours_name(colours: Sequence[str]) -> Text:
    """A seat's colours: "red", or "red/yellow" for a seat of two."""
    text = colour_name(colours[0])
    for colour in colours[1:]:
        text = Text("{first}/{second}", first=text, second=colour_name(colour))
    return text


def piece_name(colour: str, size: int, *, lie: str = "", capital: bool = False) -> Text:
    """A piece: "red single", "red 2-cell bar", "red 3-cell bar down" (``lie``:
    "across" or "down"), "Red single" to open a sentence. The French catalogue
    holds each colour's forms (a single has no lie)."""
    msgid = f"{colour} single" if size == 1 else f"{colour} {{size}}-cell bar" + (f" {lie}" if lie else "")
    if capital:
        msgid = msgid[0].upper() + msgid[1:]
    return Text(msgid) if size == 1 else Text(msgid, size=size)


def verdict(winners: Sequence[str], points: int) -> Text:
    """Who won, with how many points (both games' results)."""
    if len(winners) == 1:
        return Text("{winners} wins with {points} points.", winners=winners[0], points=points)
    return Text("{winners} share the win with {points} points.", winners=names_joined(winners), points=points)
