"""A worker process's main loop: ``python -m gamehost.host.workers.worker``.

Started by the host's pool as a fresh interpreter. It loads the installed
game plugins, then answers requests from stdin on stdout: plain calls one at
a time, in order, and bots' thinks in slices between them (``serve``). It
runs under a memory limit (RLIMIT_AS) and dies with the host (PDEATHSIG).
"""

from __future__ import annotations

import argparse
import ctypes
import os
import resource
import select
import signal
import sys
import time
from collections import deque
from typing import IO, Any, Callable, Mapping, cast

from gamehost.host.collector import QUIET_CHECK, QuietCollector
from gamehost.host.workers import messages, wire, worker_spans
from gamehost.host.workers.choosing import Choosing
from gamehost.host.workers.messages import Request
from gamehost.host.workers.resident import ResidentMatches

PR_SET_PDEATHSIG = 1
SLICE = 0.002  # seconds of a think between looks at the pipe: the most a plain call waits for a think
READ_SIZE = 1 << 20


def _die_with_parent() -> None:
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux: the closed pipe ends the worker instead
        pass
    if os.getppid() == 1:  # the host died before the call above
        os._exit(1)


def _limit_memory(megabytes: int) -> None:
    if megabytes > 0:
        limit = megabytes << 20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _wire_streams() -> tuple[IO[bytes], IO[bytes]]:
    """Keep stdin and stdout for frames, and send what plugins print to
    stderr: a stray print must not corrupt the channel."""
    wire_in = os.fdopen(os.dup(0), "rb", buffering=0)
    wire_out = os.fdopen(os.dup(1), "wb", buffering=0)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(2, 1)
    return wire_in, wire_out


class FrameReader:
    """Frames from the host, taken as they arrive: between slices of a bot's
    think the worker takes what has come without waiting for more."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.fd = stream.fileno()
        self.buffer = bytearray()
        self.closed = False  # the host closed the pipe: no more requests

    def frames(self, wait: bool, quiet: Callable[[], Any] | None = None) -> list[bytes]:
        """The whole frames arrived; with ``wait``, at least one unless the pipe closed,
        calling ``quiet`` every ``QUIET_CHECK`` seconds that nothing comes."""
        while not self.closed:
            if not wait and not select.select([self.fd], [], [], 0)[0]:
                break
            if wait and quiet is not None:
                while not select.select([self.fd], [], [], QUIET_CHECK)[0]:
                    quiet()
            chunk = os.read(self.fd, READ_SIZE)
            if not chunk:
                self.closed = True
                break
            self.buffer += chunk
            if wait and self._complete():
                break
        found = []
        while self._complete():
            length = wire.body_length(bytes(self.buffer[:wire.HEADER.size]))
            found.append(bytes(self.buffer[wire.HEADER.size:wire.HEADER.size + length]))
            del self.buffer[:wire.HEADER.size + length]
        return found

    def _complete(self) -> bool:
        buffer = self.buffer
        return (len(buffer) >= wire.HEADER.size
                and len(buffer) >= wire.HEADER.size + wire.body_length(bytes(buffer[:wire.HEADER.size])))


class OutOfMemory(Exception):
    """A request ran out of memory: the worker answers so and exits."""


def _guarded(table: ResidentMatches, work: Callable[[], Any]) -> Any:
    """``work()``; out of memory, the held matches are let go first."""
    try:
        return work()
    except MemoryError:
        table.held.clear()
        raise OutOfMemory() from None


def _framed(table: ResidentMatches, request: Mapping[str, Any], answer: Mapping[str, Any]) -> bytes:
    """The answer to ``request`` as a frame naming its id; an answer the wire
    does not take is the plugin's error."""
    message = cast(dict[str, Any], answer)  # the message is the frame's document: the id joins it
    message["id"] = request.get("id")
    try:
        return _guarded(table, lambda: wire.frame(message))
    except wire.FrameTooLarge as error:
        refusal = str(error)
    except (TypeError, ValueError) as error:  # not JSON-shaped: the plugin broke the contract
        table.held.pop(request.get("match", ""), None)
        refusal = f"answer is not JSON-shaped: {error}"
    failure: messages.PluginError = {"error": "plugin", "hook": request.get("op", ""), "message": refusal}
    return _framed_as_is(failure, request.get("id"))


def _framed_as_is(answer: Mapping[str, Any], request_id: Any) -> bytes:
    """A message of the worker's own (never the plugin's data) as a frame naming ``request_id``."""
    return wire.frame({**answer, "id": request_id})


def _answered(table: ResidentMatches, request: dict[str, Any]) -> Any:
    """The table's answer to ``request``; with the worker's span of it when
    the host sent the trace context of a sampled span."""
    if "traceparent" in request:
        return worker_spans.traced(request, lambda: table.handle(cast(Request, request)))
    return table.handle(cast(Request, request))


def serve(table: ResidentMatches, wire_in: IO[bytes], wire_out: IO[bytes]) -> int:
    """Answer requests until the host closes the pipe. Plain calls are
    answered in the order they came; a search bot's think is acknowledged in
    that order (``thinking``), then runs in slices of ``SLICE`` seconds,
    round-robin with the other thinks, and is answered when it ends (at its
    own deadline); what arrived meanwhile is answered between slices."""
    reader = FrameReader(wire_in)
    # The memory a busy spell leaves (its garbage in cycles, the allocator's free memory) given back once
    # no request has come for a while, as in the serving process.
    collector = QuietCollector()
    thinking: deque[tuple[dict[str, Any], Choosing]] = deque()
    request: dict[str, Any] = {}
    try:
        while True:
            for body in reader.frames(wait=not thinking, quiet=collector.look):
                request = wire.decode(body)
                if thinking:  # the host starts this call's deadline now, not during a slice before
                    started: messages.Started = {"started": True}
                    wire_out.write(_framed_as_is(started, request.get("id")))
                answer = _guarded(table, lambda: _answered(table, request))
                if isinstance(answer, Choosing):
                    thinking.append((request, answer))
                    acknowledged: messages.Thinking = {"thinking": True}
                    wire_out.write(_framed_as_is(acknowledged, request.get("id")))
                else:
                    wire_out.write(_framed(table, request, answer))
            if not thinking:
                if reader.closed:
                    return 0
                continue
            request, choosing = thinking.popleft()
            until = time.monotonic() + SLICE
            answer = _guarded(table, lambda: choosing.run(until))
            if answer is None:
                thinking.append((request, choosing))
            else:
                wire_out.write(_framed(table, request, answer))
    except OutOfMemory:
        out_of_memory: messages.OutOfMemory = {"error": "memory"}
        wire_out.write(_framed_as_is(out_of_memory, request.get("id")))
        return 3  # the heap may be fragmented beyond use: the host starts a fresh worker


def _load_rules() -> tuple[Mapping[str, Any], dict[str, Any], Callable[..., Any] | None, Callable[..., Any] | None]:
    from gamehost.host.bots import BUILTIN_BOTS
    from gamehost.host.plugins import load_catalog

    catalog = load_catalog()
    bots: dict[str, Any] = {}
    assert catalog.plugin_manager is not None  # load_catalog always makes one
    hook = catalog.plugin_manager.hook
    for impl in hook.gamehost_bots.get_hookimpls():
        try:
            offered = dict(cast(Mapping[str, Any], impl.function() or {}))
        except Exception:  # the host logs it when it collects the same bots
            continue
        for name, bot in offered.items():
            bots.setdefault(name, bot)
    bots.update(BUILTIN_BOTS)
    return catalog.all_rules(), bots, catalog.clock_rule(), catalog.resign_rule()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--memory-mb", type=int, default=0)
    args = parser.parse_args(argv)
    _die_with_parent()
    # The host decides when workers stop, also when a supervisor signals the
    # whole process group: in-flight calls finish within the host's grace.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    wire_in, wire_out = _wire_streams()
    import logging

    import structlog
    # The host logs what the worker would (plugins skipped, ...): keep quiet.
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.CRITICAL),
                        logger_factory=structlog.PrintLoggerFactory(sys.stderr))
    from gamehost.host.collector import settle_after_start

    games, bots, clock_rule, resign_rule = _load_rules()
    table = ResidentMatches(games, bots, clock_rule=clock_rule, resign_rule=resign_rule, slices=True)
    # A full collection walks every resident match's state and holds every
    # request queued here: the plugins' modules frozen, full collections rare.
    settle_after_start()
    _limit_memory(args.memory_mb)  # after the imports: the limit is for the matches
    return serve(table, wire_in, wire_out)

if __name__ == "__main__":
    sys.exit(main())
