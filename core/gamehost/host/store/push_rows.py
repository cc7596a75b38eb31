"""Browsers' Web Push subscriptions in the databases: one row per endpoint
(a push service's URL for one browser), held for one signed-in user. The SQL
is the same for both backends but for the driver's placeholder."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Sequence


@dataclass(frozen=True)
class PushSubscriptionRecord:
    endpoint: str
    subject: str
    p256dh: str  # the browser's P-256 public key, base64url
    auth: str  # the browser's 16-byte secret, base64url
    locale: str
    created: float  # epoch s


COLUMNS = "endpoint, subject, p256dh, auth, locale, created"


def upsert_sql(mark: str) -> str:
    """An endpoint is one browser: subscribing it again (maybe as another
    user, after a sign-out) replaces the row."""
    marks = ", ".join([mark] * 6)
    return (f"INSERT INTO push_subscriptions ({COLUMNS}) VALUES ({marks}) ON CONFLICT (endpoint) DO UPDATE SET "
            "subject = excluded.subject, p256dh = excluded.p256dh, auth = excluded.auth, "
            "locale = excluded.locale, created = excluded.created RETURNING endpoint")


def beyond_newest_sql(mark: str) -> str:
    """Forget the subject's subscriptions past its newest ``keep``: a user has a few browsers, not thousands."""
    return ("DELETE FROM push_subscriptions WHERE endpoint IN (SELECT endpoint FROM (SELECT endpoint, "
            "row_number() OVER (ORDER BY created DESC, endpoint) AS newest FROM push_subscriptions "
            f"WHERE subject = {mark}) AS ranked WHERE newest > {mark}) RETURNING endpoint")


def of_subjects_sql(mark: str, count: int) -> str:
    marks = ", ".join([mark] * count)
    return f"SELECT {COLUMNS} FROM push_subscriptions WHERE subject IN ({marks}) ORDER BY subject, created"


def remove_sql(mark: str, with_subject: bool) -> str:
    return (f"DELETE FROM push_subscriptions WHERE endpoint = {mark}"
            + (f" AND subject = {mark}" if with_subject else "") + " RETURNING endpoint")


def record(row: Sequence[Any]) -> PushSubscriptionRecord:
    return PushSubscriptionRecord(str(row[0]), str(row[1]), str(row[2]), str(row[3]), str(row[4]), float(row[5]))


class PostgresPushSubscriptions:
    """The PostgreSQL store's push methods (``Store``'s), over its queries."""

    _one: Callable[[str, tuple], Awaitable[Any]]
    _all: Callable[[str, tuple], Awaitable[list]]

    async def add_push_subscription(self, subscription: PushSubscriptionRecord, keep: int) -> None:
        s = subscription
        await self._all(upsert_sql("%s"), (s.endpoint, s.subject, s.p256dh, s.auth, s.locale, s.created))
        await self._all(beyond_newest_sql("%s"), (s.subject, keep))

    async def push_subscriptions(self, subjects: Sequence[str]) -> list[PushSubscriptionRecord]:
        if not subjects:
            return []
        return [record(row) for row in await self._all(of_subjects_sql("%s", len(subjects)), tuple(subjects))]

    async def remove_push_subscription(self, endpoint: str, subject: str | None = None) -> bool:
        params = (endpoint,) if subject is None else (endpoint, subject)
        return await self._one(remove_sql("%s", subject is not None), params) is not None
