"""Whether this host traces, and where its spans go: OpenTelemetry's SDK
set up from the standard OTEL_* variables, once per serving process.

Off unless asked: tracing starts when ``OTEL_TRACES_EXPORTER`` names an
exporter (``otlp``, ``console``) or an OTLP endpoint is set
(``OTEL_EXPORTER_OTLP_ENDPOINT``, ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``);
``OTEL_SDK_DISABLED=true`` or ``OTEL_TRACES_EXPORTER=none`` keeps it off.
The SDK itself reads the rest: ``OTEL_SERVICE_NAME`` and
``OTEL_RESOURCE_ATTRIBUTES`` (the service is ``gamehost`` when unnamed),
``OTEL_TRACES_SAMPLER`` and its argument, the batch processor's
``OTEL_BSP_*``, the exporter's endpoint, headers, timeout and TLS. OTLP
goes over gRPC unless ``OTEL_EXPORTER_OTLP_PROTOCOL`` (or its
``_TRACES_`` form) says ``http/protobuf``.

The packages are the optional ``gamehost[tracing]``: a host asked to trace
without them says so in one line and serves untraced.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Mapping

import structlog

from gamehost.host import traces

log = structlog.get_logger("gamehost.tracing")

ENDPOINTS = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
EXPORTERS = ("otlp", "console")


def asked(environment: Mapping[str, str]) -> str:
    """The exporter the environment asks for: "otlp", "console" or "" (tracing off)."""
    if environment.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return ""
    named = environment.get("OTEL_TRACES_EXPORTER", "").strip().lower()
    if named:
        return "" if named == "none" else named
    return "otlp" if any(environment.get(name, "").strip() for name in ENDPOINTS) else ""


@dataclass
class TraceExport:
    """The SDK's provider this process installed; ``close`` sends what is left."""
    provider: Any

    def close(self) -> None:
        self.provider.shutdown()  # flushes the batch processor's queue, within its export timeout


def start(environment: Mapping[str, str] | None = None) -> TraceExport | None:
    """Install tracing in this process when the environment asks for it."""
    environment = os.environ if environment is None else environment
    exporter_name = asked(environment)
    if not exporter_name:
        return None
    if exporter_name not in EXPORTERS:
        log.warning("tracing off: unknown exporter", exporter=exporter_name,
                    hint="OTEL_TRACES_EXPORTER takes otlp, console or none")
        return None
    try:
        from opentelemetry import trace
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor
    except ImportError as error:
        log.warning("tracing off: OpenTelemetry's SDK is not installed", error=str(error),
                    hint="pip install 'gamehost[tracing]'")
        return None
    exporter = _exporter(exporter_name, environment)
    if exporter is None:
        return None
    resource = Resource.create({} if environment.get("OTEL_SERVICE_NAME") else {"service.name": "gamehost"})
    provider = TracerProvider(resource=resource)  # the sampler from OTEL_TRACES_SAMPLER
    processor = BatchSpanProcessor(exporter)
    provider.add_span_processor(processor)
    trace.set_tracer_provider(provider)
    traces.install(provider.get_tracer("gamehost"), processor.on_end, provider.resource)
    log.info("tracing on", exporter=exporter_name, service=provider.resource.attributes.get("service.name"),
             endpoint=_endpoint(environment))
    return TraceExport(provider)


def _exporter(name: str, environment: Mapping[str, str]) -> Any:
    if name == "console":
        from opentelemetry.sdk.trace.export import ConsoleSpanExporter

        return ConsoleSpanExporter()
    protocol = (environment.get("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
                or environment.get("OTEL_EXPORTER_OTLP_PROTOCOL") or "grpc").strip().lower()
    try:
        if protocol == "http/protobuf":
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter as HttpExporter

            return HttpExporter()
        if protocol == "grpc":
            from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter as GrpcExporter

            return GrpcExporter()
    except ImportError as error:
        log.warning("tracing off: the OTLP exporter is not installed", protocol=protocol, error=str(error),
                    hint="pip install 'gamehost[tracing]' (OTLP over gRPC; opentelemetry-exporter-otlp-proto-http "
                         "for http/protobuf)")
        return None
    log.warning("tracing off: unknown OTLP protocol", protocol=protocol, hint="grpc or http/protobuf")
    return None


def _endpoint(environment: Mapping[str, str]) -> str:
    return next((environment[name] for name in reversed(ENDPOINTS) if environment.get(name)), "")


def stop(export: TraceExport | None) -> None:
    if export is not None:
        traces.uninstall()
        export.close()
