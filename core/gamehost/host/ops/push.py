"""Web Push (RFC 8030, 8291, 8292): "your turn" and "match over" sent to
the browsers that signed-in players subscribed, so they hear of it with the
page closed. A plugin of the ``gamehost_match_event`` hook, shipped with the
host, beside the webhooks (which stay for backends).

Each message is encrypted for its browser (aes128gcm, with the keys the
browser gave when it subscribed) and signed with the host's VAPID key, by
pywebpush. A push service that answers 404 or 410 says the subscription is
gone: it is forgotten. Pushes are best effort and not queued in the store: a
turn told late is worth little, so a failed send is tried once more, and the
push service itself keeps a message for its TTL while the browser is off.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

import aiohttp
import structlog
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid, Vapid01
from py_vapid.utils import b64urlencode
from pywebpush import WebPushException, webpush_async

from gamehost.host.engine.undo_asks import ASK_EVENTS
from gamehost.host.ops.turn_audience import seated_people, seats_to_tell
from gamehost.host.rpc.locales import Locales
from gamehost.host.store.push_rows import PushSubscriptionRecord
from gamehost.sdk import hookimpl

log = structlog.get_logger("gamehost.push")

TTL = 3600  # seconds a push service keeps a message for a browser that is off
SEND_TIMEOUT = 10.0
MAX_IN_FLIGHT = 8
MAX_WAITING = 1000  # sends queued behind those in flight; past it, new ones are dropped (and logged)
GONE = (404, 410)  # the push service no longer knows the subscription


def vapid_key(path: str | Path) -> Vapid01:
    """The host's VAPID key from its PEM file, made (owner-only) when the file does not exist yet."""
    path = Path(path)
    if path.exists():
        try:
            return Vapid.from_file(str(path))
        except Exception as error:  # py_vapid raises several kinds for a file that is not a key
            raise SystemExit(f"gamehost: {path} is not a VAPID private key (PEM): {error}") from None
    key = Vapid()
    key.generate_keys()
    key.save_key(str(path))
    path.chmod(0o600)
    return key


def application_server_key(key: Vapid01) -> str:
    """The public half as pages give it to PushManager.subscribe: the uncompressed point, base64url."""
    return b64urlencode(key.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))


@dataclass(frozen=True)
class Push:
    """One message for one browser."""

    subscription: PushSubscriptionRecord
    message: dict
    match_id: str
    game_id: str


class PushSender:
    """Registered on the plugin manager before the engine is made (the
    engine collects observers then); ``attach`` hands it the engine and
    starts the sending task, which the engine's close ends."""

    def __init__(self, key: Vapid01, contact: str) -> None:
        self.key, self.contact = key, contact
        self.application_server_key = application_server_key(key)
        self.engine: Any = None
        self.locales = Locales()
        self._waiting: asyncio.Queue[Push] = asyncio.Queue(MAX_WAITING)

    def attach(self, engine: Any) -> None:
        self.engine = engine
        engine.background(self._send_waiting())

    @hookimpl
    def gamehost_match_event(self, match_id: str, game_id: str, event: Mapping[str, Any]) -> None:
        if self.engine is None:
            return
        if event["kind"] == "finished":
            self.engine.background(self._match_over(match_id, game_id, event.get("result") or {}))
        elif event["kind"] not in ASK_EVENTS:  # an undo asked or answered: still the same turn, told already
            self.engine.background(self._turns(match_id, game_id, event["version"]))

    async def _turns(self, match_id: str, game_id: str, version: int) -> None:
        seats = await seats_to_tell(self.engine, match_id, version)
        if seats:
            await self._tell({holder.subject for _, holder in seats}, match_id, game_id,
                             lambda say, game: {"type": "your_turn", "title": say("Your turn"),
                                                "body": say("It is your move in {game}.").format(game=game)})

    async def _match_over(self, match_id: str, game_id: str, result: Mapping[str, Any]) -> None:
        people = seated_people(self.engine, match_id)
        summary = str(result.get("summary") or "")
        if people:
            await self._tell({seat.subject for seat in people}, match_id, game_id,
                             lambda say, game: {"type": "match_over", "title": say("Match over"),
                                                "body": f"{game}: {summary}" if summary else game})

    async def _tell(self, subjects: set[str], match_id: str, game_id: str, words) -> None:
        """Queue one message per subscription of ``subjects``, worded in the language each browser asked."""
        try:
            subscriptions = await self.engine.store.push_subscriptions(sorted(subjects))
        except Exception as error:
            log.error("push subscriptions not read; nothing sent", match_id=match_id, game=game_id,
                      error=str(error))
            return
        entry = self.engine.catalog.games.get(game_id)
        for subscription in subscriptions:
            locale = self.locales.for_game(entry.game if entry else None, (subscription.locale or "en",))
            say = (lambda text: text) if locale is None or locale.english else locale.translator.gettext
            title = entry.game.title if entry else game_id
            game = locale.translator.translate(title) if locale and not locale.english else str(title)
            message = {**words(say, game), "match": f"matches/{match_id}", "game": f"games/{game_id}",
                       "url": f"#/matches/{match_id}"}
            try:
                self._waiting.put_nowait(Push(subscription, message, match_id, game_id))
            except asyncio.QueueFull:
                log.warning("push dropped: too many waiting", match_id=match_id, game=game_id)

    async def _send_waiting(self) -> None:
        """Send what is queued, ``MAX_IN_FLIGHT`` at once, over one HTTP session."""
        slots = asyncio.Semaphore(MAX_IN_FLIGHT)
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=SEND_TIMEOUT)) as session:
            sending: set[asyncio.Task] = set()
            while True:
                push = await self._waiting.get()
                await slots.acquire()
                task = asyncio.create_task(self._send(session, push))
                sending.add(task)
                task.add_done_callback(sending.discard)
                task.add_done_callback(lambda _: slots.release())

    async def _send(self, session: aiohttp.ClientSession, push: Push) -> None:
        subscription = push.subscription
        info = {"endpoint": subscription.endpoint, "keys": {"p256dh": subscription.p256dh,
                                                            "auth": subscription.auth}}
        data = json.dumps(push.message, separators=(",", ":"), ensure_ascii=False)
        said = log.bind(match_id=push.match_id, game=push.game_id, subject=subscription.subject,
                        kind=push.message["type"])
        for attempt in (1, 2):
            try:
                await webpush_async(info, data, vapid_private_key=self.key, vapid_claims={"sub": self.contact},
                                    ttl=TTL, timeout=SEND_TIMEOUT, headers={"Urgency": "high"},
                                    aiohttp_session=session)
                said.info("push sent")
                return
            except WebPushException as error:
                if error.status_code in GONE:
                    await self.engine.store.remove_push_subscription(subscription.endpoint)
                    said.info("push subscription gone; forgotten", status=error.status_code)
                    return
                failure = str(error)[:200]
            except (aiohttp.ClientError, asyncio.TimeoutError, OSError) as error:
                failure = str(error) or type(error).__name__
            said.warning("push not delivered", attempt=attempt, error=failure)
