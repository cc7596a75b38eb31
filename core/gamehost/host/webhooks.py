"""Turn notifications by webhook: a plugin of the ``gamehost_match_event``
hook, shipped with the host, that POSTs a signed JSON body when it becomes
a person's turn and when a match ends, for a frontend to turn into email
or push.

Signature: ``Gamehost-Signature: sha256=<hex>``, the HMAC-SHA256 with the
host's secret of ``"<timestamp>." + body``, where ``<timestamp>`` is the
``Gamehost-Timestamp`` header (Unix seconds): a receiver recomputes it and
refuses old timestamps, which stops replays. Each notification is claimed
in the store under a unique key (``turn:<match>:<version>:<seat>`` or
``finished:<match>``) before it is sent, so it is sent once per turn, also
with replicas; every delivery attempt is recorded in the store. A failed
delivery (no answer, or a status other than 2xx) is retried with backoff.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import time
import urllib.error
import urllib.request
from typing import Any, Mapping

import structlog

from gamehost.host.undo import ASK_EVENTS
from gamehost.sdk import hookimpl

log = structlog.get_logger("gamehost.webhooks")

MAX_ATTEMPTS = 6
MAX_BACKOFF = 300.0  # seconds between two attempts at most
SEND_TIMEOUT = 10.0  # seconds a receiver may take to answer


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The Gamehost-Signature header's value for ``body`` sent at ``timestamp``."""
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"sha256={digest}"


class TurnNotifier:
    """Registered on the plugin manager before the engine is made (the
    engine collects observers then); ``attach`` hands it the engine."""

    def __init__(self, url: str, secret: str, retry: float = 1.0) -> None:
        self.url, self.secret, self.retry = url, secret, retry
        self.engine: Any = None

    def attach(self, engine) -> None:
        self.engine = engine

    @hookimpl
    def gamehost_match_event(self, match_id: str, game_id: str, event: Mapping[str, Any]) -> None:
        if self.engine is None:
            return
        if event["kind"] == "finished":
            body = {"type": "match_finished", "match": f"matches/{match_id}", "game": f"games/{game_id}",
                    "version": event["version"], "result": event.get("result")}
            self.engine.background(self._send(f"finished:{match_id}", match_id, game_id, body))
        elif event["kind"] not in ASK_EVENTS:  # an undo asked or answered: still the same turn, told already
            self.engine.background(self._turns(match_id, game_id, event["version"]))

    async def _turns(self, match_id: str, game_id: str, version: int) -> None:
        """The people to move once this step is committed. Only the step's
        last event (the live match's version) asks: one look per step."""
        live = self.engine._live.get(match_id)
        if live is None or live.version != version or live.record.status != "active":
            return
        try:
            to_move = await self.engine.to_move(live)
        except Exception as error:  # rules failing: the strikes are counted where they fail
            live.log.warning("turn notification skipped", error=str(error))
            return
        record = live.record
        if record.version != version:
            return  # moved on meanwhile: the next step notifies
        for seat in to_move:
            holder = record.seats[seat]
            if holder.kind != "human":
                continue
            body = {"type": "your_turn", "match": f"matches/{match_id}", "game": f"games/{game_id}",
                    "version": version, "seat": seat, "player_name": holder.player_name, "subject": holder.subject}
            await self._send(f"turn:{match_id}:{version}:{seat}", match_id, game_id, body)

    async def _send(self, key: str, match_id: str, game_id: str, payload: dict) -> None:
        bound = log.bind(match_id=match_id, game=game_id, notification=key)
        payload = {**payload, "key": key}
        body = json.dumps(payload, separators=(",", ":"), sort_keys=True).encode()
        store = self.engine.store
        try:
            if not await store.claim_notification(key, match_id, body.decode(), time.time()):
                return  # already sent or being sent (here or by another replica)
        except Exception as error:
            bound.error("notification not recorded; not sent", error=str(error))
            return
        for attempt in range(1, MAX_ATTEMPTS + 1):
            status, error = await asyncio.to_thread(self._post, key, body)
            try:
                await store.record_delivery_attempt(key, attempt, time.time(), status, error)
            except Exception as failure:  # the delivery matters more than its record
                bound.warning("delivery attempt not recorded", error=str(failure))
            if 200 <= status < 300:
                bound.info("notification delivered", attempt=attempt)
                return
            delay = min(MAX_BACKOFF, self.retry * 2 ** (attempt - 1))
            bound.warning("notification not delivered", attempt=attempt, status=status, error=error,
                          retry_in=delay if attempt < MAX_ATTEMPTS else None)
            if attempt < MAX_ATTEMPTS:
                await asyncio.sleep(delay)

    def _post(self, key: str, body: bytes) -> tuple[int, str]:
        """(HTTP status, "") or (status or 0, why it failed); signed afresh per attempt."""
        stamp = int(time.time())
        request = urllib.request.Request(self.url, data=body, method="POST", headers={
            "Content-Type": "application/json", "Gamehost-Timestamp": str(stamp),
            "Gamehost-Signature": signature(self.secret, stamp, body), "Gamehost-Delivery": key})
        try:
            with urllib.request.urlopen(request, timeout=SEND_TIMEOUT) as answer:
                return answer.status, ""
        except urllib.error.HTTPError as error:
            return error.code, f"HTTP {error.code}"
        except (OSError, ValueError) as error:
            return 0, str(error)[:200]
