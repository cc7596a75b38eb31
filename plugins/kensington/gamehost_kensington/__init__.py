"""Kensington (Piatnik 2019) as a gamehost plugin.

``rules.py`` holds the rules (read it like the rulebook) and ``tiles.py``
every tile as data; ``render.py`` draws the text and SVG pictures,
``hints.py`` gives the search bots' hints, and ``game.py`` holds the
``Game`` that declares the game to the host; this module only registers it.
"""

from gamehost.sdk import hookimpl

from gamehost_kensington.game import Kensington


@hookimpl
def gamehost_games():
    return [Kensington()]
