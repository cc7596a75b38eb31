"""`gamehost serve --processes N`: several serving processes on one port and
one PostgreSQL store. The kernel spreads the connections among them, every
call is answered as one host would, a child that dies is started again, and
SIGTERM stops them all."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid

import grpc
import pytest

from gamehost.client import GameHostClient, GameHostError
from gamehost.v1 import gamehost_pb2 as pb
from gamehost.host.ops.serving_group import owner_index
from databases import create_database, drop_database
from tests.hosts import HostProcess

pytestmark = pytest.mark.timeout(180)


def start_group(database: str, *args: str) -> HostProcess:
    return HostProcess("--store", database, "--processes", "2", "--workers", "2", *args).start(timeout=90)


@pytest.fixture(scope="module")
def group(idp, admin_key):
    """One `--processes 2` host for the module's tests that leave it running."""
    database = create_database()
    host = start_group(database, *idp.host_args(), "--api-keys", str(admin_key[0]))
    yield host
    host.stop()
    drop_database(database)


def new_connection(host: HostProcess, bearer_token: str = "") -> GameHostClient:
    """A client on its own TCP connection: grpc shares one connection among
    channels to one target unless told to keep its own."""
    return GameHostClient(channel=grpc.insecure_channel(host.target, options=[("grpc.use_local_subchannel_pool", 1)]),
                          bearer_token=bearer_token)


def child_pids(host: HostProcess) -> dict[int, int]:
    """Each serving process's pid by index, the latest start of each."""
    pids = {}
    for line in host.log_lines("serving process ready"):
        pids[line["process"]] = line["pid"]
    return pids


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def wait_until(condition, timeout: float = 60.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="on one core the default is one serving process")
def test_on_postgresql_the_default_is_one_serving_process_per_core():
    """Without --processes (nor GAMEHOST_PROCESSES), a host on PostgreSQL
    serves with one process per core it may use; a match's players on
    connections to either process play it, and each sees every version."""
    cores = len(os.sched_getaffinity(0))
    database = create_database()
    host = HostProcess("--store", database, env={"GAMEHOST_PROCESSES": None}).start(timeout=90)
    try:
        serving = [line for line in host.log_lines("host serving") if "processes" in line]
        assert [line["processes"] for line in serving] == [cores], serving
        assert sorted(child_pids(host)) == list(range(cores))
        with new_connection(host) as creator:
            match = creator.create_match("tictactoe", seed=5).name
        clients = [connection_on(host, process) for process in range(2)]
        tokens = [client.join(match).player_token for client in clients]
        seen: list[list[int]] = [[], []]
        followers = [threading.Thread(target=lambda index=index: seen[index].extend(
            event.version for event in clients[index].watch(match)), daemon=True) for index in range(2)]
        for follower in followers:
            follower.start()
        for _ in range(9):
            state = clients[0].match(match)
            if state.status != pb.MATCH_STATUS_ACTIVE:
                break
            seat = state.to_move[0]
            view = clients[seat].view(match, tokens[seat])
            clients[seat].move(match, tokens[seat], move_id=view.legal_moves[0].id, expected_version=view.version)
        final = clients[1].match(match)
        assert final.status == pb.MATCH_STATUS_FINISHED
        for follower in followers:
            follower.join(30)
        assert seen[0] == seen[1] == list(range(1, final.version + 1))
        for client in clients:
            client.close()
    finally:
        host.stop()
        drop_database(database)


@pytest.mark.parametrize("store", ["memory", "sqlite"])
def test_several_processes_need_a_shared_store(tmp_path, store):
    """With a store only one process may use, --processes 2 is one line and exit 1, before anything starts."""
    done = subprocess.run([sys.executable, "-m", "gamehost.cli.main", "serve", "--processes", "2", "--store", store,
                           "--data-dir", str(tmp_path), "--port", "0", "--web-port", "off"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "--processes 2 needs a shared PostgreSQL store" in lines[0], done.stderr
    assert not (tmp_path / "gamehost.db").exists()


def test_the_kernel_spreads_connections_over_both_processes(group):
    """grpcio sets SO_REUSEPORT: new connections land on either process."""
    made = []
    for seed in range(16):
        with new_connection(group) as client:
            made.append(client.create_match("tictactoe", seed=seed).name.removeprefix("matches/"))
    lines = group.wait_for_log("match created", at_least=len(made))
    served_by = {line["match_id"]: line["process"] for line in lines if line["match_id"] in made}
    assert set(served_by) == set(made)
    assert set(served_by.values()) == {0, 1}, served_by


def connection_on(host: HostProcess, process: int, bearer_token: str = "") -> GameHostClient:
    """A client whose connection the kernel gave to serving process
    ``process``: a connection stays on the process that accepted it, and the
    match it creates says which one that is."""
    for _ in range(60):
        client = new_connection(host, bearer_token)
        probe = client.create_match("tictactoe", seed=0).name.removeprefix("matches/")
        if host.wait_for_log("match created", probe)[0]["process"] == process:
            return client
        client.close()
    raise AssertionError(f"no connection landed on process {process}")


def test_a_match_is_served_by_its_owner_whichever_process_is_called(group):
    """Calls for a match reach the process that owns it (a hash of its id)
    from either process: every move is applied there, a retried request is
    answered alike from both, a stale version is refused with its details
    through the other process, and watchers on both see every version once."""
    with new_connection(group) as creator:
        match = creator.create_match("tictactoe", seed=7).name
    owner = owner_index(match, 2)
    on_owner, elsewhere = connection_on(group, owner), connection_on(group, 1 - owner)
    tokens = [elsewhere.join(match).player_token, on_owner.join(match).player_token]
    seen: dict[str, list[int]] = {"owner": [], "elsewhere": []}
    followers = [threading.Thread(target=lambda who=who, client=client: seen[who].extend(
        event.version for event in client.watch(match)), daemon=True)
        for who, client in (("owner", on_owner), ("elsewhere", elsewhere))]
    for follower in followers:
        follower.start()
    moves = 0
    for turn in range(20):
        first, second = (on_owner, elsewhere) if turn % 2 else (elsewhere, on_owner)
        state = first.match(match)
        if state.status != pb.MATCH_STATUS_ACTIVE:
            break
        token = tokens[state.to_move[0]]
        view = second.view(match, token)
        request_id = uuid.uuid4().hex
        answer = first.move(match, token, move_id=view.legal_moves[0].id, expected_version=view.version,
                            request_id=request_id)
        again = second.move(match, token, move_id=view.legal_moves[0].id, expected_version=view.version,
                            request_id=request_id)
        assert (again.version, again.replayed) == (answer.version, True)
        moves += 1
        now = on_owner.match(match).version  # the move's version, or one more when it ended the match
        with pytest.raises(GameHostError) as refused:
            elsewhere.move(match, token, move_id=view.legal_moves[0].id, expected_version=view.version)
        assert refused.value.code == grpc.StatusCode.ABORTED
        assert refused.value.reason == "STALE_VERSION", refused.value
        assert refused.value.metadata == {"expected_version": str(view.version), "current_version": str(now)}
    final = elsewhere.match(match)
    assert final.status == pb.MATCH_STATUS_FINISHED
    for follower in followers:
        follower.join(30)
    on_owner.close()
    elsewhere.close()
    assert seen["owner"] == seen["elsewhere"] == list(range(1, final.version + 1))
    applied = group.wait_for_log("move applied", match, at_least=moves)
    assert len(applied) == moves and {line["process"] for line in applied} == {owner}
    watches = group.wait_for_log("watch ended", match, at_least=2)
    assert {line["process"] for line in watches} == {owner}


def owned_by(client: GameHostClient, process: int) -> str:
    """A new match that ``process`` owns."""
    for seed in range(64):
        match = client.create_match("tictactoe", seed=seed).name
        if owner_index(match, 2) == process:
            return match
    raise AssertionError(f"no match owned by process {process}")


def test_a_forwarded_call_carries_the_caller_admitted_where_it_arrived(group, idp, admin_key):
    """The identity checked on the receiving process reaches the owner's
    engine; a caller the receiving process refuses never reaches the owner."""
    alice = idp.token(f"alice-{uuid.uuid4().hex[:6]}", name="Alice")
    with connection_on(group, 0, alice) as on_zero:
        match = owned_by(on_zero, 1)
        joined = on_zero.join(match, player_name="ignored")
        assert joined.match.seats[0].verified and joined.match.seats[0].player_name == "Alice"
        again = on_zero.join(match)  # the owner knows alice: her seat, not a second one
        assert again.seat == joined.seat and again.match.seats[1].kind == pb.SEAT_KIND_OPEN
        with pytest.raises(GameHostError) as refused:
            on_zero.abort(match)
        assert (refused.value.code, refused.value.reason) == (grpc.StatusCode.PERMISSION_DENIED, "ROLE_REQUIRED")
    with connection_on(group, 0, admin_key[1]) as admin:
        assert admin.abort(match, "forwarded").status == pb.MATCH_STATUS_ABORTED
    aborted = group.wait_for_log("admin aborted a match", match)
    assert [line["process"] for line in aborted] == [1]
    joins = group.wait_for_log("seat taken", match)
    assert {line["process"] for line in joins} == {1}


def test_browsers_reach_the_owner_through_either_process_web_port(group):
    """Both processes listen on the web port; the gateway's calls are routed
    like any other, and a forwarded error keeps its google.rpc details."""
    import base64
    import http.client

    from google.rpc import error_details_pb2

    with new_connection(group) as client:
        matches = {owned_by(client, process): process for process in (0, 1)}
        tokens = {match: client.join(match).player_token for match in matches}
        for match in matches:
            client.join(match)
    for _ in range(4):  # each request on a new connection: either process
        for match, token in tokens.items():
            web = http.client.HTTPConnection("127.0.0.1", group.web_port, timeout=30)
            try:
                body = json.dumps({"name": match, "playerToken": token, "moveId": "a3", "expectedVersion": 1})
                web.request("POST", "/gamehost.v1.GameHost/SubmitMove", body, {"Content-Type": "application/json"})
                answer = web.getresponse()
                error = json.loads(answer.read())
            finally:
                web.close()
            assert answer.status == 409 and error["code"] == "aborted", error
            (detail,) = [d for d in error["details"] if d["type"] == "google.rpc.ErrorInfo"]
            info = error_details_pb2.ErrorInfo.FromString(
                base64.b64decode(detail["value"] + "=" * (-len(detail["value"]) % 4)))
            assert info.reason == "STALE_VERSION" and info.metadata["current_version"] == "3"


def test_a_caller_cannot_claim_to_be_a_forwarded_admin(group):
    """The forwarded caller's header is believed only on the group's own
    socket: sent by a client, it is dropped and the caller is who the gate
    found (here anonymous, refused before any engine)."""
    from gamehost.host.rpc.forwarded_caller import FORWARDED_CALLER

    forged = json.dumps({"subject": "mallory", "display_name": "", "roles": ["admin"], "method": "api-key",
                         "peer": ""})
    with connection_on(group, 0) as on_zero:
        match = owned_by(on_zero, 1)
        with pytest.raises(grpc.RpcError) as refused:
            on_zero.admin.AbortMatch(pb.AbortMatchRequest(name=match), metadata=((FORWARDED_CALLER, forged),),
                                     timeout=30)
        assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
        assert on_zero.match(match).status == pb.MATCH_STATUS_OPEN
        joined = on_zero.stub.JoinMatch(pb.JoinMatchRequest(name=match, player_name="guest"),
                                        metadata=((FORWARDED_CALLER, forged),), timeout=30)
        assert not joined.match.seats[joined.seat].verified
        assert joined.match.seats[joined.seat].player_name == "guest"


def test_a_forwarded_watch_ends_at_the_callers_deadline(group):
    with connection_on(group, 0) as on_zero:
        match = owned_by(on_zero, 1)
        stream = on_zero.stub.WatchMatch(pb.WatchMatchRequest(name=match), timeout=1.5)
        started = time.monotonic()
        with pytest.raises(grpc.RpcError) as ended:
            list(stream)
        assert ended.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        assert time.monotonic() - started < 15


def test_a_killed_process_is_started_again_and_sigterm_stops_all():
    database = create_database()
    host = start_group(database)
    try:
        pids = child_pids(host)
        assert sorted(pids) == [0, 1]
        with new_connection(host) as client:
            match = client.create_match("tictactoe", seed=3).name
            tokens = [client.join(match).player_token, client.join(match).player_token]
            view = client.view(match, tokens[0])
            client.move(match, tokens[0], move_id=view.legal_moves[0].id)
        with new_connection(host) as client:
            owned_by_one = owned_by(client, 1)
        os.kill(pids[1], signal.SIGKILL)
        wait_until(lambda: not alive(pids[1]), what="process 1 gone")
        with new_connection(host) as client:  # on process 0, unless process 1 is back already (seconds)
            assert client.join(owned_by_one).seat == 0
        if host.wait_for_log("seat taken", owned_by_one)[0]["process"] == 0:  # the owner away: served here
            assert host.wait_for_log("owner unreachable; serving the call here", owner=1)
        host.wait_for_log("serving process died; starting it again", index=1)
        wait_until(lambda: child_pids(host).get(1) not in (None, pids[1]), what="process 1 started again")
        wait_until(lambda: all(alive(pid) for pid in child_pids(host).values()), what="both serving")
        for _ in range(8):  # on both processes, the match goes on
            with new_connection(host) as client:
                state = client.match(match)
                if state.status != pb.MATCH_STATUS_ACTIVE:
                    break
                token = tokens[state.to_move[0]]
                view = client.view(match, token)
                client.move(match, token, move_id=view.legal_moves[0].id, expected_version=view.version)
        with new_connection(host) as client:
            assert client.match(match).status == pb.MATCH_STATUS_FINISHED
        running = child_pids(host)
        assert host.stop() == 0
        assert not any(alive(pid) for pid in running.values())
        assert len(host.log_lines("host stopped")) == 3  # each process, then the supervisor
    finally:
        host.stop()
        drop_database(database)
