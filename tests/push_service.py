"""A push service for the tests (a browser vendor's, out of reach here,
stands behind every real subscription): it takes what the host POSTs to a
subscription's endpoint, checks the VAPID signature (RFC 8292) against the
host's public key, and decrypts the message (RFC 8291) with the browser's
keys, as the browser would. Each browser is a path of the service."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field

import http_ece
import jwt
from aiohttp import web
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Browser:
    """One subscribed browser: its keys, and what reached it."""

    name: str
    endpoint: str
    private_key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))
    received: list[dict] = field(default_factory=list)
    plain: list[str] = field(default_factory=list)  # the messages as the browser's push client hands them over
    refusals: list[str] = field(default_factory=list)  # what the service refused, and why
    answer: int = 201  # what the service answers the host: 410 once the browser unsubscribed

    @property
    def p256dh(self) -> str:
        return b64url(self.private_key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))

    @property
    def keys(self) -> dict[str, str]:
        return {"endpoint": self.endpoint, "p256dh": self.p256dh, "auth": b64url(self.auth)}


class PushService:
    """An HTTP push service on 127.0.0.1 in its own thread."""

    def __init__(self, application_server_key: str) -> None:
        self.application_server_key = application_server_key
        self.browsers: dict[str, Browser] = {}
        self.origin = ""
        self._loop = asyncio.new_event_loop()
        self._runner: web.AppRunner | None = None

    def start(self) -> "PushService":
        started = threading.Event()
        threading.Thread(target=self._serve, args=(started,), daemon=True).start()
        assert started.wait(10), "the push service did not start"
        return self

    def stop(self) -> None:
        if self._runner is not None:
            asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)

    def browser(self, name: str) -> Browser:
        browser = Browser(name, f"{self.origin}/push/{name}")
        self.browsers[name] = browser
        return browser

    def _serve(self, started: threading.Event) -> None:
        asyncio.set_event_loop(self._loop)
        app = web.Application()
        app.router.add_post("/push/{name}", self._receive)
        app.router.add_get("/relay/{name}", self._relay)
        self._runner = web.AppRunner(app)
        self._loop.run_until_complete(self._runner.setup())
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        self._loop.run_until_complete(site.start())
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.origin = f"http://127.0.0.1:{port}"
        started.set()
        self._loop.run_forever()

    async def _receive(self, request: web.Request) -> web.Response:
        browser = self.browsers.get(request.match_info["name"])
        if browser is None:
            return web.Response(status=404)
        problem = self._vapid_problem(request.headers.get("Authorization", ""))
        if problem:
            browser.refusals.append(problem)
            return web.Response(status=401, text=problem)
        if request.headers.get("Content-Encoding") != "aes128gcm" or "TTL" not in request.headers:
            browser.refusals.append("not aes128gcm, or no TTL")
            return web.Response(status=400)
        body = await request.read()
        try:
            plain = http_ece.decrypt(body, private_key=browser.private_key, auth_secret=browser.auth,
                                     version="aes128gcm")
        except Exception as error:  # a message not encrypted for this browser
            browser.refusals.append(f"cannot decrypt: {error}")
            return web.Response(status=400)
        if browser.answer >= 400:
            return web.Response(status=browser.answer)
        browser.plain.append(plain.decode())
        browser.received.append({**json.loads(plain), "ttl": int(request.headers["TTL"]),
                                 "urgency": request.headers.get("Urgency", "")})
        return web.Response(status=201)

    async def _relay(self, request: web.Request) -> web.Response:
        """The first message that reached a browser, for a real browser to be handed (204: none yet)."""
        browser = self.browsers.get(request.match_info["name"])
        if browser is None or not browser.plain:
            return web.Response(status=204)
        return web.Response(text=browser.plain[0], content_type="application/json")

    def relay(self, browser: Browser) -> str:
        return f"{self.origin}/relay/{browser.name}"

    def _vapid_problem(self, header: str) -> str | None:
        """Why the Authorization header is not a valid VAPID one from the host; None when it is."""
        scheme, _, params = header.partition(" ")
        if scheme.lower() != "vapid":
            return f"scheme {scheme!r}, not vapid"
        values = dict(part.strip().split("=", 1) for part in params.split(",") if "=" in part)
        if values.get("k") != self.application_server_key:
            return "k is not the host's public key"
        public_key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(values["k"]))
        try:
            claims = jwt.decode(values.get("t", ""), public_key, algorithms=["ES256"], audience=self.origin)
        except jwt.PyJWTError as error:
            return f"token: {error}"
        if claims["exp"] > time.time() + 24 * 3600:
            return "exp more than 24 hours ahead"
        if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
            return "sub is no contact"
        return None
