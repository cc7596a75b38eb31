"""Tic-tac-toe: the smallest complete gamehost plugin.

``rules.py`` holds the rules, ``render.py`` the text and SVG pictures, and
``game.py`` the ``Game`` that declares the game to the host; this module
only registers it. The plugin guide (docs/plugin-guide.md) walks through
these files.
"""

from gamehost.sdk import hookimpl

from gamehost_tictactoe.game import TicTacToe


@hookimpl
def gamehost_games():
    return [TicTacToe()]
