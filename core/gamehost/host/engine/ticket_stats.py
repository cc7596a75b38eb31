"""The matchmaking queue's figures, kept by the engine and read by the
metrics collector (metrics.py) at scrape time.

Counts are this replica's: the tickets it queued, and the tickets it matched,
cancelled or expired (on a shared store each ticket is counted by the one
replica that changed it, so the replicas' counts add up). The open tickets
per game are the whole store's, as counted by the last matchmaking sweep.
Plain dicts and integers: the exposition thread copies them, which CPython
does atomically.
"""

from __future__ import annotations

import bisect
import collections

# Seconds from queuing to a match: a full pool matches at once, bot waits and
# widening ranges take seconds to minutes, a ticket lives an hour at most.
WAIT_BUCKETS = (0.1, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1800.0, 3600.0)
CLOSED_STATES = ("matched", "cancelled", "expired")


class TicketStats:
    def __init__(self) -> None:
        self.queued_by_game: collections.Counter[str] = collections.Counter()
        self.closed: collections.Counter[tuple[str, str]] = collections.Counter()  # (game, state)
        # game -> [sum of waits, counts per bucket, the last being +Inf]
        self.waits: dict[str, list] = {}
        self.open_by_game: dict[str, int] = {}  # the store's, at the last sweep

    def queued(self, game_id: str) -> None:
        self.queued_by_game[game_id] += 1

    def ended(self, game_id: str, state: str) -> None:
        self.closed[(game_id, state)] += 1

    def matched(self, game_id: str, waited: float) -> None:
        self.closed[(game_id, "matched")] += 1
        row = self.waits.get(game_id)
        if row is None:
            row = self.waits[game_id] = [0.0, [0] * (len(WAIT_BUCKETS) + 1)]
        row[0] += waited
        row[1][bisect.bisect_left(WAIT_BUCKETS, waited)] += 1
