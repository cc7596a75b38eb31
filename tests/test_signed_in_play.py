"""Signed-in players: seats bound to users on every device, acting by
identity, their match listings, and the admin calls. One host per module."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid

import grpc
import pytest

from gamehost.v1 import gamehost_pb2 as pb
from hosts import HostProcess
from call_errors import error_of


@pytest.fixture(scope="module")
def host(idp, admin_key):
    process = HostProcess(*idp.host_args(), "--api-keys", str(admin_key[0])).start()
    yield process
    process.stop()


@pytest.fixture()
def user(idp):
    """A fresh user's bearer token (subjects differ between tests)."""
    def token(name: str = "") -> str:
        subject = f"{name or 'user'}-{uuid.uuid4().hex[:6]}"
        return idp.token(subject, name=name.title() if name else "")
    return token


@pytest.fixture()
def admin(host, admin_key):
    with host.client(admin_key[1]) as client:
        yield client



def test_a_user_gets_the_same_seat_back_on_another_device(host, user):
    alice, bob = user("alice"), user("bob")
    with host.client() as anonymous:
        match = anonymous.create_match("tictactoe")
    with host.client(alice) as phone, host.client(alice) as laptop, host.client(bob) as other:
        first = phone.join(match.name, player_name="ignored")
        assert first.seat == 0 and first.match.seats[0].verified
        assert first.match.seats[0].player_name == "Alice"  # from the identity, not the request
        again = laptop.join(match.name)
        assert (again.seat, again.match.seats[1].kind) == (0, pb.SEAT_KIND_OPEN)  # no second seat taken
        assert again.player_token != first.player_token
        started = other.join(match.name)
        assert started.match.status == pb.MATCH_STATUS_ACTIVE
        back = phone.join(match.name)  # also while the match is active
        assert back.seat == 0
        # Only the newest token works; the user acts by identity alone, with no token.
        assert error_of(phone.view, match.name, first.player_token).reason == "INVALID_TOKEN"
        assert laptop.view(match.name).seat == 0
        moved = laptop.move(match.name, "", move_id="b2")
        assert other.view(match.name).seat == 1 and moved.version == other.view(match.name).version
        assert [e.seat for e in laptop.log(match.name).events if e.kind == pb.EVENT_KIND_MOVED] == [0]
        other.move(match.name, "", move_id="a1")
        watched = next(iter(laptop.watch(match.name, after_version=moved.version)))  # by identity: seat 0's view
        assert (watched.kind, watched.seat, watched.view.seat) == (pb.EVENT_KIND_MOVED, 1, 0)
        left = laptop.leave(match.name, "")  # a rated match: leaving resigns it, and costs the leaver
        assert left.status == pb.MATCH_STATUS_FINISHED and list(left.result.ranking) == [2, 1]


def test_an_anonymous_caller_cannot_act_for_a_users_seat(host, user):
    with host.client() as anonymous, host.client(user("dora")) as dora:
        match = anonymous.create_match("tictactoe")
        dora.join(match.name)
        anonymous.join(match.name)
        assert anonymous.view(match.name).seat == -1  # a spectator
        assert error_of(anonymous.move, match.name, "", move_id="b2").reason == "SPECTATOR_FORBIDDEN"


def test_mine_and_player_list_a_users_matches_by_page(host, user, admin):
    carol_token = user("carol")
    with host.client(carol_token) as carol, host.client() as anonymous:
        subject = carol.identity().subject
        names = []
        for _ in range(3):
            match = anonymous.create_match("tictactoe")
            carol.join(match.name)
            names.append(match.name)
        anonymous.create_match("tictactoe")  # not hers
        first = carol.stub.ListMatches(pb.ListMatchesRequest(mine=True, page_size=2), metadata=carol.metadata)
        assert [m.name for m in first.matches] == names[::-1][:2] and first.next_page_token
        rest = carol.stub.ListMatches(pb.ListMatchesRequest(mine=True, page_size=2, page_token=first.next_page_token),
                                      metadata=carol.metadata)
        assert [m.name for m in rest.matches] == names[:1] and not rest.next_page_token
        assert error_of(anonymous.matches, mine=True).code == grpc.StatusCode.UNAUTHENTICATED
        assert error_of(carol.matches, player=subject).code == grpc.StatusCode.PERMISSION_DENIED
        assert [m.name for m in admin.matches(player=subject)] == names[::-1]
        # A page token of one user's listing does not page another's.
        with pytest.raises(grpc.RpcError) as caught:
            admin.stub.ListMatches(pb.ListMatchesRequest(player="someone-else", page_token=first.next_page_token),
                                   metadata=admin.metadata)
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_admin_aborts_a_match_and_its_bot_and_deadline_stop(host, user, admin):
    with host.client(user("erin")) as erin:
        match = erin.create_match("tictactoe", bots=[1], turn_timeout=0.6)
        erin.join(match.name)
        aborted = admin.abort(match.name, "cheating reported")
        assert aborted.status == pb.MATCH_STATUS_ABORTED
        assert (aborted.status_detail.reason, aborted.status_detail.message) == ("ADMIN_ABORT", "cheating reported")
        last = erin.log(match.name).events[-1]
        assert (last.kind, last.reason) == (pb.EVENT_KIND_ABORTED, "ADMIN_ABORT")
        assert error_of(erin.move, match.name, "", move_id="b2").reason == "MATCH_NOT_ACTIVE"
        time.sleep(0.9)  # past the turn timeout: the host plays no move for the aborted match
        assert erin.match(match.name).version == aborted.version
        assert error_of(admin.abort, match.name).reason == "MATCH_OVER"


def test_admin_deletes_only_a_match_that_is_over(host, admin):
    with host.client() as anonymous:
        match = anonymous.create_match("tictactoe")
        refused = error_of(admin.delete, match.name)
        assert (refused.code, refused.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "MATCH_NOT_OVER")
        assert anonymous.match(match.name).status == pb.MATCH_STATUS_OPEN
        admin.abort(match.name)
        admin.delete(match.name)
        assert error_of(anonymous.match, match.name).code == grpc.StatusCode.NOT_FOUND
        assert error_of(anonymous.log, match.name).code == grpc.StatusCode.NOT_FOUND


def test_admin_hands_a_seat_to_a_bot_which_then_plays(host, user, admin):
    with host.client(user("finn")) as finn, host.client(user("gus")) as gus:
        match = finn.create_match("tictactoe")
        finn.join(match.name)
        gus.join(match.name)
        assigned = admin.assign_bot(match.name, 0)  # finn's seat, finn to move
        assert (assigned.seats[0].kind, assigned.seats[0].bot) == (pb.SEAT_KIND_BOT, "random")
        events = gus.log(match.name).events
        assert any(e.kind == pb.EVENT_KIND_BOT_ASSIGNED and e.seat == 0 for e in events)
        deadline = time.monotonic() + 10
        while not any(e.kind == pb.EVENT_KIND_MOVED and e.seat == 0 for e in gus.log(match.name).events):
            assert time.monotonic() < deadline, "the bot did not move for seat 0"
            time.sleep(0.05)
        assert error_of(admin.assign_bot, match.name, 0).reason == "SEAT_IS_BOT"
        assert error_of(admin.assign_bot, match.name, 5).code == grpc.StatusCode.INVALID_ARGUMENT


def test_admin_bot_on_the_last_open_seat_starts_the_match(host, admin):
    with host.client() as anonymous:
        match = anonymous.create_match("tictactoe")
        anonymous.join(match.name)
        started = admin.assign_bot(match.name, 1, "random")
        assert started.status == pb.MATCH_STATUS_ACTIVE


def test_resume_needs_a_suspended_match(host, admin):
    with host.client() as anonymous:
        match = anonymous.create_match("tictactoe")
    refused = error_of(admin.resume, match.name)
    assert (refused.code, refused.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "MATCH_NOT_SUSPENDED")
    assert admin.match(match.name).status == pb.MATCH_STATUS_OPEN


def gamehost(host, *args: str, token: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ, "GAMEHOST_TOKEN": token}
    return subprocess.run([sys.executable, "-m", "gamehost.cli.main", *args, "--host", host.target],
                          env=env, capture_output=True, text=True, timeout=60)


def test_cli_signs_in_with_a_bearer_token(host, user, admin_key):
    hana = user("hana")
    with host.client(hana) as client:
        match = client.create_match("tictactoe")
        client.join(match.name)
    who = gamehost(host, "whoami", token=hana)
    assert who.returncode == 0 and who.stdout.startswith("hana-") and "via jwt" in who.stdout
    mine = gamehost(host, "matches", "--mine", token=hana)
    assert mine.returncode == 0 and [line.split()[0] for line in mine.stdout.splitlines()] == [match.name]
    denied = gamehost(host, "admin", "abort", match.name, token=hana)
    assert denied.returncode != 0 and "PERMISSION_DENIED" in denied.stderr
    aborted = gamehost(host, "admin", "abort", match.name, "--reason", "a test", token=admin_key[1])
    assert aborted.returncode == 0 and "aborted (ADMIN_ABORT: a test)" in aborted.stdout
    listed = gamehost(host, "matches", "--mine", token=hana).stdout
    assert listed.startswith(match.name) and listed.rstrip().endswith("aborted (ADMIN_ABORT: a test)")
    deleted = gamehost(host, "admin", "delete", match.name, "--bearer-token", admin_key[1])
    assert deleted.returncode == 0
    assert gamehost(host, "matches", "--mine", token=hana).stdout == "You hold no seat in any match.\n"
    assert gamehost(host, "matches", "--my-turn", token=hana).stdout == "No match is waiting for your move.\n"


def test_taking_the_seat_again_does_not_restart_the_turn_clock(host, user):
    ivy = user("ivy")
    with host.client(ivy) as phone, host.client(ivy) as laptop:
        match = phone.create_match("tictactoe", bots=[1], turn_timeout=60)
        started = phone.join(match.name).match
        assert started.status == pb.MATCH_STATUS_ACTIVE and started.HasField("turn_deadline")
        time.sleep(0.05)
        again = laptop.join(match.name).match
        assert again.turn_deadline == started.turn_deadline and again.version == started.version + 1
