"""Turn notifications by webhook: a plugin of the ``gamehost_match_event``
hook, shipped with the host, that POSTs a signed JSON body when it becomes
a signed-in person's turn and when a match ends, for a frontend to turn
into email or push. Anonymous seats are not told: a receiver has no one to
reach for them, and their turns would only queue ahead of those it has.

Signature: ``Gamehost-Signature: sha256=<hex>``, the HMAC-SHA256 with the
host's secret of ``"<timestamp>." + body``, where ``<timestamp>`` is the
``Gamehost-Timestamp`` header (Unix seconds): a receiver recomputes it and
refuses old timestamps, which stops replays.

Deliveries are a queue in the store, so they survive a stop: each
notification is recorded under a unique key (``turn:<match>:<version>:<seat>``
or ``finished:<match>``), pending and due at once, before it is tried; one
task per host (``_deliver_due``) claims the due ones (exactly one replica
claims a given attempt, for as long as the attempt may take), posts them,
and records each attempt with when the next one is due. A failed delivery
(no answer, or a status other than 2xx) is retried with backoff; a host
that starts, or a replica that finds an attempt whose claim expired, takes
the pending ones up. An attempt cut off by a stop after the receiver got it
is made again: receivers dedupe by ``Gamehost-Delivery`` (the key).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import hmac
import json
import time
import urllib.error
import urllib.request
from typing import Any, Mapping

import structlog

from gamehost.host import traces
from gamehost.host.ops.turn_audience import seats_to_tell
from gamehost.host.store.base import PendingDelivery
from gamehost.host.engine.undo_asks import ASK_EVENTS
from gamehost.sdk import hookimpl

log = structlog.get_logger("gamehost.webhooks")

MAX_ATTEMPTS = 6
MAX_BACKOFF = 300.0  # seconds between two attempts at most
SEND_TIMEOUT = 10.0  # seconds a receiver may take to answer
MAX_IN_FLIGHT = 8  # attempts under way at once in one host; the rest wait in the store
MAX_TRACED = 10_000  # pending notifications whose move's trace context is kept for their deliveries
MAX_POLL = 1.0  # seconds between two looks for due attempts at most (retries, other replicas' expired claims)


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The Gamehost-Signature header's value for ``body`` sent at ``timestamp``."""
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"sha256={digest}"


def backoff(retry: float, attempt: int) -> float | None:
    """Seconds before the attempt after ``attempt``; None once it was the last."""
    return None if attempt >= MAX_ATTEMPTS else min(MAX_BACKOFF, retry * 2 ** (attempt - 1))


class TurnNotifier:
    """Registered on the plugin manager before the engine is made (the
    engine collects observers then); ``attach`` hands it the engine and
    starts the delivery task, which the engine's close ends."""

    def __init__(self, url: str, secret: str, retry: float = 1.0, lease: float = 10.0) -> None:
        self.url, self.secret, self.retry = url, secret, retry
        self.hold = SEND_TIMEOUT + lease  # a claim outlasts its attempt; then another replica may take it
        self.poll = min(retry, MAX_POLL)
        self.engine: Any = None
        # The trace context of the step that queued each notification, while
        # it is pending here: its deliveries continue that step's trace (a
        # notification another process queued, or queued before a restart,
        # is delivered in a trace of its own).
        self._traced: dict[str, str] = {}
        self._due = asyncio.Event()  # set when a notification is queued or a slot frees: look now
        self._in_flight = 0
        # Its own threads, one per attempt in flight: a slow receiver never
        # holds up the default pool that the store and DNS lookups share.
        self._senders = concurrent.futures.ThreadPoolExecutor(MAX_IN_FLIGHT, thread_name_prefix="gamehost-webhook")

    def attach(self, engine) -> None:
        self.engine = engine
        engine.background(self._deliver_due())

    def wake(self) -> None:
        """Look for due attempts now (an operator made a delivery due)."""
        self._due.set()

    @hookimpl
    def gamehost_match_event(self, match_id: str, game_id: str, event: Mapping[str, Any]) -> None:
        if self.engine is None:
            return
        traceparent = traces.current_traceparent()  # the step's: its deliveries continue its trace
        if event["kind"] == "finished":
            body = {"type": "match_finished", "match": f"matches/{match_id}", "game": f"games/{game_id}",
                    "version": event["version"], "result": event.get("result")}
            self.engine.background(self._queue(f"finished:{match_id}", match_id, game_id, body, traceparent))
        elif event["kind"] not in ASK_EVENTS:  # an undo asked or answered: still the same turn, told already
            self.engine.background(self._turns(match_id, game_id, event["version"], traceparent))

    async def _turns(self, match_id: str, game_id: str, version: int, traceparent: str = "") -> None:
        for seat, holder in await seats_to_tell(self.engine, match_id, version):
            body = {"type": "your_turn", "match": f"matches/{match_id}", "game": f"games/{game_id}",
                    "version": version, "seat": seat, "player_name": holder.player_name, "subject": holder.subject}
            await self._queue(f"turn:{match_id}:{version}:{seat}", match_id, game_id, body, traceparent)

    async def _queue(self, key: str, match_id: str, game_id: str, payload: dict, traceparent: str = "") -> None:
        """Record the notification in the store's queue (once per key, also
        with replicas), then wake the delivery task."""
        payload = {**payload, "key": key}
        body = json.dumps(payload, separators=(",", ":"), sort_keys=True).encode()
        try:
            if not await self.engine.store.claim_notification(key, match_id, body.decode(), time.time()):
                return  # already queued (here or by another replica)
        except Exception as error:
            log.error("notification not recorded; not sent", match_id=match_id, game=game_id, notification=key,
                      error=str(error))
            return
        if traceparent:
            if len(self._traced) >= MAX_TRACED:  # deliveries failing for long: the oldest lose their link
                self._traced.pop(next(iter(self._traced)))
            self._traced[key] = traceparent
        self._due.set()

    async def _deliver_due(self) -> None:
        """Claim the due attempts (as many as there are free slots), make
        each in its own task; look again when woken or after ``poll``.
        Cancelled when the engine closes: attempts under way end in their
        threads (their claims lapse and the next host makes them again)."""
        try:
            await self._sweep()
        finally:
            self._senders.shutdown(wait=False, cancel_futures=True)

    async def _sweep(self) -> None:
        while True:
            self._due.clear()  # before the look: a notification queued during it wakes the next one
            free = MAX_IN_FLIGHT - self._in_flight
            if free > 0:
                try:
                    due = await self.engine.store.claim_deliveries(time.time(), self.hold, free)
                except Exception as error:  # the store is away: the queue waits there
                    log.warning("due notifications not read", error=str(error))
                    due = []
                for delivery in due:
                    self._in_flight += 1
                    self.engine.background(self._attempt(delivery))
            try:
                await asyncio.wait_for(self._due.wait(), self.poll)
            except TimeoutError:
                pass

    async def _attempt(self, delivery: PendingDelivery) -> None:
        try:
            if not traces.on():
                await self._send(delivery)
                return
            # A span of its own, the queuing step's child when this process queued it
            with traces.attached(self._traced.get(delivery.key, "")), \
                    traces.client_span("webhook delivery", {"http.request.method": "POST", "url.full": self.url,
                                                            "gamehost.match_id": delivery.match_id,
                                                            "gamehost.notification": delivery.key,
                                                            "gamehost.attempt": delivery.attempts + 1}):
                if not await self._send(delivery):
                    traces.failed(RuntimeError("not delivered"))
        finally:
            self._in_flight -= 1
            self._due.set()  # a slot is free: due attempts left behind may go

    async def _send(self, delivery: PendingDelivery) -> bool:
        """One attempt, recorded in the store; whether it was delivered."""
        attempt = delivery.attempts + 1
        game = json.loads(delivery.body).get("game", "").removeprefix("games/")
        bound = log.bind(match_id=delivery.match_id, game=game, notification=delivery.key)
        status, error = await asyncio.get_running_loop().run_in_executor(
            self._senders, self._post, delivery.key, delivery.body.encode(), traces.outgoing_headers())
        retry_in = None if 200 <= status < 300 else backoff(self.retry, attempt - delivery.round_start)
        if retry_in is None:
            self._traced.pop(delivery.key, None)
        try:
            await self.engine.store.record_delivery_attempt(delivery.key, attempt, time.time(), status, error,
                                                            retry_in)
        except Exception as failure:  # the claim runs out, and the attempt is made again
            bound.warning("delivery attempt not recorded", error=str(failure))
        if 200 <= status < 300:
            bound.info("notification delivered", attempt=attempt)
        elif retry_in is None:
            bound.error("notification given up", attempt=attempt, status=status, error=error)
        else:
            bound.warning("notification not delivered", attempt=attempt, status=status, error=error,
                          retry_in=retry_in)
        return 200 <= status < 300

    def _post(self, key: str, body: bytes, trace_headers: Mapping[str, str]) -> tuple[int, str]:
        """(HTTP status, "") or (status or 0, why it failed); signed afresh per
        attempt. ``trace_headers``: the delivery span's W3C trace context
        (``traceparent``) when tracing is on, for the receiver's own spans."""
        stamp = int(time.time())
        request = urllib.request.Request(self.url, data=body, method="POST", headers={
            **trace_headers, "Content-Type": "application/json", "Gamehost-Timestamp": str(stamp),
            "Gamehost-Signature": signature(self.secret, stamp, body), "Gamehost-Delivery": key})
        try:
            with urllib.request.urlopen(request, timeout=SEND_TIMEOUT) as answer:
                return answer.status, ""
        except urllib.error.HTTPError as error:
            return error.code, f"HTTP {error.code}"
        except (OSError, ValueError) as error:
            return 0, str(error)[:200]
