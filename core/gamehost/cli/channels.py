"""The channel the client subcommands use: plaintext, or TLS with --tls
(the system's roots) or --tls-ca FILE (a host's own CA)."""

from __future__ import annotations

from pathlib import Path

import grpc


def open_channel(args) -> grpc.Channel:
    if args.tls or args.tls_ca:
        roots = Path(args.tls_ca).read_bytes() if args.tls_ca else None
        return grpc.secure_channel(args.host, grpc.ssl_channel_credentials(roots))
    return grpc.insecure_channel(args.host)
