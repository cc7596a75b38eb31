"""Kensington (Piatnik 2019) for gamehost: the plugin entry point."""

from gamehost.sdk import hookimpl

from gamehost_kensington.rules import Kensington

__all__ = ["Kensington"]


@hookimpl
def gamehost_games():
    return [Kensington()]
