"""The rules as a newcomer reads them, before and during a match (``Game.how_to_play``).

Markdown, one message per paragraph so a translator handles one at a time;
the developer's readings of each rule are in docs/games/, not here."""

from __future__ import annotations

from gamehost.sdk import Text

HOW_TO_PLAY: tuple[Text, ...] = (
    Text('**Goal.** Build a wall of ten cards whose numbers climb from left to right, starting from your card 1. It is a memory game: 45 cards numbered 2 to 46 lie face down in the middle, each in a fixed place.'),
    Text('**Your turn.** Turn any face-down card face up where it lies: everyone sees it. If its number is higher than the last card of your wall, you may take it and add it at the right end. Otherwise, or if you prefer to wait for a better one, turn it back face down in the same place.'),
    Text('**The end.** The first player with ten cards in their wall wins at once. If nobody can take any hidden card any more, the longest wall wins, and between equal walls the higher last card.'),
    Text('**Points variant.** Each wall card scores 1, the king and the queen 3 more, princes and princesses 1 each plus 1 per pair, ravens 1 each (5 at most). A cannon makes you remove a card from another wall; towers protect the cards between them; the magician lets you slip one later card into your wall out of order.'),
    Text('**Tip.** Do not jump too high too early: a wall that reaches 40 after four cards will starve.'),
)
"""Burgbaumeister's rules for a newcomer (Game.how_to_play), one message per paragraph."""
