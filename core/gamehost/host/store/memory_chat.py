"""The memory store's chat and moderation rows (``chat_rows.ChatStore``), in dicts."""

from __future__ import annotations

import dataclasses
from typing import Sequence

from gamehost.host.store.chat_rows import BanRecord, ChatRecord, Relations, ReportRecord, relations_of


class MemoryChat:
    def __init__(self) -> None:
        self._messages: dict[str, list[ChatRecord]] = {}
        self._reports: list[ReportRecord] = []
        self._relations: set[tuple[str, str, str]] = set()
        self._bans: dict[str, BanRecord] = {}

    def forget_match(self, match_id: str) -> None:
        self._messages.pop(match_id, None)

    async def add_message(self, record: ChatRecord, max_messages: int) -> ChatRecord | None:
        kept = self._messages.setdefault(record.match_id, [])
        if len(kept) >= max_messages:
            return None
        stored = dataclasses.replace(record, sequence=len(kept) + 1)
        kept.append(stored)
        return stored

    async def messages(self, match_id: str, after: int = 0, limit: int = 10_000) -> list[ChatRecord]:
        return self._messages.get(match_id, [])[after:after + limit]

    async def message(self, match_id: str, sequence: int) -> ChatRecord | None:
        kept = self._messages.get(match_id, [])
        return kept[sequence - 1] if 0 < sequence <= len(kept) else None

    async def hide_message(self, match_id: str, sequence: int, admin: str) -> ChatRecord | None:
        found = await self.message(match_id, sequence)
        if found is None:
            return None
        hidden = dataclasses.replace(found, hidden_by=admin)
        self._messages[match_id][sequence - 1] = hidden
        return hidden

    async def add_report(self, report: ReportRecord) -> None:
        self._reports.append(report)

    async def reports(self, reported: str, after: tuple[float, str] | None, limit: int) -> list[ReportRecord]:
        found = sorted((r for r in self._reports if not reported or r.reported == reported),
                       key=lambda r: (r.create_time, r.id), reverse=True)
        if after is not None:
            found = [r for r in found if (r.create_time, r.id) < after]
        return found[:limit]

    async def set_relation(self, subject: str, other: str, kind: str, on: bool) -> None:
        (self._relations.add if on else self._relations.discard)((subject, other, kind))

    async def relations(self, subject: str) -> Relations:
        return relations_of(subject, [row for row in self._relations if subject in row[:2]])

    async def blocked_pairs(self, subjects: Sequence[str]) -> set[frozenset[str]]:
        among = set(subjects)
        return {frozenset((a, b)) for a, b, kind in self._relations if kind == "block" and a in among and b in among}

    async def ban(self, record: BanRecord) -> None:
        self._bans[record.subject] = record

    async def unban(self, subject: str) -> BanRecord | None:
        return self._bans.pop(subject, None)

    async def bans(self) -> list[BanRecord]:
        return list(self._bans.values())
