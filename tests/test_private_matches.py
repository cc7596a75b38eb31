"""Private and unlisted matches, reserved seats, invitations, the spectator
policy and casual matches, over real sockets: on SQLite, through the web
port, and across two PostgreSQL replicas sharing one database."""

from __future__ import annotations

import json
import uuid
from typing import Callable

import grpc
import pytest

from gamehost.client import GameHostClient, GameHostError
from gamehost.v1 import gamehost_pb2 as pb
from call_errors import error_of
from hosts import HostProcess
from identities import write_api_keys


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    """API keys: an operator (admin) and a studio's backend (matchmaker)."""
    path = tmp_path_factory.mktemp("keys") / "api-keys.json"
    return path, write_api_keys(path, ("ops", ["admin"]), ("studio", ["matchmaker"]))


@pytest.fixture(scope="module")
def host(idp, keys, tmp_path_factory):
    process = HostProcess(*idp.host_args(), "--api-keys", str(keys[0]),
                          data_dir=tmp_path_factory.mktemp("sqlite")).start()
    yield process
    process.stop()


@pytest.fixture()
def person(idp):
    """``person("alice")``: a new signed-in user, (subject, bearer token)."""
    def make(name: str) -> tuple[str, str]:
        subject = f"{name}-{uuid.uuid4().hex[:6]}"
        return subject, idp.token(subject, name=name.title())
    return make


def call(client: GameHostClient, method: str, request):
    return client._call(getattr(client.stub, method), request)


def first_watch_event(client: GameHostClient, request: pb.WatchMatchRequest) -> pb.MatchEvent:
    stream = client.stub.WatchMatch(request, metadata=client.metadata or None, timeout=10)
    try:
        return next(iter(stream))
    except grpc.RpcError as error:
        raise GameHostError.from_rpc_error(error) from None
    finally:
        stream.cancel()


def session_answer(client: GameHostClient, request: pb.WatchMatchRequest) -> pb.SessionEvent:
    stream = client.stub.Session(iter([pb.SessionRequest(tag=1, watch=request)]),
                                 metadata=client.metadata or None, timeout=10)
    try:
        return next(iter(stream))
    finally:
        stream.cancel()


def create(client: GameHostClient, **fields) -> pb.Match:
    return call(client, "CreateMatch", pb.CreateMatchRequest(game="games/tictactoe", **fields))


def private_for(alice: str, bob: str, **fields) -> dict:
    return dict(visibility=pb.VISIBILITY_PRIVATE, spectators=pb.SPECTATORS_NONE,
                reserved_seats=[pb.SeatReservation(seat=0, subject=alice), pb.SeatReservation(seat=1, subject=bob)],
                **fields)


def shape(error: GameHostError, name: str) -> tuple:
    """What a caller learns from a refusal, with the match's name taken out."""
    match_id = name.split("/", 1)[1]
    return (error.code, error.reason, error.message.replace(match_id, "ID"),
            {key: value.replace(match_id, "ID") for key, value in error.metadata.items()}, error.field_violations)


# Every call that names a match, as a stranger would make it (no token of the match, no invitation).
STRANGER_CALLS: dict[str, Callable[[GameHostClient, str], object]] = {
    "GetMatch": lambda c, name: call(c, "GetMatch", pb.GetMatchRequest(name=name)),
    "GetView": lambda c, name: call(c, "GetView", pb.GetViewRequest(name=name)),
    "GetView with a token": lambda c, name: call(c, "GetView", pb.GetViewRequest(name=name, player_token="x" * 32)),
    "WatchMatch": lambda c, name: first_watch_event(c, pb.WatchMatchRequest(name=name)),
    "GetMatchLog": lambda c, name: call(c, "GetMatchLog", pb.GetMatchLogRequest(name=name)),
    "JoinMatch": lambda c, name: call(c, "JoinMatch", pb.JoinMatchRequest(name=name)),
    "JoinMatch a seat": lambda c, name: call(c, "JoinMatch", pb.JoinMatchRequest(name=name, seat=1)),
    "JoinMatch with a wrong code": lambda c, name: call(c, "JoinMatch", pb.JoinMatchRequest(
        name=name, invitation_code="ghi_wrong")),
    "SubmitMove": lambda c, name: call(c, "SubmitMove", pb.SubmitMoveRequest(name=name, move_id="b2")),
    "LeaveMatch": lambda c, name: call(c, "LeaveMatch", pb.LeaveMatchRequest(name=name, player_token="x" * 32)),
    "AskUndo": lambda c, name: call(c, "AskUndo", pb.AskUndoRequest(name=name)),
    "Rematch": lambda c, name: call(c, "Rematch", pb.RematchRequest(name=name)),
    "RevokeInvitation": lambda c, name: call(c, "RevokeInvitation", pb.RevokeInvitationRequest(name=name)),
}


def missing_name() -> str:
    return f"matches/{uuid.uuid4().hex[:16]}"


def assert_invisible(stranger: GameHostClient, name: str) -> None:
    """Every call answers for ``name`` exactly as for a match that never existed."""
    for label, attempt in STRANGER_CALLS.items():
        missing = missing_name()
        hidden, absent = error_of(attempt, stranger, name), error_of(attempt, stranger, missing)
        signing_in_first = label == "Rematch" and not stranger.metadata  # refused before any lookup
        assert hidden.code == (grpc.StatusCode.UNAUTHENTICATED if signing_in_first else grpc.StatusCode.NOT_FOUND), \
            (label, hidden)
        assert shape(hidden, name) == shape(absent, missing), label
    hidden_answer = session_answer(stranger, pb.WatchMatchRequest(name=name))
    missing = missing_name()
    absent_answer = session_answer(stranger, pb.WatchMatchRequest(name=missing))
    assert hidden_answer.error.code == grpc.StatusCode.NOT_FOUND.value[0]
    assert hidden_answer.error.message.replace(name, "M") == absent_answer.error.message.replace(missing, "M")
    assert [d.value.replace(name.encode()[8:], b"ID") for d in hidden_answer.error.details] == \
        [d.value.replace(missing.encode()[8:], b"ID") for d in absent_answer.error.details]
    assert name not in [m.name for m in stranger.matches()]


def test_a_private_match_answers_strangers_as_a_missing_match_and_admits_its_own(host, keys, person):
    alice, alice_token = person("alice")
    bob, bob_token = person("bob")
    _, carol_token = person("carol")
    with host.client(keys[1]["studio"]) as studio:
        match = create(studio, **private_for(alice, bob))
    assert (match.visibility, match.spectators) == (pb.VISIBILITY_PRIVATE, pb.SPECTATORS_NONE)
    assert [s.reserved_for for s in match.seats] == [alice, bob] and match.invitation_code.startswith("ghi_")
    with host.client(carol_token) as carol, host.client() as anonymous:
        assert_invisible(carol, match.name)
        assert_invisible(anonymous, match.name)
    with host.client(alice_token) as alice_client, host.client(bob_token) as bob_client, \
            host.client(keys[1]["ops"]) as ops, host.client(keys[1]["studio"]) as studio:
        assert alice_client.match(match.name).invitation_code == ""  # shown once, to the creator
        assert studio.match(match.name).name == match.name  # its creator sees it
        assert alice_client.join(match.name).seat == 0  # the seat reserved for her
        assert bob_client.join(match.name).seat == 1
        alice_client.move(match.name, "", move_id="b2")
        assert bob_client.view(match.name).seat == 1 and len(bob_client.log(match.name).events) >= 4
        assert match.name in [m.name for m in ops.matches()]  # admins list every match
        assert match.name in [m.name for m in alice_client.matches(mine=True)]
        assert ops.view(match.name).seat == -1  # an admin watches though spectators are none


def test_the_web_port_answers_a_private_match_as_a_missing_one(host, keys, person):
    import http.client

    alice, _ = person("alice")
    bob, _ = person("bob")
    with host.client(keys[1]["studio"]) as studio:
        match = create(studio, **private_for(alice, bob))

    def connect(name: str) -> tuple[int, dict]:
        connection = http.client.HTTPConnection("127.0.0.1", host.web_port, timeout=10)
        try:
            connection.request("POST", "/gamehost.v1.GameHost/GetMatch", json.dumps({"name": name}).encode(),
                               {"Content-Type": "application/json"})
            response = connection.getresponse()
            return response.status, json.loads(response.read())
        finally:
            connection.close()

    missing = missing_name()
    (hidden_status, hidden), (absent_status, absent) = connect(match.name), connect(missing)
    assert hidden_status == absent_status == 404

    def readable(error: dict, match_id: str) -> str:  # the details' debug form: their bytes hold the id too
        shown = {**error, "details": [{k: v for k, v in d.items() if k != "value"} for d in error["details"]]}
        return json.dumps(shown).replace(match_id, "ID")

    assert readable(hidden, match.name[8:]) == readable(absent, missing[8:])


def test_reserved_seats_refuse_other_users_and_who_may_reserve(host, keys, person):
    alice, alice_token = person("alice")
    bob, bob_token = person("bob")
    _, carol_token = person("carol")
    with host.client(keys[1]["studio"]) as studio:
        match = create(studio, visibility=pb.VISIBILITY_UNLISTED, reserved_seats=[pb.SeatReservation(seat=1, subject=bob)])
    with host.client(carol_token) as carol, host.client() as anonymous, host.client(bob_token) as bob_client:
        refused = error_of(carol.join, match.name, seat=1)
        assert (refused.code, refused.reason) == (grpc.StatusCode.PERMISSION_DENIED, "SEAT_RESERVED")
        assert carol.join(match.name).seat == 0  # the lowest seat neither taken nor reserved
        full = error_of(anonymous.join, match.name)
        assert (full.code, full.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "SEATS_RESERVED")
        assert error_of(anonymous.join, match.name, seat=1).reason == "SEAT_RESERVED"
        assert carol.match(match.name).seats[1].reserved_for == bob
        assert bob_client.join(match.name).seat == 1
    # A player reserves seats for friends only with one for itself; anonymous callers reserve none.
    dave, dave_token = person("dave")
    with host.client(dave_token) as dave_client, host.client() as anonymous:
        friend_only = error_of(create, dave_client, reserved_seats=[pb.SeatReservation(seat=1, subject=alice)])
        assert (friend_only.code, friend_only.reason) == (grpc.StatusCode.PERMISSION_DENIED, "RESERVATION_NOT_ALLOWED")
        challenge = create(dave_client, visibility=pb.VISIBILITY_PRIVATE,
                           reserved_seats=[pb.SeatReservation(seat=0, subject=dave),
                                           pb.SeatReservation(seat=1, subject=alice)])
        assert [s.reserved_for for s in challenge.seats] == [dave, alice]
        assert error_of(create, anonymous, reserved_seats=[pb.SeatReservation(seat=0, subject=alice)]).code == \
            grpc.StatusCode.UNAUTHENTICATED
        bad = error_of(create, dave_client, reserved_seats=[pb.SeatReservation(seat=0, subject=dave),
                                                             pb.SeatReservation(seat=0, subject=alice)])
        assert (bad.code, bad.field_violations[0][0]) == (grpc.StatusCode.INVALID_ARGUMENT, "reserved_seats")
        assert error_of(create, dave_client, bot_seats=[1], reserved_seats=[
            pb.SeatReservation(seat=1, subject=dave)]).code == grpc.StatusCode.INVALID_ARGUMENT


def test_an_invitation_admits_its_holder_until_it_is_revoked(host, person):
    dave, dave_token = person("dave")
    with host.client(dave_token) as creator, host.client() as friend, host.client() as latecomer:
        match = create(creator, visibility=pb.VISIBILITY_PRIVATE)
        code = match.invitation_code
        assert code and creator.join(match.name).seat == 0
        assert_invisible(friend, match.name)
        assert call(friend, "GetMatch", pb.GetMatchRequest(name=match.name, invitation_code=code)).name == match.name
        view = call(friend, "GetView", pb.GetViewRequest(name=match.name, invitation_code=code))
        assert view.seat == -1
        joined = call(friend, "JoinMatch", pb.JoinMatchRequest(name=match.name, player_name="Friend",
                                                               invitation_code=code))
        assert joined.seat == 1 and joined.match.status == pb.MATCH_STATUS_ACTIVE
        not_creator = error_of(call, friend, "RevokeInvitation", pb.RevokeInvitationRequest(name=match.name))
        assert not_creator.code == grpc.StatusCode.NOT_FOUND  # without the code, an anonymous caller sees nothing
        _, eve_token = person("eve")
        with host.client(eve_token) as eve:  # a signed-in holder sees the match, but is not its creator
            call(eve, "GetMatch", pb.GetMatchRequest(name=match.name, invitation_code=code))
            assert error_of(call, eve, "RevokeInvitation", pb.RevokeInvitationRequest(name=match.name)).code == \
                grpc.StatusCode.NOT_FOUND
        revoked = call(creator, "RevokeInvitation", pb.RevokeInvitationRequest(name=match.name))
        assert revoked.invitation_code == ""
        late = error_of(call, latecomer, "GetMatch", pb.GetMatchRequest(name=match.name, invitation_code=code))
        assert late.code == grpc.StatusCode.NOT_FOUND
        # The friend, seated, plays on with its token.
        creator.move(match.name, "", move_id="b2")
        assert friend.view(match.name, joined.player_token).seat == 1


def test_the_spectator_policy_holds_for_views_watches_and_logs(host, keys, person):
    alice, alice_token = person("alice")
    with host.client(alice_token) as alice_client, host.client() as anonymous, host.client(keys[1]["ops"]) as ops:
        for policy in (pb.SPECTATORS_PLAYERS, pb.SPECTATORS_NONE):
            match = create(alice_client, spectators=policy)
            seat = alice_client.join(match.name)
            other = anonymous.join(match.name)
            for attempt in (lambda: anonymous.view(match.name), lambda: anonymous.log(match.name),
                            lambda: first_watch_event(anonymous, pb.WatchMatchRequest(name=match.name))):
                refused = error_of(attempt)
                assert (refused.code, refused.reason) == (grpc.StatusCode.PERMISSION_DENIED, "SPECTATORS_CLOSED")
            answer = session_answer(anonymous, pb.WatchMatchRequest(name=match.name))
            assert answer.error.code == grpc.StatusCode.PERMISSION_DENIED.value[0]
            assert anonymous.view(match.name, other.player_token).seat == 1  # a seat's own view
            assert alice_client.view(match.name, seat.player_token).seat == 0
            assert ops.view(match.name).seat == -1 and ops.log(match.name).match == match.name
        open_match = create(alice_client)
        assert anonymous.view(open_match.name).seat == -1  # anyone, by default


def test_a_casual_match_moves_no_rating(host, person):
    _, ann_token = person("ann")
    _, ben_token = person("ben")
    with host.client(ann_token) as ann, host.client(ben_token) as ben:
        assert create(ann).rated and not create(ann, bot_seats=[1]).rated
        refused = error_of(create, ann, rated=True, bot_seats=[1])
        assert refused.field_violations[0][0] == "rated"
        match = create(ann, rated=False)
        assert not match.rated
        ann.join(match.name), ben.join(match.name)
        for mover, move in zip([ann, ben, ann, ben, ann], ["a1", "b1", "a2", "b2", "a3"]):
            mover.move(match.name, "", move_id=move)
        assert ann.match(match.name).status == pb.MATCH_STATUS_FINISHED
        assert ann.profile().games == 0 and ben.profile().games == 0


def test_unlisted_matches_are_left_out_of_other_callers_listings(host, keys, person):
    alice, alice_token = person("alice")
    with host.client(alice_token) as alice_client, host.client() as anonymous, host.client(keys[1]["ops"]) as ops:
        unlisted = create(alice_client, visibility=pb.VISIBILITY_UNLISTED)
        public = create(alice_client)
        alice_client.join(unlisted.name)
        listed = [m.name for m in anonymous.matches(limit=200)]
        assert public.name in listed and unlisted.name not in listed
        assert unlisted.name in [m.name for m in alice_client.matches(mine=True)]
        assert unlisted.name in [m.name for m in ops.matches(limit=200)]
        assert anonymous.match(unlisted.name).visibility == pb.VISIBILITY_UNLISTED  # the name is enough
        assert anonymous.join(unlisted.name).seat == 1


def test_two_replicas_enforce_visibility_invitations_and_spectators(start_host, postgres_url, idp, person):
    a, b = [start_host(*idp.host_args(), "--store", postgres_url, "--replica-id", name) for name in "ab"]
    dave, dave_token = person("dave")
    with a.client(dave_token) as creator, b.client() as stranger, b.client() as holder, b.client() as late:
        match = create(creator, visibility=pb.VISIBILITY_PRIVATE, spectators=pb.SPECTATORS_PLAYERS)
        code = match.invitation_code
        creator.join(match.name)
        assert_invisible(stranger, match.name)
        watched = call(holder, "GetMatch", pb.GetMatchRequest(name=match.name, invitation_code=code))
        assert watched.visibility == pb.VISIBILITY_PRIVATE
        spectating = error_of(call, holder, "GetView", pb.GetViewRequest(name=match.name, invitation_code=code))
        assert spectating.reason == "SPECTATORS_CLOSED"
        call(creator, "RevokeInvitation", pb.RevokeInvitationRequest(name=match.name))
        assert error_of(call, late, "JoinMatch", pb.JoinMatchRequest(
            name=match.name, invitation_code=code)).code == grpc.StatusCode.NOT_FOUND
        with b.client(dave_token) as creator_on_b:
            assert creator_on_b.view(match.name).seat == 0
