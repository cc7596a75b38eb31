"""A rules worker's span of one request, timed in the worker and sent back
in its answer: the worker imports no tracing library and exports nothing
(it may be killed at any time, and runs under a memory limit), so the host
exports the span with its own (``traces.record_worker_span``).

A request carries the trace context of the host's span that sent it
(``traceparent``, W3C form) only when that span is sampled; the worker's
span is that span's child, in the same trace.
"""

from __future__ import annotations

import os
import time
from typing import Any, Callable, Mapping

from gamehost.host.traces import TRACEPARENT
from gamehost.host.workers import messages


def _span_id() -> str:
    while True:
        span_id = os.urandom(8).hex()
        if span_id != "0" * 16:
            return span_id


def traced(request: Mapping[str, Any], work: Callable[[], Any]) -> Any:
    """``work()``'s answer; when ``request`` carries a valid trace context
    and the answer is a message (not a bot's think, answered later), the
    answer carries the worker's span of it under ``span``."""
    found = TRACEPARENT.match(request.get("traceparent") or "")
    if found is None:
        return work()
    start = time.time_ns()
    answer = work()
    if isinstance(answer, dict):
        op = str(request.get("op", ""))
        span: messages.WorkerSpan = {
            "name": f"worker {op}", "trace_id": found.group(1), "parent_id": found.group(2),
            "span_id": _span_id(), "start": start, "end": time.time_ns(),
            "attributes": {"gamehost.worker.op": op, "gamehost.worker.pid": os.getpid(),
                           "gamehost.match_id": str(request.get("match", "")),
                           **({"gamehost.error": str(answer["error"])} if "error" in answer else {})}}
        answer["span"] = span
    return answer
