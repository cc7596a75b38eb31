"""Composing a move from its parts, as a client does it.

A legal move may carry ``parts``: the move as a path of choices (a piece,
then its orientation, then its cell). After choosing some parts, the
candidates are the moves whose paths start with them, and the next choices
are the candidates' following parts. The functions take any moves with
``id`` and ``parts`` (each part with ``id`` and ``label``): the protocol's
``LegalMove`` and the SDK's ``Move`` alike.
"""

from __future__ import annotations

from typing import Any, Sequence


def candidates(moves: Sequence[Any], chosen: Sequence[str]) -> list[Any]:
    """The moves offered in parts whose paths start with ``chosen``."""
    depth = len(chosen)
    return [move for move in moves
            if move.parts and [part.id for part in move.parts[:depth]] == list(chosen)]


def choices(moves: Sequence[Any], chosen: Sequence[str]) -> list[Any]:
    """The distinct next parts after ``chosen``, in the order the moves list them."""
    depth = len(chosen)
    seen: dict[str, Any] = {}
    for move in candidates(moves, chosen):
        if len(move.parts) > depth:
            seen.setdefault(move.parts[depth].id, move.parts[depth])
    return list(seen.values())


def composed(moves: Sequence[Any], chosen: Sequence[str]) -> Any | None:
    """The move whose whole path is ``chosen``, or None."""
    for move in candidates(moves, chosen):
        if len(move.parts) == len(chosen):
            return move
    return None


def path_problems(moves: Sequence[Any]) -> list[str]:
    """What is wrong with the moves' paths, in sentences (empty when they are
    well formed): every part has an id without spaces and a label, one id
    keeps one label, no path repeats an id, and no path is another's prefix
    (so a full path names exactly one move)."""
    problems: list[str] = []
    labels: dict[str, str] = {}
    paths: dict[tuple[str, ...], str] = {}
    for move in moves:
        if not move.parts:
            continue
        ids = tuple(part.id for part in move.parts)
        for part in move.parts:
            if not part.id or any(char.isspace() for char in part.id):
                problems.append(f"move {move.id!r} has a part id {part.id!r}: ids are non-empty, without spaces")
            if not part.label:
                problems.append(f"move {move.id!r} has part {part.id!r} without a label")
            if labels.setdefault(part.id, part.label) != part.label:
                problems.append(f"part {part.id!r} is labelled both {labels[part.id]!r} and {part.label!r}")
        if len(set(ids)) != len(ids):
            problems.append(f"move {move.id!r} repeats a part: {list(ids)}")
        if ids in paths:
            problems.append(f"moves {paths[ids]!r} and {move.id!r} have the same parts {list(ids)}")
        paths[ids] = move.id
    for path, move_id in paths.items():
        for depth in range(1, len(path)):
            if path[:depth] in paths:
                problems.append(f"the parts of move {paths[path[:depth]]!r} are a prefix of those of {move_id!r}")
    return problems
