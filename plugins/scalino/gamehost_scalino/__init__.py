"""Scalino for gamehost: two catalog entries sharing one pyramid.

* ``scalino``: build the pyramid, 2 or 4 players (gamehost_scalino.scalino).
* ``scalino-pyramid``: "Démonte la pyramide", take it apart, 2 to 6 players
  (gamehost_scalino.dismantle).

They are separate games rather than an option because they share only the
board: different player counts, moves and scoring.
"""

from gamehost.sdk import hookimpl

from gamehost_scalino.dismantle import ScalinoPyramid
from gamehost_scalino.scalino import Scalino


@hookimpl
def gamehost_games():
    return [Scalino(), ScalinoPyramid()]
