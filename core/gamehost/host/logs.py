"""structlog set-up: console lines for a person at a terminal, JSON otherwise."""

from __future__ import annotations

import logging
import sys

import structlog

LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING, "error": logging.ERROR}


class _CurrentStderr:
    """Writes to whatever ``sys.stderr`` is when a line is written, not when
    logging was configured: a command run in-process (a test capturing its
    output, an embedding program) may replace and close the stream it had,
    and a write to a closed stream would raise in the host's own tasks."""

    def write(self, text: str) -> int:
        return sys.stderr.write(text)

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
        logger_factory=structlog.PrintLoggerFactory(_CurrentStderr()),
        cache_logger_on_first_use=True,
    )
