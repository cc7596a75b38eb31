"""JSON-shaped states for the View encoders' tests (test_struct_encoding.py,
test_struct_writer.py): shapes that encode differently on the wire."""

from __future__ import annotations

import enum


class Colour(enum.IntEnum):
    RED = 1


def nested(depth: int):
    """An object ``depth`` levels deep (an object in a list in an object...)."""
    value: object = "bottom"
    for _ in range(depth):
        value = {"inner": [value]}
    return value


def a_board() -> dict:
    """Nested lists of small objects and strings whose lengths take one, two and three varint bytes."""
    return {"board": [[{"piece": i % 5, "owner": i % 3} if i % 2 else None for i in range(12)]] * 12,
            "log": ["x" * 300, "y" * 20_000]}
