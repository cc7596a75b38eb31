"""The gRPC listener's limits and TLS, and the process's open-file limit.

Every connection holds a file descriptor, and so does the store, the log
and each loopback hop of the gateway; once the process is out of them
neither port can accept anyone. So connections are bounded in count and in
life (idle, age, handshake), and the open-file limit is raised at start.
"""

from __future__ import annotations

import resource
import ssl
from pathlib import Path

import grpc
import structlog

from gamehost.host.ops.config import HostConfig

log = structlog.get_logger("gamehost.transport")

HANDSHAKE_TIMEOUT_MS = 10_000    # a connection that has not finished HTTP/2 (and TLS) setup by then is closed
KEEPALIVE_TIME_MS = 60_000       # ping a connection quiet this long, to find peers that vanished
KEEPALIVE_TIMEOUT_MS = 20_000    # ...and close it when the ping is not answered in this long
MIN_CLIENT_PING_INTERVAL_MS = 10_000  # clients may ping this often, with or without calls
MAX_PING_STRIKES = 2             # pings more often than that, this many times: GOAWAY
# Calls the event loop has not taken up yet wait in grpc's own queue (grpcio's
# asyncio server takes up one call per turn of the loop, so a saturated loop
# falls behind). grpc's defaults cancel a waiting call, with a bare CANCELLED
# the host never sees, at random beyond 1,000 waiting, always beyond 3,000,
# and after 30 s: 1,000 matches created at once cut 80 to 140 WatchMatch
# streams so in a load test. A call now waits until it is taken up or its
# client's deadline passes; these bounds are for a host gone wrong.
PENDING_CALLS_LIMIT = 100_000    # beyond this many calls waiting, grpc cancels new ones (CANCELLED)
PENDING_CALL_SECONDS = 600       # a call waiting longer than this is cancelled by grpc (CANCELLED)
# A call's headers together: grpc's default (8 KiB, with random refusals up
# to 16 KiB) would refuse a bearer credential within the host's own limit
# (auth/authenticator.py, 8,192 characters) with a bare RESOURCE_EXHAUSTED
# before the host reads it. Soft and hard limit alike: no random band.
MAX_METADATA_BYTES = 32 * 1024


def gateway_server_options(config: HostConfig) -> list[tuple[str, int]]:
    """The web gateway's loopback server: the message limits and the queue of calls not taken up yet."""
    return [
        ("grpc.max_receive_message_length", config.max_message_bytes),
        ("grpc.max_send_message_length", 16 * config.max_message_bytes),
        ("grpc.so_reuseport", 0),
        ("grpc.server.max_pending_requests", PENDING_CALLS_LIMIT),
        ("grpc.server.max_pending_requests_hard_limit", PENDING_CALLS_LIMIT),
        ("grpc.server_max_unrequested_time_in_server", PENDING_CALL_SECONDS),
        ("grpc.max_metadata_size", MAX_METADATA_BYTES),
        ("grpc.absolute_max_metadata_size", MAX_METADATA_BYTES),
    ]


def grpc_server_options(config: HostConfig) -> list[tuple[str, int]]:
    options = [
        *gateway_server_options(config),
        ("grpc.max_concurrent_streams", config.max_streams_per_connection),
        ("grpc.server_handshake_timeout_ms", HANDSHAKE_TIMEOUT_MS),
        ("grpc.keepalive_time_ms", KEEPALIVE_TIME_MS),
        ("grpc.keepalive_timeout_ms", KEEPALIVE_TIMEOUT_MS),
        ("grpc.keepalive_permit_without_calls", 1),
        ("grpc.http2.min_recv_ping_interval_without_data_ms", MIN_CLIENT_PING_INTERVAL_MS),
        ("grpc.http2.max_ping_strikes", MAX_PING_STRIKES),
    ]
    for name, seconds in (("grpc.max_connection_idle_ms", config.max_connection_idle),
                          ("grpc.max_connection_age_ms", config.max_connection_age)):
        if seconds > 0:
            options.append((name, int(seconds * 1000)))
    if config.max_connection_age > 0:
        options.append(("grpc.max_connection_age_grace_ms", int(config.max_connection_age_grace * 1000)))
    return options


def tls_enabled(config: HostConfig) -> bool:
    return bool(config.tls_cert and config.tls_key)


def grpc_credentials(config: HostConfig) -> grpc.ServerCredentials:
    return grpc.ssl_server_credentials([(Path(config.tls_key).read_bytes(), Path(config.tls_cert).read_bytes())])


def web_ssl_context(config: HostConfig) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(config.tls_cert, config.tls_key)
    return context


def raise_open_file_limit() -> tuple[int, int]:
    """Raise the soft RLIMIT_NOFILE to the hard one (no privilege needed) and
    log both; returns (soft, hard) as they are now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError) as error:
            log.warning("cannot raise the open-file limit", soft=soft, hard=hard, error=str(error))
    log.info("open-file limit", soft=soft, hard=hard if hard != resource.RLIM_INFINITY else "unlimited")
    return soft, hard
