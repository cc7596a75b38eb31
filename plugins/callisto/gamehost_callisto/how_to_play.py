"""The rules as a newcomer reads them, before and during a match (``Game.how_to_play``).

Markdown, one message per paragraph so a translator handles one at a time;
the developer's readings of each rule are in docs/games/, not here."""

from __future__ import annotations

from gamehost.sdk import Text

HOW_TO_PLAY: tuple[Text, ...] = (
    Text('**Goal.** Place as many of your 18 pieces as you can on the octagonal board. Every cell of a piece left in your supply counts as a penalty point at the end: the lowest penalty wins.'),
    Text('**The opening.** In each of the first two rounds, place one of your single-cell columns on any empty cell, except in the centre and, with 2 or 3 players, on the outer ring that is not in play. Your pieces will grow from these columns.'),
    Text('**Your turn after that.** Place one piece, turned and flipped as you like, on empty cells so that at least one of its cells shares a whole side with a cell of your own colour. Corners do not count; touching other colours is allowed. Instead of a piece you may play your third column, anywhere a column may go.'),
    Text('**The end.** A player who cannot place anything is out for the rest of the game. When nobody can play, count the cells left in each supply. Between equal penalties, the player who started later wins.'),
    Text('**Tip.** Play your big five-cell pieces early, while there is room, and keep the third column for a corner you could not reach otherwise.'),
)
"""Callisto's rules for a newcomer (Game.how_to_play), one message per paragraph."""
