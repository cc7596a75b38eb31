"""The Python client's resuming follower (gamehost.client.follower) over real
sockets: across a connection cut by a relay it misses no event and delivers
none twice, it gives up with a clear error after its bound, and it stops at
the end of the match; the CLI's undo commands."""

from __future__ import annotations

import queue
import re
import subprocess
import sys
import threading

import grpc
import pytest

from gamehost.cli.main import main
from gamehost.client import FollowGaveUp, GameHostClient, GameHostError, RetryPolicy
from gamehost.v1 import gamehost_pb2 as pb
from tcp_relay import TcpRelay

pytestmark = pytest.mark.timeout(120)

# grpc's own reconnection backoff starts at 1 s and grows: kept short so that a
# restored relay is reached again at once.
QUICK_RECONNECT = [("grpc.initial_reconnect_backoff_ms", 50), ("grpc.min_reconnect_backoff_ms", 50),
                   ("grpc.max_reconnect_backoff_ms", 200), ("grpc.use_local_subchannel_pool", 1)]
PATIENT = RetryPolicy(first_delay=0.05, max_delay=0.5, attempts=60)  # ~30 s: a busy machine runs slow


@pytest.fixture()
def relay(host):
    relayed = TcpRelay(host.port)
    yield relayed
    relayed.close()


def through(relay: TcpRelay) -> GameHostClient:
    return GameHostClient(channel=grpc.insecure_channel(relay.target, options=QUICK_RECONNECT))


def in_background(follower) -> queue.Queue:
    """The follower's events, then None when it ends (or the exception it raised)."""
    out: queue.Queue = queue.Queue()

    def run():
        try:
            for event in follower:
                out.put(event)
            out.put(None)
        except Exception as error:  # handed to the test, which fails on it
            out.put(error)

    threading.Thread(target=run, daemon=True).start()
    return out


def take(out: queue.Queue, until_version: int) -> list[pb.MatchEvent]:
    taken = []
    while not taken or taken[-1].version < until_version:
        item = out.get(timeout=30)
        assert isinstance(item, pb.MatchEvent), item
        taken.append(item)
    return taken


def test_follower_resumes_across_a_cut_connection_missing_nothing_and_nothing_twice(client, relay):
    match = client.create_match("tictactoe").name
    x, o = client.join(match).player_token, client.join(match).player_token
    resumes: queue.Queue = queue.Queue()
    with through(relay) as relayed:
        follower = relayed.follow(match, x, retry=PATIENT, on_resume=resumes.put)
        out = in_background(follower)
        for token, cell in [(x, "a3"), (o, "a2"), (x, "b3")]:
            version = client.move(match, token, move_id=cell).version
        seen = take(out, version)
        relay.cut()
        assert resumes.get(timeout=30).attempt == 1  # the follower saw its stream drop
        client.move(match, o, move_id="b2")  # while X cannot reach the host
        assert resumes.get(timeout=30).error.code == grpc.StatusCode.UNAVAILABLE  # a reopening failed meanwhile
        relay.restore()
        seen += take(out, client.match(match).version)
        client.move(match, x, move_id="c3")
        while (item := out.get(timeout=30)) is not None:
            assert isinstance(item, pb.MatchEvent), item
            seen.append(item)
    log = client.log(match)
    assert [(e.version, e.kind) for e in seen] == [(e.version, e.kind) for e in log.events]
    assert seen[-1].kind == pb.EVENT_KIND_FINISHED and follower.resumes >= 2
    assert seen[-1].view.seat == 0  # X's own view, as on a single stream


def test_follower_gives_up_with_a_clear_error_after_its_bound(client, relay):
    match = client.create_match("tictactoe").name
    relay.cut()
    told = []
    with through(relay) as relayed:
        follower = relayed.follow(match, retry=RetryPolicy(first_delay=0.01, max_delay=0.05, attempts=3),
                                  on_resume=told.append)
        with pytest.raises(FollowGaveUp) as gave_up:
            list(follower)
    error = gave_up.value
    assert error.code == grpc.StatusCode.UNAVAILABLE and error.attempts == 3
    assert f"gave up following {match} after 3 reconnection attempts" in str(error)
    assert [resume.attempt for resume in told] == [1, 2, 3] and follower.resumes == 3


def test_follower_stops_at_the_end_and_raises_a_refusal_at_once(client):
    match = client.create_match("tictactoe", bots=[0, 1], seed=5).name
    events = list(client.follow(match))  # to the end, as the bots play
    assert events[-1].kind == pb.EVENT_KIND_FINISHED
    assert [e.version for e in events] == [e.version for e in client.log(match).events]
    assert list(client.follow(match, after_version=events[-1].version)) == []  # over already: nothing to wait for
    follower = client.follow("matches/no-such-match", retry=PATIENT)
    with pytest.raises(GameHostError) as refused:
        list(follower)
    assert refused.value.code == grpc.StatusCode.NOT_FOUND and follower.resumes == 0


def test_follower_stop_ends_the_iteration_quietly(client):
    match = client.create_match("tictactoe").name
    follower = client.follow(match)
    out = in_background(follower)
    client.join(match)
    take(out, client.match(match).version)
    follower.stop()
    assert out.get(timeout=30) is None


def cli(capsys, host, *args: str) -> tuple[int, str]:
    code = main([*args, "--host", host.target])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_cli_undo_ask_accept_and_refuse_on_tictactoe(client, host, capsys):
    match = client.create_match("tictactoe").name
    x, o = client.join(match).player_token, client.join(match).player_token
    moved = client.move(match, x, move_id="a1").version
    code, said = cli(capsys, host, "undo", "ask", match, "--token", x)
    assert code == 0 and f"asks to take back the move of v{moved}; waiting for" in said
    code, said = cli(capsys, host, "undo", "accept", match, "--token", o)
    assert code == 0 and "accepted: the move is taken back" in said
    assert client.view(match, x).legal_moves and client.match(match).to_move == [0]
    moved = client.move(match, x, move_id="a1").version
    cli(capsys, host, "undo", "ask", match, "--token", x)
    code, said = cli(capsys, host, "undo", "refuse", match, "--token", o)
    assert code == 0 and "refused: the move stands" in said
    before = client.log(match)
    code, said = cli(capsys, host, "undo", "withdraw", match, "--token", x)  # nothing open now
    assert code == 1 and said.startswith("error: FAILED_PRECONDITION")
    assert client.log(match) == before and client.match(match).version > moved


def lines_of(stream) -> queue.Queue:
    out: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [out.put(line) for line in stream] + [out.put(None)], daemon=True).start()
    return out


def wait_for(lines: queue.Queue, text: str) -> list[str]:
    seen = []
    while text not in (seen[-1] if seen else ""):
        line = lines.get(timeout=30)
        assert line is not None, f"ended before {text!r}: {seen}"
        seen.append(line)
    return seen


def test_cli_watch_resumes_across_a_cut_connection(client, relay):
    match = client.create_match("tictactoe").name
    x, o = client.join(match).player_token, client.join(match).player_token
    watcher = subprocess.Popen([sys.executable, "-m", "gamehost.cli.main", "watch", match, "--host", relay.target],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = lines_of(watcher.stdout), lines_of(watcher.stderr)
        version = client.move(match, x, move_id="a3").version
        printed = wait_for(out, f"v{version} moved")
        relay.cut()
        wait_for(err, "connection lost")
        client.move(match, o, move_id="a2")  # while the watcher cannot reach the host
        relay.restore()
        for token, cell in [(x, "b3"), (o, "b2"), (x, "c3")]:
            client.move(match, token, move_id=cell)
        printed += wait_for(out, "finished")
        assert watcher.wait(timeout=30) == 0
    finally:
        watcher.kill()
        watcher.wait()
    versions = [int(found[1]) for line in printed if (found := re.match(r"v(\d+) ", line))]
    assert versions == [e.version for e in client.log(match).events]
