"""Bounds on the gRPC port's connections, in front of grpc.

grpc core caps connections only in all (``grpc.max_allowed_incoming_connections``
counts every peer alike) and grpcio never shows the server its accepted
sockets, so one address could hold every file descriptor the process has.
So the host listens on the public gRPC address itself: each connection is
admitted under the same caps as the web port's (in all, and per client
network: web/connections.py), then spliced byte for byte, TLS included, to
grpc's own listener on loopback. A connection that has made no call within
``first_call_timeout`` is closed, and at a cap the oldest such connection
makes room for a new one.

grpc sees each call coming from the splice's loopback port; ``client_of``
maps that port back to the client's address for the gate (peers.py), and
seeing a call marks the connection as one that calls.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

import structlog

from gamehost.host.due_timers import DueTimer
from gamehost.host.rpc.peers import caller_network, peer_name
from gamehost.host.web.connections import ConnectionGuard, ConnectionLimits

log = structlog.get_logger("gamehost.transport")

ACCEPT_BACKLOG = 128
LOOPBACK = "127.0.0.1"


@dataclass
class FrontLimits:
    max_connections: int = 10_000   # 0: no cap
    per_peer: int = 64              # per client network; 0: no cap
    first_call_timeout: float = 20.0  # seconds a new connection has to make its first call; 0: no deadline


class _Backend(asyncio.Protocol):
    """The splice's connection to grpc: what grpc sends goes to the client."""

    def __init__(self, front: "SplicedConnection") -> None:
        self.front = front

    def data_received(self, data: bytes) -> None:
        if self.front.transport is not None:
            self.front.transport.write(data)

    def eof_received(self):
        return False  # closes this side; connection_lost closes the client's

    def connection_lost(self, exc) -> None:
        self.front.backend_lost()

    def pause_writing(self) -> None:  # grpc is not reading: hold the client back
        if self.front.transport is not None:
            self.front.transport.pause_reading()

    def resume_writing(self) -> None:
        if self.front.transport is not None:
            self.front.transport.resume_reading()


class SplicedConnection(asyncio.Protocol):
    """One client connection: admitted under the caps, then spliced to grpc."""

    def __init__(self, front: "GrpcFront") -> None:
        self.front = front
        self.transport: asyncio.Transport | None = None
        self.backend: asyncio.Transport | None = None
        self.ip = ""       # the client's network, as the caps count it
        self.peer = ""     # the client's address and port, as gRPC names peers ("ipv4:1.2.3.4:5678")
        self.counted = False
        self.local_port = 0  # the splice's port on loopback, as grpc sees it
        self.pending: list[bytes] = []  # what the client sent before grpc's side was connected
        self.closing = False
        self._deadline: DueTimer | None = None

    def connection_made(self, transport) -> None:
        self.transport = transport
        address = transport.get_extra_info("peername")
        ip = address[0] if isinstance(address, tuple) and address else ""
        self.ip = caller_network(ip)
        self.peer = f"{peer_name(ip)}:{address[1]}" if ip else "unknown"
        if not self.front.guard.admit(self):
            transport.abort()
            return
        timeout = self.front.limits.first_call_timeout
        if timeout > 0:
            self._deadline = DueTimer(time.monotonic() + timeout, self._no_call, time.monotonic)
        transport.pause_reading()  # until grpc's side is connected
        asyncio.ensure_future(self._connect())

    async def _connect(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            backend, _ = await loop.create_connection(lambda: _Backend(self), LOOPBACK, self.front.backend_port)
        except OSError as error:
            log.warning("cannot reach grpc's listener", error=str(error))
            self.close()
            return
        if self.closing:
            backend.close()
            return
        self.backend = backend
        self.local_port = backend.get_extra_info("sockname")[1]
        self.front.by_port[self.local_port] = self
        for data in self.pending:
            backend.write(data)
        self.pending.clear()
        if self.transport is not None:
            self.transport.resume_reading()

    def _no_call(self) -> None:
        self._deadline = None
        if self.counted and self in self.front.guard.waiting:
            self.front.guard.shed("header_timeout", self)

    def called(self) -> None:
        """grpc has a call from this connection: it is no longer idle-new."""
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self.front.guard.requested(self)

    def data_received(self, data: bytes) -> None:
        if self.backend is not None:
            self.backend.write(data)
        else:
            self.pending.append(data)

    def eof_received(self):
        return False

    def pause_writing(self) -> None:  # the client is not reading: hold grpc back
        if self.backend is not None:
            self.backend.pause_reading()

    def resume_writing(self) -> None:
        if self.backend is not None:
            self.backend.resume_reading()

    def backend_lost(self) -> None:
        if self.transport is not None:
            self.transport.close()  # after what grpc sent last has gone out

    def connection_lost(self, exc) -> None:
        self.close()

    def close(self) -> None:
        self.closing = True
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self.front.guard.forget(self)
        if self.front.by_port.get(self.local_port) is self:
            del self.front.by_port[self.local_port]
        if self.backend is not None:
            self.backend.close()
        if self.transport is not None:
            self.transport.close()


class GrpcFront:
    """The public gRPC listener: ``start`` it once grpc listens on loopback
    (``backend_port``)."""

    def __init__(self, limits: FrontLimits) -> None:
        self.limits = limits
        self.guard = ConnectionGuard(None, ConnectionLimits(limits.max_connections, limits.per_peer,
                                                            limits.first_call_timeout), port_name="grpc")
        self.by_port: dict[int, SplicedConnection] = {}
        self.backend_port = 0
        self.server: asyncio.base_events.Server | None = None

    async def start(self, address: str, backend_port: int, reuse_port: bool = False) -> int:
        """Listen on ``address`` ("host:port"); returns the port."""
        self.backend_port = backend_port
        host, _, port = address.rpartition(":")
        self.server = await asyncio.get_running_loop().create_server(
            lambda: SplicedConnection(self), host.strip("[]") or None, int(port), backlog=ACCEPT_BACKLOG,
            reuse_address=True, reuse_port=reuse_port or None)
        return self.server.sockets[0].getsockname()[1]

    def client_of(self, peer: str) -> str | None:
        """The client ("ipv4:1.2.3.4:5678") behind grpc's peer of a
        spliced connection ("ipv4:127.0.0.1:PORT"); None for any other peer."""
        if not peer.startswith("ipv4:127.0.0.1:"):
            return None
        try:
            connection = self.by_port.get(int(peer.rsplit(":", 1)[1]))
        except ValueError:
            return None
        if connection is None:
            return None
        connection.called()
        return connection.peer

    def stop_accepting(self) -> None:
        if self.server is not None:
            self.server.close()

    def close(self) -> None:
        """Close what grpc's stop left open (it closes its side of each)."""
        self.stop_accepting()
        for connection in list(self.by_port.values()):
            connection.close()
