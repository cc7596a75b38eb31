"""Banned users: the subjects whose calls are refused, whatever credentials
they sign in with (an API key, a JWT, a plugin's scheme).

The set lives in memory and is checked at the gate on every call; the
store holds the bans, and the engine's chat reloads this set at start and
whenever any replica bans or unbans (on PostgreSQL through the chat's
notifications), so a ban holds on every replica."""

from __future__ import annotations

from typing import Iterable, Mapping

from gamehost.host import errors
from gamehost.host.auth.principal import Principal

BANNED = "BANNED"


class BannedSubjects:
    def __init__(self) -> None:
        self._reasons: dict[str, str] = {}  # subject -> the reason the admin gave

    def replace(self, reasons: Mapping[str, str]) -> None:
        self._reasons = dict(reasons)

    def add(self, subject: str, reason: str) -> None:
        self._reasons[subject] = reason

    def remove(self, subject: str) -> None:
        self._reasons.pop(subject, None)

    def __contains__(self, subject: object) -> bool:
        return subject in self._reasons

    def subjects(self) -> Iterable[str]:
        return self._reasons.keys()

    def check(self, caller: Principal) -> None:
        """Refuse a banned caller: PERMISSION_DENIED, saying why and what to do."""
        if caller.anonymous or caller.subject not in self._reasons:
            return
        reason = self._reasons[caller.subject]
        raise errors.PermissionDenied(
            f"The account {caller.subject[:64]!r} is banned from this host"
            f"{f': {reason}' if reason else ''}. Contact the host's operators to appeal.", BANNED,
            metadata=errors.metadata_of(subject=caller.subject[:64]))
