"""Prometheus metrics, served on their own port.

Nothing here runs on the move path but two clock reads and a few integer
increments per RPC (the interceptor) and one call per committed event (a
match-event observer, the hook plugins use too). Everything else is read from
the engine's own state when Prometheus scrapes. The exposition server runs in
a thread: it reads copies of dicts, which CPython makes atomically.
"""

from __future__ import annotations

import asyncio
import bisect
import collections
import inspect
import platform
import time
from importlib import metadata
from typing import Any, Callable

import grpc
import pluggy
from prometheus_client import CollectorRegistry, ProcessCollector, start_http_server
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily
from prometheus_client.registry import Collector

from gamehost.host.engine.match_engine import MatchEngine
from gamehost.host.engine.ticket_stats import CLOSED_STATES, WAIT_BUCKETS

# Seconds. Moves take about a millisecond; WatchMatch streams last minutes.
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
                   30.0, 60.0, 300.0)
_CODE_NAMES: dict[grpc.StatusCode | None, str] = {None: "OK", **{code: code.name for code in grpc.StatusCode}}


class RpcStats:
    """Per (service, method, type, code): call count, latency sum and
    bucket counts, the last bucket being +Inf."""

    def __init__(self) -> None:
        self.rows: dict[tuple[str, str, str, str], list] = {}

    def record(self, key: tuple[str, str, str], code: grpc.StatusCode | None, seconds: float) -> None:
        row_key = (*key, _CODE_NAMES.get(code, "OK"))
        row = self.rows.get(row_key)
        if row is None:
            row = self.rows[row_key] = [0.0, [0] * (len(LATENCY_BUCKETS) + 1)]
        row[0] += seconds
        row[1][bisect.bisect_left(LATENCY_BUCKETS, seconds)] += 1


class MetricsInterceptor(grpc.aio.ServerInterceptor):
    """Counts and times every RPC by method and status code; a stream is
    recorded when it ends. Handlers are wrapped once per method."""

    def __init__(self, stats: RpcStats) -> None:
        self.stats = stats
        self._wrapped: dict[str, grpc.RpcMethodHandler] = {}

    async def intercept_service(self, continuation, handler_call_details):
        method = handler_call_details.method
        wrapped = self._wrapped.get(method)
        if wrapped is None:
            handler = await continuation(handler_call_details)
            if handler is None:  # unknown method: gRPC answers UNIMPLEMENTED; not cached, names are the caller's
                return None
            wrapped = self._wrapped[method] = self._wrap(method, handler)
        return wrapped

    def _wrap(self, method: str, handler: grpc.RpcMethodHandler) -> grpc.RpcMethodHandler:
        service, _, name = method.lstrip("/").rpartition("/")
        behavior: Callable[..., Any]
        factory: Callable[..., grpc.RpcMethodHandler]
        if handler.unary_unary:
            kind, behavior, factory = "unary", handler.unary_unary, grpc.unary_unary_rpc_method_handler
        elif handler.unary_stream:
            kind, behavior, factory = "server_stream", handler.unary_stream, grpc.unary_stream_rpc_method_handler
        elif handler.stream_unary:
            kind, behavior, factory = "client_stream", handler.stream_unary, grpc.stream_unary_rpc_method_handler
        elif handler.stream_stream:
            kind, behavior, factory = "bidi_stream", handler.stream_stream, grpc.stream_stream_rpc_method_handler
        else:  # no behaviour to time (gRPC makes no such handler)
            return handler
        timed = self._timed_stream if inspect.isasyncgenfunction(behavior) else self._timed_call
        return factory(timed((service, name, kind), behavior), request_deserializer=handler.request_deserializer,
                       response_serializer=handler.response_serializer)

    def _timed_call(self, key: tuple[str, str, str], behavior: Callable):
        record, clock = self.stats.record, time.perf_counter

        async def call(request, context):
            start = clock()
            try:
                response = await behavior(request, context)
            except BaseException as error:
                record(key, _failure_code(context, error), clock() - start)
                raise
            record(key, context.code(), clock() - start)
            return response
        return call

    def _timed_stream(self, key: tuple[str, str, str], behavior: Callable):
        record, clock = self.stats.record, time.perf_counter

        async def stream(request, context):
            start = clock()
            try:
                async for message in behavior(request, context):
                    yield message
            except BaseException as error:
                record(key, _failure_code(context, error), clock() - start)
                raise
            record(key, context.code(), clock() - start)
        return stream


def _failure_code(context, error: BaseException) -> grpc.StatusCode:
    """The code of a call that raised: the one an abort set, CANCELLED for a
    call cancelled under it, else UNKNOWN (what gRPC then sends)."""
    code = context.code()
    if code not in (None, grpc.StatusCode.OK):
        return code
    if isinstance(error, (asyncio.CancelledError, GeneratorExit)) or context.cancelled():
        return grpc.StatusCode.CANCELLED
    return grpc.StatusCode.UNKNOWN


class MoveCounter:
    """A match-event observer (the ``gamehost_match_event`` hook): moves
    applied on this host, by game."""

    def __init__(self) -> None:
        self.by_game: collections.Counter[str] = collections.Counter()

    @pluggy.HookimplMarker("gamehost")
    def gamehost_match_event(self, match_id, game_id, event):
        if event["kind"] == "moved":
            self.by_game[game_id] += 1


class HostCollector(Collector):
    """Reads the engine's state, the RPC stats and the store check at scrape time."""

    def __init__(self, engine: MatchEngine, stats: RpcStats, moves: MoveCounter,
                 store_reachable: Callable[[], bool]) -> None:
        self.engine = engine
        self.stats = stats
        self.moves = moves
        self.store_reachable = store_reachable
        self.version = _version("gamehost")

    def collect(self):
        handled = CounterMetricFamily("gamehost_grpc_server_handled", "RPCs completed, streams when they end.",
                                      labels=["grpc_service", "grpc_method", "grpc_type", "grpc_code"])
        seconds = HistogramMetricFamily("gamehost_grpc_server_handling_seconds",
                                        "Time from the start to the end of an RPC (for streams: their lifetime).",
                                        labels=["grpc_service", "grpc_method", "grpc_type", "grpc_code"])
        for labels, (total, buckets) in list(self.stats.rows.items()):
            buckets = list(buckets)
            count = sum(buckets)
            handled.add_metric(list(labels), count)
            cumulative, running = [], 0
            for bound, hits in zip((*map(str, LATENCY_BUCKETS), "+Inf"), buckets):
                running += hits
                cumulative.append((bound, running))
            seconds.add_metric(list(labels), cumulative, total)
        yield handled
        yield seconds

        moves = CounterMetricFamily("gamehost_moves_applied", "Moves committed on this host, bots' included.",
                                    labels=["game"])
        for game, count in sorted(dict(self.moves.by_game).items()):
            moves.add_metric([game], count)
        yield moves

        matches = GaugeMetricFamily("gamehost_matches", "Unfinished matches this host holds, by game and status.",
                                    labels=["game", "status"])
        watchers = GaugeMetricFamily("gamehost_watchers", "Open WatchMatch streams on this host, by game.",
                                     labels=["game"])
        held: collections.Counter = collections.Counter()
        watching: collections.Counter = collections.Counter()
        # The engine's own table of the matches it holds: no bookkeeping of ours on the move path.
        for live in self.engine.held_matches():
            record = live.record
            if record.status in ("open", "active"):
                held[(record.game_id, record.status)] += 1
            if live.watchers:
                watching[record.game_id] += live.watchers
        for game in sorted(self.engine.catalog.games):
            for status in ("open", "active"):
                matches.add_metric([game, status], held[(game, status)])
            watchers.add_metric([game], watching[game])
        yield matches
        yield watchers
        yield from self._queue()
        yield GaugeMetricFamily("gamehost_replay_cache_bytes", "Bytes (approximate) of finished matches' replays "
                                "kept in memory, at most --replay-cache-mb.", value=self.engine.replay.cache.used)

        yield GaugeMetricFamily("gamehost_store_up", "1 while the last store check succeeded, else 0.",
                                value=1 if self.store_reachable() else 0)

        build = GaugeMetricFamily("gamehost_build_info", "Always 1; the labels say what runs.",
                                  labels=["version", "python", "grpcio"])
        build.add_metric([self.version, platform.python_version(), grpc.__version__], 1)
        yield build
        plugins = GaugeMetricFamily("gamehost_plugin_info", "Always 1, per plugin found; loaded=\"false\" for a "
                                    "plugin whose games are not served (see `gamehost plugins`).",
                                    labels=["plugin", "distribution", "version", "loaded"])
        for report in self.engine.catalog.reports:
            plugins.add_metric([report.name, report.distribution, report.version, str(report.ok).lower()], 1)
        yield plugins
        games = GaugeMetricFamily("gamehost_game_info", "Always 1, per game served.",
                                  labels=["game", "plugin", "rules_version"])
        for game_id, entry in sorted(self.engine.catalog.games.items()):
            games.add_metric([game_id, entry.plugin, entry.game.version], 1)
        yield games

    def _queue(self):
        """Matchmaking's figures (tickets queued and closed, waits): ticket_stats.py says whose counts they are."""
        stats = self.engine.ticket_stats
        games = sorted(self.engine.catalog.games)
        open_now = dict(stats.open_by_game)
        tickets_open = GaugeMetricFamily("gamehost_tickets_open", "Queued tickets in the store, by game (every "
                                         "replica's), as of the last matchmaking sweep.", labels=["game"])
        for game in games:
            tickets_open.add_metric([game], open_now.get(game, 0))
        yield tickets_open
        queued = CounterMetricFamily("gamehost_tickets_queued", "Tickets queued on this host, by game.",
                                     labels=["game"])
        queued_by_game = dict(stats.queued_by_game)
        for game in games:
            queued.add_metric([game], queued_by_game.get(game, 0))
        yield queued
        closed = CounterMetricFamily("gamehost_tickets_closed", "Tickets this host matched, or saw cancelled or "
                                     "expire, by game and state.", labels=["game", "state"])
        closed_counts = dict(stats.closed)
        for game in games:
            for state in CLOSED_STATES:
                closed.add_metric([game, state], closed_counts.get((game, state), 0))
        yield closed
        waits = HistogramMetricFamily("gamehost_ticket_wait_seconds", "Time from queuing to a match, of the "
                                      "tickets this host matched, by game.", labels=["game"])
        for game, (total, buckets) in sorted(dict(stats.waits).items()):
            cumulative, running = [], 0
            for bound, hits in zip((*map(str, WAIT_BUCKETS), "+Inf"), list(buckets)):
                running += hits
                cumulative.append((bound, running))
            waits.add_metric([game], cumulative, total)
        yield waits


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return ""


class MetricsServer:
    """The /metrics endpoint: an HTTP server thread with its own registry."""

    def __init__(self, collector: HostCollector, host: str, port: int) -> None:
        self.registry = CollectorRegistry(auto_describe=False)
        self.registry.register(collector)
        ProcessCollector(registry=self.registry)
        try:
            self._server, self._thread = start_http_server(port, addr=host, registry=self.registry)
        except OSError as error:
            raise OSError(f"cannot serve metrics on {host}:{port}: {error.strerror or error}") from None
        self.port = self._server.server_port

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)
