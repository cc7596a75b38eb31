"""The ``gamehost`` command: run a host, or talk to one."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from typing import Sequence

from gamehost.cli import commands, endings, health, league, private_matches
from gamehost.client import GameHostError


def _host_parser() -> argparse.ArgumentParser:
    from gamehost.cli.client_settings import ClientSettings
    from gamehost.cli.setting_flags import add_setting_flags

    common = argparse.ArgumentParser(add_help=False)
    add_setting_flags(common, ClientSettings)
    common.add_argument("--locale", default="", metavar="TAG",
                        help="the language of the words shown, the CLI's and the host's: a BCP 47 tag such as fr "
                             "or fr-CH (default: from LC_ALL, LC_MESSAGES or LANG; English when none fits)")
    common.set_defaults(talks_to_host=True)
    return common


def _add_config_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE.toml",
                        help="settings file: one key per setting, named as its flag with underscores "
                             "(docs/operations.md); flags and GAMEHOST_* variables override it "
                             "(env GAMEHOST_CONFIG, default none)")


def build_parser() -> argparse.ArgumentParser:
    from gamehost.cli.setting_flags import add_setting_flags
    from gamehost.host.ops.config import HostConfig

    parser = argparse.ArgumentParser(prog="gamehost", description="Host turn-based board games over gRPC.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    client = _host_parser()

    serve = sub.add_parser("serve", help="run the host", usage="%(prog)s [--config FILE.toml] [FLAG VALUE ...]",
                           description="Run the host. Each setting is a flag, a GAMEHOST_* variable and a key "
                                       "of the --config file, in that order of precedence.")
    _add_config_flag(serve)
    serve.add_argument("--port", type=int, help="listen port; overrides the port of --address")
    add_setting_flags(serve, HostConfig)
    serve.add_argument("--reload", action="store_true",
                       default=os.environ.get("GAMEHOST_RELOAD", "").lower() in ("1", "true", "yes"),
                       help="for plugin development: restart the host whenever an installed plugin's files "
                            "change (env GAMEHOST_RELOAD=1; off by default)")
    serve.set_defaults(run=run_serve)

    migrate = sub.add_parser("migrate", help="bring a store's schema up to date and exit "
                                             "(serve also does it on start)")
    _add_config_flag(migrate)
    add_setting_flags(migrate, HostConfig, names=("store", "data_dir"))
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
    _add_access_flags(create)
    create.set_defaults(run=commands.create)

    queue = sub.add_parser("queue", parents=[client],
                           help="queue for a match (signed in); waits and prints the match and your seat; "
                                "--list: your tickets")
    queue.add_argument("game", nargs="?", help="the game to queue for (not with --list)")
    queue.add_argument("--list", action="store_true",
                       help="list your tickets instead, queued ones first (--state narrows them)")
    queue.add_argument("--state", action="append", default=[], choices=["queued", "matched", "cancelled", "expired"],
                       help="with --list: only tickets in this state (repeatable)")
    queue.add_argument("--seats", type=int, default=0, help="player count (default: the game's minimum)")
    queue.add_argument("--variant", default="")
    queue.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    queue.add_argument("--ttl", type=float, default=0.0, metavar="SECONDS",
                       help="how long to wait for a match (default: the host's, 5 minutes)")
    queue.add_argument("--bot-wait", type=float, metavar="SECONDS",
                       help="after this long, bots may fill the seats nobody took (default: never)")
    queue.add_argument("--bot", default="", help="the bot for those seats (default: the rated bot level nearest "
                                                "your rating; random while no level is rated)")
    queue.add_argument("--min-rating", type=float, help="only opponents rated at least this")
    queue.add_argument("--max-rating", type=float, help="only opponents rated at most this")
    queue.add_argument("--widen-per-second", type=float, metavar="POINTS",
                       help="widen the rating range this much a second while waiting (with --max-widening)")
    queue.add_argument("--max-widening", type=float, metavar="POINTS", help="widen each bound this much at most")
    queue.add_argument("--party-size", type=int, default=0, metavar="N",
                       help="start a party of N friends, matched together; prints the party's name to share")
    queue.add_argument("--party", default="", metavar="PARTY",
                       help="join a friend's party (parties/...); the game may then be left out")
    queue.set_defaults(run=commands.queue)

    league_cmd = sub.add_parser("league", parents=[client],
                                help="play rated matches among the bot levels (admins), then print their ratings")
    league.add_arguments(league_cmd)
    league_cmd.set_defaults(run=league.run)

    join = sub.add_parser("join", parents=[client], help="take a seat; prints the player token")
    join.add_argument("match")
    join.add_argument("--seat", type=int)
    join.add_argument("--name", default=os.environ.get("USER", ""))
    join.add_argument("--invite", default="", metavar="CODE", help="the invitation code of a private match")
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

    undo = sub.add_parser("undo", parents=[client], help="take back a move by agreement: ask to take back your "
                                                         "last move, accept or refuse the open ask, withdraw yours")
    undo.add_argument("action", choices=["ask", "accept", "refuse", "withdraw"])
    undo.add_argument("match")
    undo.add_argument("--token", default="", help="your player token (signed in: may be left out)")
    undo.add_argument("--ask-version", type=int, metavar="VERSION",
                      help="accept or refuse only if the open ask is still this one (its UNDO_ASKED version)")
    undo.set_defaults(run=commands.undo)

    _add_ending_commands(sub, client)

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
    replay_cmd.add_argument("--commitment", type=bytes.fromhex, default=b"", metavar="HEX",
                            help="the seed commitment the match showed when it was created (Match.seed_commitment, "
                                 "in hex): the replay is refused unless the log carries that same commitment")
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
    deliveries = actions.add_parser("deliveries", parents=[client], help="the turn notifications' webhook "
                                    "deliveries, newest first")
    deliveries.add_argument("--state", choices=("pending", "delivered", "failed"), help="only those")
    deliveries.add_argument("--match", default="", help="only this match's")
    deliveries.add_argument("--limit", type=int, default=50, help="at most this many (default 50)")
    actions.add_parser("redeliver", parents=[client], help="send a failed delivery again").add_argument(
        "key", help="the delivery's key, as `admin deliveries` shows it")
    export_user = actions.add_parser("export-user", parents=[client], help="everything the host holds about a "
                                     "user, as one JSON document (a user may export their own)")
    export_user.add_argument("player", help="players/SUBJECT or SUBJECT")
    export_user.add_argument("--out", default="", metavar="FILE", help="write it to FILE (default: stdout)")
    delete_user = actions.add_parser("delete-user", parents=[client], help="erase a user's data: a pseudonym "
                                     "in their matches, chat and ratings, the rest deleted (cannot be undone)")
    delete_user.add_argument("player", help="players/SUBJECT or SUBJECT")
    delete_user.add_argument("--yes", action="store_true", help="do not ask to type the user's id to confirm")
    admin.set_defaults(run=commands.admin)

    _add_authoring_commands(sub)

    key = sub.add_parser("api-key", help="make an API key: prints the key (stderr) and a key file holding it "
                                         "(stdout), or adds it to a key file with --file")
    key.add_argument("name", help="the key holder's user id")
    key.add_argument("--file", default="", help="add the key to this key file (made if missing), the file "
                                                "`gamehost serve --api-keys FILE` reads")
    key.add_argument("--roles", default="", help="comma-separated roles, e.g. admin")
    key.add_argument("--display-name", default="")
    key.set_defaults(run=commands.api_key)
    return parser


def _add_access_flags(create: argparse.ArgumentParser) -> None:
    """Who may see, join and watch a new match; whether it is rated."""
    visibility = create.add_mutually_exclusive_group()
    visibility.add_argument("--private", dest="visibility", action="store_const", const="private", default="",
                            help="only its players, the users it reserves seats for and holders of its "
                                 "invitation (printed with a web link) may see, join or watch it")
    visibility.add_argument("--unlisted", dest="visibility", action="store_const", const="unlisted",
                            help="left out of others' match lists; anyone with its name may join and watch")
    create.add_argument("--spectators", default="", choices=["anyone", "players", "none"],
                        help="who may watch without a seat (default: anyone who may see it)")
    create.add_argument("--reserve", action="append", default=[], metavar="SEAT=SUBJECT",
                        help="hold a seat (from 0) for a signed-in user, by subject (repeatable); signed in")
    create.add_argument("--casual", action="store_true", help="a casual match: its result moves no rating")
    create.add_argument("--web-url", default="", metavar="URL",
                        help="the host's web page, for the invitation link (env GAMEHOST_WEB_URL; "
                             "default: the --host name on port 8080)")


def _add_ending_commands(sub, client: argparse.ArgumentParser) -> None:
    """Resigning, draws by agreement, claiming victory; revoking an invitation."""
    token_help = "your player token (signed in: may be left out)"
    resign = sub.add_parser("resign", parents=[client], help="resign your seat: with one opponent left, it wins")
    resign.add_argument("match")
    resign.add_argument("--token", default="", help=token_help)
    resign.set_defaults(run=endings.resign)

    draw = sub.add_parser("draw", parents=[client], help="draw by agreement: offer, accept or decline the open "
                                                         "offer, withdraw yours")
    draw.add_argument("action", choices=["offer", "accept", "decline", "withdraw"])
    draw.add_argument("match")
    draw.add_argument("--token", default="", help=token_help)
    draw.add_argument("--offer-version", type=int, metavar="VERSION",
                      help="accept or decline only if the open offer is still this one (its DRAW_OFFERED version)")
    draw.set_defaults(run=endings.draw)

    claim = sub.add_parser("claim", parents=[client],
                           help="claim victory when every opponent has been absent past the match's grace")
    claim.add_argument("match")
    claim.add_argument("--token", default="", help=token_help)
    claim.set_defaults(run=endings.claim)

    invitation = sub.add_parser("invitation", help="a private match's invitation")
    actions = invitation.add_subparsers(dest="action", required=True, metavar="ACTION")
    revoke = actions.add_parser("revoke", parents=[client],
                                help="its code admits nobody from now on (the signed-in creator or an admin)")
    revoke.add_argument("match")
    revoke.set_defaults(run=private_matches.revoke)


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


def run_serve(args) -> int:
    from gamehost.host.ops import event_loops
    from gamehost.host.ops.logs import configure
    from gamehost.host.ops.server import serve

    config = args.settings
    configure(config.log_format, config.log_level)
    if config.api_keys:  # a key file the host cannot read stops it here, before any process starts
        from gamehost.host.auth.api_keys import ApiKeys

        ApiKeys.load(config.api_keys)
    if args.reload:
        from gamehost.cli.reload import supervise

        return supervise(args.argv, config.address, config.web_port)
    from gamehost.host.store import StoreUnusable
    from gamehost.host.ops.league import LeagueUnplayable
    from gamehost.host.ops.web_port import ListenError

    if config.processes > 1:
        from gamehost.cli.group_supervisor import needs_shared_store, supervise

        problem = needs_shared_store(config)
        if problem:
            print(f"gamehost: {problem}", file=sys.stderr)
            return 1
        try:
            return supervise(config)
        except ListenError as error:
            print(f"gamehost: {error}", file=sys.stderr)
            return 1
    try:
        event_loops.run(serve(config), config.event_loop)
    except (ListenError, StoreUnusable, LeagueUnplayable) as error:
        print(f"gamehost: {error}", file=sys.stderr)
        return 1
    return 0


def run_migrate(args) -> int:
    from gamehost.host.ops.logs import configure
    from gamehost.host.store import describe_store, open_store

    configure("auto", "info")
    store = open_store(args.settings.store, args.settings.data_dir, open_timeout=args.wait)

    async def migrate() -> None:
        await store.open()  # every backend migrates on open
        await store.close()

    try:
        asyncio.run(migrate())
    except Exception as error:  # unreachable database, newer schema: say which store and why
        print(f"error: cannot migrate {describe_store(args.settings.store)}: {error}", file=sys.stderr)
        return 1
    print(f"{describe_store(args.settings.store)}: schema up to date")
    return 0


def _load_settings(parser: argparse.ArgumentParser, args) -> None:
    """The command's settings from its flags, the environment and (serve,
    migrate) the settings file, onto ``args``; a bad one is one line, exit 2."""
    from gamehost.cli.setting_flags import given_settings
    from gamehost.host.ops.settings_sources import CONFIG_ENV, SettingsError, load_settings

    try:
        if args.command in ("serve", "migrate"):
            from gamehost.host.ops.config import HostConfig

            settings = load_settings(HostConfig, given_settings(args, HostConfig),
                                     config_file=args.config or os.environ.get(CONFIG_ENV) or None)
            if getattr(args, "port", None) is not None:  # the port of the address, wherever that came from
                settings = settings.model_copy(
                    update={"address": f"{settings.address.rsplit(':', 1)[0]}:{args.port}"})
            args.settings = settings
        elif getattr(args, "talks_to_host", False):
            from gamehost.cli.client_settings import ClientSettings

            settings = load_settings(ClientSettings, given_settings(args, ClientSettings))
            args.host, args.bearer_token, args.tls, args.tls_ca = (settings.target, settings.token, settings.tls,
                                                                   settings.tls_ca)
    except SettingsError as error:
        print(f"{parser.prog} {args.command}: error: {error}", file=sys.stderr)
        raise SystemExit(2) from None


def _choose_language(parser: argparse.ArgumentParser, args) -> None:
    """The CLI's words in the language asked (--locale, else the environment's), and ``args.locale``
    the tag to ask the host for ("" for none); a malformed --locale is one line, exit 2."""
    from gamehost.cli.words import use_language, wanted_locale
    from gamehost.sdk.i18n import valid_tag

    given = getattr(args, "locale", "")
    if given and not valid_tag(given):
        print(f"{parser.prog} {args.command}: error: --locale {given[:64]!r} is not a BCP 47 language tag: give "
              "e.g. fr or fr-CH", file=sys.stderr)
        raise SystemExit(2)
    args.locale = wanted_locale(given)
    use_language(args.locale)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)  # serve --reload runs serve again with them
    _load_settings(parser, args)
    _choose_language(parser, args)
    if args.command not in ("serve", "migrate"):
        from gamehost.host.ops.logs import configure

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
