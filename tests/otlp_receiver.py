"""An OTLP/gRPC trace receiver for the tests: OpenTelemetry's own
TraceService (opentelemetry-proto) on 127.0.0.1, keeping every span a host
exports, as a collector receives them."""

from __future__ import annotations

import threading
from concurrent import futures
from dataclasses import dataclass, field

import grpc
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2, trace_service_pb2_grpc


@dataclass(frozen=True)
class ReceivedSpan:
    name: str
    trace_id: str  # hex, as in traceparent
    span_id: str
    parent_id: str  # "" for a trace's root
    kind: int
    attributes: dict
    service: str  # the exporting process's service.name
    status_code: int
    start: int
    end: int


@dataclass
class OtlpReceiver(trace_service_pb2_grpc.TraceServiceServicer):
    spans: list[ReceivedSpan] = field(default_factory=list)
    arrived: threading.Condition = field(default_factory=threading.Condition)

    def Export(self, request, context):  # noqa: N802 (the service's name)
        received = []
        for resource_spans in request.resource_spans:
            resource = {a.key: _value(a.value) for a in resource_spans.resource.attributes}
            for scope_spans in resource_spans.scope_spans:
                for span in scope_spans.spans:
                    received.append(ReceivedSpan(
                        span.name, span.trace_id.hex(), span.span_id.hex(), span.parent_span_id.hex(), span.kind,
                        {a.key: _value(a.value) for a in span.attributes}, str(resource.get("service.name")),
                        span.status.code, span.start_time_unix_nano, span.end_time_unix_nano))
        with self.arrived:
            self.spans.extend(received)
            self.arrived.notify_all()
        return trace_service_pb2.ExportTraceServiceResponse()

    def wait_for(self, predicate, timeout: float = 30.0) -> list[ReceivedSpan]:
        """The spans received, once ``predicate(spans)`` holds (an assertion error naming them otherwise)."""
        with self.arrived:
            assert self.arrived.wait_for(lambda: predicate(self.spans), timeout), \
                [(s.name, s.trace_id, s.span_id, s.parent_id) for s in self.spans]
            return list(self.spans)

    def trace(self, trace_id: str) -> list[ReceivedSpan]:
        with self.arrived:
            return [span for span in self.spans if span.trace_id == trace_id]


def _value(value):
    kind = value.WhichOneof("value")
    return getattr(value, kind) if kind else None


class RunningReceiver:
    """The receiver served on a free port of 127.0.0.1 until ``stop``."""

    def __init__(self) -> None:
        self.receiver = OtlpReceiver()
        self.server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
        trace_service_pb2_grpc.add_TraceServiceServicer_to_server(self.receiver, self.server)
        self.port = self.server.add_insecure_port("127.0.0.1:0")
        self.server.start()

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.server.stop(0)
