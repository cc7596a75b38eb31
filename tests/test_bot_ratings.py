"""Bots on the rating scale: each search level is a rated player of each
game; `gamehost league` plays rated matches among the levels and the
leaderboard and the catalog show where they stand; a rated match against a
level counts for both; matchmaking's bot fill seats the level nearest the
player's rating; the host's scheduled league keeps to its budget and is
off unless asked for.

One host for the module, on PostgreSQL (the bot fill's ratings are seeded
through the store, as another replica would write them), its bots thinking
at a twentieth of their budgets so that a tic-tac-toe match takes a
fraction of a second.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from call_errors import error_of
from databases import create_database, drop_database
from hosts import HostProcess, wait_for
from gamehost.cli import words
from gamehost.host.engine.rating_rules import bot_subject
from gamehost.host.engine.ratings import BotRatings
from gamehost.host.store import open_store
from gamehost.host.store.base import PlayerRating
from gamehost.host.store.memory import MemoryStore
from gamehost.sdk.i18n import read_catalogue
from gamehost.testing.english_leaks import EnglishLeaks
from gamehost.v1 import gamehost_pb2 as pb

THINK = "0.05"  # --bot-think-scale: mcts-hard's 0.9 s a move becomes 45 ms
LEVELS = ["mcts-easy", "mcts-medium", "mcts-hard"]
WEB = Path(__file__).resolve().parents[1] / "clients" / "web"


@pytest.fixture(scope="module")
def database():
    url = create_database()
    yield url
    drop_database(url)


@pytest.fixture(scope="module")
def host(idp, admin_key, database):
    if not (WEB / "dist" / "index.html").is_file() or not (WEB / "node_modules" / "playwright-core").is_dir():
        pytest.fail("the web client is not built: run `make web` (npm ci and vite build in clients/web)")
    process = HostProcess(*idp.host_args(), "--api-keys", str(admin_key[0]), "--store", database,
                          "--bot-think-scale", THINK, "--web-root", str(WEB / "dist")).start()
    yield process
    process.stop()


def league_command(host, token: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gamehost.cli.main", "league", "--host", host.target,
                           "--bearer-token", token, *args], capture_output=True, text=True, timeout=120)


def catalog_ratings(game: pb.Game) -> dict[str, pb.BotRating]:
    return {bot.name: bot.rating for bot in game.bots if bot.HasField("rating")}


def test_a_league_rates_the_levels_on_the_leaderboard_and_in_the_catalog(host, admin_key):
    assert not host.log_lines("league scheduled")  # the scheduled league is off by default
    before = time.monotonic()
    played = league_command(host, admin_key[1], "tictactoe", "--concurrent", "2")
    seconds = time.monotonic() - before
    assert played.returncode == 0, played.stderr
    # One round: every ordering of three levels over two seats, six matches; each level plays four.
    assert "tictactoe: 6 rated results of mcts-easy, mcts-medium, mcts-hard over 2 seats" in played.stdout
    with host.client() as anonymous:
        board = {rating.player: rating for rating in anonymous.leaderboard("tictactoe").ratings}
        rated = catalog_ratings(anonymous.game("tictactoe"))
        listed = catalog_ratings(next(game for game in anonymous.games() if game.id == "tictactoe"))
    assert listed == rated  # ListGames and GetGame carry the same ratings
    assert sorted(board) == sorted(f"players/{bot_subject(level)}" for level in LEVELS)
    for level in LEVELS:
        on_board = board[f"players/{bot_subject(level)}"]
        assert on_board.games == 4 and on_board.player_name == level
        assert on_board.wins + on_board.losses + on_board.draws == 4
        assert (rated[level].games, rated[level].mu, rated[level].sigma) == (4, on_board.mu, on_board.sigma)
        assert rated[level].rating == pytest.approx(rated[level].mu - 3 * rated[level].sigma)
        assert f"  {level}: rated {rated[level].mu:.2f} ± {2 * rated[level].sigma:.2f}" in played.stdout
    assert "random" not in rated  # the random bot is no rated player
    # The same in French; a smaller league: two levels, two matches.
    french = league_command(host, admin_key[1], "tictactoe", "--levels", "mcts-easy,mcts-hard", "--locale", "fr")
    assert french.returncode == 0, french.stderr
    assert "tictactoe : 2 parties classées de mcts-easy, mcts-hard sur 2 places" in french.stdout, french.stdout
    assert "  mcts-hard : cote " in french.stdout and " parties : " in french.stdout
    cli_words = dict(read_catalogue(Path(words.__file__).parent / "locale/fr/LC_MESSAGES/gamehost-cli.po"))
    assert not EnglishLeaks.of_tables("fr", [cli_words]).words_in(french.stdout)
    print(f"league of 6 tic-tac-toe matches: {seconds:.1f} s")
    with host.client() as anonymous:
        rated = catalog_ratings(anonymous.game("tictactoe"))
    check_lobby_shows(host, rated)


def check_lobby_shows(host, rated: dict[str, pb.BotRating]) -> None:
    """The lobby says each level's rating beside it (mu ± 2 sigma, one decimal), in English and French."""
    done = subprocess.run([shutil.which("node") or "node", str(WEB / "e2e" / "site.mjs"), "botRatings", "--target",
                           host.web_url, "--game", "tictactoe"], capture_output=True, text=True, timeout=180,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr[-4000:]
    shown = json.loads(done.stdout.strip().splitlines()[-1])
    english, french = shown["en"], shown["fr"]
    for level in LEVELS:
        mu, interval = round(rated[level].mu, 1), round(2 * rated[level].sigma, 1)
        [button] = [b for b in english["buttons"] if b["bot"] == level]
        assert button["text"].endswith(f" · rated {mu:g} ± {interval:g}"), button
        assert f"{rated[level].games} rated matches" in button["tooltip"]
        assert any(choice.endswith(f" · rated {mu:g} ± {interval:g}") for choice in english["choices"])
        [bouton] = [b for b in french["buttons"] if b["bot"] == level]
        assert bouton["text"].endswith(f" · cote {mu:g} ± {interval:g}".replace(".", ",")), bouton
    [random_button] = [b for b in english["buttons"] if b["bot"] == "random"]
    assert "rated" not in random_button["text"]
    leaks = EnglishLeaks.of_tables("fr", [json.loads((WEB / "src" / "locales" / "fr.json").read_text("utf-8"))])
    assert french["lang"] == "fr"
    assert not leaks.words_in("\n".join(b["text"] + " " + b["tooltip"] for b in french["buttons"] if b["bot"] in LEVELS))


def test_rated_bot_matches_are_an_operators_and_bad_ones_change_nothing(host, user):
    _, token = user("rita")
    with host.client(token) as rita:
        listed = len(rita.matches(game="tictactoe"))
        alone = error_of(rita.create_match, "tictactoe", bots=[0, 1], seat_bots=["mcts-easy", "mcts-hard"], rated=True)
        assert alone.code.name == "PERMISSION_DENIED" and alone.reason == "RATED_BOTS_NEED_ADMIN"
        assert "admin" in alone.message
        unrated = error_of(rita.create_match, "tictactoe", bots=[1], bot="random", rated=True)
        assert unrated.code.name == "INVALID_ARGUMENT" and unrated.field_violations[0][0] == "rated"
        assert "mcts-easy, mcts-medium, mcts-hard" in unrated.message
        counted = error_of(rita.create_match, "tictactoe", bots=[0, 1], seat_bots=["mcts-easy"])
        assert counted.field_violations[0][0] == "seat_bots" and "2 bot seats" in counted.message
        unknown = error_of(rita.create_match, "tictactoe", bots=[1], seat_bots=["mcts-impossible"])
        assert unknown.field_violations[0][0] == "seat_bots" and "mcts-impossible" in unknown.message
        assert len(rita.matches(game="tictactoe")) == listed
        # A casual bots' match names a bot per seat, and moves no rating.
        casual = rita.create_match("tictactoe", bots=[0, 1], seat_bots=["mcts-hard", "random"])
        assert [seat.bot for seat in casual.seats] == ["mcts-hard", "random"] and not casual.rated


def test_a_rated_match_against_a_level_counts_for_both(host, user):
    subject, token = user("vera")
    with host.client(token) as vera, host.client() as anonymous:
        before = {r.player: r.games for r in anonymous.leaderboard("tictactoe").ratings}
        match = vera.create_match("tictactoe", bots=[1], bot="mcts-easy")
        assert match.rated  # a signed-in player and a rated level
        vera.join(match.name, seat=0)
        deadline = time.monotonic() + 60
        while (view := vera.view(match.name)).status == pb.MATCH_STATUS_ACTIVE and time.monotonic() < deadline:
            if view.legal_moves:
                vera.move(match.name, "", move_id=view.legal_moves[0].id)
            else:
                time.sleep(0.02)  # the bot's turn: poll for its move
        assert vera.match(match.name).status == pb.MATCH_STATUS_FINISHED
        assert [r.games for r in vera.profile().ratings] == [1]
        bot = f"players/{bot_subject('mcts-easy')}"
        assert wait_for(lambda: {r.player: r.games for r in anonymous.leaderboard("tictactoe").ratings}.get(bot)
                        == before.get(bot, 0) + 1, timeout=10)


def seed_ratings(database: str, game: str, shown: dict[str, float]) -> None:
    """Write ratings straight into the store, as if those players had played:
    ``shown`` maps a subject to its shown rating (mu - 3 sigma, sigma 2)."""
    async def seed() -> None:
        store = open_store(database)
        await store.open()
        try:
            for n, (subject, rating) in enumerate(shown.items()):
                await store.rate_match(f"seeded-{game}-{subject}", [subject], game, lambda _, s=subject, r=rating: [
                    PlayerRating(s, game, s.removeprefix("bot:"), mu=r + 6, sigma=2, games=10 + n)])
        finally:
            await store.close()
    asyncio.run(seed())


def test_the_bot_fill_seats_the_level_nearest_the_players_rating(host, database, user):
    (strong, strong_token), (weak, weak_token) = user("sam"), user("tess")
    seed_ratings(database, "campanile", {bot_subject("mcts-easy"): -4.0, bot_subject("mcts-medium"): 8.0,
                                         bot_subject("mcts-hard"): 20.0, strong: 17.0, weak: 1.0})

    def filled(token: str, game: str, bot: str = "") -> str:
        with host.client(token) as player:
            ticket = player.create_ticket(game, ttl=60, bot_wait=0, bot=bot)
            matched = list(player.watch_ticket(ticket.name, timeout=30))[-1]
            assert matched.state == pb.TICKET_STATE_MATCHED
            [seat] = [seat for seat in player.match(matched.match).seats if seat.kind == pb.SEAT_KIND_BOT]
            return seat.bot

    assert filled(strong_token, "campanile") == "mcts-hard"  # 17: hard (20) is nearer than medium (8)
    assert filled(weak_token, "campanile") == "mcts-easy"  # 1: easy (-4) is nearer than medium (8)
    assert filled(weak_token, "campanile", bot="mcts-medium") == "mcts-medium"  # a named bot is kept
    assert filled(weak_token, "scalino") == "random"  # no level is rated in this game yet
    with host.client() as anonymous:  # the catalog reads the seeded ratings too
        rated = catalog_ratings(anonymous.game("campanile"))
    assert rated["mcts-medium"].rating == pytest.approx(8.0) and rated["mcts-medium"].games == 11


def test_the_scheduled_league_keeps_to_its_budget(start_host):
    budget = 0.6
    league = start_host("--bot-think-scale", THINK, "--league-matches-per-hour", "36000", "--league-max-concurrent",
                        "1", "--league-cpu-seconds-per-hour", str(budget), "--league-games", "tictactoe")
    [paused] = league.wait_for_log("league paused: its CPU budget for the hour is spent", timeout=60)
    [scheduled] = league.log_lines("league scheduled")
    assert (scheduled["matches_per_hour"], scheduled["max_concurrent"]) == (36000, 1)
    started, over = league.log_lines("league match started"), league.log_lines("league match over")
    assert len(started) == len(over) >= 1 and all(line["status"] == "finished" for line in over)
    spent = sum(line["seconds"] for line in over)
    assert spent >= budget > spent - over[-1]["seconds"]  # it stopped once the budget was spent, not before
    assert paused["spent_seconds"] >= budget
    with league.client() as anonymous:
        matches = sorted(anonymous.matches(game="tictactoe"), key=lambda m: m.create_time.ToMicroseconds())
        assert len(matches) == len(started)
        for earlier, later in zip(matches, matches[1:]):  # one at a time
            assert later.create_time.ToMicroseconds() >= earlier.update_time.ToMicroseconds()
        levels = {rating.player for rating in anonymous.leaderboard("tictactoe").ratings}
    assert levels and levels <= {f"players/{bot_subject(level)}" for level in LEVELS}
    # Paused for the hour: no match starts after the pause was logged.
    assert len(league.log_lines("league match started")) == len(started)


def test_the_fill_seats_distinct_levels_and_a_round_every_ordering():
    from gamehost.client.league_rounds import league_round
    from gamehost.host.engine.ticket_matching import fill_bots
    from gamehost.host.store.base import TicketRecord

    waiting = TicketRecord("t", "sam", "Sam", "campanile", 3, {}, "p", rating=5.0, bot="")
    levels = {"mcts-easy": -4.0, "mcts-medium": 8.0, "mcts-hard": 20.0}
    # Two bot seats: the two nearest levels, so that the match stays rated (a level holds one seat).
    assert fill_bots([waiting], 2, levels) == ["mcts-medium", "mcts-easy"]
    assert fill_bots([waiting], 4, levels) == ["mcts-medium", "mcts-easy", "mcts-hard", "mcts-medium"]
    assert fill_bots([waiting], 1, {}) == ["random"]
    assert league_round(["a", "b", "c"], 3) == [("a", "b", "c"), ("a", "c", "b"), ("b", "a", "c"), ("b", "c", "a"),
                                                ("c", "a", "b"), ("c", "b", "a")]
    with pytest.raises(ValueError, match="one level a seat"):
        league_round(["a", "b"], 3)


class GatedStore(MemoryStore):
    """The memory store, its rating reads held at a gate once read: a catalog read still under way."""

    gate: asyncio.Event | None = None

    async def player_ratings(self, subject: str) -> list:
        found = await super().player_ratings(subject)
        if self.gate is not None:
            await self.gate.wait()
        return found


async def test_a_level_rated_while_the_catalog_reads_is_shown_at_the_next_read():
    store = GatedStore()
    await store.open()
    levels = BotRatings(store)
    store.gate = asyncio.Event()
    reading = asyncio.create_task(levels.by_game())
    await asyncio.sleep(0)  # the read has begun, nothing rated yet
    counted = PlayerRating(bot_subject("mcts-easy"), "tictactoe", "mcts-easy", games=1, wins=1)
    assert await store.rate_match("m1", [counted.subject], "tictactoe", lambda _: [counted])
    levels.changed()  # as MatchRatings does once it counted a result
    store.gate.set()
    assert await reading == {}  # that read saw the store before the count
    store.gate = None
    assert (await levels.by_game())["tictactoe"]["mcts-easy"].games == 1  # not kept as fresh: read again
    await store.close()
