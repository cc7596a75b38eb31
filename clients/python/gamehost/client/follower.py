"""Follows one match live across dropped streams: WatchMatch from the last
version seen, reopened after a transient failure with exponential back-off,
each event delivered once, in version order, until the match ends."""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass
from typing import Callable, Iterator, Protocol

import grpc

from gamehost.client.errors import GameHostError
from gamehost.client.names import match_name
from gamehost.client.transient import is_transient
from gamehost.client.view_patching import PatchOutOfStep, PatchedViews
from gamehost.v1 import gamehost_pb2 as pb

FINAL_KINDS = frozenset({pb.EVENT_KIND_FINISHED, pb.EVENT_KIND_ABANDONED, pb.EVENT_KIND_ABORTED})
OVER = frozenset({pb.MATCH_STATUS_FINISHED, pb.MATCH_STATUS_ABANDONED, pb.MATCH_STATUS_ABORTED})


class MatchSource(Protocol):
    """What the follower calls on its client (a GameHostClient)."""

    def open_watch(self, match: str, token: str = "", *, after_version: int = 0,
                   render: pb.RenderOptions | None = None, invitation_code: str = "", view_patches: bool = False): ...

    def match(self, match: str, *, invitation_code: str = "") -> pb.Match: ...


@dataclass(frozen=True)
class RetryPolicy:
    """The wait before reopening starts at ``first_delay`` seconds and doubles
    per failed attempt up to ``max_delay`` (each ±25 %); after ``attempts``
    reopenings in a row that failed, the follower gives up. A stream that
    delivered an event, or stayed open ``max_delay`` seconds, was no failure."""

    first_delay: float = 0.5
    max_delay: float = 8.0
    attempts: int = 10

    def delay(self, attempt: int) -> float:
        return min(self.max_delay, self.first_delay * 2 ** (attempt - 1)) * random.uniform(0.75, 1.25)


@dataclass(frozen=True)
class Resume:
    """What ``on_resume`` is told before each wait: the reopening about to be
    tried (from 1), the seconds until then, and why (None: the stream ended
    cleanly without the match ending, e.g. the host shut down)."""

    attempt: int
    delay: float
    error: GameHostError | None


@dataclass
class FollowGaveUp(GameHostError):
    """The follower reopened ``attempts`` times in a row without success; the
    code and reason are those of the last failure."""

    attempts: int = 0
    last_error: GameHostError | None = None


class MatchFollower:
    """Iterate for the events after ``after_version``. Stops after a final
    event (FINISHED, ABANDONED, ABORTED), at once for a match already over,
    or quietly when the caller breaks out or calls ``stop()`` (from any
    thread). A refusal by the host (a reason other than TOO_MANY_WATCHERS,
    NOT_FOUND...) is raised as GameHostError at once; FollowGaveUp when
    the retries run out."""

    def __init__(self, client: MatchSource, match: str, token: str = "", *, after_version: int = 0,
                 text: bool = False, svg: bool = False, retry: RetryPolicy = RetryPolicy(),
                 on_resume: Callable[[Resume], None] | None = None, invitation_code: str = "",
                 view_patches: bool = False) -> None:
        self.client, self.match, self.token = client, match_name(match), token
        self.invitation_code = invitation_code
        self.last_version = after_version
        self.render = pb.RenderOptions(text=text, svg=svg)
        self.retry, self.on_resume = retry, on_resume
        self.resumes = 0  # streams reopened after a failure: observability
        # Views as changes: the host sends each view after a stream's first as a patch, made whole here.
        self.patched: PatchedViews | None = PatchedViews() if view_patches else None
        self._stopped = threading.Event()
        self._stream = None

    def stop(self) -> None:
        self._stopped.set()
        stream = self._stream
        if stream is not None:
            stream.cancel()

    def __iter__(self) -> Iterator[pb.MatchEvent]:
        failures, first, last_failure = 0, True, None
        while not self._stopped.is_set():
            if not first:
                if failures > self.retry.attempts:
                    raise self._gave_up(failures - 1, last_failure)
                delay = self.retry.delay(failures)
                if self.on_resume:
                    self.on_resume(Resume(failures, delay, last_failure))
                if self._stopped.wait(delay):
                    return
                self.resumes += 1
            first = False
            opened, delivered = time.monotonic(), False
            try:
                for event in self._events():
                    if self.patched is not None:
                        self.patched.whole(event)  # also for a repeat: the next patch may start from it
                    if event.version <= self.last_version:
                        continue  # a repeat across a reopening: never delivered twice
                    self.last_version, delivered = event.version, True
                    yield event
                    if event.kind in FINAL_KINDS:
                        return
                last_failure = None  # ended cleanly: the match was over already, or the host closed
                if self._over_by_now():
                    return
            except GameHostError as error:
                if self._stopped.is_set():
                    return
                if not is_transient(error):
                    raise
                last_failure = error
            except PatchOutOfStep as error:  # never from this host; a new stream starts with a whole view
                last_failure = GameHostError(grpc.StatusCode.DATA_LOSS, str(error))
            healthy = delivered or time.monotonic() - opened >= self.retry.max_delay
            failures = 1 if healthy else failures + 1

    def _events(self) -> Iterator[pb.MatchEvent]:
        if self.patched is not None:
            self.patched.reset()
        self._stream = stream = self.client.open_watch(self.match, self.token, after_version=self.last_version,
                                                       render=self.render, invitation_code=self.invitation_code,
                                                       view_patches=self.patched is not None)
        try:
            if self._stopped.is_set():  # stop() ran before the stream was there to cancel
                return
            yield from stream
        except grpc.RpcError as error:
            raise GameHostError.from_rpc_error(error) from None
        finally:
            stream.cancel()
            self._stream = None

    def _over_by_now(self) -> bool:
        """After a clean end without a final event: the match is over and no
        event is missing (nothing later than what was seen)."""
        try:
            match = self.client.match(self.match, invitation_code=self.invitation_code)
        except GameHostError as error:
            if is_transient(error):
                return False
            raise
        return match.status in OVER and match.version <= self.last_version

    def _gave_up(self, attempts: int, last: GameHostError | None) -> FollowGaveUp:
        why = str(last) if last else "the stream kept ending without the match ending"
        return FollowGaveUp(last.code if last else grpc.StatusCode.UNAVAILABLE,
                            f"gave up following {self.match} after {attempts} reconnection attempts "
                            f"(last version seen: {self.last_version}); last error: {why}",
                            reason=last.reason if last else "", metadata=dict(last.metadata) if last else {},
                            attempts=attempts, last_error=last)
