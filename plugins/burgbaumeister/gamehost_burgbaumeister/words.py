"""Words the rules and the pictures share, said as message ids (``Text``)
that the host renders in each player's language: seat names, lists of them.

The state never holds a word: these are built when a label, a summary or a
picture is made."""

from __future__ import annotations

from typing import Sequence

from gamehost.sdk import Text


def player(seat: int) -> Text:
    """"Player 2" for seat 1."""
    return Text("Player {number}", number=seat + 1)


def joined(names: Sequence[Text]) -> Text:
    """"Player 1 and Player 2 and Player 3": each name joined to the ones before it."""
    text = names[0]
    for name in names[1:]:
        text = Text("{first} and {second}", first=text, second=name)
    return text
