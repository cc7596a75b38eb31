"""A match's log read from the store a page at a time: a long log is never
one query, and the event loop gets a turn between pages."""

from __future__ import annotations

from gamehost.host.store.base import Store

LOG_PAGE = 256  # events per store read


async def whole_log(store: Store, match_id: str, up_to_version: int) -> list[dict]:
    """Every event of the match up to ``up_to_version`` (a replica's store
    may be ahead of the version this host holds), oldest first."""
    log: list[dict] = []
    while not log or log[-1]["version"] < up_to_version:
        page = await store.events(match_id, log[-1]["version"] if log else 0, LOG_PAGE)
        log += [event for event in page if event["version"] <= up_to_version]
        if len(page) < LOG_PAGE:
            break
    return log
