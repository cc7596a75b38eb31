"""What every call passes before the engine: who is calling, whether that
caller may call now, and whether the request is within the host's limits.

The servicer's decorators call ``Gate.admit`` first; a refusal there ends
the call with its status and reaches neither the engine nor the store.
"""

from __future__ import annotations

from gamehost.host import errors
from gamehost.host.auth import ADMIN, Principal
from gamehost.host.auth.authenticator import AuthSettings, Authenticator
from gamehost.host.auth.gateway_peer import forwarded_peer

# Methods only some roles may call (the GameHostAdmin service).
REQUIRED_ROLES = {method: ADMIN for method in ("AbortMatch", "DeleteMatch", "AssignBot", "ResumeMatch")}


def peer_address(context) -> str:
    """The caller's address without its port, e.g. "ipv4:127.0.0.1"."""
    peer = context.peer() or ""
    return peer.rsplit(":", 1)[0] if peer.count(":") > 1 else peer


def call_metadata(context) -> dict[str, str]:
    """The call's text metadata, keys in lower case (gRPC sends them so)."""
    return {key.lower(): value for key, value in (context.invocation_metadata() or ())
            if isinstance(value, str)}


class Gate:
    def __init__(self, authenticator: Authenticator | None = None) -> None:
        self.authenticator = authenticator or Authenticator(AuthSettings())

    async def admit(self, method: str, request, context) -> Principal:
        """The caller of ``method``, once it may go on; raises a HostError otherwise."""
        metadata = call_metadata(context)
        caller = await self.authenticator.authenticate(metadata, forwarded_peer(metadata) or peer_address(context))
        self.authorize(method, caller)
        return caller

    @staticmethod
    def authorize(method: str, caller: Principal) -> None:
        """Refuse a caller who lacks the role ``method`` needs: UNAUTHENTICATED
        when anonymous (signing in may help), PERMISSION_DENIED otherwise."""
        role = REQUIRED_ROLES.get(method)
        if role is None or role in caller.roles:
            return
        if caller.anonymous:
            raise errors.Unauthenticated(f"{method} needs the {role!r} role: sign in (authorization: Bearer ...).",
                                         "AUTHENTICATION_REQUIRED", metadata=errors.metadata_of(role=role))
        raise errors.PermissionDenied(f"{method} needs the {role!r} role, which {caller.subject[:64]!r} lacks.",
                                      "ROLE_REQUIRED", metadata=errors.metadata_of(role=role, method=method))
