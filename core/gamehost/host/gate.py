"""What every call passes before the engine: who is calling, whether that
caller may call now, and whether the request is within the host's limits.

The servicer's decorators call ``Gate.admit`` first; a refusal there ends
the call with its status and reaches neither the engine nor the store.
"""

from __future__ import annotations

from gamehost.host.auth import Principal, anonymous
from gamehost.host.limits import DEFAULT_LIMITS, InputLimits, check_request
from gamehost.host.wire import Undecodable


def peer_address(context) -> str:
    """The caller's address without its port, e.g. "ipv4:127.0.0.1"."""
    peer = context.peer() or ""
    return peer.rsplit(":", 1)[0] if peer.count(":") > 1 else peer


class Gate:
    def __init__(self, limits: InputLimits = DEFAULT_LIMITS) -> None:
        self.limits = limits

    async def admit(self, method: str, request, context) -> Principal:
        """The caller of ``method``, once it may go on; raises a HostError otherwise."""
        self.check_input(request)
        return anonymous(peer_address(context))

    def check_input(self, request) -> None:
        """The request decoded and within every input limit (limits.py)."""
        if isinstance(request, Undecodable):
            raise request.error()
        check_request(request, self.limits)
