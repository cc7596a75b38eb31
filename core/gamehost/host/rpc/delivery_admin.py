"""Operators' view of the turn notifications' webhook deliveries
(ListDeliveries, RetryDelivery): what was sent, what failed, and a failed
delivery sent again.

The queue is the store's (webhooks.py); this module only reads it and
makes a failed delivery due again, with a new round of attempts. The
delivery task of this host (or of any replica on the store) makes the
attempts, signed as every notification is.
"""

from __future__ import annotations

import time

from gamehost.host import errors

from gamehost.host.rpc import page_tokens
from gamehost.host.store.base import DeliveryRecord, Store

MAX_KEY_CHARS = 200  # "turn:{match}:{version}:{seat}" is far shorter
# (create_time, key) of the last delivery of a ListDeliveries page
time_and_key_position = page_tokens.time_and_text_position(MAX_KEY_CHARS)


def check_key(key: str, field: str = "key") -> str:
    if not key:
        raise errors.invalid_field(field, "name the delivery: its key, as ListDeliveries shows it.")
    if len(key) > MAX_KEY_CHARS or not key.isprintable():
        raise errors.invalid_field(field, "is not a delivery key (e.g. 'turn:{match}:{version}:{seat}').")
    return key


class DeliveryAdministration:
    """``notifier``: this host's TurnNotifier, or None when it sends no
    webhooks (no --webhook-url): then nothing here would ever be sent, and
    RetryDelivery says so instead of queuing."""

    def __init__(self, store: Store, notifier=None) -> None:
        self.store = store
        self.notifier = notifier

    async def list(self, state: str | None, match_id: str | None, after: tuple[float, str] | None,
                   limit: int) -> tuple[list[DeliveryRecord], tuple[float, str] | None]:
        """A page, and where the next one starts (None on the last)."""
        rows = await self.store.list_deliveries(state, match_id, after, limit + 1)
        more = len(rows) > limit
        rows = rows[:limit]
        return rows, (rows[-1].create_time, rows[-1].key) if more else None

    async def retry(self, key: str) -> DeliveryRecord:
        """Make a failed delivery due now, with a new round of attempts."""
        check_key(key)
        if self.notifier is None:
            raise errors.FailedPrecondition(
                "this host sends no webhooks (start it with --webhook-url and --webhook-secret), so a retried "
                "delivery would never be attempted here.", "WEBHOOKS_OFF")
        before = await self.store.retry_delivery(key, time.time())
        if before is None:
            raise errors.NotFound(f"no delivery has the key {key[:80]!r}; ListDeliveries shows the keys.",
                                  "DELIVERY_NOT_FOUND", resource=("gamehost.v1.Delivery", key[:80]))
        if before != "failed":
            raise errors.FailedPrecondition(
                f"the delivery is {before}, not failed: only a delivery given up can be sent again.",
                "DELIVERY_NOT_FAILED", metadata=errors.metadata_of(state=before))
        self.notifier.wake()
        record = await self.store.delivery(key)
        if record is None:  # pruned with its match meanwhile
            raise errors.NotFound(f"the delivery {key[:80]!r} is gone.", "DELIVERY_NOT_FOUND",
                                  resource=("gamehost.v1.Delivery", key[:80]))
        return record
