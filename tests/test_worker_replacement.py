"""Rules workers replaced for reasons that are not a match's fault: a
hanging plugin's match restored after a restart, a worker killed from
outside (as the OOM killer does), many replacements under load. The other
matches' calls succeed, each within one rules deadline, and no match is
struck for a death it did not cause (fixture game ``faulty``)."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from gamehost.client import GameHostError
from gamehost.v1 import gamehost_pb2 as pb
from hosts import HostProcess, wait_for

RULES_DEADLINE = 1.0
# Strikes stay far from suspension: the hanging match keeps failing while the other one plays.
HANGING = ("--rules-timeout", str(RULES_DEADLINE), "--bot-timeout", "1", "--workers", "2",
           "--worker-memory-mb", "300", "--max-strikes", "100", "--shutdown-grace", "2")
DRAW = ["a3", "b3", "c3", "b2", "a2", "c2", "b1", "a1", "c1"]


def timed(calls: list[tuple[str, float]], what: str, call):
    started = time.monotonic()
    answer = call()
    calls.append((what, time.monotonic() - started))
    return answer


def play_tictactoe(client, calls: list[tuple[str, float]]) -> None:
    """One whole match, each call timed."""
    name = timed(calls, "CreateMatch", lambda: client.create_match("tictactoe")).name
    tokens = [timed(calls, "JoinMatch", lambda: client.join(name, seat=seat)).player_token for seat in (0, 1)]
    for turn, move in enumerate(DRAW):
        timed(calls, "SubmitMove", lambda: client.move(name, tokens[turn % 2], move_id=move))
    assert client.match(name).status == pb.MATCH_STATUS_FINISHED


def strikes_of(host: HostProcess, match_id: str) -> int:
    return len([line for line in host.log_lines("rules strike") if line.get("match_id") == match_id])


@pytest.mark.long_running
def test_a_hanging_match_restored_at_a_restart_delays_no_other_match(tmp_path):
    first = HostProcess(*HANGING, data_dir=tmp_path).start()
    try:
        client = first.client()
        hung = client.create_match("faulty", seats=2, bots=[0, 1], options={"fault": "hang"}).name
        hung_id = hung.split("/")[1]
        assert first.wait_for_log("rules strike", hung_id), "its bots' turns hang and are struck"
    finally:
        first.stop()
    second = HostProcess(*HANGING, data_dir=tmp_path).start()
    try:
        client = second.client()
        calls: list[tuple[str, float]] = []
        # Tic-tac-toe matches played through while the host keeps striking the restored one (each of its
        # bot turns hangs a worker for a deadline, then that worker is replaced).
        while strikes_of(second, hung_id) < 3:
            play_tictactoe(client, calls)
        assert client.match(hung).status == pb.MATCH_STATUS_ACTIVE, "still being struck, not suspended"
        slow = [(what, round(seconds, 2)) for what, seconds in calls if seconds >= RULES_DEADLINE]
        assert not slow, f"calls of another game waited on the hanging one: {slow}"
        struck = {line.get("match_id") for line in second.log_lines("rules strike")}
        assert struck == {hung_id}
    finally:
        second.stop()


def worker_pid(host: HostProcess) -> int:
    """The pid of the only worker (``--workers 1``), as last started."""
    replaced = host.log_lines("worker replaced")
    return replaced[-1]["pid"] if replaced else host.log_lines("workers started")[0]["pids"][0]


def sleeping(pid: int) -> bool:
    """The process is inside a plugin's time.sleep (not reading the next request)."""
    try:
        with open(f"/proc/{pid}/wchan") as wchan:
            return "nanosleep" in wchan.read()
    except OSError:
        return False


def test_a_worker_killed_from_outside_mid_call_is_no_strike_and_the_call_goes_again(tmp_path):
    host = HostProcess("--rules-timeout", "8", "--workers", "1", data_dir=tmp_path).start()
    try:
        client = host.client()
        # legal_moves takes 3 s: the view of the seat to move is in the worker that long.
        match = client.create_match("faulty", seats=1, options={"fault": "sleep"}).name
        token = client.join(match).player_token
        pid = worker_pid(host)
        answer: dict = {}

        def view() -> None:
            try:
                answer["view"] = client.view(match, token)
            except GameHostError as error:
                answer["error"] = error

        call = threading.Thread(target=view)
        call.start()
        assert wait_for(lambda: sleeping(pid), timeout=20), "the call never reached the plugin"
        os.kill(pid, signal.SIGKILL)  # as the OOM killer would
        call.join(30)
        assert "error" not in answer, answer.get("error")
        assert [m.id for m in answer["view"].legal_moves] == ["add"]
        lost = host.wait_for_log("worker lost")
        assert lost[0]["why"] == "killed from outside"
        assert not host.log_lines("rules strike") and not host.log_lines("rules failed")
        assert client.match(match).status == pb.MATCH_STATUS_ACTIVE
    finally:
        host.stop()


# More replacements than a call may reload its match (RELOADS, 4, in a row): were losses counted over the
# host's life instead of per call, the fifth would fail a call. Each costs a worker start (the plugins imported).
RESPAWNS = 6


@pytest.mark.long_running
def test_workers_replaced_many_times_under_load_fail_no_call(tmp_path):
    host = HostProcess("--workers", "1", data_dir=tmp_path).start()
    stop = threading.Event()
    failures: list[BaseException] = []
    played = [0]
    calls: list[tuple[str, float]] = []  # answered calls, all players'

    def player() -> None:
        client = host.client()
        while not stop.is_set():
            try:
                play_tictactoe(client, calls)
                played[0] += 1
            except BaseException as error:  # every failure is reported, not only the first
                failures.append(error)
                return

    players = [threading.Thread(target=player) for _ in range(3)]
    try:
        for thread in players:
            thread.start()
        for respawn in range(RESPAWNS):
            pid, answered = worker_pid(host), len(calls)
            os.kill(pid, signal.SIGKILL)
            assert wait_for(lambda: worker_pid(host) != pid or failures, timeout=60), f"not replaced ({respawn})"
            # The next kill once the new worker has served: each kill then hits calls in flight, not a
            # worker that has not had a chance to serve any (which RELOADS bounds).
            assert wait_for(lambda: len(calls) >= answered + 3 or failures, timeout=60)
            assert not failures, failures
        stop.set()
        for thread in players:
            thread.join(60)
        assert not failures, failures
        assert played[0] > 0
        assert len(host.log_lines("worker replaced")) >= RESPAWNS
        assert not host.log_lines("rules strike")
    finally:
        stop.set()
        host.stop()
