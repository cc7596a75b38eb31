"""The caller of a call a sibling forwarded (forwarding.py), as the sibling
admitted it.

The process that received the call has already passed it through the gate:
authenticated the caller, checked the request against the input limits and
spent the caller's budget. The owner does not do it again: a second
authentication would cost a JWT check per call, and a second charge would
spend each call twice. It takes the caller from a header its sibling sets,
on a server that listens only on the group's private Unix socket (a
directory of mode 0700: only the host's own user can connect).
"""

from __future__ import annotations

import json

from gamehost.host import errors
from gamehost.host.auth import Principal
from gamehost.host.rpc.gate import Gate, call_metadata

FORWARDED_CALLER = "x-gamehost-forwarded-caller"


def encode_caller(caller: Principal) -> str:
    return json.dumps({"subject": caller.subject, "display_name": caller.display_name,
                       "roles": sorted(caller.roles), "method": caller.method, "peer": caller.peer},
                      separators=(",", ":"), ensure_ascii=True)


def decode_caller(text: str) -> Principal:
    fields = json.loads(text)
    return Principal(subject=fields["subject"], display_name=fields["display_name"],
                     roles=frozenset(fields["roles"]), method=fields["method"], peer=fields["peer"])


class SiblingGate(Gate):
    """The gate of the Unix-socket server: the caller a sibling admitted."""

    async def admit(self, method: str, request, context) -> Principal:
        text = call_metadata(context).get(FORWARDED_CALLER)
        if text is None:
            raise errors.Unauthenticated("Calls on a serving group's socket come from its processes only.",
                                         "NOT_FORWARDED")
        return decode_caller(text)

    def admit_message(self, method: str, request, caller: Principal) -> None:
        # Session streams are not forwarded (forwarding.py); were one to come, its messages pass the gate.
        super().admit_message(method, request, caller)
