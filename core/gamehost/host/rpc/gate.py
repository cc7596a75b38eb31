"""What every call passes before the engine: who is calling, whether that
caller may call now, and whether the request is within the host's limits.

The servicers' methods call ``Gate.admit`` first (gated_methods.py); a
refusal there ends the call with its status and reaches neither the engine
nor the store.
"""

from __future__ import annotations

from gamehost.host import errors
from gamehost.host.auth import ADMIN, AGENT, Principal, anonymous
from gamehost.host.auth.authenticator import AuthSettings, Authenticator
from gamehost.host.auth.bans import BannedSubjects
from gamehost.host.rpc.limits import DEFAULT_LIMITS, InputLimits, check_request
from gamehost.host.rpc.peers import PeerResolver
from gamehost.host.rpc.quotas import STREAM_KINDS, QuotaLimits, Quotas
from gamehost.host.rpc.grpc_handlers import Undecodable

# Methods only some roles may call (the GameHostAdmin service; remote agents' stream).
REQUIRED_ROLES = {**{method: ADMIN for method in ("AbortMatch", "DeleteMatch", "AssignBot", "ResumeMatch",
                                                  "ListDeliveries", "RetryDelivery", "HideMessage", "BanUser",
                                                  "UnbanUser", "ListReports", "ListPlugins", "ListPools",
                                                  "GetMatchStrikes")},
                  "ServeAgent": AGENT}


def call_metadata(context) -> dict[str, str]:
    """The call's text metadata, keys in lower case (gRPC sends them so)."""
    return {key.lower(): value for key, value in (context.invocation_metadata() or ())
            if isinstance(value, str)}


class Gate:
    def __init__(self, authenticator: Authenticator | None = None, quotas: Quotas | None = None,
                 peers: PeerResolver | None = None, limits: InputLimits = DEFAULT_LIMITS,
                 bans: BannedSubjects | None = None) -> None:
        self.authenticator = authenticator or Authenticator(AuthSettings())
        self.quotas = quotas or Quotas(QuotaLimits(call_rate=0, create_rate=0, watchers_per_caller=0, watchers=0,
                                                   sessions_per_caller=0, sessions=0, session_idle=0,
                                                   probe_streams_per_caller=0, probe_streams=0))
        self.peers = peers or PeerResolver()
        self.limits = limits
        self.bans = bans or BannedSubjects()  # refused on every call, whatever their credentials

    async def admit(self, method: str, request, context) -> Principal:
        """The caller of ``method``, once it may go on; raises a HostError
        otherwise. A call refused for its input or its credentials spends
        its address's budget too, so refusals cannot be sent for free; an
        empty budget then answers RESOURCE_EXHAUSTED instead."""
        address = self.peers.address(context)
        try:
            self.check_input(request)
            caller = await self.authenticator.authenticate(call_metadata(context), address)
            self.bans.check(caller)
        except errors.HostError:
            self.quotas.charge(method, anonymous(address))
            raise
        self.authorize(method, caller)
        self.limit(method, caller, context)
        return caller

    def admit_probe(self, method: str, context) -> None:
        """A call of the standard services (health, reflection), which take
        no credentials: known by its address alone, it spends that address's
        budget, and a stream holds one of its streams of that kind."""
        self.limit(method, anonymous(self.peers.address(context)), context)

    def admit_message(self, method: str, request, caller: Principal) -> None:
        """One request on a stream whose caller was admitted when it opened
        (Session): within every input limit, and spent from the caller's
        budget as a call of ``method`` (SubmitMove, WatchMatch) would be."""
        self.check_input(request)
        self.bans.check(caller)  # banned while the stream was open
        self.authorize(method, caller)
        self.quotas.charge(method, caller)

    def check_input(self, request) -> None:
        """The request decoded and within every input limit (limits.py)."""
        if isinstance(request, Undecodable):
            raise request.error()
        check_request(request, self.limits)

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

    def limit(self, method: str, caller: Principal, context) -> None:
        """The quota step: spend the caller's budget; a stream also holds one
        of the caller's streams of its kind until it ends, however it ends."""
        self.quotas.charge(method, caller)
        kind = STREAM_KINDS.get(method)
        if kind is not None:
            context.add_done_callback(self.quotas.hold(kind, caller))
