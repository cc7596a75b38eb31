"""The queue of turn notifications (webhooks.py), shared by the database
backends: the notifications table's row per key gains its delivery state,
the number of attempts made, when the next one is due and who holds it.

- state: 'pending' (next_attempt set), 'delivered' or 'failed' (given up);
- next_attempt: when the next attempt is due (epoch s), NULL once over;
- claimed_by / claim_until: the replica making the attempt now and until
  when its claim holds; an expired claim is free (its holder stopped);
- round_start: the attempts made before an operator's last RetryDelivery,
  from which the backoff and the attempts' limit count again.
"""

from __future__ import annotations

from typing import Any, Sequence

from gamehost.host.store.base import DeliveryRecord

NOTIFICATION_COLUMNS = "key, match_id, body, create_time, state, attempts, next_attempt"
CLAIMED_COLUMNS = "key, match_id, body, attempts, round_start"
LISTED_COLUMNS = "key, match_id, body, create_time, state, next_attempt"

# Rows written before the queue existed: their host sent them in-process,
# so they are not resumed; their state is read from the attempts recorded.
LEGACY_STATES = """
    UPDATE notifications SET
        attempts = (SELECT count(*) FROM notification_attempts a WHERE a.key = notifications.key),
        state = CASE WHEN EXISTS (SELECT 1 FROM notification_attempts a WHERE a.key = notifications.key
                                  AND a.status BETWEEN 200 AND 299) THEN 'delivered' ELSE 'failed' END;
"""
# The sweep's look-up: pending rows by when they are due.
DUE_INDEX = "CREATE INDEX notifications_due ON notifications (next_attempt) WHERE next_attempt IS NOT NULL;"
# Operators retry a failed delivery (round_start), and list the deliveries
# newest first, of every match or of one.
RETRY_ROUNDS = """
    ALTER TABLE notifications ADD COLUMN round_start INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX notifications_by_time ON notifications (create_time, key);
    CREATE INDEX notifications_by_match ON notifications (match_id, create_time);
"""


def listing_query(state: str | None, match_id: str | None, after: tuple[float, str] | None, limit: int,
                  mark: str) -> tuple[str, list]:
    """ListDeliveries' SELECT and its parameters, newest first; ``mark`` is
    the driver's placeholder ("?" for sqlite3, "%s" for psycopg)."""
    where: list[str] = []
    params: list[Any] = []
    if state is not None:
        where.append(f"state = {mark}")
        params.append(state)
    if match_id is not None:
        where.append(f"match_id = {mark}")
        params.append(match_id)
    if after is not None:  # a page starts after the (create_time, key) of the last one listed
        where.append(f"(create_time < {mark} OR (create_time = {mark} AND key < {mark}))")
        params.extend([after[0], after[0], after[1]])
    condition = f"WHERE {' AND '.join(where)} " if where else ""
    return (f"SELECT {LISTED_COLUMNS} FROM notifications {condition}ORDER BY create_time DESC, key DESC "
            f"LIMIT {mark}", [*params, limit])


def row_to_delivery(row: Sequence[Any], attempts: Sequence[tuple[int, float, int, str]]) -> DeliveryRecord:
    """A row of LISTED_COLUMNS and its attempts, in order."""
    key, match_id, body, create_time, state, next_attempt = row
    return DeliveryRecord(key=key, match_id=match_id, body=body, create_time=create_time, state=state,
                          next_attempt=next_attempt, attempts=tuple(attempts))
