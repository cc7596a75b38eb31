"""The browser's own address for calls through this host's web port.

The web gateway calls the gRPC server over loopback, so every browser would
otherwise look like one caller at 127.0.0.1 and share one anonymous budget.
The gateway sends the browser's address as metadata together with a secret
drawn when this process starts; the gate takes the address only with the
secret, so no other caller (a gRPC client, a process on the same machine)
can claim someone else's address.
"""

from __future__ import annotations

import hmac
import secrets
from typing import Mapping

GATEWAY_KEY = "x-gamehost-gateway"
PEER_KEY = "x-gamehost-peer"
_SECRET = secrets.token_urlsafe(24)  # this process's gateway alone knows it


def grpc_style(address: str) -> str:
    """An IP address as gRPC names peers: "ipv4:1.2.3.4", "ipv6:[::1]"."""
    return f"ipv6:[{address}]" if ":" in address else f"ipv4:{address}"


def gateway_metadata(remote: str | None) -> tuple[tuple[str, str], ...]:
    """What the gateway adds to a forwarded call: the secret and the browser's address."""
    if not remote:
        return ()
    return (GATEWAY_KEY, _SECRET), (PEER_KEY, grpc_style(remote))


def forwarded_peer(metadata: Mapping[str, str]) -> str | None:
    """The browser's address, if this process's gateway forwarded the call."""
    presented = metadata.get(GATEWAY_KEY)
    if presented is None or not hmac.compare_digest(presented.encode(), _SECRET.encode()):
        return None
    return metadata.get(PEER_KEY, "")[:64] or None
