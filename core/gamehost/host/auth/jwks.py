"""The signing keys JWTs are checked against: a JWKS from a file or a URL.

The key set is cached. A token whose ``kid`` is not in the cache makes the
host fetch the set again, at most once per ``min_refresh`` seconds, so an
identity provider's key rotation works without a restart while a flood of
made-up kids cannot turn the host into a fetching machine. Fetches run in a
worker thread: the event loop never waits on the network.
"""

from __future__ import annotations

import asyncio
import json
import time
import urllib.request
from pathlib import Path

import jwt
import structlog

log = structlog.get_logger("gamehost.auth.jwks")

ASYMMETRIC_KEY_TYPES = {"RSA", "EC", "OKP"}  # "oct" (shared secrets) is never accepted
MAX_JWKS_BYTES = 1 << 20
FETCH_TIMEOUT = 10.0


class JwksUnavailable(Exception):
    """The key set could not be read."""


class KeySet:
    def __init__(self, source: str, *, min_refresh: float = 10.0, max_age: float = 3600.0) -> None:
        self.source = source
        self.min_refresh = min_refresh  # seconds between two fetches at least, whatever they found
        self.max_age = max_age  # seconds before a cached set is fetched again anyway
        self._keys: dict[str, jwt.PyJWK] = {}
        self._fetched = float("-inf")  # when a fetch last succeeded
        self._attempted = float("-inf")  # when a fetch last ended, succeeded or not
        self._error = "the key set was not read yet"
        self._fetching: asyncio.Task | None = None  # the one fetch under way, shared by every caller
        self._aging: asyncio.Task | None = None  # a background refresh of a set older than max_age

    @property
    def is_url(self) -> bool:
        return self.source.startswith(("https://", "http://"))

    async def key(self, kid: str) -> jwt.PyJWK | None:
        """The key with id ``kid``, refreshing the set when it is unknown or old."""
        if time.monotonic() - self._fetched > self.max_age:
            if not self._keys:
                await self.refresh()
            elif self._aging is None or self._aging.done():  # old keys serve while new ones are fetched
                self._aging = asyncio.get_running_loop().create_task(self.refresh())
        key = self._keys.get(kid)
        if key is None:
            await self.refresh()
            key = self._keys.get(kid)
        if not self._keys:  # no fetch succeeded yet
            raise JwksUnavailable(self._error)
        return key

    async def refresh(self) -> None:
        """Fetch the set again, unless a fetch ended less than ``min_refresh``
        ago: an identity provider that does not answer is asked once per
        interval, not once per caller. Callers arriving while a fetch is
        under way wait for that one; a caller that gives up does not stop it."""
        if self._fetching is None:
            if time.monotonic() - self._attempted < self.min_refresh:
                return
            self._fetching = asyncio.get_running_loop().create_task(self._fetch())
        await asyncio.shield(self._fetching)

    async def _fetch(self) -> None:
        try:
            text = await asyncio.to_thread(self._read)
            self._keys = self._parse(text)
            self._fetched = time.monotonic()
            log.info("signing keys loaded", source=self.source, kids=sorted(self._keys))
        except Exception as error:  # keep the keys we have; callers see unknown kids refused
            self._error = str(error) or type(error).__name__
            log.error("signing keys not loaded", source=self.source, error=self._error)
        finally:
            self._attempted = time.monotonic()
            self._fetching = None

    def _read(self) -> str:
        if self.is_url:
            request = urllib.request.Request(self.source, headers={"Accept": "application/json"})
            with urllib.request.urlopen(request, timeout=FETCH_TIMEOUT) as response:
                return response.read(MAX_JWKS_BYTES + 1).decode()
        return Path(self.source).read_text()

    @staticmethod
    def _parse(text: str) -> dict[str, jwt.PyJWK]:
        if len(text) > MAX_JWKS_BYTES:
            raise ValueError("the key set is larger than 1 MiB")
        keys = {}
        for entry in json.loads(text).get("keys", []):
            if entry.get("kty") not in ASYMMETRIC_KEY_TYPES or entry.get("use", "sig") != "sig":
                continue
            try:
                keys[entry.get("kid", "")] = jwt.PyJWK(entry)
            except jwt.PyJWTError as error:
                log.warning("signing key skipped", kid=entry.get("kid"), error=str(error))
        return keys
