"""What a store offers about one user's data (``Store.users``), and what
an erasure reports; the SQL is user_rows.py's."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol


class UserDataStore(Protocol):
    """What the engine asks of a store about one user's data (``Store.users``)."""

    async def export(self, subject: str) -> dict[str, Any]:
        """``collect`` in one transaction."""

    async def erase(self, subject: str, pseudonym: str) -> Erasure:
        """``erase`` in one transaction; on a shared store every replica hears of it at its commit."""


class UserDataUnavailable(Exception):
    """The store cannot export or erase a user's data (the memory store: it forgets everything at exit)."""


class LiveMatchesHeld(Exception):
    """The user holds a seat in matches not over yet: nothing was erased."""

    def __init__(self, match_ids: list[str]) -> None:
        super().__init__(", ".join(match_ids))
        self.match_ids = match_ids


@dataclass
class Erasure:
    """What an erasure changed: the pseudonym, the rows per table, and the
    matches and tickets rewritten or deleted (for the caches of every replica)."""

    pseudonym: str
    rows: dict[str, int] = field(default_factory=dict)
    match_ids: list[str] = field(default_factory=list)
    ticket_ids: list[str] = field(default_factory=list)
    chat_match_ids: list[str] = field(default_factory=list)  # the matches whose chat has their messages
    related: list[str] = field(default_factory=list)  # the users who muted or blocked them, or whom they did

    def count(self, table: str, changed: int) -> None:
        if changed:
            self.rows[table] = self.rows.get(table, 0) + changed
