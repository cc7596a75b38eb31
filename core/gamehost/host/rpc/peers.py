"""Which network address a call comes from, for its quotas.

Three cases. A direct gRPC client: the socket's peer. A browser: the host's
own gateway forwards every call over loopback, so the socket's peer is the
gateway; the gateway names the browser in ``x-gamehost-peer`` and proves it
is the gateway with a key made fresh by each host process (a client that
sends the header itself does not know the key and is not believed). A
caller behind a listed reverse proxy: the proxy's X-Forwarded-For.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
from typing import Callable

FORWARDED_PEER = "x-gamehost-peer"
GATEWAY_KEY = "x-gamehost-gateway-key"
FORWARDED_FOR = "x-forwarded-for"

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def new_gateway_key() -> str:
    return secrets.token_urlsafe(32)


def parse_networks(text: str) -> tuple[Network, ...]:
    """Comma-separated addresses or networks ("10.0.0.5, 10.1.0.0/16"); ValueError names a bad one."""
    networks = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ValueError(f"{item[:60]!r} is not an IP address or network") from None
    return tuple(networks)


IPV6_CALLER_PREFIX = 64  # one IPv6 subscriber is usually given a whole /64: it counts as one caller


def caller_network(ip: str) -> str:
    """The network one caller's connections are counted under: an IPv4
    address itself (an IPv4-mapped IPv6 one as IPv4), an IPv6 address's /64
    ("2001:db8:1:2::/64"); anything else (a Unix socket's "") as it is."""
    try:
        address = ipaddress.ip_address(ip)
    except ValueError:
        return ip
    if address.version == 6 and address.ipv4_mapped is not None:
        return str(address.ipv4_mapped)
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/{IPV6_CALLER_PREFIX}", strict=False))
    return str(address)


def peer_name(ip: str) -> str:
    """An address written the way gRPC writes peers, without the port:
    "ipv4:127.0.0.1", "ipv6:[::1]"."""
    try:
        parsed = ipaddress.ip_address(ip)
    except ValueError:
        return ip
    return f"ipv4:{parsed}" if parsed.version == 4 else f"ipv6:[{parsed}]"


def ip_of(peer: str) -> str:
    """The bare IP of a gRPC peer ("ipv4:1.2.3.4:5", "ipv6:[::1]:5"), "" for others (unix sockets)."""
    kind, _, rest = peer.partition(":")
    if kind == "ipv4":
        return rest.rsplit(":", 1)[0]
    if kind == "ipv6":
        return rest.rsplit(":", 1)[0].strip("[]") if "]" in rest else rest.strip("[]")
    return ""


def _trusted(ip: str, proxies: tuple[Network, ...]) -> bool:
    try:
        address = ipaddress.ip_address(ip)
    except ValueError:
        return False
    return any(address in network for network in proxies)


def behind_proxies(direct_ip: str, forwarded_for: str | None, proxies: tuple[Network, ...]) -> str:
    """The client's IP: ``direct_ip``, or when that is a listed proxy, the
    last X-Forwarded-For hop that is not one (earlier hops are whatever the
    client wrote and prove nothing)."""
    if not proxies or not forwarded_for or not _trusted(direct_ip, proxies):
        return direct_ip
    hops = [hop.strip() for hop in forwarded_for[:1024].split(",")]
    for hop in reversed(hops):
        if not _trusted(hop, proxies):
            try:
                return str(ipaddress.ip_address(hop))
            except ValueError:
                return direct_ip  # garbage from a proxy we trust: fall back to the proxy itself
    return direct_ip


class PeerResolver:
    """``spliced``: the client behind a peer of grpc's that is the host's own
    connection guard splicing a client's connection (ops/grpc_front.py), else None."""

    def __init__(self, gateway_key: str = "", trusted_proxies: tuple[Network, ...] = (),
                 spliced: Callable[[str], str | None] | None = None) -> None:
        self.gateway_key = gateway_key.encode()
        self.trusted_proxies = trusted_proxies
        self.spliced = spliced

    def address(self, context) -> str:
        """The caller's address without its port, e.g. "ipv4:127.0.0.1"."""
        peer = context.peer() or ""
        if self.spliced is not None:
            client = self.spliced(peer)
            if client is not None:
                peer = client
        forwarded = key = forwarded_for = None
        for item in context.invocation_metadata() or ():
            if item.key == FORWARDED_PEER:
                forwarded = item.value
            elif item.key == GATEWAY_KEY:
                key = item.value
            elif item.key == FORWARDED_FOR:
                forwarded_for = item.value
        if forwarded and key and self.gateway_key and hmac.compare_digest(key.encode(), self.gateway_key):
            return forwarded[:64]
        if self.trusted_proxies and forwarded_for:
            direct_ip = ip_of(peer)
            if direct_ip:
                return peer_name(behind_proxies(direct_ip, forwarded_for, self.trusted_proxies))
        # Most calls: no proxy to consider, and the port is all there is to take off.
        return peer.rsplit(":", 1)[0] if peer.count(":") > 1 else peer
