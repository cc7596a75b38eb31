"""A worker process's main loop: ``python -m gamehost.host.workers.worker``.

Started by the host's pool as a fresh interpreter. It loads the installed
game plugins, then answers one request at a time from stdin on stdout. It
runs under a memory limit (RLIMIT_AS) and dies with the host (PDEATHSIG).
"""

from __future__ import annotations

import argparse
import ctypes
import os
import resource
import signal
import sys

from gamehost.host.workers import wire

PR_SET_PDEATHSIG = 1


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


def _wire_streams():
    """Keep stdin and stdout for frames, and send what plugins print to
    stderr: a stray print must not corrupt the channel."""
    wire_in = os.fdopen(os.dup(0), "rb", buffering=0)
    wire_out = os.fdopen(os.dup(1), "wb", buffering=0)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(2, 1)
    return wire_in, wire_out


def _read_exactly(stream, size: int) -> bytes | None:
    chunks, missing = [], size
    while missing:
        chunk = stream.read(missing)
        if not chunk:
            return None
        chunks.append(chunk)
        missing -= len(chunk)
    return b"".join(chunks)


def _load_rules():
    from gamehost.host.bots import BUILTIN_BOTS
    from gamehost.host.plugins import load_catalog

    catalog = load_catalog()
    bots = {}
    hook = catalog.plugin_manager.hook
    for impl in hook.gamehost_bots.get_hookimpls():
        try:
            offered = dict(impl.function() or {})
        except Exception:  # the host logs it when it collects the same bots
            continue
        for name, bot in offered.items():
            bots.setdefault(name, bot)
    bots.update(BUILTIN_BOTS)
    return catalog.all_rules(), bots, catalog.clock_rule()


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
    from gamehost.host.workers.resident import ResidentMatches

    from gamehost.host.collector import settle_after_start

    games, bots, clock_rule = _load_rules()
    table = ResidentMatches(games, bots, clock_rule=clock_rule)
    # A full collection walks every resident match's state and holds every
    # request queued here: the plugins' modules frozen, full collections rare.
    settle_after_start()
    _limit_memory(args.memory_mb)  # after the imports: the limit is for the matches
    while True:
        header = _read_exactly(wire_in, wire.HEADER.size)
        if header is None:
            return 0
        body = _read_exactly(wire_in, wire.body_length(header))
        if body is None:
            return 0
        request = wire.decode(body)
        try:
            answer = table.handle(request)
            message = wire.frame(answer)
        except MemoryError:
            table.held.clear()
            message = wire.frame({"error": "memory"})
            wire_out.write(message)
            return 3  # the heap may be fragmented beyond use: the host starts a fresh worker
        except wire.FrameTooLarge as error:
            message = wire.frame({"error": "plugin", "hook": request.get("op", ""), "message": str(error)})
        except (TypeError, ValueError) as error:  # not JSON-shaped: the plugin broke the contract
            table.held.pop(request.get("match", ""), None)
            message = wire.frame({"error": "plugin", "hook": request.get("op", ""),
                                  "message": f"answer is not JSON-shaped: {error}"})
        wire_out.write(message)


if __name__ == "__main__":
    sys.exit(main())
