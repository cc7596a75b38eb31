"""Assembling and running a host: store, plugins, engine, gRPC server."""

from __future__ import annotations

import asyncio
import signal
from dataclasses import dataclass
from typing import TYPE_CHECKING

import grpc
import structlog
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from gamehost.host import wire
from gamehost.host.config import HostConfig
from gamehost.host.engine import MatchEngine
from gamehost.host.gate import Gate
from gamehost.host.plugins import Catalog, load_catalog
from gamehost.host.readiness import StoreReadiness
from gamehost.host.service import GameHostService
from gamehost.host.store import Store, describe_store, open_store
from gamehost.host.web.app import ListenError, WebServer, start_web
from gamehost.v1 import gamehost_pb2, gamehost_pb2_grpc

if TYPE_CHECKING:  # prometheus_client is imported only when metrics are on
    from gamehost.host.metrics import MetricsServer

log = structlog.get_logger("gamehost.server")

SERVICE_NAME = gamehost_pb2.DESCRIPTOR.services_by_name["GameHost"].full_name


@dataclass
class RunningHost:
    server: grpc.aio.Server
    engine: MatchEngine
    health: health.aio.HealthServicer
    port: int
    readiness: StoreReadiness | None = None
    metrics: MetricsServer | None = None
    web: WebServer | None = None

    async def stop(self, grace: float = 5.0) -> None:
        """Graceful stop: probes see NOT_SERVING, in-flight calls finish,
        streams close, then the store."""
        if self.readiness:
            await self.readiness.stop()
        await self.health.enter_graceful_shutdown()
        await self.engine.close()
        await asyncio.gather(self.server.stop(grace), *([self.web.stop()] if self.web else []))
        await self.engine.store.close()
        if self.metrics:
            await asyncio.to_thread(self.metrics.stop)
        log.info("host stopped")


async def start_host(config: HostConfig, *, catalog: Catalog | None = None, store: Store | None = None) -> RunningHost:
    catalog = catalog or load_catalog()
    store = store or open_store(config.store, config.data_dir, config.durability, owner=config.replica_id,
                                claim_lease=config.claim_lease)
    await store.open()
    moves = None
    if config.metrics_port is not None:
        from gamehost.host import metrics  # prometheus_client is loaded only when metrics are on
        moves = metrics.MoveCounter()
        if catalog.plugin_manager:  # before the engine collects the observers
            catalog.plugin_manager.register(moves)
    engine = MatchEngine(catalog, store, bot_delay=config.bot_delay)
    await engine.start()
    health_servicer = health.aio.HealthServicer()
    readiness = StoreReadiness(store, health_servicer, SERVICE_NAME, config.store_check_interval)

    interceptors, metrics_server = [], None
    if moves is not None:
        stats = metrics.RpcStats()
        interceptors.append(metrics.MetricsInterceptor(stats))
        collector = metrics.HostCollector(engine, stats, moves, lambda: readiness.reachable)
        metrics_server = metrics.MetricsServer(collector, config.address.rsplit(":", 1)[0].strip("[]"),
                                               config.metrics_port)
    server = grpc.aio.server(interceptors=interceptors or None, options=[
        ("grpc.max_receive_message_length", config.max_message_bytes),
        ("grpc.max_send_message_length", 16 * config.max_message_bytes),
        ("grpc.so_reuseport", 0),
    ])
    wire.add_servicer(gamehost_pb2_grpc.add_GameHostServicer_to_server, GameHostService(engine, Gate()), server)
    wire.add_servicer(health_pb2_grpc.add_HealthServicer_to_server, health_servicer, server, gated=False)
    reflection.enable_server_reflection(
        [SERVICE_NAME, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name, reflection.SERVICE_NAME], server)
    port = server.add_insecure_port(config.address)
    if port == 0:
        raise ListenError(f"cannot listen on {config.address}")
    await server.start()
    for name in ("", SERVICE_NAME):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    readiness.start()
    web = None
    if config.web_port is not None:
        try:
            web = await start_web(config, port)
        except ListenError:
            await RunningHost(server, engine, health_servicer, port, readiness, metrics_server).stop(0)
            raise
    log.info("host serving", address=config.address, port=port, web_port=web.port if web else None,
             games=sorted(catalog.games), store=describe_store(config.store), data_dir=config.data_dir,
             replica=config.replica_id, metrics_port=metrics_server.port if metrics_server else None)
    return RunningHost(server, engine, health_servicer, port, readiness, metrics_server, web)


async def serve(config: HostConfig) -> None:
    """Run until SIGINT or SIGTERM, then stop gracefully."""
    host = await start_host(config)
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stopping.set)
    await stopping.wait()
    log.info("shutting down", grace_seconds=config.shutdown_grace)
    await host.stop(config.shutdown_grace)
