"""Assembling and running a host: store, plugins, engine, gRPC server."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from dataclasses import dataclass
from typing import TYPE_CHECKING

import grpc
import structlog
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection, reflection_pb2_grpc

from gamehost.host.rpc import grpc_handlers
from gamehost.host.rpc.admin_service import GameHostAdminService
from gamehost.host.ops.config import HostConfig, parse_game_timeouts
from gamehost.host.rpc.delivery_admin import DeliveryAdministration
from gamehost.host.engine.match_engine import MatchEngine
from gamehost.host.rpc.forwarded_caller import SiblingGate
from gamehost.host.ops.forwarding import Forwarder
from gamehost.host.ops.grpc_front import FrontLimits, GrpcFront
from gamehost.host.auth.authenticator import Authenticator
from gamehost.host.auth.bans import BannedSubjects
from gamehost.host.collector import QuietCollector, settle_after_start
from gamehost.host.rpc.gate import Gate
from gamehost.host.engine.match_quotas import MatchQuotas
from gamehost.host.rpc.peers import QuotaNetworks, PeerResolver, new_gateway_key, parse_networks
from gamehost.host.plugins import Catalog, load_catalog
from gamehost.host.ops import trace_export
from gamehost.host.ops.page_address import announce_page
from gamehost.host.ops.ports import ensure_ports_free
from gamehost.host.rpc.push_calls import PushCalls
from gamehost.host.rpc.quotas import Quotas
from gamehost.host.ops.loop_lag import LoopLag
from gamehost.host.ops.readiness import StoreReadiness
from gamehost.host.ops.retention import Retention
from gamehost.host.rpc.service import GameHostService
from gamehost.host.ops.serving_group import GroupMember
from gamehost.host.store import Store, describe_store, open_store
from gamehost.host.ops.transport import (gateway_server_options, grpc_credentials, grpc_server_options,
                                     raise_open_file_limit, tls_enabled)
from gamehost.host.ops.web_port import ListenError, WebServer, start_web
from gamehost.host.workers.pool import WorkerPool
from gamehost.host.ops.webhooks import TurnNotifier
from gamehost.host.workers.runner import RulesBudgets, RulesPlacement
from gamehost.v1 import gamehost_pb2, gamehost_pb2_grpc
from gamehost.sdk.search import set_think_scale
from gamehost.host.ops.league import LeagueBudget, LeagueUnplayable, ScheduledLeague

if TYPE_CHECKING:  # prometheus_client is imported only when metrics are on
    from gamehost.host.ops.metrics import MetricsServer

log = structlog.get_logger("gamehost.server")

SERVICE_NAME = gamehost_pb2.DESCRIPTOR.services_by_name["GameHost"].full_name
ADMIN_SERVICE_NAME = gamehost_pb2.DESCRIPTOR.services_by_name["GameHostAdmin"].full_name

# The servicers of the public port and of the web gateway's: the game's, the administration's, health.
Services = tuple[GameHostService, GameHostAdminService, health.aio.HealthServicer]


@dataclass
class RunningHost:
    server: grpc.aio.Server
    engine: MatchEngine
    health: health.aio.HealthServicer
    port: int
    readiness: StoreReadiness | None = None
    metrics: MetricsServer | None = None
    web: WebServer | None = None
    gateway_server: grpc.aio.Server | None = None  # the web gateway's own loopback gRPC server
    sibling_server: grpc.aio.Server | None = None  # a serving group's: calls forwarded by the other processes
    forwarder: Forwarder | None = None
    front: GrpcFront | None = None  # the public gRPC listener, in front of grpc's loopback one

    async def stop(self, grace: float = 5.0) -> None:
        """Graceful stop: probes see NOT_SERVING, in-flight calls finish,
        streams close, then the store."""
        if self.readiness:
            await self.readiness.stop()
        await self.health.enter_graceful_shutdown()
        await self.engine.close()
        if self.front:
            self.front.stop_accepting()
        await asyncio.gather(self.server.stop(grace), *([self.web.stop()] if self.web else []),
                             *([self.gateway_server.stop(grace)] if self.gateway_server else []),
                             *([self.sibling_server.stop(grace)] if self.sibling_server else []))
        if self.front:
            self.front.close()
        if self.forwarder:
            await self.forwarder.close()
        await self.engine.close_rules()
        await self.engine.store.close()
        if self.metrics:
            await asyncio.to_thread(self.metrics.stop)
        log.info("host stopped", **({"calls_forwarded": self.forwarder.forwarded,
                                       "calls_served_for_an_away_owner": self.forwarder.fell_back}
                                      if self.forwarder else {}))


async def start_host(config: HostConfig, *, catalog: Catalog | None = None, store: Store | None = None,
                     member: GroupMember | None = None, own_process: bool = False) -> RunningHost:
    """The host, serving. ``member``: this process is one of a serving group
    (``--processes``), sharing the ports with its siblings. ``own_process``:
    the process is the host's alone (``serve``), so its garbage collector is
    set for serving; a host started inside another program (tests) leaves
    that program's collector as it is."""
    catalog = catalog or load_catalog()
    league = league_budget(config, catalog) if config.league_matches_per_hour else None  # checked before anything starts
    hook = catalog.plugin_manager.hook if catalog.plugin_manager else None
    # first, so a key file the host cannot read stops it before the store and the workers start
    authenticator = Authenticator(config.auth_settings(), hook.gamehost_authenticate.get_hookimpls() if hook else ())
    store = store or open_store(config.store, config.data_dir, config.durability, owner=config.replica_id,
                                claim_lease=config.claim_lease)
    await store.open()
    moves = None
    if config.metrics_port is not None:
        from gamehost.host.ops import metrics  # prometheus_client is loaded only when metrics are on
        moves = metrics.MoveCounter()
        if catalog.plugin_manager:  # before the engine collects the observers
            catalog.plugin_manager.register(moves)
    notifier = None
    if config.webhook_url and catalog.plugin_manager:  # before the engine collects the observers
        notifier = TurnNotifier(config.webhook_url, config.webhook_secret, config.webhook_retry, config.claim_lease)
        catalog.plugin_manager.register(notifier, name="gamehost-webhooks")
    push = None
    if config.push_vapid_key and catalog.plugin_manager:  # before the engine collects the observers
        from gamehost.host.ops.push import PushSender, vapid_key  # pywebpush is loaded only when push is on

        push_key = vapid_key(config.push_vapid_key)
        push = PushSender(push_key, config.push_contact)
        catalog.plugin_manager.register(push, name="gamehost-push")
    set_think_scale(config.bot_think_scale)  # before the workers start: they inherit it
    bans = BannedSubjects()  # the engine's chat keeps it up to date, the gate refuses whom it names
    engine = MatchEngine(catalog, store, bot_delay=config.bot_delay, bot_delay_with_humans=config.bot_delay_with_humans,
                         chosen_seeds=config.chosen_seeds,
                         quotas=MatchQuotas(config.max_open_matches, config.max_bot_matches, config.open_match_ttl,
                                            max_unfinished=config.max_unfinished_matches,
                                            max_playing=config.max_player_matches),
                         placement=rules_placement(config), max_strikes=config.max_strikes,
                         undo_ask_lifetime=config.undo_ask_lifetime, max_asks_per_move=config.max_undo_asks,
                         max_match_events=config.max_match_events,
                         replay_cache_bytes=config.replay_cache_mb * 1024 * 1024,
                         agent_timeout=config.agent_timeout, bans=bans)
    if notifier is not None:
        notifier.attach(engine)
    if push is not None:
        push.attach(engine)
    await engine.start()
    if own_process:
        settle_after_start()  # start-up's objects frozen, collections set for a long-lived process
        engine.background(QuietCollector().run())  # after a load, its garbage and free memory given back
    engine.background(LoopLag().run())  # logs a saturated loop: calls then wait in grpc's queue
    if config.open_match_ttl or config.prune_finished_after or config.idle_match_ttl:
        engine.background(Retention(engine, config.open_match_ttl, config.prune_finished_after,
                                    config.retention_interval, config.idle_match_ttl).run())
    if league is not None:
        engine.background(ScheduledLeague(engine, league).run())
    health_servicer = health.aio.HealthServicer()
    readiness = StoreReadiness(store, health_servicer, SERVICE_NAME, config.store_check_interval)

    interceptors, metrics_server = [], None
    if moves is not None and config.metrics_port is not None:  # metrics on: moves are counted
        stats = metrics.RpcStats()
        interceptors.append(metrics.MetricsInterceptor(stats))
        collector = metrics.HostCollector(engine, stats, moves, lambda: readiness.reachable)
        metrics_server = metrics.MetricsServer(collector, config.address.rsplit(":", 1)[0].strip("[]"),
                                               config.metrics_port)
    options = grpc_server_options(config)
    if member is not None:  # the siblings listen on the same port; the kernel spreads the connections
        options = [*(option for option in options if option[0] != "grpc.so_reuseport"), ("grpc.so_reuseport", 1)]
    server = grpc.aio.server(interceptors=interceptors or None, options=options)
    gateway_key = new_gateway_key()
    front = GrpcFront(FrontLimits(config.max_connections, config.max_connections_per_peer,
                                  config.first_call_timeout)) \
        if config.max_connections or config.max_connections_per_peer or config.first_call_timeout else None
    gate = Gate(authenticator, Quotas(config.quota_limits()),
                PeerResolver(gateway_key, parse_networks(config.trusted_proxies),
                             QuotaNetworks(config.quota_ipv4_prefix, config.quota_ipv6_prefix),
                             front.client_of if front else None),
                bans=bans)
    matches = GameHostService(engine, gate, PushCalls(store, push.application_server_key,
                                                      insecure_endpoints=config.push_insecure_endpoints)
                              if push is not None else None)
    services: Services = (matches, GameHostAdminService(engine, gate, matches, DeliveryAdministration(store, notifier)),
                          health_servicer)
    forwarder = Forwarder(member, gate, config.max_message_bytes) if member is not None else None
    _add_services(server, *services, router=forwarder)
    tls = tls_enabled(config)
    listen = "127.0.0.1:0" if front else config.address  # the front listens on the address, grpc behind it
    try:
        port = server.add_secure_port(listen, grpc_credentials(config)) if tls else server.add_insecure_port(listen)
    except RuntimeError:  # taken since ensure_ports_free looked
        port = 0
    if port == 0:
        await RunningHost(server, engine, health_servicer, 0, forwarder=forwarder, front=front).stop(0)
        raise ListenError(f"cannot listen on {config.address} (--port/--address): the port is taken or the "
                          "address is not this machine's")
    sibling_server = await _start_sibling_server(config, member, engine) if member else None
    await server.start()
    if front:
        try:
            port = await front.start(config.address, port, reuse_port=member is not None)
        except OSError:
            await RunningHost(server, engine, health_servicer, 0, sibling_server=sibling_server, forwarder=forwarder,
                              front=front).stop(0)
            raise ListenError(f"cannot listen on {config.address} (--port/--address): the port is taken or the "
                              "address is not this machine's") from None
    for name in ("", SERVICE_NAME):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    readiness.start()
    web = gateway_server = None
    if config.web_port is not None:
        gateway_server, gateway_port = await _start_gateway_server(config, interceptors, services, forwarder)
        try:
            web = await start_web(config, config.web_port, gateway_port, gateway_key, reuse_port=member is not None)
        except ListenError:
            await RunningHost(server, engine, health_servicer, port, readiness, metrics_server,
                              gateway_server=gateway_server, sibling_server=sibling_server,
                              forwarder=forwarder, front=front).stop(0)
            raise
    # Before "host serving", so that whoever waits for that line has read this one.
    if member is None:
        announce_page(config, web.port if web else None)
    # A group's supervisor says "host serving" once every process is ready.
    log.info("host serving" if member is None else "serving process ready", address=config.address, port=port,
             web_port=web.port if web else None, games=sorted(catalog.games), store=describe_store(config.store),
             data_dir=config.data_dir, replica=config.replica_id, pid=os.getpid(),
             metrics_port=metrics_server.port if metrics_server else None, tls=tls,
             event_loop=type(asyncio.get_running_loop()).__module__.split(".")[0])  # asyncio or uvloop (--event-loop)
    return RunningHost(server, engine, health_servicer, port, readiness, metrics_server, web, gateway_server,
                       sibling_server, forwarder, front)


REFLECTED = [SERVICE_NAME, ADMIN_SERVICE_NAME, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
             reflection.SERVICE_NAME]


def _add_services(server: grpc.aio.Server, matches: GameHostService, admin: GameHostAdminService,
                  health_servicer, router: Forwarder | None = None) -> None:
    """The host's services on ``server``. Health and reflection take no
    credentials: their calls spend their address's budget and their streams
    are capped per address (``Gate.admit_probe``)."""
    grpc_handlers.add_servicer(gamehost_pb2_grpc.add_GameHostServicer_to_server, matches, server, router=router)
    grpc_handlers.add_servicer(gamehost_pb2_grpc.add_GameHostAdminServicer_to_server, admin, server, router=router)
    admit = matches.gate.admit_probe
    grpc_handlers.add_servicer(health_pb2_grpc.add_HealthServicer_to_server, health_servicer, server, gated=False,
                               admit=admit)
    grpc_handlers.add_servicer(reflection_pb2_grpc.add_ServerReflectionServicer_to_server,
                               reflection.aio.ReflectionServicer(REFLECTED), server, gated=False, admit=admit)


async def _start_gateway_server(config: HostConfig, interceptors, services: Services,
                                forwarder: Forwarder | None) -> tuple[grpc.aio.Server, int]:
    """The same servicer on a plaintext port of 127.0.0.1, for the web
    gateway alone. Its one connection carries every browser's calls, so the
    public port's per-connection limits (streams, idle, age) must not apply
    to it; and it stays plaintext with TLS on: it never leaves this machine,
    and the browser's own connection is the one TLS protects."""
    server = grpc.aio.server(interceptors=interceptors or None, options=gateway_server_options(config))
    matches, admin, health_servicer = services
    _add_services(server, matches, admin, health_servicer, router=forwarder)
    port = server.add_insecure_port("127.0.0.1:0")
    if port == 0:
        raise ListenError("cannot listen on 127.0.0.1 for the web gateway")
    await server.start()
    return server, port


async def _start_sibling_server(config: HostConfig, member: GroupMember, engine: MatchEngine) -> grpc.aio.Server:
    """The server on this process's Unix socket, where the other processes
    of its group forward calls about the matches it owns. Its gate takes the
    caller they admitted (forwarded_caller.py); its calls are not routed
    again, nor counted in the RPC metrics (the process that received a call
    counts it, with the status the owner answered)."""
    gate = SiblingGate()
    matches = GameHostService(engine, gate)
    server = grpc.aio.server(options=gateway_server_options(config))
    _add_services(server, matches, GameHostAdminService(engine, gate, matches), health.aio.HealthServicer())
    with contextlib.suppress(FileNotFoundError):  # left by this index's previous process, killed
        os.unlink(member.socket)
    if server.add_insecure_port(f"unix:{member.socket}") == 0:
        raise ListenError(f"cannot listen on {member.socket} for the serving group")
    await server.start()
    return server


def league_budget(config: HostConfig, catalog: Catalog) -> LeagueBudget:
    """The scheduled league's budget and games; a game this host does not serve stops it with a message."""
    games = tuple(filter(None, (game.strip() for game in config.league_games.split(",")))) or tuple(sorted(catalog.games))
    unknown = [game for game in games if game not in catalog.games]
    if unknown:
        raise LeagueUnplayable(f"--league-games names {', '.join(unknown)}, which this host does not serve (its games: "
                         f"{', '.join(sorted(catalog.games))})")
    return LeagueBudget(config.league_matches_per_hour, config.league_max_concurrent,
                        config.league_cpu_seconds_per_hour, games)


def rules_placement(config: HostConfig) -> RulesPlacement:
    """Where the plugins' rules run: worker processes, unless isolation is
    off (every plugin trusted)."""
    budgets = RulesBudgets(rules=config.rules_timeout, bot=config.bot_timeout, load=config.load_timeout,
                           per_game=parse_game_timeouts(config.game_rules_timeouts))
    if config.isolation == "off":
        return RulesPlacement(budgets=budgets)
    trusted = frozenset(filter(None, (name.strip() for name in config.trusted_plugins.split(","))))
    pool = WorkerPool(config.workers, memory_mb=config.worker_memory_mb)
    return RulesPlacement(pool=pool, trusted=trusted, budgets=budgets)


def _log_uncaught(loop: asyncio.AbstractEventLoop, context: dict) -> None:
    """An exception that no task or callback caught, as one structured line
    (the loop's default handler prints a bare traceback to stderr)."""
    log.error("uncaught in the event loop", message=context.get("message"), exc_info=context.get("exception"))


async def serve(config: HostConfig, member: GroupMember | None = None) -> None:
    """Run until SIGINT or SIGTERM, then stop gracefully. A group's member
    tells its supervisor it is ready with a line on stdout."""
    if member is None:  # a group's supervisor checked them: its siblings hold them now
        ensure_ports_free(config)
    raise_open_file_limit()
    # The handlers come first: "host serving" is logged inside start_host, and a
    # SIGTERM sent on seeing it must stop the host gracefully, not kill it.
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(_log_uncaught)
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stopping.set)
    export = trace_export.start()  # the OTEL_* variables: off unless they ask
    try:
        host = await start_host(config, member=member, own_process=True)
        if member is not None:
            print(f"ready {host.port}", flush=True)
        await stopping.wait()
        log.info("shutting down", grace_seconds=config.shutdown_grace)
        await host.stop(config.shutdown_grace)
    finally:
        await asyncio.to_thread(trace_export.stop, export)  # the spans still queued are sent
