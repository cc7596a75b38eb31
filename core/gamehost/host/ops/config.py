"""Host settings: each declared once, here, with its type, default, help and
checks. `gamehost serve` makes a flag of each (cli/setting_flags.py), reads
GAMEHOST_<NAME> from the environment and <name> from an optional TOML file
(settings_sources.py): flag over environment over file over default."""

from __future__ import annotations

import os
import socket
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BeforeValidator, Field, model_validator
from pydantic.json_schema import JsonDict
from pydantic_settings import BaseSettings, SettingsConfigDict


def parse_web_port(text: str) -> int | None:
    """A port number (0: a free one), or "off" for no HTTP port."""
    if text.strip().lower() == "off":
        return None
    port = int(text)
    if not 0 <= port <= 65535:
        raise ValueError(f"{port} is not a port number")
    return port


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


class SettingsConflict(ValueError):
    """Settings that are fine alone but not together; names them, so the
    message can say where each came from."""

    def __init__(self, message: str, *names: str) -> None:
        super().__init__(message)
        self.names = names


# The checks each setting's type carries. A ValueError's text is the whole
# complaint; the loader adds which setting and where it came from.

def _port_or_off(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return parse_web_port(value)
        except ValueError:
            raise ValueError(f"must be a port number or 'off', not {value!r}") from None
    return value


def _port_range(value: int | None) -> int | None:
    if value is not None and not 0 <= value <= 65535:
        raise ValueError(f"{value} is not a port number")
    return value


def _at_least_zero(value: float) -> float:
    if value < 0:
        raise ValueError(f"must be 0 or more, not {value}")
    return value


def _more_than_zero(value: float) -> float:
    if value <= 0:
        raise ValueError(f"must be more than 0, not {value}")
    return value


def _deadline(value: float) -> float:
    if not 0 < value <= 3600:
        raise ValueError(f"{value} is not more than 0 and at most 3600 seconds")
    return value


def usable_cores() -> int:
    """The cores this process may run on: its CPU affinity (``taskset``, a
    container's cpuset), not the machine's count. Workers beyond them only
    compete for the same cores and hold their own copy of the plugins
    (bench/README.md, "one worker or two on one core")."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def shares_matches(store: str) -> bool:
    """Whether serving processes on ``store`` see each other's moves (PostgreSQL), so that several may serve."""
    return store.startswith(("postgresql://", "postgres://"))


def _from(low: int, high: int):
    def in_range(value: int) -> int:
        if not low <= value <= high:
            raise ValueError(f"{value} is not from {low} to {high}")
        return value
    return in_range


def _comma_list(value: Any) -> Any:
    """A TOML list of strings, or the comma-separated text flags and variables give."""
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return ",".join(value)
    return value


def _game_seconds(value: Any) -> Any:
    """A TOML table {game = seconds}, or "game=seconds,..." text; checked either way."""
    if isinstance(value, dict):
        value = ",".join(f"{game}={seconds}" for game, seconds in value.items())
    if isinstance(value, str):
        parse_game_timeouts(value)
    return value


def _isolation(value: Any) -> Any:
    return parse_isolation(value) if isinstance(value, str) else value


def _origins(value: str) -> str:
    from gamehost.host.web.cors import parse_origins

    parse_origins(value)
    return value


def _networks(value: str) -> str:
    from gamehost.host.rpc.peers import parse_networks

    parse_networks(value)
    return value


def _store(value: str) -> str:
    if value in ("sqlite", "memory") or value.startswith(("sqlite://", "postgresql://", "postgres://")):
        return value
    from gamehost.host.store import describe_store

    raise ValueError("must be 'sqlite', 'memory', 'sqlite:///path/file.db' or "
                     f"'postgresql://user:password@host:port/database', not {describe_store(value)!r}")


def _event_loop(value: str) -> str:
    from gamehost.host.ops.event_loops import uvloop_installed

    if value == "uvloop" and not uvloop_installed():
        raise ValueError("uvloop is not installed here (pip install uvloop), or choose 'auto' or 'asyncio'")
    return value


def _web_root(value: str) -> str:
    if value not in ("", "off") and not os.path.isdir(value):
        raise ValueError(f"{value!r} is not a directory")
    return value


def _file_or_none(value: str) -> str:
    if value and not os.path.isfile(value):
        raise ValueError(f"{value!r} is not a readable file")
    return value


Port = Annotated[int | None, BeforeValidator(_port_or_off), AfterValidator(_port_range)]
NonNegative = Annotated[float, AfterValidator(_at_least_zero)]
NonNegativeCount = Annotated[int, AfterValidator(_at_least_zero)]
Positive = Annotated[float, AfterValidator(_more_than_zero)]
Deadline = Annotated[float, AfterValidator(_deadline)]
CommaList = Annotated[str, BeforeValidator(_comma_list)]


def setting(default: Any = None, help: str = "", *, group: str = "", metavar: str = "", shown: str = "",
            factory: Any = None) -> Any:
    """A field with what its flag needs: help, its --help group, a metavar, and
    ``shown``: the default as --help says it, where its value does not."""
    extra: JsonDict = {key: value for key, value in (("group", group), ("metavar", metavar), ("shown", shown)) if value}
    if factory is not None:
        return Field(default_factory=factory, description=help, json_schema_extra=extra)
    return Field(default, description=help, json_schema_extra=extra)


IDENTITIES = "identities (docs/security.md)"
RETENTION = "retention and quotas"
LIMITS = "limits and TLS (docs/security.md)"
ISOLATION = "rules isolation"
LEAGUE = "scheduled league"


class HostConfig(BaseSettings):
    """What `gamehost serve` runs with. Built in code it is only the values
    given (tests); `settings_sources.load_settings` adds flags, GAMEHOST_*
    variables and the TOML file."""

    model_config = SettingsConfigDict(env_prefix="GAMEHOST_", env_ignore_empty=True, extra="forbid")

    address: str = setting("127.0.0.1:50051", "listen address")
    data_dir: str = setting("data", "where the SQLite store lives")
    store: Annotated[str, AfterValidator(_store)] = setting(
        "sqlite", "'sqlite' (in --data-dir), 'memory', 'sqlite:///path/file.db' or "
                  "'postgresql://user:password@host:port/database', shared by replicas")
    durability: Literal["normal", "full"] = setting(
        "normal", "SQLite: 'normal' keeps every commit across a host crash, 'full' also across power loss, "
                  "with an fsync per move")
    log_format: Literal["auto", "console", "json"] = setting(
        "auto", "console lines for a terminal, JSON otherwise")
    log_level: Literal["debug", "info", "warning", "error"] = setting("info", "least level logged")
    event_loop: Annotated[Literal["auto", "asyncio", "uvloop"], AfterValidator(_event_loop)] = setting(
        "auto", "the serving loop: 'auto' is uvloop where it is installed, else asyncio's")
    max_message_bytes: NonNegativeCount = setting(
        1 << 20, "largest request accepted; larger ones get RESOURCE_EXHAUSTED")
    shutdown_grace: NonNegative = setting(5.0, "seconds in-flight calls get to finish on SIGTERM")
    bot_delay: NonNegative = setting(0.0, "seconds a bot waits before it moves in an all-bot match")
    bot_delay_with_humans: NonNegative = setting(
        0.6, "seconds a bot waits before it moves in a match with a human seat: a person's pace")
    agent_timeout: Positive = setting(
        5.0, "seconds a remote agent has to answer a turn before the fallback bot plays it and the agent gets a "
             "strike")
    bot_think_scale: Positive = setting(
        1.0, "multiplies the search bots' iteration and time budgets; below 1 for slow machines and tests")
    league_matches_per_hour: NonNegative = setting(
        0.0, "the scheduled league: rated matches among the search bot levels started an hour, evenly spaced, so "
             "each game's leaderboard shows where the levels stand; 0 (the default) plays none", group=LEAGUE)
    league_max_concurrent: Annotated[int, AfterValidator(_from(1, 64))] = setting(
        1, "league matches running at once", group=LEAGUE)
    league_cpu_seconds_per_hour: Positive = setting(
        300.0, "seconds of bot thinking the league may spend in any hour (a league match's bots think one at a "
               "time, so each counts its running time); past it the league waits", group=LEAGUE, metavar="SECONDS")
    league_games: str = setting("", "the games the league plays, comma-separated ids; '' plays every game",
                                group=LEAGUE, metavar="GAME,...")
    claim_lease: NonNegative = setting(
        10.0, "PostgreSQL: seconds after which a bot turn claimed by a replica that died is taken over by another "
              "(a webhook delivery attempt: 10 s more)")
    replica_id: str = setting(help="this replica's name in bot-turn claims", shown="hostname-pid",
                              factory=lambda: f"{socket.gethostname()}-{os.getpid()}")
    processes: Annotated[int, AfterValidator(_from(0, 256))] = setting(
        0, "serving processes sharing the gRPC and web ports (SO_REUSEPORT), each owning a share of the matches; "
           "more than 1 needs a PostgreSQL store, and --workers and --metrics-port are then split among them; "
           "0: one per core this process may use with a PostgreSQL store, 1 with another",
        shown="0 (one per core with PostgreSQL)")
    metrics_port: Port = setting(
        None, "serve Prometheus metrics at http://ADDRESS:PORT/metrics; 0 picks a free port, 'off' serves none")
    store_check_interval: Positive = setting(5.0, "seconds between readiness checks of the store")
    undo_ask_lifetime: Positive = setting(
        300.0, "seconds an ask to take a move back stays open unanswered; then it lapses, with an event",
        metavar="SECONDS")
    max_undo_asks: Annotated[int, AfterValidator(_from(1, 1_000_000))] = setting(
        3, "times a player may ask to take back the same move (each ask and its answer are events in the log)")
    max_match_events: Annotated[int, AfterValidator(_from(10, 10_000_000))] = setting(
        10_000, "events a match's log may hold before no more undo asks are taken (moves still are)")
    replay_cache_mb: Annotated[int, AfterValidator(_from(0, 65_536))] = setting(
        32, "megabytes of finished matches' replays (past views, their pictures, logs) kept in memory for "
            "readers stepping through them; the least recently read go first", metavar="MB")
    webhook_url: str = setting("", "POST a signed turn notification here when it becomes a player's turn and "
                                   "when a match ends; '' sends none", metavar="URL")
    webhook_secret: str = setting("", "the HMAC-SHA256 key of the notifications' Gamehost-Signature; required "
                                      "with --webhook-url")
    webhook_retry: Positive = setting(1.0, "seconds before the first retry of a failed notification, doubled at "
                                           "each retry", metavar="SECONDS")
    push_vapid_key: str = setting("", "send Web Push (your turn, match over) to the browsers players subscribe, "
                                      "signed with this VAPID private key (PEM; made there if missing); '' sends "
                                      "none", metavar="FILE")
    push_contact: str = setting("mailto:webmaster@localhost", "how push services reach the operator (VAPID "
                                "'sub' claim): a mailto: or https: URL", metavar="URL")
    push_insecure_endpoints: bool = setting(False, "accept http:// push endpoints (a local push service in "
                                                   "development); off: https only")
    web_port: Port = setting(
        8080, "HTTP port for browsers: Connect, gRPC-Web and the web client; 0 picks a free port, 'off' serves none")
    cors_origins: Annotated[CommaList, AfterValidator(_origins)] = setting(
        "", "comma-separated origins whose pages may call the host, e.g. http://localhost:5173, or '*'",
        shown="same origin only")
    web_root: Annotated[str, AfterValidator(_web_root)] = setting(
        "", "directory served at / on the web port; 'off' serves no files",
        shown="clients/web/dist of this checkout when built")

    api_keys: str = setting("", "JSON file of API keys (name, sha256, roles, display_name); make entries with "
                                "`gamehost api-key`", group=IDENTITIES, metavar="FILE")
    jwks: str = setting("", "the identity provider's JWKS, to accept its JWTs as bearer tokens",
                        group=IDENTITIES, metavar="URL|FILE")
    jwt_issuer: str = setting("", "the iss every JWT must carry", group=IDENTITIES)
    jwt_audience: str = setting("", "the aud every JWT must carry", group=IDENTITIES)
    jwt_roles_claim: str = setting("roles", "claim holding the caller's roles, a dotted path allowed, e.g. "
                                            "realm_access.roles", group=IDENTITIES)
    jwt_name_claim: str = setting("name", "claim holding the display name", group=IDENTITIES)
    jwks_min_refresh: NonNegative = setting(10.0, "least time between JWKS fetches caused by unknown key ids",
                                            group=IDENTITIES, metavar="SECONDS")
    auth_required: bool = setting(False, "refuse anonymous calls", group=IDENTITIES)

    open_match_ttl: NonNegative = setting(24 * 3600.0, "abort open matches that did not start within this "
                                                       "time; 0: never", group=RETENTION, metavar="SECONDS")
    prune_finished_after: NonNegative = setting(0.0, "delete matches over for this long, with their logs; "
                                                     "0: never", group=RETENTION, metavar="SECONDS")
    retention_interval: Positive = setting(60.0, "seconds between expiry and pruning sweeps", group=RETENTION,
                                           metavar="SECONDS")
    max_open_matches: NonNegativeCount = setting(20, "open matches one caller may have created at once; "
                                                     "0: no limit", group=RETENTION)
    max_bot_matches: NonNegativeCount = setting(2, "running matches the host plays alone (bots, absent players, "
                                                   "players whose turns keep timing out) one caller may have "
                                                   "created at once; 0: no limit", group=RETENTION)
    max_unfinished_matches: NonNegativeCount = setting(50, "open and active matches one caller may have created "
                                                           "at once; 0: no limit", group=RETENTION)
    max_player_matches: NonNegativeCount = setting(50, "open and active matches one player (user, else address) "
                                                       "may sit in at once, tickets' matches included; 0: no limit",
                                                   group=RETENTION)
    idle_match_ttl: NonNegative = setting(31 * 24 * 3600.0, "abort active matches without a move for this long "
                                                            "(longer than any turn timeout); 0: never",
                                          group=RETENTION, metavar="SECONDS")
    chosen_seeds: Literal["admins", "anyone"] = setting(
        "admins", "who may choose the seed of a game with chance or hidden information: 'admins', or 'anyone' "
                  "on development and test hosts", group=RETENTION)

    # Per-caller budgets (quotas.py); a rate of 0 turns that limit off.
    call_rate: NonNegative = setting(50.0, "calls per second one caller (user, else address) may make; 0: no limit",
                                     group=LIMITS)
    call_burst: NonNegative = setting(200.0, "calls a caller that was quiet may make at once", group=LIMITS)
    create_rate: NonNegative = setting(2.0, "CreateMatch and JoinMatch calls per second per caller; 0: no limit",
                                       group=LIMITS)
    create_burst: NonNegative = setting(40.0, "CreateMatch and JoinMatch calls a quiet caller may make at once",
                                        group=LIMITS)
    max_watchers_per_caller: NonNegativeCount = setting(64, "open WatchMatch streams per caller; 0: no limit",
                                                        group=LIMITS)
    max_watchers: NonNegativeCount = setting(10_000, "open WatchMatch streams on this host; 0: no limit",
                                             group=LIMITS)
    quota_ipv4_prefix: Annotated[int, AfterValidator(_from(8, 32))] = setting(
        32, "IPv4 callers share one budget per network of this prefix length (loopback: one for all)",
        group=LIMITS)
    quota_ipv6_prefix: Annotated[int, AfterValidator(_from(16, 128))] = setting(
        64, "IPv6 callers share one budget per network of this prefix length: a /64 is one subscriber",
        group=LIMITS)
    max_sessions_per_caller: NonNegativeCount = setting(16, "open Session streams per caller; 0: no limit",
                                                        group=LIMITS)
    max_sessions: NonNegativeCount = setting(10_000, "open Session streams on this host; 0: no limit", group=LIMITS)
    session_idle_timeout: NonNegative = setting(30.0, "seconds a Session stream may stay open with no request and "
                                                      "no match followed; 0: no limit", group=LIMITS,
                                                metavar="SECONDS")
    max_probe_streams_per_caller: NonNegativeCount = setting(
        4, "open health Watch streams, and reflection streams, per address; 0: no limit", group=LIMITS)
    max_probe_streams: NonNegativeCount = setting(
        1000, "open health Watch streams, and reflection streams, on this host; 0: no limit", group=LIMITS)
    trusted_proxies: Annotated[CommaList, AfterValidator(_networks)] = setting(
        "", "comma-separated addresses or networks of reverse proxies whose X-Forwarded-For names the caller",
        group=LIMITS)
    # Transport limits (transport.py).
    max_streams_per_connection: NonNegativeCount = setting(1000, "concurrent calls on one gRPC connection",
                                                           group=LIMITS)
    max_connections: NonNegativeCount = setting(
        10_000, "open connections on the gRPC port; the oldest that has made no call makes room, else a new one is "
                "closed", group=LIMITS)
    max_connections_per_peer: NonNegativeCount = setting(
        64, "open connections on the gRPC port per client address (an IPv6 /64); with --max-connections and "
            "--first-call-timeout all 0, grpc listens on the port itself", group=LIMITS)
    first_call_timeout: NonNegative = setting(20.0, "seconds a new gRPC connection has to make its first call",
                                              group=LIMITS, metavar="SECONDS")
    max_connection_idle: NonNegative = setting(300.0, "seconds before a gRPC connection without calls is "
                                                      "closed; 0: never", group=LIMITS)
    max_connection_age: NonNegative = setting(0.0, "seconds before a gRPC connection is asked to reconnect; "
                                                   "0: never (it would end long watch streams)", group=LIMITS)
    max_connection_age_grace: NonNegative = setting(600.0, "seconds its calls (watch streams) then get to finish",
                                                    group=LIMITS)
    web_max_connections: NonNegativeCount = setting(
        1000, "open connections on the web port; the oldest that has not sent a request makes room, else a new "
              "one is closed", group=LIMITS)
    web_max_connections_per_peer: NonNegativeCount = setting(64, "open connections on the web port per client "
                                                                 "address", group=LIMITS)
    web_header_timeout: NonNegative = setting(10.0, "seconds a new web connection has to send its first "
                                                    "request's headers", group=LIMITS)
    web_keepalive_timeout: NonNegative = setting(30.0, "seconds an idle keep-alive web connection stays open",
                                                 group=LIMITS)
    tls_cert: Annotated[str, AfterValidator(_file_or_none)] = setting(
        "", "PEM certificate chain: serve TLS on the gRPC and the web port (with --tls-key)", group=LIMITS,
        metavar="FILE", shown="none (plaintext)")
    tls_key: Annotated[str, AfterValidator(_file_or_none)] = setting(
        "", "PEM private key of --tls-cert", group=LIMITS, metavar="FILE")

    # Rules isolation (docs/architecture.md, "Rules workers").
    isolation: Annotated[str, BeforeValidator(_isolation)] = setting(
        "on", "'on': plugins' rules, renderers and bots run in worker processes with deadlines and a memory "
              "limit; 'off': in the host, fastest, for trusted plugins only", group=ISOLATION)
    trusted_plugins: CommaList = setting("", "plugins run in the host even with isolation on", group=ISOLATION,
                                         metavar="NAME,...")
    workers: Annotated[int, AfterValidator(_from(1, 256))] = setting(
        help="worker processes for rules", group=ISOLATION, shown="the cores this process may use",
        factory=usable_cores)
    worker_memory_mb: Annotated[int, AfterValidator(_from(0, 1 << 20))] = setting(
        1024, "address-space limit of each worker in MB, 0 for none; a worker over it is replaced",
        group=ISOLATION)
    rules_timeout: Deadline = setting(2.0, "deadline of each rules call (apply, legal_moves, view, renderers...)",
                                      group=ISOLATION, metavar="SECONDS")
    game_rules_timeouts: Annotated[str, BeforeValidator(_game_seconds)] = setting(
        "", "per-game rules deadlines ('game=seconds,...'; in the file, a table)", group=ISOLATION,
        metavar="GAME=SECONDS,...")
    bot_timeout: Deadline = setting(5.0, "deadline of a bot's choice, from when it is asked for", group=ISOLATION,
                                    metavar="SECONDS")
    load_timeout: Deadline = setting(30.0, "deadline to load a match into a worker, replaying its log",
                                     group=ISOLATION, metavar="SECONDS")
    max_strikes: Annotated[int, AfterValidator(_from(1, 100))] = setting(
        3, "rules time-outs or crashes before a match is suspended", group=ISOLATION)

    @classmethod
    def settings_customise_sources(cls, settings_cls, init_settings, env_settings, dotenv_settings,
                                   file_secret_settings):
        # Built in code: the values given, nothing read. load_settings layers the sources itself, so
        # that a bad value can be traced to the one that gave it.
        return (init_settings,)

    @model_validator(mode="after")
    def _together(self) -> "HostConfig":
        if bool(self.tls_cert) != bool(self.tls_key):
            raise SettingsConflict("--tls-cert and --tls-key go together", "tls_cert", "tls_key")
        if self.webhook_url and not self.webhook_secret:
            raise SettingsConflict("--webhook-url needs --webhook-secret: notifications are signed",
                                   "webhook_url", "webhook_secret")
        if self.push_vapid_key and not self.push_contact.startswith(("mailto:", "https:")):
            raise SettingsConflict("--push-contact must be a mailto: or https: URL (push services require it)",
                                   "push_contact", "push_vapid_key")
        if self.processes == 0:  # one serving process serves on one core; only a shared store lets several
            self.processes = usable_cores() if shares_matches(self.store) else 1
        from gamehost.sdk.search import LEVELS

        hardest = LEVELS[-1]
        if not hardest.seconds * self.bot_think_scale < self.bot_timeout:
            raise SettingsConflict(
                f"--bot-think-scale must keep {hardest.name}'s {hardest.seconds:g} s times it under --bot-timeout "
                f"({self.bot_timeout} s), not {self.bot_think_scale}", "bot_think_scale", "bot_timeout")
        return self

    def quota_limits(self):
        from gamehost.host.rpc.quotas import QuotaLimits

        return QuotaLimits(call_rate=self.call_rate, call_burst=self.call_burst, create_rate=self.create_rate,
                           create_burst=self.create_burst, watchers_per_caller=self.max_watchers_per_caller,
                           watchers=self.max_watchers, sessions_per_caller=self.max_sessions_per_caller,
                           sessions=self.max_sessions, session_idle=self.session_idle_timeout,
                           probe_streams_per_caller=self.max_probe_streams_per_caller,
                           probe_streams=self.max_probe_streams)

    def auth_settings(self):
        from gamehost.host.auth.authenticator import AuthSettings

        return AuthSettings(api_keys=self.api_keys, jwks=self.jwks, jwt_issuer=self.jwt_issuer,
                            jwt_audience=self.jwt_audience, jwt_roles_claim=self.jwt_roles_claim,
                            jwt_name_claim=self.jwt_name_claim, jwks_min_refresh=self.jwks_min_refresh,
                            required=self.auth_required)
