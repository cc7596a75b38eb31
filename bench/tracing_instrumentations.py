"""Benchmark: a server span per call made by the host's own code
(``traces.server_span``, as the servicers' gate and the web port open it)
against OpenTelemetry's instrumentations of the same servers: the gRPC
one's ``aio_server_interceptor`` and the aiohttp server one's middleware.

In one process and one event loop, a trivial method (the request's bytes
echoed) is called over real sockets: gRPC (grpc.aio server and channel) and
HTTP (aiohttp server and client). Each way is measured in turn,
``--repeat`` times: no span, the host's span, the instrumentation's span;
every span goes through the SDK's batch processor to an exporter that drops
it, so the figures are the spans' making, not a network's. Figure: the
process's CPU per call (client and server together: the difference between
ways is the span's cost), median over rounds. The instrumentations are not
dependencies of the host: ``pip install opentelemetry-instrumentation-grpc
opentelemetry-instrumentation-aiohttp-server`` first. Usage:
    python -m bench.tracing_instrumentations [--calls 3000] [--repeat 5] [--json FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from typing import Any, Awaitable, Callable

import grpc

from bench.harness import machine
from gamehost.host import traces

METHOD = "/bench.Bench/Echo"


def _install_tracing() -> None:
    from opentelemetry import trace
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter, SpanExportResult

    class Dropping(SpanExporter):
        def export(self, spans):  # type: ignore[no-untyped-def]
            return SpanExportResult.SUCCESS

    provider = TracerProvider()
    processor = BatchSpanProcessor(Dropping())
    provider.add_span_processor(processor)
    trace.set_tracer_provider(provider)
    traces.install(provider.get_tracer("gamehost"), processor.on_end, provider.resource)


async def _grpc_server(way: str) -> tuple[grpc.aio.Server, int]:
    async def echo(request: bytes, context: grpc.aio.ServicerContext) -> bytes:
        if way != "own":
            return request
        with traces.server_span("grpc Echo", traces.carrier_of(context.invocation_metadata() or ()),
                                {"rpc.system": "grpc", "rpc.method": "Echo"}):
            return request

    interceptors = []
    if way == "instrumentation":
        from opentelemetry.instrumentation.grpc import aio_server_interceptor

        interceptors.append(aio_server_interceptor())
    server = grpc.aio.server(interceptors=interceptors)
    handler = grpc.method_handlers_generic_handler("bench.Bench", {"Echo": grpc.unary_unary_rpc_method_handler(echo)})
    server.add_generic_rpc_handlers((handler,))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    return server, port


async def _grpc_calls(way: str, calls: int) -> float:
    server, port = await _grpc_server(way)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            echo = channel.unary_unary(METHOD)
            await echo(b"warm")
            return await _cpu_per_call(lambda: echo(b"x" * 64), calls)
    finally:
        await server.stop(0)


async def _http_calls(way: str, calls: int) -> float:
    import aiohttp
    from aiohttp import web

    async def echo(request: web.Request) -> web.Response:
        body = await request.read()
        if way != "own":
            return web.Response(body=body)
        with traces.server_span("web Echo", traces.carrier_of(request.headers.items()),
                                {"http.request.method": request.method, "url.path": request.path}):
            return web.Response(body=body)

    instrumentor = None
    if way == "instrumentation":  # it adds its middleware to the applications made while it is on
        from opentelemetry.instrumentation.aiohttp_server import AioHttpServerInstrumentor

        instrumentor = AioHttpServerInstrumentor()
        instrumentor.instrument()
    app = web.Application()
    if instrumentor is not None:
        instrumentor.uninstrument()
    app.router.add_post("/echo", echo)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        async with aiohttp.ClientSession() as session:
            url = f"http://127.0.0.1:{port}/echo"

            async def call() -> None:
                async with session.post(url, data=b"x" * 64) as answer:
                    await answer.read()

            await call()
            return await _cpu_per_call(call, calls)
    finally:
        await runner.cleanup()


async def _cpu_per_call(call: Callable[[], Awaitable[Any]], calls: int) -> float:
    start = time.process_time()
    for _ in range(calls):
        await call()
    return 1e6 * (time.process_time() - start) / calls


async def run(calls: int, repeat: int) -> dict:
    _install_tracing()
    ways = ("none", "own", "instrumentation")
    rounds: list[dict] = []
    for index in range(repeat):
        current: dict = {"grpc": {}, "http": {}}
        for way in ways:
            current["grpc"][way] = await _grpc_calls(way, calls)
            current["http"][way] = await _http_calls(way, calls)
        rounds.append(current)
        print(f"round {index + 1}: " + "  ".join(
            f"{server} {way} {current[server][way]:.1f} us" for server in ("grpc", "http") for way in ways),
              flush=True)
    report: dict = {"machine": machine(), "calls": calls, "repeat": repeat, "cpu_us_per_call": {},
                    "span_cost_us": {}}
    for server in ("grpc", "http"):
        report["cpu_us_per_call"][server] = {way: statistics.median(r[server][way] for r in rounds) for way in ways}
        report["span_cost_us"][server] = {
            way: statistics.median(r[server][way] - r[server]["none"] for r in rounds) for way in ways[1:]}
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json")
    args = parser.parse_args()
    report = asyncio.run(run(args.calls, args.repeat))
    for server, costs in report["span_cost_us"].items():
        print(f"{server}: " + "  ".join(f"{way} +{cost:.1f} us/call" for way, cost in costs.items()))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(report, out, indent=2)


if __name__ == "__main__":
    main()
