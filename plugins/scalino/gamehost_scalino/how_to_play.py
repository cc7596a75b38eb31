"""The rules as a newcomer reads them, before and during a match (``Game.how_to_play``).

Markdown, one message per paragraph so a translator handles one at a time;
the developer's readings of each rule are in docs/games/, not here."""

from __future__ import annotations

from gamehost.sdk import Text

HOW_TO_PLAY: tuple[Text, ...] = (
    Text('**Goal.** Together you build a four-level pyramid of wooden bars (1, 2 or 3 cells long). Each of you tries to leave long staircases of your colour visible from above. With two players, each plays two colours.'),
    Text('**Your turn.** Place one of your pieces flat on the current level. The very first piece covers the centre cross. Each piece must touch a piece already on that level by a side, may never touch a piece of the same colour face to face, and may not leave an empty cell or group of cells shut in on more than two sides. A level is filled completely before the next starts; whoever fills it places one more piece at once, anywhere on the next level. A player who cannot place passes.'),
    Text('**Scoring.** Seen from above, cells of your colour that follow one another form a staircase without branches: one step scores 1, two 3, three 6, four 10, and so on. If the pyramid cannot be finished, each piece left in hand costs its length.'),
    Text('**Tip.** Long staircases grow fast: link your visible cells into one path rather than scattering them.'),
)
"""Scalino's rules for a newcomer (Game.how_to_play), one message per paragraph."""

PYRAMID_HOW_TO_PLAY: tuple[Text, ...] = (
    Text('**Goal.** A complete Scalino pyramid stands on the table. Take it apart piece by piece: every piece you collect scores its length, 1, 2 or 3 points.'),
    Text('**Your turn.** Take one piece of any colour from any level. It must not be covered by a piece of the level above, and at least one whole side of it must be free: no piece of the same level along it, or the edge of the level.'),
    Text('**Special case.** Whoever takes the last piece of a level at once takes one more piece, following the same rules, from the level below.'),
    Text('**The end.** The game ends when the last piece is gone. The player with the most points wins; equal totals share the win.'),
    Text('**Tip.** Before you take a long bar, check which pieces its removal frees for the next player.'),
)
"""The pyramid game's rules for a newcomer, one message per paragraph."""
