"""Host settings from flags, with environment variables as defaults."""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass, field


def _env(name: str, default: str) -> str:
    return os.environ.get(f"GAMEHOST_{name}", default)


def _env_number(name: str, default: float, kind: type) -> float:
    text = _env(name, str(default))
    try:
        return kind(text)
    except ValueError:
        raise SystemExit(f"gamehost: GAMEHOST_{name} must be a number, not {text!r}") from None


def parse_web_port(text: str) -> int | None:
    """A port number (0: a free one), or "off" for no HTTP port."""
    if text.strip().lower() == "off":
        return None
    port = int(text)
    if not 0 <= port <= 65535:
        raise ValueError(f"{port} is not a port number")
    return port


def _env_web_port() -> int | None:
    text = _env("WEB_PORT", str(HostConfig.web_port))
    try:
        return parse_web_port(text)
    except ValueError:
        raise SystemExit(f"gamehost: GAMEHOST_WEB_PORT must be a port number or 'off', not {text!r}") from None


def parse_game_timeouts(text: str) -> dict[str, float]:
    """``game=seconds`` pairs, comma-separated: per-game rules deadlines."""
    timeouts = {}
    for pair in filter(None, (part.strip() for part in text.split(","))):
        game, sep, seconds = pair.partition("=")
        if not sep or not game.strip():
            raise ValueError(f"expected game=seconds, not {pair[:40]!r}")
        value = float(seconds)
        if not 0 < value <= 3600:
            raise ValueError(f"a rules deadline is more than 0 and at most 3600 s, not {value}")
        timeouts[game.strip()] = value
    return timeouts


def parse_isolation(text: str) -> str:
    """"on" (every plugin in workers), "off" (every plugin in the host)."""
    if text.strip().lower() not in ("on", "off"):
        raise ValueError(f"isolation is 'on' or 'off', not {text[:20]!r}")
    return text.strip().lower()


@dataclass
class HostConfig:
    address: str = "127.0.0.1:50051"
    data_dir: str = "data"
    store: str = "sqlite"
    durability: str = "normal"  # "full": fsync every SQLite commit, for power loss
    log_format: str = "auto"
    log_level: str = "info"
    bot_delay: float = 0.0
    bot_delay_with_humans: float = 0.6  # seconds a bot waits in a match with a human seat: a person's pace
    bot_think_scale: float = 1.0  # multiplies the search bots' iterations and seconds (tests and slow machines)
    max_message_bytes: int = 1 << 20
    shutdown_grace: float = 5.0
    claim_lease: float = 10.0  # shared store: seconds before a dead replica's bot turns are taken over
    replica_id: str = field(default_factory=lambda: f"{socket.gethostname()}-{os.getpid()}")
    metrics_port: int | None = None  # Prometheus /metrics; None: off, 0: any free port
    webhook_url: str = ""  # turn notifications are POSTed here (webhooks.py); "": none sent
    webhook_secret: str = ""  # the HMAC-SHA256 key of their signature; required with webhook_url
    webhook_retry: float = 1.0  # seconds before the first retry of a failed delivery, doubled each time
    store_check_interval: float = 5.0  # seconds between readiness checks of the store
    web_port: int | None = 8080  # Connect, gRPC-Web and the web client; None: off
    cors_origins: str = ""  # comma-separated origins allowed cross-origin; "": same origin only
    web_root: str = ""  # "": the checkout's clients/web/dist when built; "off": no files
    api_keys: str = ""  # JSON file of API keys (name, sha256, roles, display_name); "": none
    jwks: str = ""  # JWKS URL or file of the identity provider; "": no JWTs
    jwt_issuer: str = ""
    jwt_audience: str = ""
    jwt_roles_claim: str = "roles"
    jwt_name_claim: str = "name"
    jwks_min_refresh: float = 10.0  # seconds between JWKS fetches caused by unknown key ids
    auth_required: bool = False  # refuse anonymous calls
    open_match_ttl: float = 24 * 3600.0  # seconds an open match may wait for players; 0: forever
    prune_finished_after: float = 0.0  # seconds after which over matches are deleted; 0: never
    retention_interval: float = 60.0  # seconds between expiry and pruning sweeps
    max_open_matches: int = 20  # open matches one principal may have created; 0: no limit
    max_bot_matches: int = 2  # running all-bot matches one principal may have created; 0: no limit
    chosen_seeds: str = "admins"  # who may choose the seed of a game with chance or hidden information
    # Per-caller budgets (quotas.py); a rate of 0 turns that limit off.
    call_rate: float = 50.0
    call_burst: float = 200.0
    create_rate: float = 2.0
    create_burst: float = 40.0
    max_watchers_per_caller: int = 64
    max_watchers: int = 10_000
    trusted_proxies: str = ""  # comma-separated proxy addresses/networks whose X-Forwarded-For is believed
    # Transport limits (transport.py).
    max_streams_per_connection: int = 1000
    max_connection_idle: float = 300.0  # seconds; 0: off
    max_connection_age: float = 0.0  # seconds; 0: off (it would end long watch streams)
    max_connection_age_grace: float = 600.0
    web_max_connections: int = 1000
    web_max_connections_per_peer: int = 64
    web_header_timeout: float = 10.0  # seconds for a new connection's first request headers
    web_keepalive_timeout: float = 30.0  # seconds an idle keep-alive connection stays open
    tls_cert: str = ""  # PEM files; both set: TLS on the gRPC and the web port
    tls_key: str = ""
    # Rules isolation (docs/architecture.md, "Rules workers")
    isolation: str = "on"  # "on": plugins' rules run in worker processes; "off": in the host
    trusted_plugins: str = ""  # comma-separated plugin names run in the host even when isolation is on
    workers: int = field(default_factory=lambda: os.cpu_count() or 1)
    worker_memory_mb: int = 1024  # address-space limit per worker (RLIMIT_AS); 0: none
    rules_timeout: float = 2.0  # seconds per rules call (apply, legal_moves, view, renderers...)
    game_rules_timeouts: str = ""  # per-game overrides, "game=seconds,..."
    bot_timeout: float = 5.0  # seconds a bot may think per move
    load_timeout: float = 30.0  # seconds to load a match into a worker (snapshot + log replay)
    max_strikes: int = 3  # rules failures before a match is suspended

    @classmethod
    def from_env(cls) -> "HostConfig":
        return cls(
            address=_env("ADDRESS", cls.address),
            data_dir=_env("DATA_DIR", cls.data_dir),
            store=_env("STORE", cls.store),
            durability=_env("DURABILITY", cls.durability),
            log_format=_env("LOG_FORMAT", cls.log_format),
            log_level=_env("LOG_LEVEL", cls.log_level),
            bot_delay=_env_number("BOT_DELAY", cls.bot_delay, float),
            bot_delay_with_humans=_env_number("BOT_DELAY_WITH_HUMANS", cls.bot_delay_with_humans, float),
            bot_think_scale=_env_number("BOT_THINK_SCALE", cls.bot_think_scale, float),
            max_message_bytes=_env_number("MAX_MESSAGE_BYTES", cls.max_message_bytes, int),
            shutdown_grace=_env_number("SHUTDOWN_GRACE", cls.shutdown_grace, float),
            claim_lease=_env_number("CLAIM_LEASE", cls.claim_lease, float),
            **({"replica_id": os.environ["GAMEHOST_REPLICA_ID"]} if os.environ.get("GAMEHOST_REPLICA_ID") else {}),
            metrics_port=_env_number("METRICS_PORT", 0, int) if _env("METRICS_PORT", "") else None,
            store_check_interval=_env_number("STORE_CHECK_INTERVAL", cls.store_check_interval, float),
            webhook_url=_env("WEBHOOK_URL", cls.webhook_url),
            webhook_secret=_env("WEBHOOK_SECRET", cls.webhook_secret),
            webhook_retry=_env_number("WEBHOOK_RETRY", cls.webhook_retry, float),
            web_port=_env_web_port(),
            cors_origins=_env("CORS_ORIGINS", cls.cors_origins),
            web_root=_env("WEB_ROOT", cls.web_root),
            api_keys=_env("API_KEYS", cls.api_keys),
            jwks=_env("JWKS", cls.jwks),
            jwt_issuer=_env("JWT_ISSUER", cls.jwt_issuer),
            jwt_audience=_env("JWT_AUDIENCE", cls.jwt_audience),
            jwt_roles_claim=_env("JWT_ROLES_CLAIM", cls.jwt_roles_claim),
            jwt_name_claim=_env("JWT_NAME_CLAIM", cls.jwt_name_claim),
            jwks_min_refresh=_env_number("JWKS_MIN_REFRESH", cls.jwks_min_refresh, float),
            auth_required=_env("AUTH_REQUIRED", "").lower() in ("1", "true", "yes", "on"),
            open_match_ttl=_env_number("OPEN_MATCH_TTL", cls.open_match_ttl, float),
            prune_finished_after=_env_number("PRUNE_FINISHED_AFTER", cls.prune_finished_after, float),
            retention_interval=_env_number("RETENTION_INTERVAL", cls.retention_interval, float),
            max_open_matches=_env_number("MAX_OPEN_MATCHES", cls.max_open_matches, int),
            max_bot_matches=_env_number("MAX_BOT_MATCHES", cls.max_bot_matches, int),
            chosen_seeds=_env("CHOSEN_SEEDS", cls.chosen_seeds),
            call_rate=_env_number("CALL_RATE", cls.call_rate, float),
            call_burst=_env_number("CALL_BURST", cls.call_burst, float),
            create_rate=_env_number("CREATE_RATE", cls.create_rate, float),
            create_burst=_env_number("CREATE_BURST", cls.create_burst, float),
            max_watchers_per_caller=_env_number("MAX_WATCHERS_PER_CALLER", cls.max_watchers_per_caller, int),
            max_watchers=_env_number("MAX_WATCHERS", cls.max_watchers, int),
            trusted_proxies=_env("TRUSTED_PROXIES", cls.trusted_proxies),
            max_streams_per_connection=_env_number("MAX_STREAMS_PER_CONNECTION", cls.max_streams_per_connection,
                                                   int),
            max_connection_idle=_env_number("MAX_CONNECTION_IDLE", cls.max_connection_idle, float),
            max_connection_age=_env_number("MAX_CONNECTION_AGE", cls.max_connection_age, float),
            max_connection_age_grace=_env_number("MAX_CONNECTION_AGE_GRACE", cls.max_connection_age_grace, float),
            web_max_connections=_env_number("WEB_MAX_CONNECTIONS", cls.web_max_connections, int),
            web_max_connections_per_peer=_env_number("WEB_MAX_CONNECTIONS_PER_PEER",
                                                     cls.web_max_connections_per_peer, int),
            web_header_timeout=_env_number("WEB_HEADER_TIMEOUT", cls.web_header_timeout, float),
            web_keepalive_timeout=_env_number("WEB_KEEPALIVE_TIMEOUT", cls.web_keepalive_timeout, float),
            tls_cert=_env("TLS_CERT", cls.tls_cert),
            tls_key=_env("TLS_KEY", cls.tls_key),
            isolation=_env("ISOLATION", cls.isolation),
            trusted_plugins=_env("TRUSTED_PLUGINS", cls.trusted_plugins),
            workers=_env_number("WORKERS", os.cpu_count() or 1, int),
            worker_memory_mb=_env_number("WORKER_MEMORY_MB", cls.worker_memory_mb, int),
            rules_timeout=_env_number("RULES_TIMEOUT", cls.rules_timeout, float),
            game_rules_timeouts=_env("GAME_RULES_TIMEOUTS", cls.game_rules_timeouts),
            bot_timeout=_env_number("BOT_TIMEOUT", cls.bot_timeout, float),
            load_timeout=_env_number("LOAD_TIMEOUT", cls.load_timeout, float),
            max_strikes=_env_number("MAX_STRIKES", cls.max_strikes, int),
        )

    def quota_limits(self):
        from gamehost.host.quotas import QuotaLimits

        return QuotaLimits(call_rate=self.call_rate, call_burst=self.call_burst, create_rate=self.create_rate,
                           create_burst=self.create_burst, watchers_per_caller=self.max_watchers_per_caller,
                           watchers=self.max_watchers)

    def auth_settings(self):
        from gamehost.host.auth.authenticator import AuthSettings

        return AuthSettings(api_keys=self.api_keys, jwks=self.jwks, jwt_issuer=self.jwt_issuer,
                            jwt_audience=self.jwt_audience, jwt_roles_claim=self.jwt_roles_claim,
                            jwt_name_claim=self.jwt_name_claim, jwks_min_refresh=self.jwks_min_refresh,
                            required=self.auth_required)

