"""The search bots: every game played to the end at every level on a real
host and replayed from its log; tic-tac-toe's strongest bot never loses; the
bot decides on what its seat knows only; the catalog lists the bots."""

from __future__ import annotations

import random

import pytest

from gamehost.client import from_struct
from gamehost.host.bots import RandomBot
from gamehost.host.plugins import load_catalog
from gamehost.sdk.replay import RecordedMove, initial_state, replay
from gamehost.sdk.search import LEVELS, SEARCH_BOTS, SearchBot, SearchLevel
from gamehost.v1 import gamehost_pb2 as pb
from hosts import HostProcess

CATALOG = load_catalog()
GAMES = sorted(CATALOG.games)
LEVEL_NAMES = [level.name for level in LEVELS]


@pytest.fixture(scope="module")
def quick_host():
    """Search bots at 2% of their budgets: every level still searches, and
    a Kensington match stays within seconds."""
    process = HostProcess(env={"GAMEHOST_BOT_THINK_SCALE": "0.02"}).start()
    yield process
    process.stop()


def test_catalog_lists_each_game_s_bots(quick_host):
    with quick_host.client() as client:
        games = client.stub.ListGames(pb.ListGamesRequest(page_size=100)).games
    assert {game.id for game in games} >= set(GAMES)
    for game in games:
        listed = [(bot.name, bot.level) for bot in game.bots]
        assert listed[:4] == [("random", 0), ("mcts-easy", 1), ("mcts-medium", 2), ("mcts-hard", 3)]
        assert all(bot.title for bot in game.bots)


@pytest.mark.parametrize("level", LEVEL_NAMES)
@pytest.mark.parametrize("game_id", GAMES)
def test_bot_only_match_plays_to_the_end_and_replays(quick_host, game_id, level):
    game = CATALOG.games[game_id].game
    seats = game.min_players
    with quick_host.client() as client:
        match = client.create_match(game_id, seats=seats, bots=list(range(seats)), bot=level, seed=4242)
        for _ in client.watch(match.name):
            pass
        log = client.log(match.name)
    assert log.complete and log.result.ranking
    moved = [event for event in log.events if event.kind == pb.EVENT_KIND_MOVED]
    assert moved and all(event.label for event in moved)
    state = initial_state(game, seats, from_struct(log.options), log.seed)
    for event in moved:
        state = replay(game, state, log.seed, [RecordedMove(event.version, event.seat, from_struct(event.move))])
    outcome = game.outcome(state)
    assert outcome is not None and list(outcome.ranking) == list(log.result.ranking)
    assert list(outcome.scores) == pytest.approx(list(log.result.scores))


def test_a_search_bot_in_the_host_plays_a_match_to_the_end():
    """With isolation off the bot thinks in a thread of the host."""
    process = HostProcess("--isolation", "off", env={"GAMEHOST_BOT_THINK_SCALE": "0.05"}).start()
    try:
        with process.client() as client:
            match = client.create_match("tictactoe", bots=[0, 1], bot="mcts-hard", seed=5)
            for _ in client.watch(match.name):
                pass
            assert client.match(match.name).status == pb.MATCH_STATUS_FINISHED
            log = client.log(match.name)
        assert log.complete and sorted(log.result.ranking)[0] == 1
        # The search bot chose every move: no fallback to the random bot.
        assert not [line for line in process.logs if str(line.get("event", "")).startswith("bot failed")]
    finally:
        process.stop()


def _play(game, bots, seed: int) -> list[int]:
    rng = random.Random(seed)
    state = game.setup(len(bots), game.default_options(), rng)
    while (outcome := game.outcome(state)) is None:
        seat = game.to_move(state)[0]
        move = bots[seat].choose(game, state, seat, game.legal_moves(state, seat), random.Random(rng.random()))
        state = game.apply(state, seat, move.args, rng)
    return list(outcome.ranking)


# A fixed budget without a clock: the result does not depend on the machine's load.
TICTACTOE_STRONGEST = SearchBot(SearchLevel("test-strongest", "test", 3, iterations=1500, seconds=60,
                                            playout_cap=LEVELS[-1].playout_cap))


def test_tictactoe_strongest_bot_never_loses():
    game = CATALOG.games["tictactoe"].game
    assert LEVELS[-1].iterations == TICTACTOE_STRONGEST.level.iterations
    for seed in range(4):
        seat = seed % 2
        bots = [RandomBot(), RandomBot()]
        bots[seat] = TICTACTOE_STRONGEST
        ranking = _play(game, bots, seed)
        assert ranking[seat] == 1, f"lost to random as seat {seat}, seed {seed}"
    assert _play(game, [TICTACTOE_STRONGEST, TICTACTOE_STRONGEST], 0) == [1, 1]  # against itself: a draw


def _move_counts(game, state, seat: int, runs: int) -> dict[str, int]:
    bot = SearchBot(SearchLevel("test", "test", 1, iterations=40, seconds=60, playout_cap=30))
    moves = game.legal_moves(state, seat)
    counts: dict[str, int] = {}
    for run in range(runs):
        chosen = bot.choose(game, state, seat, moves, random.Random(run))
        counts[chosen.id] = counts.get(chosen.id, 0) + 1
    return counts


@pytest.mark.parametrize("game_id", ["campanile", "burgbaumeister"])
def test_states_a_seat_cannot_tell_apart_get_the_same_moves(game_id):
    """Two states that differ only in what seat 0 cannot know (dealt afresh
    by sample_state): the same rngs give the same move each time, so the
    distributions are equal, not merely close."""
    game = CATALOG.games[game_id].game
    rng = random.Random(7)
    state = game.setup(2, game.default_options(), rng)
    while game.to_move(state)[0] != 0:
        seat = game.to_move(state)[0]
        moves = game.legal_moves(state, seat)
        state = game.apply(state, seat, moves[rng.randrange(len(moves))].args, rng)
    other = game.sample_state(state, 0, random.Random(99))
    assert other != state and game.view(other, 0) == game.view(state, 0)
    assert _move_counts(game, state, 0, 12) == _move_counts(game, other, 0, 12)


@pytest.mark.parametrize("game_id", ["kensington", "callisto"])
def test_a_search_run_in_slices_chooses_as_the_whole_search_does(game_id):
    """Sliced (one iteration per slice, as a worker under load may run it)
    or whole, a search bound by its iterations draws the same rng the same
    way: the same tree, the same move."""
    game = CATALOG.games[game_id].game
    state = game.setup(2, game.default_options(), random.Random(3))
    seat = game.to_move(state)[0]
    moves = game.legal_moves(state, seat)
    bot = SearchBot(SearchLevel("test", "test", 1, iterations=30, seconds=60, playout_cap=40))
    whole = bot.think(game, state, seat, moves, random.Random(11))
    assert whole.run(float("inf"))
    sliced = bot.think(game, state, seat, moves, random.Random(11))
    slices = 1
    while not sliced.run(0.0):  # a slice that ended before it began: one iteration still
        slices += 1
    assert slices == whole.iterations == sliced.iterations == 30
    assert sliced.choice() == whole.choice() == bot.choose(game, state, seat, moves, random.Random(11))
    assert {move_id: child.visits for move_id, child in sliced.root.children.items()} == \
        {move_id: child.visits for move_id, child in whole.root.children.items()}


def test_every_level_is_registered():
    assert set(SEARCH_BOTS) == set(LEVEL_NAMES) and len(LEVELS) >= 3
    assert all(level.seconds <= 1.0 for level in LEVELS)


def test_cli_names_a_burgbaumeister_bot_turn_by_place(quick_host):
    """`gamehost play`: the lines naming the bot's moves (the log's labels)
    name places, never a card's number (the board printed at that moment
    shows the face-up card); a card the move turned face up is said after
    the label, as what became public."""
    import re
    import subprocess
    import sys

    answers = "1\n" * 40 + "q\n"
    result = subprocess.run([sys.executable, "-m", "gamehost.cli.main", "play", "burgbaumeister", "--bot", "mcts-easy",
                             "--host", quick_host.target, "--seed", "11", "--name", "tester"], input=answers,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    bot_lines = [line.strip() for line in result.stdout.splitlines() if line.startswith("  Player 2 (bot): ")]
    assert len(bot_lines) >= 4, result.stdout[-2000:]
    for line in bot_lines:
        named = re.fullmatch(r"Player 2 \(bot\): (Turn up the card at|Take the card at|Turn the card at|Magician: insert "
                             r"the card at) [A-E][1-9](?P<rest>.*)", line)
        assert named, line
        label, _, revealed = named["rest"].partition(" (The card at ")
        assert not re.search(r"\d", label), line  # no number after the place
        assert not revealed or re.fullmatch(r"[A-E][1-9] shows \d+\)", revealed), line


@pytest.mark.parametrize(("args", "complaint"), [
    (["--bot-think-scale", "0"], "argument --bot-think-scale: must be more than 0, not 0.0"),
    (["--bot-timeout", "0.5"], "keep mcts-hard's 0.9 s times it under --bot-timeout (0.5 s), not 1.0"),
    (["--bot-delay-with-humans", "-1"], "argument --bot-delay-with-humans: must be 0 or more"),
])
def test_bot_settings_out_of_range_are_usage_errors(args, complaint):
    import subprocess
    import sys

    refused = subprocess.run([sys.executable, "-m", "gamehost.cli.main", "serve", "--store", "memory", *args],
                             capture_output=True, text=True, timeout=30)
    assert refused.returncode == 2 and complaint in refused.stderr, refused.stderr
