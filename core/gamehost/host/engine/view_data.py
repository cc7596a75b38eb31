"""What a viewer is shown of a match at one version: the view as data, the
view as the View's protobuf fields a worker encoded, and those fields with
the renderings made of the same state."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any, Mapping

from gamehost.sdk.rules import Move


@dataclasses.dataclass(frozen=True)
class ViewData:
    """A match as one viewer sees it at one version."""

    version: int
    status: str
    seat: int | None
    to_move: tuple[int, ...]
    state: Mapping[str, Any]
    moves: tuple[Move, ...]
    result: dict | None


@dataclasses.dataclass(frozen=True)
class EncodedView:
    """The same, with the state and legal moves as the View's protobuf
    fields, encoded where the rules run (workers/view_bytes.py)."""

    version: int
    status: str
    seat: int | None
    to_move: tuple[int, ...]
    fields: bytes
    result: dict | None


@dataclasses.dataclass(frozen=True)
class RenderedView:
    """A viewer's View fields and its renderings (kind -> text), of one state."""

    encoded: EncodedView
    texts: dict[str, str]


@dataclasses.dataclass(frozen=True)
class RenderBatch:
    """The renderings asked for after the step to ``version``, in flight or
    answered: (viewer, kind) -> the text, or the error to raise to whoever
    takes it. Each entry is taken once (a failure is not kept)."""

    version: int
    task: asyncio.Future
