"""The rules as a newcomer reads them, before and during a match (``Game.how_to_play``).

Markdown, one message per paragraph so a translator handles one at a time;
the developer's readings of each rule are in docs/games/, not here."""

from __future__ import annotations

from gamehost.sdk import Text

HOW_TO_PLAY: tuple[Text, ...] = (
    Text('**Goal.** Five towers grow during the game, one per style. You do not own a tower: you bet power chips on the ones you expect to stand tallest, and score flags when your bets pay off.'),
    Text('**Your turn, in three steps.**\n\n1. *Build:* play a card from your hand of three onto the tower of its style and choose to add 1, 2 or 3 storeys.\n2. *Bet (optional):* put one chip under a tower whose style shows on top of one of the three piles. The chip must be worth at least the storeys you just built.\n3. *Draw:* take the face-up card on top of pile 1, 2 or 3: the pile numbered like the storeys you built.'),
    Text('**The end and scoring.** The game stops the moment a pile runs out. The four tallest towers carry flags worth 8/4, 6/3, 4/2 and 2/1 (a tie between towers goes to the one further left). On each, the player with the largest stake scores the big number, the runner-up the small one; an earlier chip wins a tie. The lowest tower pays nothing.'),
    Text('**Tip.** Choosing the storeys also chooses your next card: look at the three pile tops before you build.'),
)
"""Campanile's rules for a newcomer (Game.how_to_play), one message per paragraph."""
