"""The rules as a newcomer reads them, before and during a match (``Game.how_to_play``).

Markdown, one message per paragraph so a translator handles one at a time;
the developer's readings of each rule are in docs/games/, not here."""

from __future__ import annotations

from gamehost.sdk import Text

HOW_TO_PLAY: tuple[Text, ...] = (
    Text('**Goal.** Be the first to line up three of your marks in a row, a column or a diagonal.'),
    Text('**Your turn.** Player 1 plays X, Player 2 plays O. On your turn, put your mark on any empty square of the 3x3 grid. Marks never move once placed.'),
    Text('```\n X | O | X\n---+---+---\n   | X | O\n---+---+---\n   |   | X\n```'),
    Text('**The end.** The game stops as soon as someone completes a line of three (above, X wins on the diagonal). If all nine squares fill up without a line, the game is a draw.'),
    Text('**Tip.** Whenever your opponent has two marks in a line with the third square empty, block it at once. The centre square belongs to four lines: it is the strongest first move, and a corner is the best answer to it.'),
)
"""Tic-tac-toe's rules for a newcomer (Game.how_to_play), one message per paragraph."""
