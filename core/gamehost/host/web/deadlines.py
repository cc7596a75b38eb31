"""Client deadlines from the browser protocols' headers, in seconds."""

from __future__ import annotations

import re

import grpc

from gamehost.host.errors import shown
from gamehost.host.web.upstream import Failure

GRPC_TIMEOUT_UNITS = {"H": 3600.0, "M": 60.0, "S": 1.0, "m": 1e-3, "u": 1e-6, "n": 1e-9}
# grpc holds a deadline only so far ahead: 2**31 s from now works, 10**10 s expires at once (measured with
# grpcio 1.85), and the headers allow up to 11,400 years. A timeout past a year is no deadline at all.
LONGEST_TIMEOUT = 365 * 24 * 3600.0


def _no_longer_than_grpc_keeps(seconds: float) -> float | None:
    return seconds if seconds <= LONGEST_TIMEOUT else None


def _invalid(header: str, text: str) -> Failure:
    return Failure.local(grpc.StatusCode.INVALID_ARGUMENT, f"{header}: {shown(text)} is not a valid timeout.",
                         "INVALID_TIMEOUT", field=header)


def connect_timeout(text: str | None) -> float | None:
    """Connect-Timeout-Ms: at most 10 digits of milliseconds."""
    if text is None:
        return None
    if not re.fullmatch(r"[0-9]{1,10}", text):
        raise _invalid("Connect-Timeout-Ms", text)
    return _no_longer_than_grpc_keeps(int(text) / 1000)


def grpc_timeout(text: str | None) -> float | None:
    """grpc-timeout: at most 8 digits and a unit (H, M, S, m, u, n)."""
    if text is None:
        return None
    found = re.fullmatch(r"([0-9]{1,8})([HMSmun])", text)
    if not found:
        raise _invalid("grpc-timeout", text)
    return _no_longer_than_grpc_keeps(int(found.group(1)) * GRPC_TIMEOUT_UNITS[found.group(2)])
