"""structlog set-up: console lines for a person at a terminal, JSON otherwise."""

from __future__ import annotations

import logging
import sys
from typing import TextIO, cast

import structlog

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


def configure(log_format: str = "auto", level: str = "info") -> None:
    """``log_format``: "console", "json" or "auto" (console on a terminal)."""
    if log_format == "auto":
        log_format = "console" if sys.stderr.isatty() else "json"
    renderer = (structlog.dev.ConsoleRenderer() if log_format == "console"
                else structlog.processors.JSONRenderer())
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info if log_format == "json" else structlog.dev.set_exc_info,
            renderer,
        ],
        # Filtering by level in the bound logger makes a debug line on the
        # move path cost one method call when debug is off.
        wrapper_class=structlog.make_filtering_bound_logger(LEVELS[level]),
        # A file as far as PrintLogger goes: it calls only write and flush.
        logger_factory=structlog.PrintLoggerFactory(cast(TextIO, _CurrentStderr())),
        cache_logger_on_first_use=True,
    )
