"""Every installed game, end to end over gRPC: a full match against bots,
watched by a spectator, then replayed and verified from its published log,
with every view that crossed the wire checked for the game's secrets."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import threading
from importlib.metadata import entry_points

import pytest

from gamehost.client import GameHostClient, from_struct
from gamehost.host.plugins import ENTRY_POINT_GROUP, load_catalog
from gamehost.sdk.replay import RecordedMove, initial_state, replay
from gamehost.v1 import gamehost_pb2 as pb
from view_tokens import view_tokens

CATALOG = load_catalog()
GAMES = sorted(CATALOG.games)
CASES = [(game_id, seats) for game_id in GAMES
         for seats in sorted({CATALOG.games[game_id].game.min_players, CATALOG.games[game_id].game.max_players})]


def test_every_installed_plugin_offers_a_game():
    assert {ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)} <= set(GAMES)


@pytest.mark.parametrize(("game_id", "seats"), CASES)
def test_full_match_over_grpc_against_bots(host, game_id, seats):
    game = CATALOG.games[game_id].game
    chooser = random.Random(f"{game_id}/{seats}")
    with host.client() as client:
        match = client.create_match(game_id, seats=seats, bots=list(range(1, seats)), seed=1234 + seats)
        me = client.join(match.name, seat=0, player_name="e2e")
        seen: dict[int, dict[int, pb.View]] = {-1: {}, 0: {}}

        def spectate():
            with GameHostClient(host.target) as watcher:
                for event in watcher.watch(match.name):
                    if event.HasField("view"):
                        seen[-1][event.version] = event.view

        spectator = threading.Thread(target=spectate, daemon=True)
        spectator.start()
        moves = 0
        while True:
            view = client.view(match.name, me.player_token, text=True, svg=True)
            seen[0][view.version] = view
            assert view.text and view.svg.lstrip().startswith("<svg")
            if view.status != pb.MATCH_STATUS_ACTIVE:
                break
            if not view.legal_moves:
                next(iter(client.watch(match.name, me.player_token, after_version=view.version)), None)
                continue
            choice = view.legal_moves[chooser.randrange(len(view.legal_moves))]
            client.move(match.name, me.player_token, move_id=choice.id, expected_version=view.version)
            moves += 1
        spectator.join(30)
        assert not spectator.is_alive()
        assert view.status == pb.MATCH_STATUS_FINISHED and moves > 0
        log = client.log(match.name)

    assert log.complete and [e.version for e in log.events] == list(range(1, len(log.events) + 1))
    # Replay the published log and check every view that was sent against that moment's secrets.
    state = initial_state(game, seats, from_struct(log.options), log.seed)
    states = {0: state}
    for event in log.events:
        if event.kind == pb.EVENT_KIND_MOVED:
            state = replay(game, state, log.seed, [RecordedMove(event.version, event.seat, from_struct(event.move))])
        states[event.version] = state
    outcome = game.outcome(state)
    assert list(outcome.ranking) == list(log.result.ranking)
    for viewer, views in seen.items():
        for version, sent in views.items():
            if sent.status == pb.MATCH_STATUS_FINISHED:
                continue
            secrets = [s for s in game.secrets(states[version]) if viewer < 0 or s.owner != viewer]
            visible = view_tokens(from_struct(sent.state))
            leaked = [s.value for s in secrets if s.value in visible]
            assert not leaked, f"{game_id}: view for seat {viewer} at version {version} carries {leaked[:3]}"


def test_cli_replay_verifies_a_finished_match(host):
    with host.client() as client:
        match = client.create_match("tictactoe", bots=[0, 1], seed=77)
        list(client.watch(match.name))
    result = subprocess.run([sys.executable, "-m", "gamehost.cli.main", "replay", match.name, "--host", host.target],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "verified:" in result.stdout and "\nv3 Player 2 (bot): O on " in result.stdout


def test_cli_replay_of_an_abandoned_match_says_there_is_no_result(host):
    with host.client() as client:
        match = client.create_match("tictactoe")
        x = client.join(match.name).player_token
        client.join(match.name)
        client.move(match.name, x, move_id="b2")
        client.leave(match.name, x)
    result = subprocess.run([sys.executable, "-m", "gamehost.cli.main", "replay", match.name, "--host", host.target,
                             "--quiet"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "ended without a result (abandoned or aborted), so there is no result to verify" in result.stdout


def test_cli_play_in_the_terminal_to_the_end(host):
    answers = "\n".join(["1"] * 9) + "\n"
    result = subprocess.run([sys.executable, "-m", "gamehost.cli.main", "play", "tictactoe", "--host", host.target,
                             "--seed", "4", "--name", "tester"], input=answers, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    assert "a b c" in result.stdout and "Game over:" in result.stdout
    assert "your move (number or id, r to resign, d to offer a draw, q to quit)" in result.stdout
    assert ": you are Player 1\n" in result.stdout  # seat 0: people count from 1


def test_cli_play_composes_a_long_list_of_moves_part_by_part(host, client):
    """Callisto offers hundreds of moves in parts: the terminal asks for the
    piece, then how it lies, then the cell ("b" goes back a part); a part
    with one choice (the column, the only piece of the first rounds) is
    taken without asking."""
    answers = ["1", "1",  # two columns: only their cells are asked
               "1", "b", "piece:L4", "1", "1", "q"]  # a piece, back, another piece, how it lies, its cell
    result = subprocess.run([sys.executable, "-m", "gamehost.cli.main", "play", "callisto", "--host", host.target,
                             "--seed", "7", "--name", "tester"], input="\n".join(answers) + "\n",
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "moves with column; choose:" in result.stdout and "number, id, b to go back" in result.stdout
    name = result.stdout.split(":", 1)[0].strip()
    placed = [from_struct(event.move) for event in client.log(name).events
              if event.kind == pb.EVENT_KIND_MOVED and event.seat == 0]
    assert [move["piece"] for move in placed[:2]] == ["column", "column"]
    assert len(placed) == 3 and placed[2]["piece"] != "column" and "orientation" in placed[2]


def test_cli_create_join_matches_and_watch(host):
    def cli(*args):
        done = subprocess.run([sys.executable, "-m", "gamehost.cli.main", *args, "--host", host.target],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return done.stdout

    name = cli("create", "tictactoe", "--bots", "1").strip()
    assert name.startswith("matches/")
    joined = cli("join", name, "--seat", "0", "--name", "cli")
    assert joined.startswith(f"cli (Player 1) of {name} (seat 0 in the API, counted from 0)")  # people count from 1
    token = joined.split("player token: ")[1].strip()
    assert f"{name}" in (listed := cli("matches", "--game", "tictactoe", "--status", "active"))
    assert "cli, Player 2 (bot)" in listed
    games = json.loads(cli("games", "--json"))
    assert any(game["id"] == "tictactoe" for game in games)
    with host.client() as client:
        while client.view(name, token).status == pb.MATCH_STATUS_ACTIVE:
            view = client.view(name, token)
            if view.legal_moves:
                client.move(name, token, move_id=view.legal_moves[0].id, expected_version=view.version)
            else:
                next(iter(client.watch(name, token, after_version=view.version)), None)
    watched = cli("watch", name)
    assert "v1 joined cli" in watched and "finished" in watched and "Game over:" in watched
    # Seats by the player's name, a bot's as Player N (bot); labels as the plugin gives them.
    assert re.search(r"^v\d+ moved cli: X on [abc][123]$", watched, re.M)
    assert re.search(r"^v\d+ moved Player 2 \(bot\): O on [abc][123]$", watched, re.M)


def test_cli_reports_host_errors_clearly(host):
    done = subprocess.run([sys.executable, "-m", "gamehost.cli.main", "create", "chess", "--host", host.target],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.startswith("error: NOT_FOUND: No game 'games/chess' on this host.")
