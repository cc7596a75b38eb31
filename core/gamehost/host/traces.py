"""Spans of one call across the host's layers, when tracing is on.

Every layer opens its spans here (the web port, the servicers, the engine,
the rules workers, the store, the webhooks), so this is a base module: it
imports nothing of the host. Whether tracing is on is decided once, when a
host starts (``ops/trace_export.py`` reads the OTEL_* variables and calls
``install``); until then, and for good when it stays off, ``span`` hands
back one shared do-nothing context manager and no OpenTelemetry module is
even imported: a move pays one attribute read per span it would have.

Context crosses processes as W3C trace context: ``traceparent`` (and
``tracestate``) in gRPC metadata and HTTP headers, and in the rules
workers' requests, whose spans come back in their answers
(``record_worker_span``): a worker exports nothing itself.
"""

from __future__ import annotations

import contextlib
import contextvars
import re
from typing import TYPE_CHECKING, Any, Callable, ContextManager, Iterable, Mapping, MutableMapping

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import ReadableSpan
    from opentelemetry.trace import Tracer

# The W3C header's form (version 00): version-traceid-parentid-flags, lower-case hex.
TRACEPARENT = re.compile(r"^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$")
HEADERS = ("traceparent", "tracestate")

_NO_SPAN: ContextManager[Any] = contextlib.nullcontext()


class _Installed:
    """What ``install`` set: the tracer, and where finished spans go (the
    exporting processor), for the spans the workers send back."""

    tracer: Tracer | None = None
    finished: Callable[[ReadableSpan], None] | None = None
    resource: Any = None


_installed = _Installed()


def install(tracer: Tracer, finished: Callable[[ReadableSpan], None], resource: Any) -> None:
    _installed.tracer, _installed.finished, _installed.resource = tracer, finished, resource


def uninstall() -> None:
    _installed.tracer = _installed.finished = _installed.resource = None


def on() -> bool:
    return _installed.tracer is not None


def span(name: str, attributes: Mapping[str, Any] | None = None) -> ContextManager[Any]:
    """A span under the current one, current while the block runs; nothing when tracing is off."""
    tracer = _installed.tracer
    if tracer is None:
        return _NO_SPAN
    return tracer.start_as_current_span(name, attributes=attributes)


def server_span(name: str, carrier: Mapping[str, str], attributes: Mapping[str, Any] | None = None
                ) -> ContextManager[Any]:
    """A span for a call that came from outside: its parent is the caller's
    ``traceparent`` in ``carrier`` (gRPC metadata or HTTP headers, names
    in lower case) when it has a valid one; else the span starts a trace.
    A malformed header is ignored, as the W3C recommendation says: tracing
    never refuses a call."""
    tracer = _installed.tracer
    if tracer is None:
        return _NO_SPAN
    from opentelemetry.propagate import extract
    from opentelemetry.trace import SpanKind

    return tracer.start_as_current_span(name, context=extract(carrier), kind=SpanKind.SERVER,
                                        attributes=attributes)


def client_span(name: str, attributes: Mapping[str, Any] | None = None) -> ContextManager[Any]:
    """A span for a call this host makes to another service (a webhook)."""
    tracer = _installed.tracer
    if tracer is None:
        return _NO_SPAN
    from opentelemetry.trace import SpanKind

    return tracer.start_as_current_span(name, kind=SpanKind.CLIENT, attributes=attributes)


def annotate(attributes: Mapping[str, Any]) -> None:
    """Attributes learnt once the current span had started (the game of a match found)."""
    if _installed.tracer is None:
        return
    from opentelemetry import trace

    trace.get_current_span().set_attributes(dict(attributes))


def failed(error: BaseException) -> None:
    """Mark the current span failed with ``error`` (its reason when it has one)."""
    if _installed.tracer is None:
        return
    from opentelemetry import trace
    from opentelemetry.trace import Status, StatusCode

    current = trace.get_current_span()
    reason = getattr(error, "reason", "") or type(error).__name__
    current.set_status(Status(StatusCode.ERROR, f"{reason}: {error}"[:200]))
    current.set_attribute("gamehost.error", str(reason))


def outgoing_headers() -> dict[str, str]:
    """The current span's context as W3C headers for a call out (empty when
    tracing is off or no span is current)."""
    if _installed.tracer is None:
        return {}
    from opentelemetry.propagate import inject

    carrier: dict[str, str] = {}
    inject(carrier)
    return carrier


def current_traceparent() -> str:
    """The current span's ``traceparent`` when it is sampled, else ""."""
    if _installed.tracer is None:
        return ""
    from opentelemetry import trace

    context = trace.get_current_span().get_span_context()
    if not context.is_valid or not context.trace_flags.sampled:
        return ""
    return f"00-{context.trace_id:032x}-{context.span_id:016x}-{int(context.trace_flags):02x}"


def attached(traceparent: str) -> ContextManager[Any]:
    """The span context ``traceparent`` names made current for the block, so
    what the block starts continues that trace (a task that outlives the
    call it came from, such as a webhook's delivery)."""
    if _installed.tracer is None or not traceparent:
        return _NO_SPAN
    return _attached(traceparent)


@contextlib.contextmanager
def _attached(traceparent: str) -> Any:
    from opentelemetry import context
    from opentelemetry.propagate import extract

    token = context.attach(extract({"traceparent": traceparent}))
    try:
        yield
    finally:
        context.detach(token)


def detached() -> contextvars.Context | None:
    """A copy of the current context with no span in it, for a background
    task that must not join the trace of the call that started it (a bot's
    move after a player's: a trace of its own); None when tracing is off,
    which asks asyncio for its usual copy."""
    if _installed.tracer is None:
        return None
    from opentelemetry import context

    token = context.attach(context.Context())
    try:
        return contextvars.copy_context()
    finally:
        context.detach(token)


def record_worker_span(finished: Mapping[str, Any]) -> None:
    """A span a rules worker timed and sent back with its answer (see
    ``workers/worker_spans.py`` for its fields), handed to the exporter as
    if this process had made it: the worker's process is in its attributes."""
    resource, export = _installed.resource, _installed.finished
    if export is None:
        return
    from opentelemetry.sdk.trace import ReadableSpan
    from opentelemetry.sdk.util.instrumentation import InstrumentationScope
    from opentelemetry.trace import SpanContext, SpanKind, TraceFlags

    trace_id = int(finished["trace_id"], 16)
    flags = TraceFlags(TraceFlags.SAMPLED)
    own = SpanContext(trace_id, int(finished["span_id"], 16), is_remote=False, trace_flags=flags)
    parent = SpanContext(trace_id, int(finished["parent_id"], 16), is_remote=True, trace_flags=flags)
    export(ReadableSpan(name=str(finished["name"]), context=own, parent=parent, resource=resource,
                        attributes=dict(finished.get("attributes") or {}), kind=SpanKind.INTERNAL,
                        start_time=int(finished["start"]), end_time=int(finished["end"]),
                        instrumentation_scope=InstrumentationScope("gamehost.workers")))


def add_trace_ids(logger: Any, method_name: str, event_dict: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    """structlog processor: a line logged while a span is current carries its
    ``trace_id`` and ``span_id`` (hex, as trace back ends show them)."""
    if _installed.tracer is None:
        return event_dict
    from opentelemetry import trace

    context = trace.get_current_span().get_span_context()
    if context.is_valid:
        event_dict.setdefault("trace_id", f"{context.trace_id:032x}")
        event_dict.setdefault("span_id", f"{context.span_id:016x}")
    return event_dict


def carrier_of(pairs: Iterable[tuple[str, Any]]) -> dict[str, str]:
    """The trace headers among ``pairs`` (metadata or headers), names in lower case."""
    return {key.lower(): value for key, value in pairs if key.lower() in HEADERS and isinstance(value, str)}
