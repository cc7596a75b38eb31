"""Every key and value a view's state carries, for the hidden-information
tests: a secret token among them is a leak."""

from __future__ import annotations

from typing import Any


def view_tokens(value: Any, into: set | None = None) -> set:
    into = set() if into is None else into
    if isinstance(value, dict):
        for key, item in value.items():
            into.add(key)
            view_tokens(item, into)
    elif isinstance(value, list):
        for item in value:
            view_tokens(item, into)
    else:
        into.add(value)
    return into
