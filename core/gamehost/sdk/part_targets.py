"""Checking the SVG targets of moves offered in parts (the conformance kit,
plugin tests).

A target for a part is an element with ``data-part="<part id>"``. A
sub-choice drawn only once a part is chosen sits inside an element with
``data-after-part="<part id>"``: a client shows it only while that part is
among the parts chosen, so such a target counts for a move only if the
move's earlier parts include every ``data-after-part`` around it.
"""

from __future__ import annotations

from typing import Sequence
from xml.etree import ElementTree

from gamehost.client.composing import path_problems
from gamehost.sdk.rules import Move

__all__ = ["part_targets", "target_problems", "path_problems"]


def part_targets(svg: str) -> dict[str, list[frozenset[str]]]:
    """Each part id the SVG marks, with, per target, the parts that must be
    chosen before it shows (its ``data-after-part`` ancestors)."""
    targets: dict[str, list[frozenset[str]]] = {}

    def walk(element: ElementTree.Element, after: frozenset[str]) -> None:
        condition = element.get("data-after-part")
        if condition is not None:
            after = after | {condition}
        part = element.get("data-part")
        if part is not None:
            targets.setdefault(part, []).append(after)
        for child in element:
            walk(child, after)

    walk(ElementTree.fromstring(svg), frozenset())
    return targets


def target_problems(svg: str, moves: Sequence[Move]) -> list[str]:
    """What keeps the moves from being composed by clicks on ``svg``: a part
    of a move with no target that shows once the move's earlier parts are
    chosen, or a target naming no part of any listed move."""
    targets = part_targets(svg)
    problems = []
    offered = set()
    unreachable: dict[str, str] = {}
    for move in moves:
        for depth, part in enumerate(move.parts):
            offered.add(part.id)
            before = {earlier.id for earlier in move.parts[:depth]}
            if not any(after <= before for after in targets.get(part.id, ())):
                unreachable.setdefault(part.id, move.id)
    for part_id, move_id in unreachable.items():
        problems.append(f"part {part_id!r} of move {move_id!r} has no data-part target shown after its earlier parts")
    stray = sorted(set(targets) - offered)
    if stray:
        problems.append(f"data-part targets {stray[:5]} name no part of a legal move")
    return problems
