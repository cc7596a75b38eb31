"""The whole turn: a full match of each shipped game against a bot over
gRPC, in which every view at the player's turn names each step of the bot's
turn and every value those steps made public, checked against the match log
and against the rules replayed from it; private reveals reach their seat
only, never the other seats or a spectator."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from gamehost.client import GameHostClient, from_struct
from gamehost.host.plugins import load_catalog
from gamehost.sdk.replay import RecordedMove, initial_state, replay
from gamehost.v1 import gamehost_pb2 as pb
from google.protobuf import json_format


CATALOG = load_catalog()
SHIPPED = ["tictactoe", "scalino-pyramid", "scalino", "burgbaumeister", "campanile", "kensington", "callisto"]
REVEALING = {"burgbaumeister", "campanile", "kensington"}  # games whose steps show what the move does not name
PUBLIC = -1


def reveal_data(reveals) -> list[list]:
    return [[reveal.label, json_format.MessageToDict(reveal.value) if reveal.HasField("value") else None,
             reveal.seen_by] for reveal in reveals]


def runs_of_turns(events: list[pb.MatchEvent]) -> list[list[pb.MatchEvent]]:
    """The log's MOVED events cut where each turn ends (an event that carries its turn)."""
    turns, current = [], []
    for event in events:
        if event.kind != pb.EVENT_KIND_MOVED:
            continue
        current.append(event)
        if event.HasField("turn"):
            turns.append(current)
            current = []
    return turns + ([current] if current else [])


def spectate(target: str, name: str, into: list[pb.MatchEvent]) -> None:
    with GameHostClient(target) as watcher:
        into.extend(watcher.watch(name))


def play_against_the_bot(client: GameHostClient, target: str, game_id: str,
                         seed: int) -> tuple[str, str, list[pb.View], list[pb.MatchEvent]]:
    """Seat 0 plays random legal moves against the random bot at seat 1;
    returns the match name, seat 0's token, its views at each of its turns
    (and the last), and a spectator's events."""
    chooser = random.Random(f"turns/{game_id}")
    match = client.create_match(game_id, seats=2, bots=[1], seed=seed)
    me = client.join(match.name, seat=0, player_name="turns").player_token
    spectated: list[pb.MatchEvent] = []
    spectator = threading.Thread(target=spectate, args=(target, match.name, spectated), daemon=True)
    spectator.start()
    at_my_turn: list[pb.View] = []
    while True:
        view = client.view(match.name, me)
        if view.status != pb.MATCH_STATUS_ACTIVE:
            at_my_turn.append(view)
            break
        if not view.legal_moves:  # the bot is to move: wait for the next event
            next(iter(client.watch(match.name, me, after_version=view.version)), None)
            continue
        at_my_turn.append(view)
        choice = view.legal_moves[chooser.randrange(len(view.legal_moves))]
        client.move(match.name, me, move_id=choice.id, expected_version=view.version)
    spectator.join(60)
    assert not spectator.is_alive()
    return match.name, me, at_my_turn, spectated


@pytest.mark.parametrize("game_id", SHIPPED)
def test_each_view_names_the_whole_turn_of_the_opponent_and_what_it_revealed(host, game_id):
    game = CATALOG.games[game_id].game
    with host.client() as client:
        name, me, at_my_turn, spectated = play_against_the_bot(client, host.target, game_id, seed=4321)
        spectator_log = client.log(name)  # a spectator's log
        mine = client.log(name, me)
        paged = client.log(name, me, page_size=7)  # turns that began on an earlier page are whole too
        ends = [event for event in mine.events if event.HasField("turn")]
        # The replay page's past views show the same turns as the log.
        past = {event.version: client.view(name, me, at_version=event.version).last_turn
                for event in ends[:: max(1, len(ends) // 5)]}

    events = list(mine.events)
    by_version = {event.version: event for event in events}
    moved = [event for event in events if event.kind == pb.EVENT_KIND_MOVED]
    assert mine.complete and moved

    # Every step is in exactly one turn, and each turn's last step carries it whole.
    turns = runs_of_turns(events)
    assert [event.version for turn in turns for event in turn] == [event.version for event in moved]
    for turn in turns:
        assert len({event.seat for event in turn}) == 1
        summary = turn[-1].turn
        assert summary.complete and summary.seat == turn[0].seat
        assert [step.version for step in summary.steps] == [event.version for event in turn]
        assert [step.label for step in summary.steps] == [event.label for event in turn]
        assert [reveal_data(step.revealed) for step in summary.steps] == [reveal_data(e.revealed) for e in turn]
        assert summary.text.count(" · ") == len(turn) - 1
        for step, event in zip(summary.steps, turn):
            assert event.label in summary.text and all(r.label in summary.text for r in event.revealed)

    assert past and all(turn == by_version[version].turn for version, turn in past.items())
    assert [event.turn for event in paged.events] == [event.turn for event in events]

    # At each of seat 0's turns, the view names the bot's whole turn just played.
    checked = 0
    for view in at_my_turn:
        last = max((event for event in moved if event.version <= view.version), key=lambda e: e.version, default=None)
        if last is None:
            assert not view.HasField("last_turn")
            continue
        bot_turn = next(turn for turn in turns if turn[-1].version == last.version or last in turn)
        assert view.last_turn == bot_turn[-1].turn or not view.last_turn.complete
        if last.seat == 1 and view.status == pb.MATCH_STATUS_ACTIVE:
            assert view.last_turn.seat == 1 and view.last_turn.complete
            assert [step.version for step in view.last_turn.steps] == [event.version for event in bot_turn]
            checked += 1
    assert checked >= 2  # tic-tac-toe may end on the player's third move

    # What the log says each step revealed is what the rules reveal, replayed from the log: seat 0
    # sees the public values and its own, the spectator the public ones only.
    state = initial_state(game, 2, from_struct(mine.options), mine.seed)
    spectators = {event.version: event for event in spectator_log.events}
    public_seen = 0
    for event in moved:
        move = from_struct(event.move)
        after = replay(game, state, mine.seed, [RecordedMove(event.version, event.seat, move)])
        expected = list(game.revealed(state, event.seat, move, after))
        to_seat0 = [r for r in expected if r.seen_by in (None, 0)]
        to_seat0.sort(key=lambda r: r.seen_by is not None)
        assert [[r.label, json.loads(json.dumps(r.value)), PUBLIC if r.seen_by is None else r.seen_by]
                for r in to_seat0] == reveal_data(by_version[event.version].revealed)
        assert reveal_data(spectators[event.version].revealed) == [
            [r.label, json.loads(json.dumps(r.value)), PUBLIC] for r in expected if r.seen_by is None]
        public_seen += sum(1 for r in expected if r.seen_by is None)
        state = after
    assert (public_seen > 0) == (game_id in REVEALING)

    # Hidden stays hidden: no other seat's private reveal anywhere seat 0 or the spectator looks.
    for event in events:
        assert all(reveal.seen_by in (PUBLIC, 0) for reveal in event.revealed)
        for step in event.turn.steps:
            assert all(reveal.seen_by in (PUBLIC, 0) for reveal in step.revealed)
    for event in [*spectator_log.events, *spectated]:
        assert all(reveal.seen_by == PUBLIC for reveal in event.revealed)
        for step in [*event.turn.steps, *event.view.last_turn.steps]:
            assert all(reveal.seen_by == PUBLIC for reveal in step.revealed)
    for view in at_my_turn:
        assert all(reveal.seen_by in (PUBLIC, 0) for step in view.last_turn.steps for reveal in step.revealed)
    if game_id == "campanile":  # the drawer alone learns which card joined its hand
        assert any(reveal.seen_by == 0 for event in events for reveal in event.revealed)
        assert any(not any(r.seen_by == 0 for r in spectators[e.version].revealed) and
                   any(r.seen_by == 0 for r in e.revealed) for e in moved)


def gamehost_cli(host, *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "gamehost.cli.main", *args, "--host", host.target],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_watch_in_the_terminal_prints_each_whole_turn_and_what_it_revealed(host, client):
    """Campanile between two bots: each turn of several steps (a bet, then the
    draw) gets a line naming them all, and each draw its reveals, in English
    and in French; a spectator never reads which card joined a hand."""
    name = client.create_match("campanile", seats=2, bots=[0, 1], seed=99).name
    for _event in client.watch(name):
        pass
    log = client.log(name)
    english = gamehost_cli(host, "watch", name)
    french = gamehost_cli(host, "watch", name, "--locale", "fr")
    long_turns = [event.turn for event in log.events if len(event.turn.steps) > 1]
    assert long_turns
    for turn in long_turns:
        assert f"  Player {turn.seat + 1} (bot)'s whole turn: {turn.text}\n" in english, english
    draws = [event for event in log.events if event.revealed]
    assert draws and all(f": {event.label} ({'; '.join(r.label for r in event.revealed)})\n" in english
                         for event in draws)
    assert "Took a S" in english and "now shows" in english
    assert "is now in your hand" not in english and "dans votre main" not in french
    assert "Tour complet de Joueur" in french and "A pris une carte S" in french and "whole turn" not in french


WEB = Path(__file__).resolve().parents[1] / "clients" / "web"


@pytest.mark.parametrize(("language", "heading"), [("en", "Last turn: "), ("fr", "Dernier tour : ")])
def test_the_page_names_the_bots_whole_turn_above_the_board(web_host, language, heading):
    """Campanile against a bot in the browser: once the bot has played a turn
    of several steps, the line above the board names each of them with what
    it revealed, as the log has that turn; a spectator's page reads the same."""
    done = subprocess.run([shutil.which("node") or "node", str(WEB / "e2e" / "turns.mjs"), "--target",
                           web_host.web_url, "--game", "campanile", "--language", language],
                          capture_output=True, text=True, timeout=240, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr[-4000:]
    shown = json.loads(done.stdout.strip().splitlines()[-1])
    player = shown["player"]
    assert player is not None, shown
    with GameHostClient(web_host.target, locale=language) as client:
        log = client.log(f"matches/{shown['match']}")
    turn = next(event.turn for event in log.events if event.version == player["version"])
    assert turn.seat != shown["seat"] and len(turn.steps) == player["steps"] > 1
    expected = " · ".join(step.label + (f" ({'; '.join(r.label for r in step.revealed)})" if step.revealed else "")
                          for step in turn.steps)
    assert player["text"].startswith(heading) and player["text"].endswith(expected), (player, expected)
    assert any(step.revealed for step in turn.steps)  # the draw: the card taken, the card uncovered
    assert shown["spectator"]["text"] == player["text"] and shown["spectator"]["version"] == player["version"]


def test_a_turn_played_through_one_replica_reads_whole_through_the_other_on_postgresql(start_host, postgres_url):
    """Campanile's turns played on replica a: replica b, which learns the steps from the shared
    log, shows the same whole turns in its views and its log, reveals included."""
    a, b = (start_host("--store", postgres_url, "--replica-id", name) for name in "ab")
    with a.client() as on_a, b.client() as on_b:
        name = on_a.create_match("campanile", seats=2, seed=11).name
        tokens = [on_a.join(name, seat=seat).player_token for seat in range(2)]
        whole_turns = 0
        while whole_turns < 3:
            seat = on_a.match(name).to_move[0]
            view = on_a.view(name, tokens[seat])
            on_a.move(name, tokens[seat], move_id=view.legal_moves[0].id, expected_version=view.version)
            moved = on_a.view(name, tokens[0])
            if moved.last_turn.complete and len(moved.last_turn.steps) > 1:
                whole_turns += 1
                assert on_b.view(name, tokens[0]).last_turn == moved.last_turn
        assert [event.turn for event in on_b.log(name, tokens[1]).events] == \
            [event.turn for event in on_a.log(name, tokens[1]).events]
        assert any(step.revealed for event in on_b.log(name).events for step in event.turn.steps)
