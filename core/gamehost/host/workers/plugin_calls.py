"""Calling a plugin's hook: what it raises becomes ``PluginFailed``, named
after the hook, except the rules' own refusals and running out of memory."""

from __future__ import annotations

from typing import Any, Callable

from gamehost.sdk.rules import IllegalMove, InvalidOptions


class PluginFailed(Exception):
    def __init__(self, hook: str, error: BaseException, message: str = "") -> None:
        super().__init__(message or f"{type(error).__name__}: {error}")
        self.hook = hook


def call_plugin(hook: str, function: Callable[..., Any], *args: Any) -> Any:
    try:
        return function(*args)
    except (IllegalMove, InvalidOptions):
        raise
    except MemoryError:
        raise
    except Exception as error:
        raise PluginFailed(hook, error) from None
