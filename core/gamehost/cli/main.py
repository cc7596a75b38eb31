"""The ``gamehost`` command: run a host, or talk to one."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from typing import Sequence

from gamehost.cli import commands, health
from gamehost.client import GameHostError
from gamehost.host.logs import LEVELS


def _host_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--host", default=os.environ.get("GAMEHOST_TARGET", "127.0.0.1:50051"),
                        help="host address (env GAMEHOST_TARGET, default 127.0.0.1:50051)")
    common.add_argument("--bearer-token", default=os.environ.get("GAMEHOST_TOKEN", ""), metavar="TOKEN",
                        help="sign in: a JWT from your identity provider or an API key (env GAMEHOST_TOKEN); "
                             "not the player token of --token")
    common.add_argument("--tls", action="store_true", default=os.environ.get("GAMEHOST_TLS", "").lower() in ("1", "true", "yes"),
                        help="connect over TLS, trusting the system's CAs (env GAMEHOST_TLS=1)")
    common.add_argument("--tls-ca", default=os.environ.get("GAMEHOST_TLS_CA", ""), metavar="FILE",
                        help="connect over TLS, trusting this PEM CA or certificate (env GAMEHOST_TLS_CA)")
    return common


def _web_port(text: str) -> int | None:
    from gamehost.host.config import parse_web_port

    try:
        return parse_web_port(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a port number or 'off', not {text!r}") from None


# serve's limits and TLS: (config field, type, help). The flag is the field with
# dashes, the variable GAMEHOST_ and the field in capitals.
LIMIT_SETTINGS = (
    ("call_rate", float, "calls per second one caller (user, else address) may make; 0: no limit"),
    ("call_burst", float, "calls a caller that was quiet may make at once"),
    ("create_rate", float, "CreateMatch and JoinMatch calls per second per caller; 0: no limit"),
    ("create_burst", float, "CreateMatch and JoinMatch calls a quiet caller may make at once"),
    ("max_watchers_per_caller", int, "open WatchMatch streams per caller; 0: no limit"),
    ("max_watchers", int, "open WatchMatch streams on this host; 0: no limit"),
    ("trusted_proxies", str, "comma-separated addresses or networks of reverse proxies whose X-Forwarded-For "
                             "names the caller; default: none"),
    ("max_streams_per_connection", int, "concurrent calls on one gRPC connection"),
    ("max_connection_idle", float, "seconds before a gRPC connection without calls is closed; 0: never"),
    ("max_connection_age", float, "seconds before a gRPC connection is asked to reconnect; 0: never"),
    ("max_connection_age_grace", float, "seconds its calls (watch streams) then get to finish"),
    ("web_max_connections", int, "open connections on the web port; the oldest that has not sent a request "
                                 "makes room, else a new one is closed"),
    ("web_max_connections_per_peer", int, "open connections on the web port per client address"),
    ("web_header_timeout", float, "seconds a new web connection has to send its first request's headers"),
    ("web_keepalive_timeout", float, "seconds an idle keep-alive web connection stays open"),
    ("tls_cert", str, "PEM certificate chain: serve TLS on the gRPC and the web port (with --tls-key)"),
    ("tls_key", str, "PEM private key of --tls-cert"),
)


def build_parser() -> argparse.ArgumentParser:
    from gamehost.host.config import HostConfig

    defaults = HostConfig.from_env()
    parser = argparse.ArgumentParser(prog="gamehost", description="Host turn-based board games over gRPC.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    client = _host_parser()

    serve = sub.add_parser("serve", help="run the host")
    serve.add_argument("--address", default=defaults.address, help="listen address (env GAMEHOST_ADDRESS)")
    serve.add_argument("--port", type=int, help="listen port; overrides the port of --address")
    serve.add_argument("--data-dir", default=defaults.data_dir, help="where the SQLite store lives "
                                                                     "(env GAMEHOST_DATA_DIR)")
    serve.add_argument("--store", default=defaults.store,
                       help="'sqlite' (default, in --data-dir), 'memory', 'sqlite:///path/file.db' or "
                            "'postgresql://user:password@host:port/database', shared by replicas "
                            "(env GAMEHOST_STORE)")
    serve.add_argument("--durability", default=defaults.durability, choices=["normal", "full"],
                       help="SQLite: 'normal' keeps every commit across a host crash, 'full' also across power "
                            "loss, with an fsync per move (env GAMEHOST_DURABILITY)")
    serve.add_argument("--log-format", default=defaults.log_format, choices=["auto", "console", "json"],
                       help="console lines for a terminal, JSON otherwise (env GAMEHOST_LOG_FORMAT)")
    serve.add_argument("--log-level", default=defaults.log_level, choices=["debug", "info", "warning", "error"],
                       help="(env GAMEHOST_LOG_LEVEL)")
    serve.add_argument("--max-message-bytes", type=int, default=defaults.max_message_bytes,
                       help="largest request accepted; larger ones get RESOURCE_EXHAUSTED "
                            "(env GAMEHOST_MAX_MESSAGE_BYTES)")
    serve.add_argument("--shutdown-grace", type=float, default=defaults.shutdown_grace,
                       help="seconds in-flight calls get to finish on SIGTERM (env GAMEHOST_SHUTDOWN_GRACE)")
    serve.add_argument("--bot-delay", type=float, default=defaults.bot_delay,
                       help="seconds a bot waits before it moves in an all-bot match (env GAMEHOST_BOT_DELAY)")
    serve.add_argument("--bot-delay-with-humans", type=float, default=defaults.bot_delay_with_humans,
                       help="seconds a bot waits before it moves in a match with a human seat "
                            "(env GAMEHOST_BOT_DELAY_WITH_HUMANS, default 0.6)")
    serve.add_argument("--bot-think-scale", type=float, default=defaults.bot_think_scale,
                       help="multiplies the search bots' iteration and time budgets; below 1 for slow "
                            "machines and tests (env GAMEHOST_BOT_THINK_SCALE, default 1)")
    serve.add_argument("--claim-lease", type=float, default=defaults.claim_lease,
                       help="PostgreSQL: seconds after which a bot turn claimed by a replica that died is "
                            "taken over by another (env GAMEHOST_CLAIM_LEASE)")
    serve.add_argument("--replica-id", default=defaults.replica_id,
                       help="this replica's name in bot-turn claims (env GAMEHOST_REPLICA_ID; "
                            "default: hostname-pid)")
    serve.add_argument("--metrics-port", type=int, default=defaults.metrics_port,
                       help="serve Prometheus metrics at http://ADDRESS:PORT/metrics; 0 picks a free port "
                            "(env GAMEHOST_METRICS_PORT; off by default)")
    serve.add_argument("--webhook-url", default=defaults.webhook_url,
                       help="POST a signed turn notification here when it becomes a player's turn and when a "
                            "match ends (env GAMEHOST_WEBHOOK_URL; off by default)")
    serve.add_argument("--webhook-secret", default=defaults.webhook_secret,
                       help="the HMAC-SHA256 key of the notifications' Gamehost-Signature; required with "
                            "--webhook-url (env GAMEHOST_WEBHOOK_SECRET)")
    serve.add_argument("--webhook-retry", type=float, default=defaults.webhook_retry,
                       help="seconds before the first retry of a failed notification, doubled at each retry "
                            "(env GAMEHOST_WEBHOOK_RETRY, default 1)")
    serve.add_argument("--store-check-interval", type=float, default=defaults.store_check_interval,
                       help="seconds between readiness checks of the store (env GAMEHOST_STORE_CHECK_INTERVAL)")
    serve.add_argument("--web-port", type=_web_port, default=defaults.web_port,
                       help="HTTP port for browsers: Connect, gRPC-Web and the web client; 0 picks a free port, "
                            "'off' serves none (env GAMEHOST_WEB_PORT, default 8080)")
    serve.add_argument("--cors-origins", default=defaults.cors_origins,
                       help="comma-separated origins whose pages may call the host, e.g. http://localhost:5173, "
                            "or '*'; default: same origin only (env GAMEHOST_CORS_ORIGINS)")
    serve.add_argument("--web-root", default=defaults.web_root,
                       help="directory served at / on the web port; default: clients/web/dist of this checkout "
                            "when built; 'off' serves no files (env GAMEHOST_WEB_ROOT)")
    identity = serve.add_argument_group("identities (docs/security.md)")
    identity.add_argument("--api-keys", default=defaults.api_keys, metavar="FILE",
                          help="JSON file of API keys (name, sha256, roles, display_name); make entries with "
                               "`gamehost api-key` (env GAMEHOST_API_KEYS)")
    identity.add_argument("--jwks", default=defaults.jwks, metavar="URL|FILE",
                          help="the identity provider's JWKS, to accept its JWTs as bearer tokens "
                               "(env GAMEHOST_JWKS)")
    identity.add_argument("--jwt-issuer", default=defaults.jwt_issuer,
                          help="the iss every JWT must carry (env GAMEHOST_JWT_ISSUER)")
    identity.add_argument("--jwt-audience", default=defaults.jwt_audience,
                          help="the aud every JWT must carry (env GAMEHOST_JWT_AUDIENCE)")
    identity.add_argument("--jwt-roles-claim", default=defaults.jwt_roles_claim,
                          help="claim holding the caller's roles, a dotted path allowed, e.g. realm_access.roles "
                               "(env GAMEHOST_JWT_ROLES_CLAIM, default roles)")
    identity.add_argument("--jwt-name-claim", default=defaults.jwt_name_claim,
                          help="claim holding the display name (env GAMEHOST_JWT_NAME_CLAIM, default name)")
    identity.add_argument("--jwks-min-refresh", type=float, default=defaults.jwks_min_refresh, metavar="SECONDS",
                          help="least time between JWKS fetches caused by unknown key ids "
                               "(env GAMEHOST_JWKS_MIN_REFRESH, default 10)")
    identity.add_argument("--auth-required", action="store_true", default=defaults.auth_required,
                          help="refuse anonymous calls (env GAMEHOST_AUTH_REQUIRED=1)")
    retention = serve.add_argument_group("retention and quotas")
    retention.add_argument("--open-match-ttl", type=float, default=defaults.open_match_ttl, metavar="SECONDS",
                           help="abort open matches that did not start within this time; 0: never "
                                "(env GAMEHOST_OPEN_MATCH_TTL, default 86400)")
    retention.add_argument("--prune-finished-after", type=float, default=defaults.prune_finished_after,
                           metavar="SECONDS", help="delete matches over for this long, with their logs; 0: never "
                                                   "(env GAMEHOST_PRUNE_FINISHED_AFTER, default 0)")
    retention.add_argument("--retention-interval", type=float, default=defaults.retention_interval,
                           metavar="SECONDS", help="seconds between expiry and pruning sweeps "
                                                   "(env GAMEHOST_RETENTION_INTERVAL, default 60)")
    retention.add_argument("--max-open-matches", type=int, default=defaults.max_open_matches,
                           help="open matches one caller may have created at once; 0: no limit "
                                "(env GAMEHOST_MAX_OPEN_MATCHES, default 20)")
    retention.add_argument("--max-bot-matches", type=int, default=defaults.max_bot_matches,
                           help="running all-bot matches one caller may have created at once; 0: no limit "
                                "(env GAMEHOST_MAX_BOT_MATCHES, default 2)")
    retention.add_argument("--chosen-seeds", default=defaults.chosen_seeds, choices=["admins", "anyone"],
                           help="who may choose the seed of a game with chance or hidden information: 'admins' "
                                "(default), or 'anyone' on development and test hosts (env GAMEHOST_CHOSEN_SEEDS)")
    for name, kind, text in LIMIT_SETTINGS:
        serve.add_argument(f"--{name.replace('_', '-')}", type=kind, default=getattr(defaults, name),
                           help=f"{text} (env GAMEHOST_{name.upper()}, default {getattr(HostConfig, name)!r})")
    _add_isolation_flags(serve, defaults)
    serve.add_argument("--reload", action="store_true",
                       default=os.environ.get("GAMEHOST_RELOAD", "").lower() in ("1", "true", "yes"),
                       help="for plugin development: restart the host whenever an installed plugin's files "
                            "change (env GAMEHOST_RELOAD=1; off by default)")
    serve.set_defaults(run=run_serve)

    migrate = sub.add_parser("migrate", help="bring a store's schema up to date and exit "
                                             "(serve also does it on start)")
    migrate.add_argument("--store", default=defaults.store, help="as for serve (env GAMEHOST_STORE)")
    migrate.add_argument("--data-dir", default=defaults.data_dir, help="as for serve (env GAMEHOST_DATA_DIR)")
    migrate.add_argument("--wait", type=float, default=30.0, help="seconds to wait for the database to answer")
    migrate.set_defaults(run=run_migrate)

    sub.add_parser("plugins", help="list installed plugins, their games and errors").set_defaults(
        run=commands.plugins)

    health_check = sub.add_parser("health", parents=[client], help="ask a host's gRPC health service; "
                                  "exit 0 if SERVING, 1 otherwise (for container health checks)")
    health_check.add_argument("--service", default="gamehost.v1.GameHost",
                              help="'gamehost.v1.GameHost' (default): ready, the store answers; "
                                   "'': the process answers")
    health_check.add_argument("--timeout", type=float, default=3.0, help="seconds")
    health_check.set_defaults(run=health.check)

    games = sub.add_parser("games", parents=[client], help="list the host's games")
    games.add_argument("--json", action="store_true", help="print JSON")
    games.set_defaults(run=commands.games)

    matches = sub.add_parser("matches", parents=[client], help="list matches")
    matches.add_argument("--game", default="")
    matches.add_argument("--status", default="", choices=["", "open", "active", "finished", "abandoned", "aborted",
                                                          "suspended"])
    matches.add_argument("--limit", type=int, default=20)
    matches.add_argument("--mine", action="store_true", help="only matches where you (signed in) hold a seat")
    matches.add_argument("--player", default="", metavar="USER", help="only this user's matches (admins)")
    matches.add_argument("--my-turn", action="store_true",
                         help="only the active matches where it is your turn (signed in; with --player: that user's)")
    matches.set_defaults(run=commands.matches)

    create = sub.add_parser("create", parents=[client], help="open a match")
    create.add_argument("game")
    create.add_argument("--seats", type=int, default=0)
    create.add_argument("--bots", default="", help="comma-separated bot seats, e.g. 1,2")
    create.add_argument("--bot", default="", help="the bot strategy for those seats (default: random)")
    create.add_argument("--seed", type=int)
    create.add_argument("--variant", default="")
    create.add_argument("--turn-timeout", type=float, default=0.0, metavar="SECONDS",
                        help="seconds a player may take per move; then the host plays a random move for them")
    create.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a game option; VALUE is JSON when it parses as JSON")
    create.set_defaults(run=commands.create)

    join = sub.add_parser("join", parents=[client], help="take a seat; prints the player token")
    join.add_argument("match")
    join.add_argument("--seat", type=int)
    join.add_argument("--name", default=os.environ.get("USER", ""))
    join.set_defaults(run=commands.join)

    play = sub.add_parser("play", parents=[client], help="play in the terminal against bots")
    play.add_argument("game", nargs="?", help="start a new match of this game (other seats are bots)")
    play.add_argument("--match", help="play an existing match instead")
    play.add_argument("--token", help="your player token in --match (join a free seat when omitted)")
    play.add_argument("--seats", type=int, default=0)
    play.add_argument("--bot", default="", help="the bot strategy of the other seats (default: random)")
    play.add_argument("--seed", type=int)
    play.add_argument("--variant", default="")
    play.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    play.add_argument("--name", default=os.environ.get("USER", "") or "player")
    play.set_defaults(run=commands.play)

    watch = sub.add_parser("watch", parents=[client], help="follow a match live")
    watch.add_argument("match")
    watch.add_argument("--token", default="", help="watch as this seat (default: spectator)")
    watch.add_argument("--after", type=int, default=0, help="start after this version")
    watch.set_defaults(run=commands.watch)

    script = sub.add_parser("script", parents=[client],
                            help="play given move ids in a new match holding every seat; print its log as JSON")
    script.add_argument("game")
    script.add_argument("--moves", default="", metavar="ID,ID,...", help="the move ids to play, in order")
    script.add_argument("--seed", type=int, required=True, help="the match seed: same seed and moves, same match")
    script.add_argument("--seats", type=int, default=0, help="number of seats (default: the game's minimum)")
    script.add_argument("--variant", default="")
    script.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    script.set_defaults(run=commands.script)

    replay_cmd = sub.add_parser("replay", parents=[client],
                                help="fetch a finished match's log and verify it with the local plugin")
    replay_cmd.add_argument("match")
    replay_cmd.add_argument("--quiet", action="store_true", help="only verify, do not print each position")
    replay_cmd.set_defaults(run=commands.replay)

    sub.add_parser("whoami", parents=[client], help="who the host takes you to be (with --bearer-token)").set_defaults(
        run=commands.whoami)

    admin = sub.add_parser("admin", help="operators' calls; need a bearer token with the admin role")
    actions = admin.add_subparsers(dest="action", required=True, metavar="ACTION")
    abort = actions.add_parser("abort", parents=[client], help="end a match without a result")
    abort.add_argument("match")
    abort.add_argument("--reason", default="", help="why, for the players and the log")
    actions.add_parser("delete", parents=[client], help="delete a match that is over, with its log").add_argument(
        "match")
    assign = actions.add_parser("assign-bot", parents=[client], help="hand a seat to a bot")
    assign.add_argument("match")
    assign.add_argument("seat", type=int)
    assign.add_argument("--bot", default="", help="the bot strategy (default: random)")
    actions.add_parser("resume", parents=[client], help="take a suspended match up again").add_argument("match")
    admin.set_defaults(run=commands.admin)

    _add_authoring_commands(sub)

    key = sub.add_parser("api-key", help="make an API key: prints the key (stderr) and its key-file entry (stdout)")
    key.add_argument("name", help="the key holder's user id")
    key.add_argument("--roles", default="", help="comma-separated roles, e.g. admin")
    key.add_argument("--display-name", default="")
    key.set_defaults(run=commands.api_key)
    return parser


def _add_authoring_commands(sub) -> None:
    """Plugin authors' commands: a new plugin package, a position's picture."""
    new = sub.add_parser("new", help="write a new game plugin package: rules, renderers, tests, README")
    new.add_argument("game_id", metavar="ID", help="the game's id, e.g. connect-four")
    new.add_argument("--dir", required=True, help="the directory to create (new or empty)")
    new.add_argument("--title", default="", help="the game's title (default: from the id)")
    new.set_defaults(run=run_new)

    render = sub.add_parser("render", help="draw a position reached by given moves from a seed, without a host: "
                                           "SVG to --out, the text picture to stdout or --text")
    render.add_argument("game")
    render.add_argument("--seed", type=int, default=0, help="the match seed (default 0)")
    render.add_argument("--moves", default="", metavar="ID,ID,...", help="the move ids to play first, in order")
    render.add_argument("--seats", type=int, default=0, help="number of seats (default: the game's minimum)")
    render.add_argument("--variant", default="")
    render.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    viewer = render.add_mutually_exclusive_group()
    viewer.add_argument("--seat", type=int, help="draw what this seat sees (default: the seat to move)")
    viewer.add_argument("--spectator", action="store_true", help="draw what a spectator sees")
    render.add_argument("--out", default="", metavar="FILE.svg", help="write the SVG here")
    render.add_argument("--text", default="", metavar="FILE", help="write the text picture here, not to stdout")
    render.set_defaults(run=run_render)


def run_new(args) -> int:
    from pathlib import Path

    from gamehost.cli.scaffold import ScaffoldError, names_for, write_plugin

    try:
        names = names_for(args.game_id, args.title)
        written = write_plugin(names, Path(args.dir))
    except ScaffoldError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"wrote {len(written)} files in {args.dir}: {names.dist}, game {names.game_id}, module {names.module}")
    print(f"next: pip install -e '{args.dir}[test]' && pytest {args.dir}")
    return 0


def run_render(args) -> int:
    from gamehost.cli.preview import run

    return run(args)


def _seconds(text: str) -> float:
    value = float(text)
    if not 0 < value <= 3600:
        raise ValueError(f"{value} is not more than 0 and at most 3600 seconds")
    return value


def _count(low: int, high: int):
    def number(text: str) -> int:
        value = int(text)
        if not low <= value <= high:
            raise ValueError(f"{value} is not from {low} to {high}")
        return value
    return number


def _game_timeouts(text: str) -> str:
    from gamehost.host.config import parse_game_timeouts

    parse_game_timeouts(text)
    return text


ISOLATION_CHECKS = (("--workers", "workers", _count(1, 256)), ("--worker-memory-mb", "worker_memory_mb",
                                                                _count(0, 1 << 20)),
                    ("--rules-timeout", "rules_timeout", _seconds), ("--bot-timeout", "bot_timeout", _seconds),
                    ("--load-timeout", "load_timeout", _seconds), ("--max-strikes", "max_strikes", _count(1, 100)),
                    ("--game-rules-timeouts", "game_rules_timeouts", _game_timeouts))


def _isolation_problem(args) -> str | None:
    """What is wrong with the isolation settings; argparse does not check
    defaults taken from the environment."""
    from gamehost.host.config import parse_isolation

    for option, name, check in (*ISOLATION_CHECKS, ("--isolation", "isolation", parse_isolation)):
        try:
            check(str(getattr(args, name)))
        except ValueError as error:
            return f"{option} (or its GAMEHOST_ variable): {error}"
    return None


def _flag_type(check):
    """argparse shows an ArgumentTypeError's message, not a ValueError's."""
    def parse(text: str):
        try:
            return check(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
    return parse


def _add_isolation_flags(serve, defaults) -> None:
    from gamehost.host.config import parse_isolation

    def seconds(text: str) -> float:
        return _flag_type(_seconds)(text)

    def count(low: int, high: int):
        return _flag_type(_count(low, high))

    game_timeouts = _flag_type(_game_timeouts)

    group = serve.add_argument_group("rules isolation")
    group.add_argument("--isolation", type=_flag_type(parse_isolation), default=defaults.isolation,
                       help="'on': plugins' rules, renderers and bots run in worker processes with deadlines and "
                            "a memory limit; 'off': in the host, fastest, for trusted plugins only "
                            "(env GAMEHOST_ISOLATION, default on)")
    group.add_argument("--trusted-plugins", default=defaults.trusted_plugins, metavar="NAME,...",
                       help="plugins run in the host even with isolation on (env GAMEHOST_TRUSTED_PLUGINS)")
    group.add_argument("--workers", type=count(1, 256), default=defaults.workers,
                       help="worker processes for rules (env GAMEHOST_WORKERS, default: the number of cores)")
    group.add_argument("--worker-memory-mb", type=count(0, 1 << 20), default=defaults.worker_memory_mb,
                       help="address-space limit of each worker in MB, 0 for none; a worker over it is "
                            "replaced (env GAMEHOST_WORKER_MEMORY_MB, default 1024)")
    group.add_argument("--rules-timeout", type=seconds, default=defaults.rules_timeout, metavar="SECONDS",
                       help="deadline of each rules call (env GAMEHOST_RULES_TIMEOUT, default 2)")
    group.add_argument("--game-rules-timeouts", type=game_timeouts, default=defaults.game_rules_timeouts,
                       metavar="GAME=SECONDS,...",
                       help="per-game rules deadlines (env GAMEHOST_GAME_RULES_TIMEOUTS)")
    group.add_argument("--bot-timeout", type=seconds, default=defaults.bot_timeout, metavar="SECONDS",
                       help="deadline of a bot's choice (env GAMEHOST_BOT_TIMEOUT, default 5)")
    group.add_argument("--load-timeout", type=seconds, default=defaults.load_timeout, metavar="SECONDS",
                       help="deadline to load a match into a worker, replaying its log "
                            "(env GAMEHOST_LOAD_TIMEOUT, default 30)")
    group.add_argument("--max-strikes", type=count(1, 100), default=defaults.max_strikes,
                       help="rules time-outs or crashes before a match is suspended "
                            "(env GAMEHOST_MAX_STRIKES, default 3)")


def run_serve(args) -> int:
    from gamehost.host.config import HostConfig
    from gamehost.host.logs import configure
    from gamehost.host.server import serve

    address = args.address
    if args.port is not None:
        address = f"{address.rsplit(':', 1)[0]}:{args.port}"
    config = HostConfig(address=address, data_dir=args.data_dir, store=args.store, durability=args.durability,
                        log_format=args.log_format, log_level=args.log_level, bot_delay=args.bot_delay,
                        bot_delay_with_humans=args.bot_delay_with_humans, bot_think_scale=args.bot_think_scale,
                        max_message_bytes=args.max_message_bytes, shutdown_grace=args.shutdown_grace,
                        claim_lease=args.claim_lease, replica_id=args.replica_id,
                        metrics_port=args.metrics_port, store_check_interval=args.store_check_interval,
                        webhook_url=args.webhook_url, webhook_secret=args.webhook_secret,
                        webhook_retry=args.webhook_retry,
                        web_port=args.web_port, cors_origins=args.cors_origins, web_root=args.web_root,
                        api_keys=args.api_keys, jwks=args.jwks, jwt_issuer=args.jwt_issuer,
                        jwt_audience=args.jwt_audience, jwt_roles_claim=args.jwt_roles_claim,
                        jwt_name_claim=args.jwt_name_claim, jwks_min_refresh=args.jwks_min_refresh,
                        auth_required=args.auth_required, open_match_ttl=args.open_match_ttl,
                        prune_finished_after=args.prune_finished_after,
                        retention_interval=args.retention_interval, max_open_matches=args.max_open_matches,
                        max_bot_matches=args.max_bot_matches, chosen_seeds=args.chosen_seeds,
                        **{name: getattr(args, name) for name, _, _ in LIMIT_SETTINGS},
                        isolation=args.isolation, trusted_plugins=args.trusted_plugins, workers=args.workers,
                        worker_memory_mb=args.worker_memory_mb, rules_timeout=args.rules_timeout,
                        game_rules_timeouts=args.game_rules_timeouts, bot_timeout=args.bot_timeout,
                        load_timeout=args.load_timeout, max_strikes=args.max_strikes)
    configure(config.log_format, config.log_level)
    if args.reload:
        from gamehost.cli.reload import supervise

        return supervise(args.argv, config.address, config.web_port)
    from gamehost.host.store import StoreUnusable
    from gamehost.host.web.app import ListenError

    try:
        asyncio.run(serve(config))
    except (ListenError, StoreUnusable) as error:
        print(f"gamehost: {error}", file=sys.stderr)
        return 1
    return 0


def run_migrate(args) -> int:
    from gamehost.host.logs import configure
    from gamehost.host.store import describe_store, open_store

    configure("auto", "info")
    store = open_store(args.store, args.data_dir, open_timeout=args.wait)

    async def migrate() -> None:
        await store.open()  # every backend migrates on open
        await store.close()

    try:
        asyncio.run(migrate())
    except Exception as error:  # unreachable database, newer schema: say which store and why
        print(f"error: cannot migrate {describe_store(args.store)}: {error}", file=sys.stderr)
        return 1
    print(f"{describe_store(args.store)}: schema up to date")
    return 0


def _check_limits(parser: argparse.ArgumentParser, args) -> None:
    from gamehost.host.peers import parse_networks

    for name, kind, _ in LIMIT_SETTINGS:
        if kind is not str and getattr(args, name) < 0:
            parser.error(f"--{name.replace('_', '-')} (or GAMEHOST_{name.upper()}) must be 0 or more, "
                         f"not {getattr(args, name)}")
    try:
        parse_networks(args.trusted_proxies)
    except ValueError as error:
        parser.error(f"--trusted-proxies (or GAMEHOST_TRUSTED_PROXIES): {error}")
    if bool(args.tls_cert) != bool(args.tls_key):
        parser.error("--tls-cert and --tls-key (or GAMEHOST_TLS_CERT and GAMEHOST_TLS_KEY) go together")
    for flag, path in (("--tls-cert", args.tls_cert), ("--tls-key", args.tls_key)):
        if path and not os.path.isfile(path):
            parser.error(f"{flag}: {path!r} is not a readable file")


def _bot_budget_problem(args) -> str | None:
    """The strongest search bot's time, scaled, must fit in the bot timeout."""
    from gamehost.sdk.search import LEVELS

    if args.webhook_url and not args.webhook_secret:
        parser.error("--webhook-url needs --webhook-secret (or GAMEHOST_WEBHOOK_SECRET): notifications are signed")
    if args.webhook_retry <= 0:
        parser.error(f"--webhook-retry must be more than 0 seconds, not {args.webhook_retry}")
    if args.bot_delay_with_humans < 0:
        return ("--bot-delay-with-humans (or GAMEHOST_BOT_DELAY_WITH_HUMANS) must be 0 or more, "
                f"not {args.bot_delay_with_humans}")
    longest = LEVELS[-1].seconds * args.bot_think_scale
    if not (0 < args.bot_think_scale and longest < float(args.bot_timeout)):
        return (f"--bot-think-scale (or GAMEHOST_BOT_THINK_SCALE) must be more than 0 and keep {LEVELS[-1].name}'s "
                f"{LEVELS[-1].seconds:g} s times it under --bot-timeout ({args.bot_timeout} s), "
                f"not {args.bot_think_scale}")
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)  # serve --reload runs serve again with them
    if args.command == "serve":
        for option, value, choices in (("--log-level", args.log_level, LEVELS), ("--durability", args.durability,
                                                                                 ("normal", "full")),
                                       ("--log-format", args.log_format, ("auto", "console", "json")),
                                       ("--chosen-seeds", args.chosen_seeds, ("admins", "anyone"))):
            if value not in choices:  # argparse does not check defaults taken from the environment
                parser.error(f"{option} (or its GAMEHOST_ variable) must be one of {', '.join(choices)}, "
                             f"not {value!r}")
        if _isolation_problem(args):
            parser.error(_isolation_problem(args))
        if _bot_budget_problem(args):
            parser.error(_bot_budget_problem(args))
        if args.store_check_interval <= 0:
            parser.error(f"--store-check-interval (or GAMEHOST_STORE_CHECK_INTERVAL) must be more than 0 seconds, "
                         f"not {args.store_check_interval}")
        from gamehost.host.web.cors import parse_origins

        try:
            parse_origins(args.cors_origins)
        except ValueError as error:
            parser.error(f"--cors-origins (or GAMEHOST_CORS_ORIGINS): {error}")
        _check_limits(parser, args)
        if args.web_root not in ("", "off") and not os.path.isdir(args.web_root):
            parser.error(f"--web-root (or GAMEHOST_WEB_ROOT): {args.web_root!r} is not a directory")
    if args.command in ("serve", "migrate") and args.store not in ("sqlite", "memory") and not args.store.startswith(
            ("sqlite://", "postgresql://", "postgres://")):
        from gamehost.host.store import describe_store

        parser.error("--store (or GAMEHOST_STORE) must be 'sqlite', 'memory', 'sqlite:///path/file.db' or "
                     f"'postgresql://user:password@host:port/database', not {describe_store(args.store)!r}")
    if args.command not in ("serve", "migrate"):
        from gamehost.host.logs import configure

        configure("console", "warning")
    try:
        return args.run(args) or 0
    except GameHostError as error:
        print(f"error: {error}", file=sys.stderr)
        for field, description in error.field_violations:
            print(f"  {field}: {description}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except json.JSONDecodeError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
