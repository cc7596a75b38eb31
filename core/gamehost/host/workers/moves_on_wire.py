"""Moves and outcomes as plain data, as they cross the wire between a
worker and the host."""

from __future__ import annotations

from typing import Any

from gamehost.host.workers.messages import MoveData, Outcome
from gamehost.sdk.i18n import Text, message_of, text_read
from gamehost.sdk.rules import Move, Part


def move_data(move: Move) -> MoveData:
    """A move on the wire: [id, label, args], and its parts as [[id, label], ...] when it has any.
    Labels said as ``Text`` (translatable) add their messages: [..., parts, [label's, [each part's]]],
    so the host renders them in any language; a label crosses as its English string either way."""
    data: MoveData = [move.id, move.label, dict(move.args)]
    if move.parts:
        data.append([[part.id, part.label] for part in move.parts])
    if isinstance(move.label, Text) or any(isinstance(part.label, Text) for part in move.parts):
        if not move.parts:
            data.append([])
        data.append([message_of(move.label), [message_of(part.label) for part in move.parts]])
    return data


def _translatable(data: MoveData, parts: dict[tuple[str, str], Part] | None) -> Move:
    """A move whose labels are ``Text``: rebuilt with their messages (not shared through ``parts``).
    Each label's English came beside its message, so nothing is formatted here (``text_read``): a
    listing is read on every move of a real game, and mostly shown in English or not at all."""
    label, part_labels = data[4]
    return Move(data[0], data[1] if label is None else text_read(data[1], label), data[2],
                tuple([Part(i, text if message is None else text_read(text, message))
                       for (i, text), message in zip(data[3], part_labels)]))


MAX_PARTS_SHARED = 1 << 16  # distinct parts a table keeps; a plugin inventing endless parts only empties it


def move_of(data: MoveData, parts: dict[tuple[str, str], Part] | None = None) -> Move:
    """The move ``move_data`` encoded. ``parts``: a table of parts already
    built, shared between moves (a game's hundreds of moves name the same few
    pieces and cells again and again; building each anew was most of a
    Callisto listing's cost in the host)."""
    if len(data) <= 3:
        return Move(data[0], data[1], data[2])
    if len(data) > 4:
        return _translatable(data, parts)
    if parts is None:
        return Move(data[0], data[1], data[2], tuple([Part(i, label) for i, label in data[3]]))
    built = []
    for i, label in data[3]:
        key = (i, label)
        part = parts.get(key)
        if part is None:
            if len(parts) >= MAX_PARTS_SHARED:
                parts.clear()
            part = parts[key] = Part(i, label)
        built.append(part)
    return Move(data[0], data[1], data[2], tuple(built))


def outcome_data(outcome: Any) -> Outcome | None:
    if outcome is None:
        return None
    return {"scores": [float(s) for s in outcome.scores], "ranking": [int(r) for r in outcome.ranking],
            "winners": outcome.winners, **summary_fields(outcome.summary)}


def summary_fields(summary: str) -> dict:
    """A result's ``summary`` (English), and its message as ``summary_text`` when said as ``Text``
    (kept to show the result in other languages)."""
    message = message_of(summary)
    return {"summary": str(summary)} if message is None else {"summary": str(summary), "summary_text": message}
