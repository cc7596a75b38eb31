"""Checking, before anything starts, that the ports the host is told to use
can be had: a port taken by another process is then one clear line, not a
traceback from the gRPC core after the workers and the store have started."""

from __future__ import annotations

import errno
import socket

from gamehost.host.ops.config import HostConfig
from gamehost.host.ops.web_port import ListenError


def split_address(address: str) -> tuple[str, int]:
    """``"127.0.0.1:50051"``, ``"[::]:50051"``, ``"localhost:0"``: host and port."""
    host, _, port = address.rpartition(":")
    return host.strip("[]"), int(port)


def ensure_free(host: str, port: int, what: str) -> None:
    """ListenError naming ``what`` (the flag that chose the port) when
    ``port`` on ``host`` cannot be bound now. Port 0 is always free."""
    if port == 0:
        return
    try:
        family, kind, proto, _, where = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                                           flags=socket.AI_PASSIVE)[0]
        with socket.socket(family, kind, proto) as probe:
            # As both servers bind: a port in TIME_WAIT after a restart is free.
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(where)
    except OSError as error:
        reason = (error.strerror or str(error)).lower()
        if error.errno == errno.EADDRINUSE:
            reason += f" (another gamehost?); choose another port with {what.split('/')[0]}"
        raise ListenError(f"cannot listen on {host}:{port} ({what}): {reason}") from None


def ensure_ports_free(config: HostConfig) -> None:
    host, port = split_address(config.address)
    ensure_free(host, port, "--port/--address")
    if config.web_port is not None:
        ensure_free(host, config.web_port, "--web-port")
