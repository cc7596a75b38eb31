"""structlog set-up: console lines for a person at a terminal, JSON otherwise.

The libraries under the host log through the standard library (aiohttp,
asyncio, grpc's Python side): their records go through the same renderer, so
in JSON mode every line the host process writes is one JSON object, their
tracebacks inside it. grpc's C core writes its own lines to stderr, outside
any Python logging; docs/operations.md says how to silence them.
"""

from __future__ import annotations

import logging
import sys
from typing import TextIO, cast

import structlog
from aiohttp.http_exceptions import HttpProcessingError
from structlog.typing import EventDict, Processor, WrappedLogger

from gamehost.host.errors import shown
from gamehost.host.traces import add_trace_ids

LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING, "error": logging.ERROR}


class _CurrentStderr:
    """Writes to whatever ``sys.stderr`` is when a line is written, not when
    logging was configured: a command run in-process (a test capturing its
    output, an embedding program) may replace and close the stream it had,
    and a write to a closed stream would raise in the host's own tasks."""

    def __init__(self) -> None:
        self._pending = ""

    def write(self, text: str) -> int:
        # print() writes a line and its newline apart; a serving group's processes share one stderr,
        # so a line goes out in one write (atomic on a pipe up to 4 KiB), never mixed with a sibling's.
        self._pending += text
        if not self._pending.endswith("\n"):
            return len(text)
        line, self._pending = self._pending, ""
        sys.stderr.write(line)
        return len(text)

    def flush(self) -> None:
        sys.stderr.flush()


def _malformed_http_in_one_line(logger: WrappedLogger, method_name: str, event_dict: EventDict) -> EventDict:
    """aiohttp's server logs every request it cannot parse (a line past
    --max-line-size, a control byte in a header...) as an error with its
    traceback; it has already answered 400, and anyone can send such bytes,
    so it is one warning line naming what was wrong."""
    record = event_dict.get("_record")
    exc_info = event_dict.get("exc_info")
    error = exc_info[1] if isinstance(exc_info, tuple) else exc_info
    if record is None or not record.name.startswith("aiohttp.server") or not isinstance(error, HttpProcessingError):
        return event_dict
    del event_dict["exc_info"]
    peer = event_dict.get("positional_args") or ("",)
    return {**event_dict, "event": "malformed HTTP request refused", "level": "warning", "status": error.code,
            "error": type(error).__name__, "detail": shown(error.message.strip().split("\n")[0], 80),
            "peer": str(peer[0])}


def _drop_format_args(logger: WrappedLogger, method_name: str, event_dict: EventDict) -> EventDict:
    event_dict.pop("positional_args", None)  # already in the message
    return event_dict


class _LibraryRecords(logging.StreamHandler):
    """The handler ``configure`` installs on the root logger; configuring again replaces it."""


def _route_library_logs(timestamper: Processor, exc_processor: Processor, renderer: Processor, level: str) -> None:
    formatter = structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=[add_trace_ids, structlog.stdlib.add_log_level, structlog.stdlib.add_logger_name, timestamper,
                           _malformed_http_in_one_line, _drop_format_args],
        processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, exc_processor, renderer],
        pass_foreign_args=True)
    handler = _LibraryRecords(_CurrentStderr())
    handler.setFormatter(formatter)
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, _LibraryRecords)]:
        root.removeHandler(old)
    root.addHandler(handler)
    # The libraries' debug and info lines are about their internals (which selector asyncio chose...).
    root.setLevel(max(LEVELS[level], logging.WARNING))


def configure(log_format: str = "auto", level: str = "info") -> None:
    """``log_format``: "console", "json" or "auto" (console on a terminal)."""
    if log_format == "auto":
        log_format = "console" if sys.stderr.isatty() else "json"
    renderer = (structlog.dev.ConsoleRenderer() if log_format == "console"
                else structlog.processors.JSONRenderer())
    timestamper = structlog.processors.TimeStamper(fmt="iso", utc=True)
    exc_processor = structlog.processors.format_exc_info if log_format == "json" else structlog.dev.set_exc_info
    _route_library_logs(timestamper, exc_processor, renderer, level)
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            add_trace_ids,  # a line logged under a span names its trace (nothing when tracing is off)
            structlog.processors.add_log_level,
            timestamper,
            exc_processor,
            renderer,
        ],
        # Filtering by level in the bound logger makes a debug line on the
        # move path cost one method call when debug is off.
        wrapper_class=structlog.make_filtering_bound_logger(LEVELS[level]),
        # A file as far as PrintLogger goes: it calls only write and flush.
        logger_factory=structlog.PrintLoggerFactory(cast(TextIO, _CurrentStderr())),
        cache_logger_on_first_use=True,
    )
