"""Benchmark: what tracing costs a move, off and on, against another tree
(the commit before tracing), all in one run.

Three hosts play the same tictactoe load (``harness.submit_moves``: full
games by SubmitMove over real gRPC, the memory store, rules in a worker
process), each on core 0 with its workers, the load on core 1:

- **before**: the baseline tree (``--baseline DIR``, its ``core``);
- **off**: this tree with no OTEL_* variable (tracing off, the default);
- **on**: this tree exporting every span over OTLP/gRPC to a receiver in
  this process that drops them (OTEL_TRACES_SAMPLER=always_on): a move then
  makes a servicer, an engine, a worker and a commit span.

They take turns ``--repeat`` times; per figure the median is kept, and the
ratio off/before (and on/off) of each round. Figures: the host's CPU per
move (its process and its workers', from /proc: the steadiest figure on a
shared machine), moves per second and p50 latency at 1 and 16 concurrent
matches. Usage:
    git archive wave3d core | tar -x -C /tmp/tracing-before
    python -m bench.tracing_cost --baseline /tmp/tracing-before/core [--repeat 5] [--json FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import tempfile
from concurrent import futures
from typing import Iterator

import grpc

from bench.harness import DRAW, LOAD_CORE, PinnedHost, machine, submit_moves

FIGURES = ("host_cpu_us_per_call", "rate", "p50_ms")


@contextlib.contextmanager
def _environment(values: dict[str, str]) -> Iterator[None]:
    """``values`` in os.environ while a host starts (it inherits them)."""
    saved = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _dropping_receiver() -> tuple[grpc.Server, int, list[int]]:
    """An OTLP/gRPC trace receiver that counts the spans and keeps none."""
    from opentelemetry.proto.collector.trace.v1 import trace_service_pb2, trace_service_pb2_grpc

    received = [0]

    class Dropping(trace_service_pb2_grpc.TraceServiceServicer):
        def Export(self, request, context):  # noqa: N802 (the service's name)
            received[0] += sum(len(scope.spans) for resource in request.resource_spans
                               for scope in resource.scope_spans)
            return trace_service_pb2.ExportTraceServiceResponse()

    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    trace_service_pb2_grpc.add_TraceServiceServicer_to_server(Dropping(), server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    return server, port, received


async def _measure(variant: str, baseline: str | None, port: int, moves: int) -> dict:
    untraced = {name: "" for name in os.environ if name.startswith("OTEL_")}
    traced = {**untraced, "OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{port}",
              "OTEL_EXPORTER_OTLP_INSECURE": "true", "OTEL_SERVICE_NAME": "gamehost-bench",
              "OTEL_TRACES_SAMPLER": "always_on"}
    figures = {}
    with tempfile.TemporaryDirectory() as data_dir:
        with _environment(traced if variant == "on" else untraced):
            host = PinnedHost("memory", data_dir, source=baseline if variant == "before" else None)
        try:
            for concurrency in (1, 16):
                per_task = max(1, moves // len(DRAW) // concurrency)
                figures[concurrency] = await submit_moves(host, concurrency, per_task)  # type: ignore[arg-type]
        finally:
            host.stop()
    return figures


async def run(baseline: str | None, repeat: int, moves: int) -> dict:
    os.sched_setaffinity(0, {LOAD_CORE})
    server, port, received = _dropping_receiver()
    variants = ("before", "off", "on") if baseline else ("off", "on")
    rounds: list[dict] = []
    try:
        for index in range(repeat):
            current = {}
            for variant in variants:
                current[variant] = await _measure(variant, baseline, port, moves)
                line = "  ".join(f"c{c}: {f['host_cpu_us_per_call']:.0f} us/move {f['rate']:.0f}/s "
                                 f"p50 {f['p50_ms']:.2f} ms" for c, f in current[variant].items())
                print(f"round {index + 1} {variant:<6} {line}", flush=True)
            rounds.append(current)
    finally:
        server.stop(0)
    report: dict = {"machine": machine(), "repeat": repeat, "moves_per_figure": moves, "spans_received": received[0],
                    "median": {}, "ratio": {}}
    for variant in variants:
        report["median"][variant] = {
            str(c): {key: statistics.median(r[variant][c][key] for r in rounds) for key in FIGURES} for c in (1, 16)}
    pairs = [("off", "before")] if baseline else []
    pairs.append(("on", "off"))
    for after, before in pairs:
        report["ratio"][f"{after}/{before}"] = {
            str(c): {key: statistics.median(r[after][c][key] / r[before][c][key] for r in rounds) for key in FIGURES}
            for c in (1, 16)}
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", help="another tree's core directory (the commit before tracing)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--moves", type=int, default=1800, help="moves per figure")
    parser.add_argument("--json", help="write the report here too")
    args = parser.parse_args()
    report = asyncio.run(run(args.baseline, args.repeat, args.moves))
    for name, ratios in report["ratio"].items():
        for concurrency, figures in ratios.items():
            print(f"ratio {name} at {concurrency} concurrent: " +
                  "  ".join(f"{key} {value:.3f}" for key, value in figures.items()))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(report, out, indent=2)


if __name__ == "__main__":
    main()
