"""The queue of turn notifications (webhooks.py), shared by the database
backends: the notifications table's row per key gains its delivery state,
the number of attempts made, when the next one is due and who holds it.

- state: 'pending' (next_attempt set), 'delivered' or 'failed' (given up);
- next_attempt: when the next attempt is due (epoch s), NULL once over;
- claimed_by / claim_until: the replica making the attempt now and until
  when its claim holds; an expired claim is free (its holder stopped).
"""

from __future__ import annotations

NOTIFICATION_COLUMNS = "key, match_id, body, create_time, state, attempts, next_attempt"
CLAIMED_COLUMNS = "key, match_id, body, attempts"

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
