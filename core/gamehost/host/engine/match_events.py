"""An entry of a match's log, as every step writes it."""

from __future__ import annotations

from typing import Any


def match_event(version: int, kind: str, seat: int, now: float, **fields: Any) -> dict:
    """The event of ``kind`` at ``version`` (``seat`` -1: the host's, no seat's)."""
    return {"version": version, "kind": kind, "seat": seat, "time": now, **fields}
