"""What every call passes before the engine: who is calling, whether that
caller may call now, and whether the request is within the host's limits.

The servicer's decorators call ``Gate.admit`` first; a refusal there ends
the call with its status and reaches neither the engine nor the store.
"""

from __future__ import annotations

from gamehost.host.auth import Principal, anonymous
from gamehost.host.peers import PeerResolver
from gamehost.host.quotas import WATCH, QuotaLimits, Quotas


def peer_address(context) -> str:
    """The caller's address without its port, e.g. "ipv4:127.0.0.1"."""
    peer = context.peer() or ""
    return peer.rsplit(":", 1)[0] if peer.count(":") > 1 else peer


class Gate:
    def __init__(self, quotas: Quotas | None = None, peers: PeerResolver | None = None) -> None:
        self.quotas = quotas or Quotas(QuotaLimits(call_rate=0, create_rate=0, watchers_per_caller=0, watchers=0))
        self.peers = peers or PeerResolver()

    async def admit(self, method: str, request, context) -> Principal:
        """The caller of ``method``, once it may go on; raises a HostError otherwise."""
        caller = anonymous(self.peers.address(context))
        self.limit(method, caller, context)
        return caller

    def limit(self, method: str, caller: Principal, context) -> None:
        """The quota step: spend the caller's budget; a watch stream also
        holds one of the caller's streams until it ends, however it ends."""
        self.quotas.charge(method, caller)
        if method == WATCH:
            context.add_done_callback(self.quotas.watch(caller))
