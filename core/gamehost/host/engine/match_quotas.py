"""Per-principal match quotas: how many open matches, and how many running
all-bot matches, one caller may have created at once.

Counted from the matches this host holds in memory, where every unfinished
match is on a single host. With replicas on a shared store each replica
counts what it holds, so a caller spread over n replicas may reach up to n
times a limit (docs/security.md).
"""

from __future__ import annotations

import time
from typing import Iterable

from gamehost.host import errors
from gamehost.host.auth import Principal
from gamehost.host.engine.live import LiveMatch

BOT_MATCH_RETRY = 30.0  # seconds suggested before trying again for an all-bot match


class MatchQuotas:
    def __init__(self, max_open: int = 20, max_bot: int = 2, open_match_ttl: float = 0.0) -> None:
        self.max_open = max_open  # 0: no limit
        self.max_bot = max_bot
        self.open_match_ttl = open_match_ttl  # when the oldest open match expires, a slot frees

    def check(self, caller: Principal | None, all_bots: bool, held: Iterable[LiveMatch]) -> None:
        """Refuse a new match over ``caller``'s quota (RESOURCE_EXHAUSTED
        with a QuotaFailure). The host itself (None) and admins have none."""
        if caller is None or caller.admin:
            return
        key = caller.quota_key
        mine = [live.record for live in held if live.record.creator == key]
        if all_bots:
            running = sum(1 for r in mine if r.status == "active" and all(s.kind == "bot" for s in r.seats))
            if self.max_bot and running >= self.max_bot:
                raise errors.ResourceExhausted(
                    f"You already run {running} all-bot matches, the most this host allows at once; "
                    "wait for one to finish.", "MATCH_QUOTA_EXCEEDED",
                    metadata=errors.metadata_of(quota="bot_matches", limit=self.max_bot),
                    quota_violations=[(key, f"at most {self.max_bot} running all-bot matches")],
                    retry_after=BOT_MATCH_RETRY)
            return
        opened = [r for r in mine if r.status == "open"]
        if self.max_open and len(opened) >= self.max_open:
            retry = None
            if self.open_match_ttl:
                oldest = min(r.create_time for r in opened)
                retry = max(1.0, oldest + self.open_match_ttl - time.time())
            raise errors.ResourceExhausted(
                f"You already have {len(opened)} open matches, the most this host allows; start or leave one "
                "first.", "MATCH_QUOTA_EXCEEDED",
                metadata=errors.metadata_of(quota="open_matches", limit=self.max_open),
                quota_violations=[(key, f"at most {self.max_open} open matches")], retry_after=retry)
