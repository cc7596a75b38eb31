"""The web port of a host: the browser gateway (web/) listening on its own
port, behind the connection guard, with the host's TLS settings."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

import structlog
from aiohttp import web

from gamehost.host.ops.config import HostConfig
from gamehost.host.ops.transport import HANDSHAKE_TIMEOUT_MS, tls_enabled, web_ssl_context
from gamehost.host.rpc.peers import parse_networks
from gamehost.host.web.app import build_app
from gamehost.host.web.connections import ConnectionGuard, ConnectionLimits
from gamehost.host.web.cors import CorsPolicy, parse_origins
from gamehost.host.web.gateway import Gateway
from gamehost.host.web.static import default_web_root
from gamehost.host.web.upstream import Upstream

log = structlog.get_logger("gamehost.web")

ACCEPT_BATCH = 128  # the listen backlog, and so the most connections asyncio accepts per loop turn


class ListenError(OSError):
    """A port the host was told to use cannot be had; said without a traceback."""


@dataclass
class WebServer:
    runner: web.AppRunner
    gateway: Gateway
    port: int
    listener: asyncio.Server
    guard: ConnectionGuard

    async def stop(self) -> None:
        """Stop listening, let open calls end (watch streams end when the
        engine closes), then close the loopback channel."""
        self.listener.close()
        await self.runner.cleanup()
        await self.gateway.upstream.close()


async def start_web(config: HostConfig, web_port: int, grpc_port: int, gateway_key: str = "", *,
                    reuse_port: bool = False) -> WebServer:
    """Listen on the host part of ``config.address`` and ``web_port``
    (0: a free one; --web-port), forwarding to the gateway's gRPC server on 127.0.0.1:
    ``grpc_port`` and naming each browser to it with ``gateway_key``.
    ``reuse_port``: share the port with the other processes of a serving
    group (SO_REUSEPORT)."""
    web_root = (None if config.web_root == "off" else Path(config.web_root) if config.web_root
                else default_web_root())
    gateway = Gateway(Upstream(f"127.0.0.1:{grpc_port}", config.max_message_bytes),
                      config.max_message_bytes, gateway_key, parse_networks(config.trusted_proxies))
    app = build_app(gateway, CorsPolicy(parse_origins(config.cors_origins)), web_root)
    # handler_cancellation: a browser that disconnects cancels its handler, which cancels its upstream call.
    # auto_decompress off: framing.read_body decompresses within the size limit and refuses bad gzip itself.
    runner = web.AppRunner(app, handler_cancellation=True, access_log=None, shutdown_timeout=config.shutdown_grace,
                           keepalive_timeout=config.web_keepalive_timeout, max_line_size=8190,
                           max_field_size=8190, max_headers=64, auto_decompress=False)
    await runner.setup()
    host = config.address.rsplit(":", 1)[0].strip("[]") if ":" in config.address else config.address
    guard = ConnectionGuard(runner.server, ConnectionLimits(config.web_max_connections,
                                                            config.web_max_connections_per_peer,
                                                            config.web_header_timeout))
    tls = web_ssl_context(config) if tls_enabled(config) else None
    try:
        # Our own listener rather than aiohttp's TCPSite, so that every connection passes the guard.
        # asyncio accepts up to `backlog` connections per loop turn before the guard sees any of
        # them: a small one bounds the files a flood can take beyond the caps.
        listener = await asyncio.get_running_loop().create_server(
            guard, host or None, web_port, ssl=tls, backlog=ACCEPT_BATCH, reuse_address=True,
            reuse_port=reuse_port or None,
            ssl_handshake_timeout=HANDSHAKE_TIMEOUT_MS / 1000 if tls else None)
    except OSError as error:
        await runner.cleanup()
        await gateway.upstream.close()
        raise ListenError(f"cannot listen on {host}:{web_port} for browsers (--web-port): "
                          f"{error.strerror or error}") from None
    port = listener.sockets[0].getsockname()[1]
    log.info("web serving", web_port=port, web_root=str(web_root) if web_root else None,
             cors_origins=config.cors_origins or None, tls=tls is not None)
    return WebServer(runner, gateway, port, listener, guard)
