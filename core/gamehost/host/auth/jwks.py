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
        self.min_refresh = min_refresh
        self.max_age = max_age  # seconds before a cached set is fetched again anyway
        self._keys: dict[str, jwt.PyJWK] = {}
        self._fetched = float("-inf")
        self._lock = asyncio.Lock()
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
                self._aging = asyncio.get_running_loop().create_task(self._refresh_quietly())
        key = self._keys.get(kid)
        if key is None and time.monotonic() - self._fetched >= self.min_refresh:
            await self.refresh()
            key = self._keys.get(kid)
        if not self._keys:  # the last fetch failed and none succeeded before
            raise JwksUnavailable(self.source)
        return key

    async def _refresh_quietly(self) -> None:
        try:
            await self.refresh()
        except JwksUnavailable:
            pass  # logged by refresh; the cached keys stay

    async def refresh(self) -> None:
        async with self._lock:  # concurrent callers share one fetch
            if time.monotonic() - self._fetched < self.min_refresh and self._keys:
                return
            try:
                text = await asyncio.to_thread(self._read)
                self._keys = self._parse(text)
                log.info("signing keys loaded", source=self.source, kids=sorted(self._keys))
            except Exception as error:  # keep the keys we have; callers see unknown kids refused
                log.error("signing keys not loaded", source=self.source, error=str(error))
                if not self._keys:
                    self._fetched = time.monotonic()
                    raise JwksUnavailable(str(error)) from None
            self._fetched = time.monotonic()

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
