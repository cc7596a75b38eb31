"""The rules as a newcomer reads them, before and during a match (``Game.how_to_play``).

Markdown, one message per paragraph so a translator handles one at a time;
the developer's readings of each rule are in docs/games/, not here."""

from __future__ import annotations

from gamehost.sdk import Text

HOW_TO_PLAY: tuple[Text, ...] = (
    Text('**Goal.** Build the finest Victorian facade on top of your coloured door: windows and doors under roofs, roofs at many different heights, and cats.'),
    Text("**Your turn: take, then build.** Take one tile: a beige window tile from the pile for free, a brown roof or wall tile from the pile for 1 bonus chip, or, for 1 chip paid to its owner, a tile from another player's warehouse (you must build it at once). With 4 chips or more you may not take a free tile. Then place the tile you took and any tiles from your own warehouse. A tile you do not place goes to a free spot of your warehouse."),
    Text('**Placing.** Tiles keep their way up, rest on the ground or on other tiles with no gap beneath, and touch your building. A window tile must touch a window of the same lighting, a door, a wall or a roof. Nothing goes on a roof. Placing a tile with a grey diamond earns a chip.'),
    Text('**The end and scoring.** The game ends when the seventh bird roof is drawn (the others get one last build), or when nobody can place any more. Under a roof, each window scores 1 and each door 2; k different roof heights score 1+2+...+k; each cat scores 1; a building roofed everywhere gets 1 per column. Most birds built breaks a tie.'),
    Text('**Tip.** Roof your columns as you go: uncovered windows score nothing.'),
)
"""Kensington's rules for a newcomer (Game.how_to_play), one message per paragraph."""
