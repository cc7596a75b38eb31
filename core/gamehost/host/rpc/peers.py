"""Which network address a call comes from, and the network whose budget
it spends (QuotaNetworks), for its quotas.

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


class QuotaNetworks:
    """Which callers share a budget: those in one network of ``ipv4_prefix``
    (IPv4) or ``ipv6_prefix`` (IPv6) bits. One subscriber gets a whole IPv6
    /64, so counting each IPv6 address apart would give one person 2^64
    budgets; IPv4 addresses are scarce, so /32 by default."""

    def __init__(self, ipv4_prefix: int = 32, ipv6_prefix: int = 64) -> None:
        self.ipv4_prefix = ipv4_prefix
        self.ipv6_prefix = ipv6_prefix

    def of(self, name: str) -> str:
        """The budget's name for a caller's address ("ipv4:1.2.3.4",
        "ipv6:[2001:db8::1]"): the address itself, or its network written
        with the prefix length ("ipv6:[2001:db8::]/64"); other names as they are."""
        kind, _, rest = name.partition(":")
        if kind == "ipv4" and self.ipv4_prefix == 32 or kind not in ("ipv4", "ipv6"):
            return name  # most calls: the address is the budget's name
        try:
            address: ipaddress.IPv4Address | ipaddress.IPv6Address = ipaddress.ip_address(rest.strip("[]"))
        except ValueError:
            return name
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
            address = address.ipv4_mapped  # an IPv4 client of a dual-stack socket
        prefix = self.ipv4_prefix if address.version == 4 else self.ipv6_prefix
        if prefix >= address.max_prefixlen:
            return peer_name(str(address))
        network = ipaddress.ip_network(f"{address}/{prefix}", strict=False)
        return f"{peer_name(str(network.network_address))}/{prefix}"


class PeerResolver:
    """Which address a call comes from, and the budget it spends.
    ``networks``: how addresses group into one caller's network;
    ``spliced``: the client behind a peer of grpc's that is the host's own
    connection guard splicing a client's connection (ops/grpc_front.py), else None."""

    def __init__(self, gateway_key: str = "", trusted_proxies: tuple[Network, ...] = (),
                 networks: QuotaNetworks | None = None,
                 spliced: Callable[[str], str | None] | None = None) -> None:
        self.gateway_key = gateway_key.encode()
        self.trusted_proxies = trusted_proxies
        self.networks = networks or QuotaNetworks()
        self.spliced = spliced

    def address(self, context) -> str:
        """Whose budget the caller spends: its address without the port,
        e.g. "ipv4:127.0.0.1", or the network it shares a budget with,
        e.g. "ipv6:[2001:db8::]/64"."""
        return self.networks.of(self._address(context))

    def _address(self, context) -> str:
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
