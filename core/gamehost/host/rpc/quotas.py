"""Per-caller budgets: token buckets for calls, and caps on the streams a
caller holds open, of every kind (watches, Session streams, health watches,
reflection streams), keyed by ``Principal.quota_key`` (the user, else the
address). A stream costs the host memory for as long as it is open, however
little it sends, so each kind is capped per caller and on the host.

Budgets live in this process: replicas behind one load balancer each keep
their own, so a caller spread over N replicas gets up to N times the rate.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from dataclasses import dataclass

from gamehost.host.auth import Principal
from gamehost.host.errors import ResourceExhausted, metadata_of

# Calls that make something new (a match, a seat) spend the stricter budget.
CREATING = frozenset({"CreateMatch", "JoinMatch", "Rematch", "CreateTicket"})
WATCH = "WatchMatch"
# The kinds of stream a caller may hold open, each under its own caps.
WATCHES, SESSIONS, HEALTH_WATCHES, REFLECTION = "watch", "session", "health_watch", "reflection"
# The stream methods and the kind of stream each holds while open (Session's
# watches each hold a watch as well; a remote agent's stream counts as a Session).
STREAM_KINDS = {WATCH: WATCHES, "WatchTicket": WATCHES, "Session": SESSIONS, "ServeAgent": SESSIONS,
                "Watch": HEALTH_WATCHES, "ServerReflectionInfo": REFLECTION}


@dataclass(frozen=True)
class QuotaLimits:
    call_rate: float = 50.0        # calls per second per caller; 0: no limit
    call_burst: float = 200.0      # calls a quiet caller may make at once
    create_rate: float = 2.0       # CreateMatch/JoinMatch per second per caller; 0: no limit
    create_burst: float = 40.0
    watchers_per_caller: int = 64  # open WatchMatch streams per caller; 0: no limit
    watchers: int = 10_000         # open WatchMatch streams on this host; 0: no limit
    sessions_per_caller: int = 16  # open Session streams per caller; 0: no limit
    sessions: int = 10_000         # open Session streams on this host; 0: no limit
    session_idle: float = 30.0     # seconds a Session stream may stay open with no request and no watch; 0: ever
    probe_streams_per_caller: int = 4  # open health Watch streams, and reflection streams, per caller; 0: no limit
    probe_streams: int = 1_000     # open health Watch streams, and reflection streams, on this host; 0: no limit
    tracked_callers: int = 100_000  # buckets kept; the least recently used go first
    admins_exempt: bool = True     # admins skip the per-caller budgets, not the host's watcher cap


class TokenBuckets:
    """One bucket per key, at most ``capacity`` of them. Dropping the least
    recently used bucket loses nothing an idle caller had not already
    regained: a bucket idle for burst/rate seconds is full again anyway."""

    def __init__(self, rate: float, burst: float, capacity: int, clock=time.monotonic) -> None:
        self.rate = rate
        self.burst = max(burst, 1.0)
        self.capacity = capacity
        self.clock = clock
        self._buckets: OrderedDict[str, list[float]] = OrderedDict()  # key -> [tokens, last refill]

    def __len__(self) -> int:
        return len(self._buckets)

    def take(self, key: str) -> float:
        """0 when a token was taken; else the seconds until one is there."""
        now = self.clock()
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self.capacity:
                self._buckets.popitem(last=False)
            bucket = self._buckets[key] = [self.burst, now]
        else:
            self._buckets.move_to_end(key)
            bucket[0] = min(self.burst, bucket[0] + (now - bucket[1]) * self.rate)
            bucket[1] = now
        if bucket[0] >= 1.0:
            bucket[0] -= 1.0
            return 0.0
        return (1.0 - bucket[0]) / self.rate


@dataclass(frozen=True)
class StreamCap:
    """How many streams of one kind a caller, and the host, may hold open;
    ``caller_limit`` and ``host_limit`` name the caps in refusals' metadata."""

    label: str
    per_caller: int
    host: int
    caller_limit: str
    host_limit: str


def stream_caps(limits: QuotaLimits) -> dict[str, StreamCap]:
    return {
        WATCHES: StreamCap("WatchMatch streams", limits.watchers_per_caller, limits.watchers,
                           "watchers_per_caller", "watchers"),
        SESSIONS: StreamCap("Session streams", limits.sessions_per_caller, limits.sessions,
                            "sessions_per_caller", "sessions"),
        HEALTH_WATCHES: StreamCap("health Watch streams", limits.probe_streams_per_caller, limits.probe_streams,
                                  "probe_streams_per_caller", "probe_streams"),
        REFLECTION: StreamCap("reflection streams", limits.probe_streams_per_caller, limits.probe_streams,
                              "probe_streams_per_caller", "probe_streams"),
    }


class WatcherCount:
    """Open streams per key and in all; a key leaves the table at zero, so the
    table is never larger than the host-wide cap."""

    def __init__(self) -> None:
        self.total = 0
        self._by_key: dict[str, int] = {}

    def of(self, key: str) -> int:
        return self._by_key.get(key, 0)

    def add(self, key: str) -> None:
        self._by_key[key] = self._by_key.get(key, 0) + 1
        self.total += 1

    def remove(self, key: str) -> None:
        left = self._by_key.get(key, 0) - 1
        if left > 0:
            self._by_key[key] = left
        else:
            self._by_key.pop(key, None)
        self.total -= 1


def _exhausted(subject: str, description: str, retry_after: float | None, **metadata) -> ResourceExhausted:
    return ResourceExhausted(message=f"{description}.{'' if retry_after is None else f' Retry in {retry_after:.2f} s.'}",
                             reason="QUOTA_EXCEEDED", metadata=metadata_of(**metadata),
                             quota_violations=[(subject, description)], retry_after=retry_after)


class Quotas:
    """The gate's quota step: ``charge`` each call, and for a watch stream
    ``watch`` it, with a release to run when the stream ends."""

    def __init__(self, limits: QuotaLimits, clock=time.monotonic) -> None:
        self.limits = limits
        self.calls = TokenBuckets(limits.call_rate, limits.call_burst, limits.tracked_callers, clock) \
            if limits.call_rate > 0 else None
        self.creates = TokenBuckets(limits.create_rate, limits.create_burst, limits.tracked_callers, clock) \
            if limits.create_rate > 0 else None
        self.caps = stream_caps(limits)
        self.streams = {kind: WatcherCount() for kind in self.caps}

    def exempt(self, caller: Principal) -> bool:
        return self.limits.admins_exempt and caller.admin

    def charge(self, method: str, caller: Principal) -> None:
        """Spend one call of ``caller``'s budget; ResourceExhausted when empty."""
        if self.exempt(caller):
            return
        key = caller.quota_key
        if self.calls is not None:
            wait = self.calls.take(key)
            if wait:
                raise _exhausted(key, f"More than {self.limits.call_rate:g} calls per second "
                                      f"(bursts of {self.limits.call_burst:g})", _rounded(wait), limit="calls")
        if method in CREATING and self.creates is not None:
            wait = self.creates.take(key)
            if wait:
                raise _exhausted(key, f"More than {self.limits.create_rate:g} CreateMatch/JoinMatch calls per "
                                      f"second (bursts of {self.limits.create_burst:g})", _rounded(wait),
                                 limit="creates")

    def watch(self, caller: Principal):
        """Count one more open watch of ``caller``; returns the release."""
        return self.hold(WATCHES, caller)

    def hold(self, kind: str, caller: Principal):
        """Count one more open stream of ``kind`` held by ``caller``; returns
        the release (idempotent). ResourceExhausted when the caller or the
        host has no stream of that kind left."""
        key = caller.quota_key
        cap, count = self.caps[kind], self.streams[kind]
        if cap.host and count.total >= cap.host:
            raise _exhausted("host", f"This host already serves {cap.host} {cap.label}", 5.0,
                             limit=cap.host_limit)
        if cap.per_caller and not self.exempt(caller) and count.of(key) >= cap.per_caller:
            raise _exhausted(key, f"At most {cap.per_caller} open {cap.label} per caller; close one first",
                             None, limit=cap.caller_limit)
        count.add(key)
        released = False

        def release(*_) -> None:
            nonlocal released
            if not released:
                released = True
                count.remove(key)
        return release


def _rounded(seconds: float) -> float:
    """Retry delays to the millisecond, at least one."""
    return max(math.ceil(seconds * 1000) / 1000, 0.001)
