"""Benchmark: the Python work the metrics interceptor adds to one unary call.

In one process, no sockets: a handler that returns at once is called
through gRPC's handler object directly and through MetricsInterceptor (its
intercept_service, the cached wrapper and the bookkeeping). gRPC's own
per-call interceptor chain is not included; bench/moves.py --metrics-cost
measures everything end to end. Usage: python -m bench.interceptor
"""

from __future__ import annotations

import asyncio
import collections
import time

import grpc

from gamehost.host.ops.metrics import MetricsInterceptor, RpcStats

CALLS, ROUNDS = 200_000, 5
HandlerCallDetails = collections.namedtuple("HandlerCallDetails", "method invocation_metadata")


class FinishedContext:
    """What the wrapper asks of a servicer context after a successful call."""

    def code(self):
        return None

    def cancelled(self):
        return False


async def behavior(request, context):
    return request


async def main() -> None:
    handler = grpc.unary_unary_rpc_method_handler(behavior)

    async def continuation(details):
        return handler

    interceptor = MetricsInterceptor(RpcStats())
    details, context = HandlerCallDetails("/gamehost.v1.GameHost/SubmitMove", ()), FinishedContext()
    timings: dict[str, list[float]] = {"direct": [], "intercepted": []}
    for _ in range(ROUNDS):
        start = time.process_time()
        for _ in range(CALLS):
            await (await continuation(details)).unary_unary(None, context)
        timings["direct"].append(time.process_time() - start)
        start = time.process_time()
        for _ in range(CALLS):
            await (await interceptor.intercept_service(continuation, details)).unary_unary(None, context)
        timings["intercepted"].append(time.process_time() - start)
    best = {name: 1e6 * min(runs) / CALLS for name, runs in timings.items()}
    print(f"per call, best of {ROUNDS} x {CALLS}: direct {best['direct']:.2f} us, through the interceptor "
          f"{best['intercepted']:.2f} us: +{best['intercepted'] - best['direct']:.2f} us")


if __name__ == "__main__":
    asyncio.run(main())
