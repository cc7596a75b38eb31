"""`gamehost play` a player can trust, against a real host: quitting (q,
Ctrl-C, end of input) asks what becomes of the seat and always says how to
come back or that the match was left or resigned; a step with one choice is
taken, not asked; shapes to choose are drawn; seats are named alike in
`join`, `play` and `watch`."""

from __future__ import annotations

import io
import os
import re
import select
import shlex
import signal
import subprocess
import sys
import time

import pytest

from gamehost.cli.main import main
from gamehost.v1 import gamehost_pb2 as pb

pytestmark = pytest.mark.timeout(150)  # a loaded machine starts the CLI processes slowly

RESUME = re.compile(r"come back to it with: (gamehost play --match \S+ --token=\S+(?: --host \S+)?)")


@pytest.fixture()
def cli(capsys, monkeypatch):
    """``cli(host, *args, answers="")``: run a command in this process, its answers typed in; (code, output)."""
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)

    def run(host, *args: str, answers: str = "") -> tuple[int, str]:
        monkeypatch.setattr("sys.stdin", io.StringIO(answers))
        code = main([*args, "--host", host.target])
        out, err = capsys.readouterr()
        return code, out + err

    return run


def match_of(output: str) -> str:
    found = re.search(r"(matches/[^\s:]+): you are ", output)
    assert found, output
    return found.group(1)


def resume_of(output: str) -> list[str]:
    found = RESUME.search(output)
    assert found, output
    return shlex.split(found.group(1))


def run_gamehost(words: list[str], answers: str) -> subprocess.CompletedProcess:
    assert words[0] == "gamehost"
    return subprocess.run([sys.executable, "-m", "gamehost.cli.main", *words[1:]], input=answers,
                          capture_output=True, text=True, timeout=60)


def test_quit_and_keep_prints_a_resume_command_that_plays_on(cli, host, client):
    code, out = cli(host, "play", "tictactoe", "--seed", "3", "--name", "Ann", answers="q\nk\n")
    assert code == 0
    assert "quit: l to leave the seat, r to resign, k to keep your seat and quit" in out
    assert "if you leave, the match ends without a result for everyone" in out
    name = match_of(out)
    assert client.match(name).status == pb.MATCH_STATUS_ACTIVE
    command = resume_of(out)
    assert command[:4] == ["gamehost", "play", "--match", name] and command[-2:] == ["--host", host.target]
    resumed = run_gamehost(command, "1\n" * 9)  # the printed command, run as printed
    assert resumed.returncode == 0, resumed.stderr
    assert f"{name}: you are Player 1" in resumed.stdout and "Game over:" in resumed.stdout
    assert client.match(name).status == pb.MATCH_STATUS_FINISHED
    moves = [event for event in client.log(name).events if event.kind == pb.EVENT_KIND_MOVED and event.seat == 0]
    assert moves, "the resumed seat moved"


def test_quit_and_leave_abandons_the_match_and_says_so(cli, host, client):
    code, out = cli(host, "play", "tictactoe", "--seed", "3", answers="q\nl\n")
    name = match_of(out)
    assert code == 0 and f"you left the match: {name} abandoned" in out, out
    assert "come back to it" not in out
    assert client.match(name).status == pb.MATCH_STATUS_ABANDONED


def test_quit_and_resign_finishes_the_match_for_the_opponent(cli, host, client):
    code, out = cli(host, "play", "tictactoe", "--seed", "3", answers="q\nwhat\nr\n")
    name = match_of(out)
    assert code == 0 and "'what' is not one of the choices above." in out and f"resigned: {name} finished" in out
    finished = client.match(name)
    assert finished.status == pb.MATCH_STATUS_FINISHED and finished.seats[0].resigned
    assert "come back to it" not in out


def test_input_ending_keeps_the_seat_and_prints_the_resume_command(cli, host, client):
    code, out = cli(host, "play", "tictactoe", "--seed", "3", answers="")
    name = match_of(out)
    assert code == 0 and "quit: l to leave" not in out, "nobody can answer: nothing is asked"
    assert resume_of(out)[3] == name
    assert client.match(name).status == pb.MATCH_STATUS_ACTIVE and not client.match(name).seats[0].resigned


def test_q_then_end_of_input_keeps_the_seat(cli, host, client):
    code, out = cli(host, "play", "tictactoe", "--seed", "3", answers="q\n")
    name = match_of(out)
    assert code == 0 and resume_of(out)[3] == name
    assert client.match(name).status == pb.MATCH_STATUS_ACTIVE


def _read_until(stream, wanted: str, deadline: float) -> str:
    seen = ""
    while wanted not in seen:
        readable, _, _ = select.select([stream], [], [], max(0.0, deadline - time.monotonic()))
        assert readable, f"no {wanted!r} before the deadline: {seen}"
        chunk = os.read(stream.fileno(), 4096).decode()
        assert chunk, seen
        seen += chunk
    return seen


def _interrupt_until(player: subprocess.Popen, wanted: str, deadline: float) -> str:
    """Ctrl-C until the player answers it, then its output up to ``wanted``.
    A SIGINT that lands between input()'s prompt and its read() only sets
    CPython's flag, which the blocked read never looks at: the player stays
    silent, and a person presses again. Once it answers (at once, with a new
    line), no second press comes to cut into what it does next."""
    while True:
        player.send_signal(signal.SIGINT)
        readable, _, _ = select.select([player.stdout], [], [], min(3.0, max(0.0, deadline - time.monotonic())))
        if readable:
            return _read_until(player.stdout, wanted, deadline)
        assert time.monotonic() < deadline, f"the player never answered Ctrl-C, waiting for {wanted!r}"


def _as_at_a_terminal(*command: str) -> list[str]:
    """``command`` with the SIGINT disposition a terminal gives it. A shell starts background jobs with
    SIGINT ignored, and the child would inherit that; the disposition is set in a Python that then execs the
    command (kept across exec), not in a preexec_fn, which runs in a fork of this threaded process."""
    return [sys.executable, "-c", "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
            "os.execv(sys.argv[1], sys.argv[1:])", *command]


def test_ctrl_c_asks_too_and_keeping_prints_the_resume_command(host, client):
    player = subprocess.Popen(_as_at_a_terminal(sys.executable, "-u", "-m", "gamehost.cli.main", "play", "tictactoe",
                                                "--seed", "3", "--host", host.target),
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        seen = _read_until(player.stdout, "q to quit): ", deadline)
        seen += _interrupt_until(player, "k to keep your seat and quit: ", deadline)
        rest, _ = player.communicate(b"k\n", timeout=30)
    finally:
        player.kill()
    out = seen + rest.decode()
    assert player.returncode == 0 and "Traceback" not in out, out
    name = match_of(out)
    assert resume_of(out)[3] == name and client.match(name).status == pb.MATCH_STATUS_ACTIVE


def test_leaving_a_rated_match_says_first_that_it_is_resigning(cli, signed_in_host, user):
    alice, alice_token = user("alice")
    bob, bob_token = user("bob")
    with signed_in_host.client(alice_token) as as_alice, signed_in_host.client(bob_token) as as_bob:
        match = as_alice.create_match("tictactoe").name
        as_alice.join(match, seat=0)
        as_bob.join(match, seat=1)
        assert as_alice.match(match).rated
    code, out = cli(signed_in_host, "play", "--match", match, "--bearer-token", alice_token, answers="q\nl\n")
    assert code == 0
    warning = out.index("this match is rated: leaving it counts as resigning")
    assert warning < out.index("quit: l to leave the seat") < out.index(f"you left the match: {match} finished")
    with signed_in_host.client(bob_token) as as_bob:
        ended = as_bob.match(match)
    assert ended.status == pb.MATCH_STATUS_FINISHED and ended.seats[0].resigned and list(ended.result.winners) == [1]


def test_callisto_takes_one_choice_steps_and_draws_the_orientations(cli, host, client):
    # Two rounds of columns (the only piece then: only its cell is asked), then the L-tetromino by its part id.
    code, out = cli(host, "play", "callisto", "--seed", "7", answers="1\n1\npiece:L4\n")
    assert code == 0, out
    assert out.count("column (the only one)") == 2, out
    first_turn = out[:out.index("column (the only one)")]
    assert "moves; choose:" not in first_turn, "the one piece was not asked for"
    orientations = out[out.index("moves with L-tetromino; choose:"):]
    listed = re.findall(r"^\s+(\d+)\. L-tetromino [^\[]+\[turn:L4:(\w+)\]", orientations, re.MULTILINE)
    assert [turn for _number, turn in listed][:4] == ["r0", "r1", "r2", "r3"]
    # Each orientation drawn under its number: "o" the cell placed on the chosen board cell.
    heading = re.search(r"^    1\.\s+2\.\s+3\.\s+4\..*$", orientations, re.MULTILINE)
    assert heading, orientations
    pictures = orientations[heading.start():]
    rows = pictures.splitlines()
    assert [row[4:6] for row in rows[1:4]] == ["o.", "#.", "##"], pictures  # as drawn: the L of the rules
    name = match_of(out)
    assert resume_of(out)[3] == name


def test_a_turn_with_one_move_is_played_without_asking(cli, host, client):
    name = client.create_match("tictactoe").name
    x, o = client.join(name).player_token, client.join(name).player_token
    for token, cell in zip([x, o] * 4, ["b2", "a1", "a3", "c1", "b1", "b3", "c2", "a2"]):  # no line yet
        client.move(name, token, move_id=cell)
    code, out = cli(host, "play", "--match", name, "--token", x, answers="")
    assert code == 0 and "X on c3 (the only one)" in out and "your move" not in out, out
    assert client.match(name).status == pb.MATCH_STATUS_FINISHED


def test_join_play_and_watch_name_seats_alike(host, client):
    def gamehost(*args: str, answers: str = "") -> str:
        done = subprocess.run([sys.executable, "-m", "gamehost.cli.main", *args, "--host", host.target],
                              input=answers, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return done.stdout

    name = client.create_match("tictactoe", bots=[1], seed=5).name
    joined = gamehost("join", name, "--seat", "0", "--name", "Ann")
    assert joined.startswith(f"Ann (Player 1) of {name} (seat 0 in the API, counted from 0)"), joined
    token = joined.split("player token: ")[1].strip()
    played = gamehost("play", "--match", name, "--token", token, answers="1\n" * 9)
    watched = gamehost("watch", name)
    assert f"{name}: you are Player 1" in played
    bot_lines = re.findall(r"^  (Player 2 \(bot\)): ", played, re.MULTILINE)
    assert bot_lines, played
    assert re.search(r"^v\d+ moved Ann: ", watched, re.MULTILINE), watched
    assert re.search(r"^v\d+ moved Player 2 \(bot\): ", watched, re.MULTILINE), watched
    assert "player 0" not in (joined + played + watched).lower()
