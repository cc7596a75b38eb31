"""Campanile (Hanno & Wilfried Kuhn, Blatz 1996) as a gamehost plugin.

The rules live in ``rules.py``; the text and SVG pictures in ``render.py``.
"""

from __future__ import annotations

from gamehost.sdk import hookimpl

from gamehost_campanile.rules import Campanile


@hookimpl
def gamehost_games():
    return [Campanile()]
