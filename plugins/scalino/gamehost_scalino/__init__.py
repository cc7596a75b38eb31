"""Scalino for gamehost: two catalog entries sharing one pyramid.

* ``scalino``: build the pyramid, 2 or 4 players; its rules are in ``rules.py``.
* ``scalino-pyramid``: "Démonte la pyramide", take it apart, 2 to 6 players;
  its rules are in ``dismantle.py``.

Both play on the board of ``pyramid.py`` (geometry, pieces, staircases).
``render.py`` draws the text and SVG pictures of both, ``hints.py`` gives the
search bots' hints for Scalino, and ``game.py`` holds the two ``Game``
classes that declare the games to the host; this module only registers them.
"""

from gamehost.sdk import hookimpl

from gamehost_scalino.game import Scalino, ScalinoPyramid


@hookimpl
def gamehost_games():
    return [Scalino(), ScalinoPyramid()]
