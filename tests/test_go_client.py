"""The Go thin client (clients/go, command gamehost-go), built once per test
session and run against real hosts: it plays every game of the catalog, lists
it, reports the host's errors with their details, resumes its stream across a
host restart, its `script` log matches what the Python client reads, it
signs in with a JWT (bad tokens: UNAUTHENTICATED), and it queues for matches
(`queue`: alone, in a party, cancelled by an interrupt, resumed across a
host restart)."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import socket
import subprocess
import time
import uuid
from pathlib import Path

import pytest

from gamehost.client import GameHostClient, GameHostError, canonical_json
from gamehost.v1 import gamehost_pb2 as pb
from go_client import GO, GO_MODULE
from hosts import HostProcess
from identities import SigningKey

pytestmark = pytest.mark.skipif(GO is None and not os.environ.get("CI"),
                                reason="go is not installed (CI has it)")


@pytest.fixture(scope="module")
def go_host(idp):
    """A host serving exactly the installed plugins (the shared test host
    also loads fixture plugins, one of which crashes its rules on purpose),
    that also accepts the test identity provider's JWTs."""
    process = HostProcess(*idp.host_args(), env={"PYTHONPATH": os.environ.get("PYTHONPATH", "")}).start()
    yield process
    process.stop()


def run_go(binary: Path, host: HostProcess, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([str(binary), *args, "--host", host.target], capture_output=True, text=True,
                          timeout=timeout)


def assert_finished_with_gapless_log(client: GameHostClient, match_name: str) -> pb.MatchLog:
    match = client.match(match_name)
    assert match.status == pb.MATCH_STATUS_FINISHED
    assert len(match.result.ranking) == len(match.seats) and match.result.summary
    log = client.log(match_name)
    assert log.complete and log.HasField("seed")
    assert [event.version for event in log.events] == list(range(1, match.version + 1))
    return log


def test_play_finishes_a_match_of_every_game_in_the_catalog(gamehost_go, go_host):
    with go_host.client() as client:
        games = client.games()
        assert len(games) >= 7
        for number, game in enumerate(games):
            seats = game.max_players if number % 2 else game.min_players
            played = run_go(gamehost_go, go_host, "play", game.id, "--seats", str(seats),
                            "--seed", str(number), "--match-seed", str(100 + number))
            assert played.returncode == 0, f"{game.id}: {played.stderr}"
            lines = played.stdout.splitlines()
            match_name = lines[0].split(":")[0]
            assert lines[0] == f"{match_name}: playing Player 1 (strategy random, seed {number})"
            log = assert_finished_with_gapless_log(client, match_name)
            assert log.seed == 100 + number and log.seats == seats
            assert lines[1] == "(the match's seed was chosen by its creator: whoever knows it can foresee its chance)"
            assert any(e.kind == pb.EVENT_KIND_MOVED and e.seat == 0 for e in log.events), game.id
            # It printed every event after its first view, once each and in order, then the result.
            printed = [int(line.split()[0][1:]) for line in lines if line.startswith("v")]
            assert printed == list(range(printed[0], len(log.events) + 1)), game.id
            assert f"finished at version {len(log.events)}: {log.result.summary}" in lines


@pytest.mark.parametrize(("game_id", "seats"), [("tictactoe", 2), ("campanile", 3)])
def test_play_over_a_session_stream_finishes_the_match(gamehost_go, go_host, game_id, seats):
    played = run_go(gamehost_go, go_host, "play", game_id, "--session", "--seats", str(seats), "--seed", "5")
    assert played.returncode == 0, played.stderr
    lines = played.stdout.splitlines()
    match_name = lines[0].split(":")[0]
    with go_host.client() as client:
        log = assert_finished_with_gapless_log(client, match_name)
    assert any(e.kind == pb.EVENT_KIND_MOVED and e.seat == 0 for e in log.events)
    # It followed the match from its first event: every event once, in order, then the result.
    assert [int(line.split()[0][1:]) for line in lines if line.startswith("v")] == list(range(1, len(log.events) + 1))
    assert f"finished at version {len(log.events)}: {log.result.summary}" in lines


@pytest.mark.long_running
def test_go_unit_tests_pass(gamehost_go):
    """The Go module's own unit tests (go test runs a subset of go vet too).
    Asking for the binary first lets them reuse its compiled dependencies."""
    tested = subprocess.run([GO, "test", "./..."], cwd=GO_MODULE, capture_output=True, text=True, timeout=600)
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert "FAIL" not in tested.stdout and tested.stdout.count("\nok ") + tested.stdout.startswith("ok ") >= 3


def test_games_lists_the_catalog(gamehost_go, go_host):
    listed = run_go(gamehost_go, go_host, "games")
    assert listed.returncode == 0, listed.stderr
    with go_host.client() as client:
        games = client.games()
    ids = [line.split()[0] for line in listed.stdout.splitlines() if not line.startswith(" ")]
    assert ids == [game.id for game in games]
    for game in games:
        assert f"{game.title} ({game.min_players}-{game.max_players} players" in listed.stdout
        assert game.summary in listed.stdout


def test_joining_a_missing_match_prints_not_found_with_its_details(gamehost_go, go_host):
    failed = run_go(gamehost_go, go_host, "play", "--match", "matches/doesnotexist")
    assert failed.returncode == 1
    first, *details = failed.stderr.splitlines()
    assert first.startswith("gamehost-go play: NOT_FOUND: ") and "matches/doesnotexist" in first
    assert "  ErrorInfo: reason=MATCH_NOT_FOUND domain=gamehost.dev" in details
    assert any(line.startswith("  ResourceInfo: type=gamehost.dev/Match name=matches/doesnotexist")
               for line in details)


def test_options_the_game_refuses_print_invalid_argument_with_the_field_violation(gamehost_go, go_host):
    failed = run_go(gamehost_go, go_host, "play", "tictactoe", "--option", "board=4")
    assert failed.returncode == 1
    first, *details = failed.stderr.splitlines()
    assert first.startswith("gamehost-go play: INVALID_ARGUMENT: ")
    assert "  ErrorInfo: reason=INVALID_OPTIONS domain=gamehost.dev" in details
    assert any(line.startswith("  BadRequest: options: ") and "'board'" in line for line in details)


def test_script_with_a_move_that_is_not_legal_prints_the_hosts_refusal(gamehost_go, go_host):
    failed = run_go(gamehost_go, go_host, "script", "tictactoe", "--seed", "5", "b2", "b2")
    assert failed.returncode == 1 and failed.stdout == ""
    first, *details = failed.stderr.splitlines()
    assert first.startswith('gamehost-go script: move 2 of 2 ("b2"): FAILED_PRECONDITION: ')
    assert "  ErrorInfo: reason=UNKNOWN_MOVE domain=gamehost.dev metadata: move_id=b2, rule=unknown-move" in details
    assert any(line.startswith("  PreconditionFailure: type=UNKNOWN_MOVE subject=unknown-move: ")
               for line in details)


def test_usage_errors_exit_2_without_calling_the_host(gamehost_go, go_host):
    assert run_go(gamehost_go, go_host, "play").returncode == 2
    assert run_go(gamehost_go, go_host, "script", "tictactoe", "b2").returncode == 2  # no --seed
    assert run_go(gamehost_go, go_host, "play", "tictactoe", "--strategy", "best").returncode == 2


def _play_in_python(client: GameHostClient, game: str, seats: int, seed: int, options: dict,
                    choices: random.Random) -> tuple[pb.Match, list[str]]:
    """A match with every seat held by the Python client; returns it and the move ids played."""
    match = client.create_match(game, seats=seats, seed=seed, options=options)
    tokens = [client.join(match.name, seat=seat).player_token for seat in range(seats)]
    played = []
    while (current := client.match(match.name)).status == pb.MATCH_STATUS_ACTIVE:
        seat = current.to_move[0]
        moves = client.view(match.name, tokens[seat]).legal_moves
        move_id = moves[choices.randrange(len(moves))].id
        client.move(match.name, tokens[seat], move_id=move_id, expected_version=current.version)
        played.append(move_id)
    return match, played


def _without_match_and_times(log: dict) -> dict:
    """Without what differs between two matches by design: the name, the times, and the seed's salt and
    commitment (each match draws its own salt)."""
    events = [{key: value for key, value in event.items() if key != "time"} for event in log["events"]]
    return {**{key: value for key, value in log.items() if key not in ("match", "seedCommitment", "seedSalt")},
            "events": events}


@pytest.mark.parametrize(("game", "seats", "options"), [
    ("tictactoe", 2, {}),
    # Chance, hidden hands and non-default options.
    ("campanile", 3, {"bet_rule": "exact", "bet_on_built_tower": True}),
])
def test_script_prints_the_log_the_python_client_reads(gamehost_go, go_host, game, seats, options):
    seed = 4242
    option_flags = [flag for name, value in options.items() for flag in ("--option", f"{name}={json.dumps(value)}")]
    with go_host.client() as client:
        python_match, moves = _play_in_python(client, game, seats, seed, options, random.Random(game))
        scripted = run_go(gamehost_go, go_host, "script", game, "--seats", str(seats), "--seed", str(seed),
                          *option_flags, *moves)
        assert scripted.returncode == 0, scripted.stderr
        go_log = json.loads(scripted.stdout)
        # Byte for byte what the Python client reads for the Go client's match...
        assert scripted.stdout == canonical_json(client.log(go_log["match"])) + "\n"
        assert go_log["complete"] and go_log["seed"] == str(seed) and len(moves) > 0
        # ...and the same match as the one Python played, but for its name and times.
        python_log = json.loads(canonical_json(client.log(python_match.name)))
        assert _without_match_and_times(go_log) == _without_match_and_times(python_log)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_for(predicate, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while not (found := predicate()):
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)
    return found


def test_play_resumes_its_stream_after_the_host_restarts(gamehost_go, start_host, tmp_path):
    port, data = _free_port(), tmp_path / "data"
    first = start_host("--port", str(port), data_dir=data)
    with first.client() as client:
        match = client.create_match("tictactoe", seats=2)
    go_player = subprocess.Popen([str(gamehost_go), "play", "--match", match.name, "--seat", "0",
                                  "--strategy", "first", "--host", first.target],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        with first.client() as client:
            _wait_for(lambda: client.match(match.name).seats[0].kind == pb.SEAT_KIND_HUMAN)
            opponent = client.join(match.name, seat=1).player_token
            # The Go client moves first, then waits on its stream for seat 1.
            _wait_for(lambda: client.match(match.name).to_move == [1])
        first.kill()
        second = start_host("--port", str(port), data_dir=data)
        with second.client() as client:
            deadline = time.monotonic() + 60
            while (view := client.view(match.name, opponent)).status == pb.MATCH_STATUS_ACTIVE:
                if go_player.poll() is not None:  # it may have made the match's last move since the view
                    assert client.view(match.name, opponent).status != pb.MATCH_STATUS_ACTIVE, \
                        f"the Go client quit mid-match: {go_player.communicate()}"
                    break
                assert time.monotonic() < deadline, "the Go client stopped playing"
                if view.legal_moves:
                    client.move(match.name, opponent, move_id=view.legal_moves[0].id, expected_version=view.version)
                else:
                    time.sleep(0.02)
            out, err = go_player.communicate(timeout=60)
            assert go_player.returncode == 0, err
            log = assert_finished_with_gapless_log(client, match.name)
    finally:
        if go_player.poll() is None:
            go_player.kill()
            go_player.wait()
    # Every event after the Go client's first view (taken before its first
    # move, v4), once each and in order: none lost or repeated in the restart.
    printed = [int(line.split()[0][1:]) for line in out.splitlines() if line.startswith("v")]
    assert printed[0] <= 4 and printed == list(range(printed[0], len(log.events) + 1))
    assert "(the stream dropped and was resumed" in out
    assert f"finished at version {len(log.events)}: {log.result.summary}" in out


# ------------------------------------------------------------------ signed in


def test_play_signed_in_with_a_jwt_binds_the_seat_to_the_user(gamehost_go, go_host, idp):
    token = idp.token("go-ann", name="Ann from Go")
    # The token from the environment, as a deployment would pass it (a flag shows in `ps`).
    played = subprocess.run([str(gamehost_go), "play", "tictactoe", "--seed", "3", "--host", go_host.target],
                            capture_output=True, text=True, timeout=60,
                            env={**os.environ, "GAMEHOST_TOKEN": token})
    assert played.returncode == 0, played.stderr
    assert "seed was chosen" not in played.stdout  # the host drew it
    match_name = played.stdout.split(":")[0]
    with go_host.client() as client:
        assert_finished_with_gapless_log(client, match_name)
        match = client.match(match_name)
        seat = match.seats[0]
    # The name shown is the identity's, not the --name default, and the seat says so.
    assert (seat.player_name, seat.verified) == ("Ann from Go", True)

    whoami = run_go(gamehost_go, go_host, "whoami", "--bearer-token", token)
    assert whoami.returncode == 0, whoami.stderr
    assert whoami.stdout.splitlines() == ["subject: go-ann", "name: Ann from Go", "roles: ", "method: jwt"]
    assert run_go(gamehost_go, go_host, "whoami").stdout == "anonymous\n"
    mine = run_go(gamehost_go, go_host, "matches", "--mine", "--bearer-token", token)
    assert mine.returncode == 0, mine.stderr
    assert mine.stdout.splitlines()[:2] == [f"{match_name} tictactoe finished v{match.version}",
                                            "  Player 1: Ann from Go (verified)"]
    # Someone else's "mine" does not list Ann's match.
    other = run_go(gamehost_go, go_host, "matches", "--mine", "--bearer-token", idp.token("go-bob"))
    assert other.returncode == 0 and match_name not in other.stdout

    # --my-turn: a match waiting for Ann's move, marked in her "mine" too; the finished one is in neither.
    with go_host.client(token) as ann:
        waiting = ann.create_match("tictactoe", bots=[1]).name
        ann.join(waiting, seat=0)
    turns = run_go(gamehost_go, go_host, "matches", "--my-turn", "--bearer-token", token)
    assert turns.returncode == 0, turns.stderr
    assert [line for line in turns.stdout.splitlines() if not line.startswith(" ")] == [
        f"{waiting} tictactoe active v2 (your turn)"]
    marked = run_go(gamehost_go, go_host, "matches", "--mine", "--bearer-token", token).stdout
    assert f"{waiting} tictactoe active v2 (your turn)" in marked and f"{match_name} tictactoe finished" in marked


@pytest.mark.parametrize("kind", ["garbage", "expired", "foreign"])
def test_a_bad_token_is_unauthenticated_and_changes_nothing(gamehost_go, go_host, idp, kind):
    token = {"garbage": "not.a.jwt", "expired": idp.token("go-ann", expires_in=-120),
             "foreign": idp.token("go-ann", key=SigningKey())}[kind]
    with go_host.client() as client:
        before = len(client.matches())
        failed = run_go(gamehost_go, go_host, "play", "tictactoe", "--bearer-token", token)
        assert len(client.matches()) == before
    assert failed.returncode == 1 and failed.stdout == ""
    first, *details = failed.stderr.splitlines()
    assert first.startswith("gamehost-go play: UNAUTHENTICATED: ")
    reason = "TOKEN_EXPIRED" if kind == "expired" else "INVALID_BEARER_TOKEN"
    assert f"  ErrorInfo: reason={reason} domain=gamehost.dev" in [line.split(" metadata:")[0] for line in details]
    assert token not in failed.stderr


def test_a_token_that_cannot_be_sent_is_a_usage_error(gamehost_go, go_host):
    failed = run_go(gamehost_go, go_host, "whoami", "--bearer-token", "Bearer abc")
    assert failed.returncode == 2 and "without the \"Bearer \" prefix" in failed.stderr


def test_play_takes_back_the_seat_its_user_holds(gamehost_go, go_host, idp):
    """Another device (here the Python client) took seat 0 signed in; gamehost-go, signed in as the same
    user, joins the match and gets seat 0 back with a new token, then plays it to the end."""
    token = idp.token("go-cat", name="Cat")
    with go_host.client(token) as elsewhere:
        match = elsewhere.create_match("tictactoe", seats=2, bots=[1])
        old_token = elsewhere.join(match.name, seat=0).player_token
    played = run_go(gamehost_go, go_host, "play", "--match", match.name, "--bearer-token", token)
    assert played.returncode == 0, played.stderr
    assert played.stdout.startswith(f"{match.name}: playing Player 1 ")
    with go_host.client() as client:
        assert_finished_with_gapless_log(client, match.name)
        seats = client.match(match.name).seats
        with pytest.raises(GameHostError) as replaced:
            client.view(match.name, old_token)
    assert (seats[0].player_name, seats[0].verified) == ("Cat", True)
    assert replaced.value.reason == "INVALID_TOKEN"


def test_play_reports_an_admins_abort_with_its_reason(gamehost_go, go_host, idp):
    with go_host.client() as client:
        match = client.create_match("tictactoe", seats=2)
    go_player = subprocess.Popen([str(gamehost_go), "play", "--match", match.name, "--seat", "0", "--strategy",
                                  "first", "--host", go_host.target],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        with go_host.client() as client:
            _wait_for(lambda: client.match(match.name).seats[0].kind == pb.SEAT_KIND_HUMAN)
            client.join(match.name, seat=1)
            _wait_for(lambda: client.match(match.name).to_move == [1])  # the Go client moved and waits
        with go_host.client(idp.token("go-ops", roles=["admin"])) as admin:
            aborted = admin.abort(match.name, "stopped by the test")
        out, err = go_player.communicate(timeout=30)
    finally:
        if go_player.poll() is None:
            go_player.kill()
            go_player.wait()
    assert go_player.returncode == 0, err
    lines = out.splitlines()
    assert f"v{aborted.version} aborted: ADMIN_ABORT" in lines
    assert lines[-1] == f"aborted (ADMIN_ABORT: stopped by the test) at version {aborted.version}"


@pytest.mark.parametrize("over", [(), ("--session",)], ids=["unary", "session"])
def test_undo_by_agreement_asked_refused_withdrawn_and_accepted(gamehost_go, go_host, over):
    """gamehost-go undo, over unary calls and over a Session stream: the same
    answers, and a refusal's reason and details as the unary call gives them."""
    with go_host.client() as client:
        match = client.create_match("tictactoe").name
        x, o = client.join(match).player_token, client.join(match).player_token
        moved = client.move(match, x, move_id=client.view(match, x).legal_moves[0].id).version

    def undo(action: str, token: str) -> subprocess.CompletedProcess:
        return run_go(gamehost_go, go_host, "undo", action, match, "--token", token, *over)

    asked = undo("ask", x)
    assert asked.returncode == 0, asked.stderr
    assert asked.stdout == f"asked: Player 1 asks to take back the move of v{moved}; waiting for Player 2 " \
                           f"(ask v{moved + 1})\n"
    refused = undo("refuse", o)
    assert (refused.returncode, refused.stdout) == (0, f"refused: the move stands (match now at v{moved + 2})\n")
    not_yours = undo("ask", o)
    assert not_yours.returncode == 1 and "FAILED_PRECONDITION" in not_yours.stderr
    assert "UNDO_NOT_YOURS" in not_yours.stderr and "last_mover" in not_yours.stderr
    assert undo("ask", x).returncode == 0
    withdrawn = undo("withdraw", x)
    assert withdrawn.stdout == f"withdrew the ask: the move stands (match now at v{moved + 4})\n"
    assert undo("ask", x).returncode == 0
    accepted = undo("accept", o)
    assert accepted.stdout == f"accepted: the move is taken back (match now at v{moved + 7})\n"  # answer, undo
    with go_host.client() as client:
        view = client.view(match, x)
    assert view.version == moved + 7 and list(view.to_move) == [0]


@pytest.mark.parametrize("over", [(), ("--session",)], ids=["unary", "session"])
def test_draws_and_resigning(gamehost_go, go_host, over):
    """gamehost-go draw and resign, over unary calls and over a Session stream."""
    with go_host.client() as client:
        match = client.create_match("tictactoe").name
        x, o = client.join(match).player_token, client.join(match).player_token
        version = client.match(match).version

    def go(*args: str) -> subprocess.CompletedProcess:
        return run_go(gamehost_go, go_host, *args, *over)

    offered = go("draw", "offer", match, "--token", x)
    assert offered.returncode == 0, offered.stderr
    assert offered.stdout == f"offered: Player 1 offers a draw; waiting for Player 2 (offer v{version + 1})\n"
    declined = go("draw", "decline", match, "--token", o)
    assert declined.stdout == f"declined: the match goes on (v{version + 2})\n"
    refused = go("draw", "accept", match, "--token", o)
    assert refused.returncode == 1 and "NO_DRAW_OFFERED" in refused.stderr
    assert go("draw", "offer", match, "--token", o).returncode == 0
    assert go("draw", "withdraw", match, "--token", o).stdout == f"withdrew the offer: the match goes on (v{version + 4})\n"
    resigned = go("resign", match, "--token", o)
    assert resigned.returncode == 0, resigned.stderr
    assert resigned.stdout.startswith(f"resigned: {match} finished v")
    too_early = go("claim", match, "--token", x)
    assert too_early.returncode == 1
    with go_host.client() as client:
        finished = client.match(match)
    assert list(finished.result.winners) == [0] and finished.seats[1].resigned


# ------------------------------------------------------------------ matchmaking

MATCHED_LINE = re.compile(r"^(matches/\S+): you are Player (\d) \(seat (\d) in the API\)$", re.MULTILINE)


def _queue(binary: Path, target: str, token: str, *args: str) -> subprocess.Popen:
    """gamehost-go queue, signed in through the environment, running on."""
    return subprocess.Popen([str(binary), "queue", *args, "--host", target], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "GAMEHOST_TOKEN": token})


def _person(idp, name: str) -> tuple[str, str]:
    subject = f"go-{name}-{uuid.uuid4().hex[:6]}"
    return subject, idp.token(subject, name=name.title())


def _matched(process: subprocess.Popen) -> tuple[str, int, str]:
    """The match and seat a queue process printed as it ended, and its output."""
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    found = MATCHED_LINE.search(out)
    assert found, out
    assert int(found[2]) == int(found[3]) + 1  # "Player 2" is seat 1
    return found[1], int(found[3]), out


def test_two_go_players_queue_and_are_seated_in_one_match(gamehost_go, go_host, idp):
    people = [_person(idp, name) for name in ("gwen", "hugo")]
    players = [_queue(gamehost_go, go_host.target, token, "tictactoe", "--ttl", "60") for _, token in people]
    (first_match, first_seat, first_out), (second_match, second_seat, _) = [_matched(p) for p in players]
    assert first_match == second_match and {first_seat, second_seat} == {0, 1}
    assert re.match(r"tickets/\S+: queued for games/tictactoe, 2 players \(rating 0\.0\)\n", first_out)
    with go_host.client() as client:
        match = client.match(first_match)
    assert match.status == pb.MATCH_STATUS_ACTIVE
    assert {(seat.player_name, seat.verified) for seat in match.seats} == {("Gwen", True), ("Hugo", True)}
    # Each seat is bound to its player: `play --match`, signed in alone, plays it to the end.
    plays = [subprocess.Popen([str(gamehost_go), "play", "--match", first_match, "--host", go_host.target],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env={**os.environ, "GAMEHOST_TOKEN": token}) for _, token in people]
    outs = [play.communicate(timeout=60) for play in plays]
    assert [play.returncode for play in plays] == [0, 0], [err for _, err in outs]
    assert outs[0][0].startswith(f"{first_match}: playing Player {first_seat + 1} ")
    with go_host.client() as client:
        assert_finished_with_gapless_log(client, first_match)


def test_a_party_of_two_queues_through_the_command_line(gamehost_go, go_host, idp):
    (_, ivy_token), (_, jay_token) = _person(idp, "ivy"), _person(idp, "jay")
    leader = _queue(gamehost_go, go_host.target, ivy_token, "tictactoe", "--party-size", "2", "--ttl", "60")
    try:
        queued, gathering = leader.stdout.readline(), leader.stdout.readline()
        assert queued.startswith("tickets/") and ": queued for games/tictactoe, 2 players" in queued
        party = gathering.split(":")[0]
        assert re.fullmatch(r"parties/[\w-]{16}", party), gathering
        assert gathering.endswith(f": 1 of 2 friends queued; they join with `gamehost-go queue --party {party}`\n")
        friend = _queue(gamehost_go, go_host.target, jay_token, "--party", party)
        friend_match, friend_seat, _ = _matched(friend)
        leader_match, leader_seat, _ = _matched(leader)
    finally:
        if leader.poll() is None:
            leader.kill()
            leader.wait()
    assert friend_match == leader_match and {friend_seat, leader_seat} == {0, 1}
    with go_host.client() as client:
        assert {seat.player_name for seat in client.match(leader_match).seats} == {"Ivy", "Jay"}


def test_an_interrupt_cancels_the_ticket_and_the_party_count_follows_a_friend_who_lapses(gamehost_go, go_host, idp):
    """A party of two for four seats waits; the friend's ticket expires, and
    the leader's stream prints the party's count falling without asking; an
    interrupt then cancels the leader's ticket."""
    (kim, kim_token), (_, lee_token) = _person(idp, "kim"), _person(idp, "lee")
    leader = _queue(gamehost_go, go_host.target, kim_token, "callisto", "--seats", "4", "--party-size", "2",
                    "--ttl", "60")
    try:
        ticket_name = leader.stdout.readline().split(":")[0]
        party = leader.stdout.readline().split(":")[0]
        with go_host.client(lee_token) as lee:
            lapsing = lee.create_ticket("", party=party, ttl=1)
            assert leader.stdout.readline().startswith(f"{party}: 2 of 2 friends queued")
            assert leader.stdout.readline().startswith(f"{party}: 1 of 2 friends queued")  # Lee's ticket expired
            assert lee.ticket(lapsing.name).state == pb.TICKET_STATE_EXPIRED
        leader.send_signal(signal.SIGINT)
        out, err = leader.communicate(timeout=30)
    finally:
        if leader.poll() is None:
            leader.kill()
            leader.wait()
    assert leader.returncode == 1 and out == ""
    assert err == f"gamehost-go queue: {ticket_name}: cancelled, not matched\n"
    with go_host.client(idp.token(kim)) as client:
        assert client.ticket(ticket_name).state == pb.TICKET_STATE_CANCELLED
        assert client.tickets(states=[pb.TICKET_STATE_QUEUED]) == []


def test_queue_errors_print_the_code_and_details(gamehost_go, go_host, idp):
    _, token = _person(idp, "max")
    missing = _queue(gamehost_go, go_host.target, token, "--party", "parties/nosuchpartyatall")
    out, err = missing.communicate(timeout=60)
    assert missing.returncode == 1 and out == ""
    first, *details = err.splitlines()
    assert first.startswith("gamehost-go queue: NOT_FOUND: No party parties/nosuchpartyatall")
    assert "  ErrorInfo: reason=PARTY_NOT_FOUND domain=gamehost.dev" in details
    assert any(line.startswith("  ResourceInfo: type=gamehost.dev/Party name=parties/nosuchpartyatall: ")
               for line in details)
    anonymous = run_go(gamehost_go, go_host, "queue", "tictactoe")
    assert anonymous.returncode == 1 and anonymous.stderr.startswith("gamehost-go queue: UNAUTHENTICATED: ")
    assert "  ErrorInfo: reason=SIGN_IN_REQUIRED domain=gamehost.dev" in anonymous.stderr.splitlines()
    both = _queue(gamehost_go, go_host.target, token, "tictactoe", "--party-size", "2", "--party", "parties/x")
    _, err = both.communicate(timeout=60)
    assert both.returncode == 1 and "INVALID_ARGUMENT" in err and "reason=PARTY_CONFLICT" in err
    with go_host.client(token) as client:
        assert client.tickets() == []  # nothing was queued


def test_queue_follows_its_ticket_across_a_host_restart(gamehost_go, start_host, idp, tmp_path):
    port, data = _free_port(), tmp_path / "data"
    first = start_host("--port", str(port), *idp.host_args(), data_dir=data)
    (nia, nia_token), (_, oto_token) = _person(idp, "nia"), _person(idp, "oto")
    waiting = _queue(gamehost_go, first.target, nia_token, "tictactoe", "--ttl", "120")
    try:
        ticket_name = waiting.stdout.readline().split(":")[0]
        assert ticket_name.startswith("tickets/")
        first.kill()
        second = start_host("--port", str(port), *idp.host_args(), data_dir=data)
        with second.client(oto_token) as oto:
            matched = oto.create_ticket("tictactoe", ttl=60)
        assert matched.state == pb.TICKET_STATE_MATCHED
        match, seat, _ = _matched(waiting)
    finally:
        if waiting.poll() is None:
            waiting.kill()
            waiting.wait()
    assert (match, seat) == (matched.match, 1 - matched.seat)
