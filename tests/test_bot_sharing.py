"""A bot's think shares its rules worker: with one worker, other matches'
moves are answered while a search bot thinks (between slices of its
search) or a plugin's bot chooses (in a thread), and thinks started
together all end, each with its move."""

from __future__ import annotations

import threading

import pytest

from gamehost.v1 import gamehost_pb2 as pb
from hosts import HostProcess

BOT_GAME = "kensington"  # mcts-hard thinks its whole time budget here, not stopped by its iteration budget
DRAW = ["a3", "b3", "c3", "b2", "a2", "c2", "b1", "a1", "c1"]


@pytest.fixture(scope="module")
def host():
    # Thinks twice as long as by default: the moves below run well within one.
    running = HostProcess("--workers", "1", "--bot-think-scale", "2").start()
    yield running
    running.stop()


def human_against_bot(client) -> tuple[str, str]:
    """A Kensington match of a human (seat 0) against mcts-hard (seat 1), the
    human to move (after the bot's first move if it began): its name and the
    human's token."""
    match = client.create_match(BOT_GAME, seats=2, bots=[1], bot="mcts-hard").name
    token = client.join(match).player_token
    view = client.view(match, token)
    while list(view.to_move) == [1]:  # the bot's turn (a Kensington turn may be several moves)
        bot_moved(client, match, view.version)
        view = client.view(match, token)
    assert list(view.to_move) == [0]
    return match, token


def play_first_legal(client, match: str, token: str) -> int:
    """The human's first legal move; the version it made (the bot is to move after it)."""
    view = client.view(match, token)
    while True:
        version = client.move(match, token, move_id=view.legal_moves[0].id, expected_version=view.version).version
        view = client.view(match, token)
        if list(view.to_move) == [1]:
            return version


def bot_moved(client, match: str, after_version: int) -> pb.MatchEvent:
    """The bot's move after ``after_version``, as the match's watchers get it."""
    for event in client.watch(match, after_version=after_version):
        if event.kind == pb.EVENT_KIND_MOVED:
            return event
    raise AssertionError(f"{match} ended without the bot's move")


def test_a_human_move_in_another_match_is_answered_while_a_bot_thinks_on_the_same_worker(host):
    with host.client() as client:
        tictactoe = client.create_match("tictactoe").name
        tokens = [client.join(tictactoe).player_token for _ in range(2)]
        client.move(tictactoe, tokens[0], move_id=DRAW[0])  # resident in the one worker, as the bot's match
        match, token = human_against_bot(client)
        thinking_from = play_first_legal(client, match, token)
        assert host.wait_for_log("bot thinking", match)
        # Each move waits for the one before: were they queued behind the think, the bot's move
        # (answered before them) would be committed before the last of them.
        for turn in range(1, 5):
            client.move(tictactoe, tokens[turn % 2], move_id=DRAW[turn])
        assert client.match(match).version == thinking_from, "the bot's move came before the other match's moves"
        event = bot_moved(client, match, thinking_from)
        assert event.seat == 1 and event.version == thinking_from + 1
    thought = host.wait_for_log("bot thought", match)
    assert thought and thought[0]["iterations"] >= 1


def test_a_plugin_bot_with_only_choose_thinks_in_a_thread_while_its_worker_answers_other_matches(host):
    with host.client() as client:
        tictactoe = client.create_match("tictactoe").name
        tokens = [client.join(tictactoe).player_token for _ in range(2)]
        client.move(tictactoe, tokens[0], move_id=DRAW[0])  # resident in the one worker, as the bot's match
        match = client.create_match("crashy", bots=[1], bot="slow").name  # 2 s busy in its choose
        me = client.join(match, seat=0).player_token
        thinking_from = client.move(match, me, move_id="add1").version
        assert host.wait_for_log("bot thinking", match)
        for turn in range(1, 5):
            client.move(tictactoe, tokens[turn % 2], move_id=DRAW[turn])
        assert client.match(match).version == thinking_from, "the other match's moves waited for the bot"
        event = bot_moved(client, match, thinking_from)
        assert (event.seat, event.version, event.label) == (1, thinking_from + 1, "add 1")
    assert not host.log_lines("bot failed; a random move is played instead")


def test_bots_thinking_at_once_on_one_worker_each_end_with_their_move(host):
    with host.client() as client:
        matches = [human_against_bot(client) for _ in range(3)]
        versions = [play_first_legal(client, match, token) for match, token in matches]
        moved: dict[str, pb.MatchEvent] = {}

        def follow(match: str, version: int) -> None:
            with host.client() as watcher:
                moved[match] = bot_moved(watcher, match, version)

        followers = [threading.Thread(target=follow, args=(match, version))
                     for (match, _), version in zip(matches, versions)]
        for follower in followers:
            follower.start()
        for follower in followers:
            follower.join(60)
        for (match, _), version in zip(matches, versions):
            assert moved[match].seat == 1 and moved[match].version == version + 1
            assert not host.log_lines("bot failed; a random move is played instead")
            assert host.wait_for_log("bot thought", match)[0]["iterations"] >= 1


def test_a_think_that_hangs_in_a_slice_is_charged_to_its_match_not_to_a_call_sent_meanwhile(tmp_path):
    """The bot's search hangs in the plugin (its legal moves, two moves on)
    while the worker holds it in a slice. A move of another match sent then
    was never started: its shorter deadline must not fire and take the
    blame. The think's deadline kills the worker; the bot's match gets the
    strike, and the other move is answered by the replacement."""
    # One strike suspends the bot's match: its bot does not try again and hang the replacement too.
    running = HostProcess("--workers", "1", "--rules-timeout", "1", "--bot-timeout", "3", "--max-strikes", "1",
                          data_dir=tmp_path).start()
    try:
        with running.client() as client:
            other = client.create_match("tictactoe").name
            tokens = [client.join(other).player_token for _ in range(2)]
            faulty = client.create_match("faulty", seats=2, bots=[1], bot="mcts-hard",
                                         options={"fault": "hang", "after": 2, "ways": 2}).name
            human = client.join(faulty).player_token
            client.move(faulty, human, move_id="add")
            assert running.wait_for_log("bot thinking", faulty)
            moved = client.move(other, tokens[0], move_id=DRAW[0])
            assert moved.version == client.match(other).version
            assert client.match(faulty).status == pb.MATCH_STATUS_SUSPENDED
        failed = running.wait_for_log("rules failed", faulty)
        assert failed and failed[0]["reason"] == "RULES_TIMEOUT" and failed[0]["hook"] == "choose"
        assert not running.wait_for_log("rules failed", other, timeout=0)
    finally:
        running.stop()
