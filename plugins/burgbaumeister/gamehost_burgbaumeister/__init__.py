"""Der Wettkampf der Burgbaumeister for gamehost: the plugin entry point."""

from gamehost.sdk import hookimpl

from gamehost_burgbaumeister.rules import Burgbaumeister


@hookimpl
def gamehost_games():
    return [Burgbaumeister()]
