"""Bounds on the web port's connections, below aiohttp.

aiohttp waits forever for a new connection's first request, so connections
that are opened and left silent (or trickle their headers) each keep a file
descriptor until the process has none left for either port. This guard
wraps aiohttp's protocol factory and gives each connection a deadline for
its first request's headers, and caps open connections in all and per
client network (an address; for IPv6 its /64, peers.caller_network). At a cap, the oldest connection still waiting for its first
request is closed to make room (a flood of silent connections cannot lock
out a client that sends a request at once); when there is none, the new
connection is closed at once.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Protocol

import structlog

from gamehost.host.due_timers import DueTimer
from gamehost.host.rpc.peers import caller_network

log = structlog.get_logger("gamehost.web")

HEADER_END = b"\r\n\r\n"
WARN_EVERY = 10.0  # seconds between warnings while connections are being shed


@dataclass
class ConnectionLimits:
    max_connections: int = 1000   # 0: no cap
    per_peer: int = 64            # 0: no cap
    header_timeout: float = 10.0  # 0: no deadline


class Guarded(Protocol):
    """What the guard reads and sets on a connection it counts: a web
    connection here, or a spliced gRPC one (ops/grpc_front.py)."""

    ip: str
    counted: bool
    transport: asyncio.Transport | None


class GuardedConnection(asyncio.Protocol):
    """aiohttp's protocol for one connection, passed through once admitted."""

    def __init__(self, guard: "ConnectionGuard", inner: asyncio.Protocol) -> None:
        self.guard = guard
        self.inner = inner
        self.transport: asyncio.Transport | None = None
        self.ip = ""
        self.counted = False  # holds a place under the caps
        self.passed = False   # aiohttp has seen connection_made
        self.waiting = True  # no complete request headers yet
        self._tail = b""
        self._deadline: DueTimer | None = None

    def connection_made(self, transport) -> None:
        self.transport = transport
        peer = transport.get_extra_info("peername")
        self.ip = caller_network(peer[0]) if isinstance(peer, tuple) and peer else ""
        if not self.guard.admit(self):
            transport.abort()
            return
        if self.guard.limits.header_timeout > 0:
            self._deadline = DueTimer(time.monotonic() + self.guard.limits.header_timeout, self._too_slow,
                                      time.monotonic)
        self.passed = True
        self.inner.connection_made(transport)

    def _too_slow(self) -> None:
        self._deadline = None
        if self.waiting and self.transport is not None:
            self.guard.shed("header_timeout", self)

    def data_received(self, data: bytes) -> None:
        if not self.passed:
            return
        if self.waiting:
            seen = self._tail + data
            if HEADER_END in seen:
                self.waiting = False
                self.guard.requested(self)
                if self._deadline is not None:
                    self._deadline.cancel()
                    self._deadline = None
            else:
                self._tail = seen[-3:]
        self.inner.data_received(data)

    def eof_received(self):
        return self.inner.eof_received() if self.passed else None

    def connection_lost(self, exc) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self.guard.forget(self)
        if self.passed:
            self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        if self.passed:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.passed:
            self.inner.resume_writing()


class ConnectionGuard:
    """A protocol factory for ``loop.create_server`` around aiohttp's."""

    def __init__(self, factory, limits: ConnectionLimits, port_name: str = "web") -> None:
        self.factory = factory
        self.port_name = port_name  # in its log lines
        self.limits = limits
        self.open = 0
        self.by_peer: dict[str, int] = {}
        self.waiting: dict[Guarded, None] = {}  # oldest first
        self.shed_counts = {"refused": 0, "evicted": 0, "header_timeout": 0}
        self._last_warning = 0.0

    def __call__(self) -> GuardedConnection:
        return GuardedConnection(self, self.factory())

    def admit(self, connection: Guarded) -> bool:
        limits = self.limits
        if limits.per_peer and self.by_peer.get(connection.ip, 0) >= limits.per_peer:
            if not self._evict_oldest_waiting(connection.ip):
                self._count("refused", connection)
                return False
        if limits.max_connections and self.open >= limits.max_connections:
            if not self._evict_oldest_waiting(None):
                self._count("refused", connection)
                return False
        self.open += 1
        self.by_peer[connection.ip] = self.by_peer.get(connection.ip, 0) + 1
        self.waiting[connection] = None
        connection.counted = True
        return True

    def _evict_oldest_waiting(self, ip: str | None) -> bool:
        for candidate in self.waiting:
            if ip is None or candidate.ip == ip:
                self.shed("evicted", candidate)
                return True
        return False

    def shed(self, why: str, connection: Guarded) -> None:
        """Close an admitted connection now, and count it out at once so its
        place is free before its connection_lost comes."""
        self._count(why, connection)
        self.forget(connection)
        if connection.transport is not None:  # admitted connections have theirs
            connection.transport.abort()

    def requested(self, connection: Guarded) -> None:
        self.waiting.pop(connection, None)

    def forget(self, connection: Guarded) -> None:
        if not connection.counted:
            return
        connection.counted = False
        self.waiting.pop(connection, None)
        self.open -= 1
        left = self.by_peer.get(connection.ip, 0) - 1
        if left > 0:
            self.by_peer[connection.ip] = left
        else:
            self.by_peer.pop(connection.ip, None)

    def _count(self, why: str, connection: Guarded) -> None:
        self.shed_counts[why] += 1
        now = time.monotonic()
        if now - self._last_warning >= WARN_EVERY:
            self._last_warning = now
            log.warning(f"{self.port_name} connections shed", reason=why, peer=connection.ip, open=self.open,
                        **{f"total_{key}": value for key, value in self.shed_counts.items()})
