"""What both back ends offer the environments: one match, played seat by seat."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Mapping, Protocol, Sequence


@dataclass(frozen=True)
class LegalMove:
    """A move a seat may make now: ``id`` as the protocol names it, ``label``
    for a person, ``args`` the structured form."""

    id: str
    label: str
    args: Mapping[str, Any]


class MatchRules(Protocol):
    """One match of one game, local or at a host. Moves are listed sorted by
    id, so that an index into the list (an action) means the same move on
    either back end."""

    game_id: str
    seats: int

    @property
    def played_seats(self) -> Sequence[int]:
        """The seats the caller plays (at a host, the others are its bots)."""

    def start(self, seed: int) -> None:
        """A new match with this seed; the previous one, if any, is given up."""

    def to_move(self) -> Sequence[int]:
        """The seats that may move now; empty once the match is over."""

    def legal_moves(self, seat: int) -> Sequence[LegalMove]:
        """``seat``'s moves now, sorted by id."""

    def play(self, seat: int, move_id: str) -> None:
        """``seat`` plays the move named ``move_id``."""

    def view(self, seat: int) -> Mapping[str, Any]:
        """What ``seat`` may see now, as JSON data."""

    def ranking(self) -> Sequence[int] | None:
        """Each seat's place (1 is best) once the match is over, else None."""


def view_text(view: Mapping[str, Any]) -> str:
    """A view as canonical JSON: keys sorted, no whitespace, integral
    numbers as integers (a host's views come through protobuf Structs,
    where every number is a double), so the same position reads the same
    from either back end."""
    return json.dumps(_plain(view), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _plain(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value
