"""Callisto (Reiner Knizia) as a gamehost plugin.

``rules.py`` holds the rules (read it like the rulebook), ``render.py`` the
text and SVG pictures, ``hints.py`` the search bots' hints, and ``game.py``
the ``Game`` that declares the game to the host; this module only registers it.
"""

from gamehost.sdk import hookimpl

from gamehost_callisto.game import Callisto


@hookimpl
def gamehost_games():
    return [Callisto()]
