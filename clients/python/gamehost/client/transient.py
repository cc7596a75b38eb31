"""Which failed calls are worth the same call again later: the connection
failed, not the request (docs/protocol.md, "Errors")."""

from __future__ import annotations

import grpc

# Without an ErrorInfo reason these come from the network or grpc itself (a
# reset connection, grpc's queue of calls not taken up), not from the host's checks.
TRANSIENT_CODES = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.UNKNOWN, grpc.StatusCode.CANCELLED,
                             grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.INTERNAL,
                             grpc.StatusCode.ABORTED})


def is_transient(error) -> bool:
    """True when the same call may work later (``error``: a GameHostError). A
    host that gave a reason refused the request itself, except
    TOO_MANY_WATCHERS, which lifts when another watcher leaves."""
    if error.reason == "TOO_MANY_WATCHERS":
        return True
    return not error.reason and error.code in TRANSIENT_CODES
