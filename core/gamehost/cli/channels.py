"""The channel the client subcommands use: plaintext, or TLS with --tls
(the system's roots) or --tls-ca FILE (a host's own CA), and the client over it."""

from __future__ import annotations

from pathlib import Path

import grpc

from gamehost.client import GameHostClient


def open_channel(args) -> grpc.Channel:
    if args.tls or args.tls_ca:
        roots = Path(args.tls_ca).read_bytes() if args.tls_ca else None
        return grpc.secure_channel(args.host, grpc.ssl_channel_credentials(roots))
    return grpc.insecure_channel(args.host)


def connect(args) -> GameHostClient:
    """A client for --host, over TLS when --tls or --tls-ca is given, signed
    in with --bearer-token (GAMEHOST_TOKEN) when given, asking for the words
    in ``args.locale`` (main.py's choice) when there is one."""
    return GameHostClient(args.host, channel=open_channel(args), bearer_token=getattr(args, "bearer_token", "") or "",
                          locale=getattr(args, "locale", "") or "")
