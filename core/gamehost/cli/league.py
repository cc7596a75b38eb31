"""``gamehost league``: rated matches among the built-in bot levels at a
host, so that each game's leaderboard shows where they stand.

Each game plays ``--rounds`` rounds; a round seats every ordering of the
levels over the seats (``gamehost.client.league_rounds``), so each level
plays each seat equally often. The matches are rated matches of bots alone,
which only an operator may create: sign in with a key of the admin role.
``--concurrent`` matches run at once. At the end each game's levels are
printed with their ratings: mu with its 95% interval (mu ± 2 sigma), and the
shown rating (mu - 3 sigma) the leaderboard sorts by.
"""

from __future__ import annotations

import json
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

from gamehost.cli.channels import connect
from gamehost.cli.words import tr
from gamehost.client import GameHostClient
from gamehost.client.league_rounds import league_round
from gamehost.v1 import gamehost_pb2 as pb

DEFAULT_LEVELS = "mcts-easy,mcts-medium,mcts-hard"
COUNT_WAIT = 10.0  # seconds the results of the last matches may take to be counted


def add_arguments(parser) -> None:
    parser.add_argument("games", nargs="+", metavar="GAME", help="the games to play, by id")
    parser.add_argument("--rounds", type=int, default=1,
                        help="rounds per game; a round seats every ordering of the levels over the seats")
    parser.add_argument("--levels", default=DEFAULT_LEVELS, help="comma-separated bot levels (default: %(default)s)")
    parser.add_argument("--seats", type=int, default=2, help="players per match (at most one a level)")
    parser.add_argument("--concurrent", type=int, default=1, help="matches running at once")
    parser.add_argument("--json", action="store_true", help="print the ratings as JSON")


def run(args) -> int:
    levels = [level.strip() for level in args.levels.split(",") if level.strip()]
    try:
        matches = league_round(levels, args.seats) * args.rounds
    except ValueError as error:
        raise SystemExit(f"error: {error}") from None
    if args.rounds < 1 or args.concurrent < 1:
        raise SystemExit("error: --rounds and --concurrent are at least 1")
    summary = {}
    with connect(args) as host:
        for game in args.games:
            counted = rated_games(level_ratings(host.game(game), levels))
            played = play_matches(host, game, matches, args.concurrent)
            summary[game] = counted_ratings(host, game, levels, counted + played * args.seats)
            if not args.json:
                print(tr("{game}: {count} rated results of {levels} over {seats} seats",
                         game=game, count=played, levels=", ".join(levels), seats=args.seats))
                for bot, rating in summary[game].items():
                    print("  " + (tr("{bot}: not rated", bot=bot) if rating is None else tr(
                        "{bot}: rated {mu} ± {interval} (shown rating {rating}), {games} results: "
                        "{wins} won, {losses} lost, {drawn} drawn", bot=bot, mu=f"{rating['mu']:.2f}",
                        interval=f"{2 * rating['sigma']:.2f}", rating=f"{rating['rating']:.2f}",
                        games=rating["games"], wins=rating["wins"], losses=rating["losses"], drawn=rating["draws"])))
    if args.json:
        print(json.dumps(summary, indent=2))
    return 0


def play_matches(host: GameHostClient, game: str, matches: list[tuple[str, ...]], concurrent: int) -> int:
    """Play ``matches`` (each the levels of its seats) to their end, ``concurrent`` at once; how many finished."""
    def play(levels: tuple[str, ...]) -> bool:
        match = host.create_match(game, seats=len(levels), bots=range(len(levels)), seat_bots=levels, rated=True,
                                  request_id=f"league-{uuid.uuid4().hex}")
        for _ in host.watch(match.name):
            pass  # the stream ends with the match
        return host.match(match.name).status == pb.MATCH_STATUS_FINISHED

    with ThreadPoolExecutor(concurrent) as pool:
        return sum(pool.map(play, matches))


def rated_games(ratings: dict[str, dict | None]) -> int:
    """The levels' rated matches added up (a match of n levels counts n times)."""
    return sum(rating["games"] for rating in ratings.values() if rating is not None)


def counted_ratings(host: GameHostClient, game: str, levels: list[str], expected: int) -> dict[str, dict | None]:
    """The levels' ratings once the host has counted ``expected`` rated games among them: a
    result is counted just after the match's last move, so the catalog may lag the end by a moment."""
    deadline = time.monotonic() + COUNT_WAIT
    while True:
        ratings = level_ratings(host.game(game), levels)
        if rated_games(ratings) >= expected or time.monotonic() > deadline:
            return ratings
        time.sleep(0.05)


def level_ratings(game: pb.Game, levels: list[str]) -> dict[str, dict | None]:
    """Each level's rating in ``game`` as the catalog says it (None: not rated yet)."""
    bots = {bot.name: bot for bot in game.bots}
    found: dict[str, dict | None] = {}
    for level in levels:
        bot = bots.get(level)
        if bot is None or not bot.HasField("rating"):
            found[level] = None
            continue
        r = bot.rating
        found[level] = {"mu": r.mu, "sigma": r.sigma, "rating": r.rating, "games": r.games, "wins": r.wins,
                        "losses": r.losses, "draws": r.draws}
    return found
