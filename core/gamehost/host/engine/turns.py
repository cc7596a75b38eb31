"""The whole turn: the steps one seat took in a row until another seat was
to move (or the match ended), read from the match log, with what each step
revealed, as one viewer may see them.

A turn's steps are the seat's MOVED events after the previous turn's last
step: a step the engine marked ``ends_turn`` (another seat was to move after
it) closes its turn; in logs written before that mark, a MOVED event by
another seat does. Undone moves are left out. Everything comes from the log
(moves, labels and the rules' reveals kept beside them), so a replay shows
the same turns as the live match did.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Sequence

from gamehost.host.engine.live import LiveMatch
from gamehost.host.store.base import Store

TURN_WINDOW = 128
"""Events read back to find a turn's start: a longer turn shows its last steps."""

ENDING_KINDS = frozenset({"finished", "aborted", "abandoned"})


@dataclass(frozen=True)
class Turn:
    """One seat's turn: its MOVED events as the viewer sees them (each with
    only the reveals the viewer may see), oldest first."""

    seat: int
    steps: tuple[dict[str, Any], ...]
    complete: bool


def seen_reveals(event: dict[str, Any], viewer: int | None) -> list[dict[str, Any]]:
    """The step's reveals ``viewer`` may see: the public ones, and its own
    private ones; public first, as the rules listed them."""
    shown = [r for r in event.get("revealed", ()) if r.get("seen_by") is None or r.get("seen_by") == viewer]
    return sorted(shown, key=lambda r: r.get("seen_by") is not None)


def turn_steps(events: Sequence[dict[str, Any]], upto: int) -> tuple[list[dict[str, Any]], bool] | None:
    """The MOVED events of the latest turn at version ``upto`` among
    ``events`` (a stretch of the log ending at or after ``upto``, oldest
    first), and whether that turn is over; None before the first move."""
    known = [e for e in events if e["version"] <= upto]
    undone = {e.get("undoes") for e in known if e["kind"] == "undone"}
    moves = [e for e in known if e["kind"] == "moved" and e["version"] not in undone]
    if not moves:
        return None
    last = moves[-1]
    steps = [last]
    for event in reversed(moves[:-1]):
        if event["seat"] != last["seat"] or event.get("ends_turn"):
            break
        steps.append(event)
    steps.reverse()
    later = [e for e in known if e["version"] > last["version"]]
    complete = bool(last.get("ends_turn")) or any(e["kind"] in ENDING_KINDS for e in later)
    return steps, complete


class MatchTurns:
    """Turns as viewers see them, read from the log (the live match's recent
    events when they reach far enough back, else the store)."""

    def __init__(self, store: Store,
                 public_events: Callable[[LiveMatch, list[dict], int | None], Awaitable[list[dict]]]) -> None:
        self.store = store
        self.public_events = public_events

    async def window(self, live: LiveMatch, upto: int) -> list[dict]:
        """The log's last ``TURN_WINDOW`` events up to version ``upto``, oldest first: far enough
        back for a turn that ends there (a page of the log reads it once for all of its turns)."""
        recent = live.recent
        if recent and recent[-1]["version"] >= upto and (
                recent[0]["version"] <= 1 or recent[0]["version"] <= upto - TURN_WINDOW):
            return [e for e in recent if upto - TURN_WINDOW < e["version"] <= upto]
        return await self.store.events_before(live.id, upto + 1, TURN_WINDOW)

    async def latest(self, live: LiveMatch, upto: int, viewer: int | None,
                     events: Sequence[dict] | None = None) -> Turn | None:
        """The latest turn at version ``upto`` as ``viewer`` sees it (the
        turn a View shows, finished or still being played); ``events``: a
        stretch of the log already read that reaches back far enough."""
        found = turn_steps(events if events is not None else await self.window(live, upto), upto)
        if found is None:
            return None
        steps, complete = found
        shown = await self.public_events(live, list(steps), viewer)
        return Turn(steps[0]["seat"], tuple({**event, "revealed": seen_reveals(source, viewer)}
                                            for event, source in zip(shown, steps)), complete)

    async def ended_by(self, live: LiveMatch, event: dict, viewer: int | None,
                       events: Sequence[dict] | None = None) -> Turn | None:
        """The whole turn ``event`` ends (a MOVED event marked ``ends_turn``), else None."""
        if event["kind"] != "moved" or not event.get("ends_turn"):
            return None
        return await self.latest(live, event["version"], viewer, events)
