"""The Python client's calls for private matches, invitations and endings,
over a real host: each new argument reaches the host and each new call
answers as the protocol says (the host's own rules are tested in
test_private_matches.py and test_endings.py)."""

from __future__ import annotations

import time

import grpc
import pytest

from gamehost.client import GameHostClient, GameHostError
from gamehost.v1 import gamehost_pb2 as pb
from call_errors import error_of

pytestmark = pytest.mark.timeout(60)


def test_a_private_match_with_a_reserved_seat_admits_its_invitation_until_it_is_revoked(signed_in_host, user):
    alice, alice_token = user("alice")
    with signed_in_host.client(alice_token) as creator, signed_in_host.client() as guest:
        match = creator.create_match("tictactoe", visibility="private", spectators="players",
                                     reserved_seats={0: alice}, rated=False)
        code = match.invitation_code
        assert code and match.visibility == pb.VISIBILITY_PRIVATE and match.spectators == pb.SPECTATORS_PLAYERS
        assert not match.rated and match.seats[0].reserved_for == alice
        assert not creator.match(match.name).invitation_code  # shown once
        assert error_of(guest.match, match.name).code == grpc.StatusCode.NOT_FOUND
        assert guest.match(match.name, invitation_code=code).name == match.name
        # Without a seat the guest's join skips the reserved seat 0.
        joined = guest.join(match.name, player_name="Guest", invitation_code=code)
        assert joined.seat == 1
        creator.join(match.name, seat=0)
        creator.move(match.name, "", move={"cell": 4})
        assert guest.view(match.name, joined.player_token).version == creator.match(match.name).version
        assert [e.kind for e in guest.log(match.name, joined.player_token, invitation_code=code).events][-1] == \
            pb.EVENT_KIND_MOVED
        first = next(iter(guest.watch(match.name, joined.player_token, invitation_code=code)))
        assert first.version >= 1
        revoked = creator.revoke_invitation(match.name)
        assert revoked.name == match.name and not revoked.invitation_code
    with signed_in_host.client() as stranger:
        assert error_of(stranger.match, match.name, invitation_code=code).code == grpc.StatusCode.NOT_FOUND
        assert error_of(stranger.join, match.name, invitation_code=code).code == grpc.StatusCode.NOT_FOUND


def test_an_unlisted_match_is_left_out_of_listings_and_followed_by_its_name(client):
    match = client.create_match("tictactoe", visibility=pb.VISIBILITY_UNLISTED, spectators="anyone")
    assert match.visibility == pb.VISIBILITY_UNLISTED and match.invitation_code
    assert match.name not in [m.name for m in client.matches(status=pb.MATCH_STATUS_OPEN, limit=500)]
    x = client.join(match.name).player_token
    client.join(match.name)
    client.move(match.name, x, move={"cell": 0})
    follower = client.follow(match.name, after_version=0, invitation_code=match.invitation_code)
    events = iter(follower)
    assert next(events).version >= 1
    follower.stop()


def test_unknown_visibility_or_spectator_names_are_refused_before_any_call(client):
    with pytest.raises(ValueError, match="visibility is one of 'public', 'unlisted', 'private'"):
        client.create_match("tictactoe", visibility="secret")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="spectators is one of"):
        client.create_match("tictactoe", spectators="friends")  # type: ignore[arg-type]


def two_players(client: GameHostClient, **create) -> tuple[str, str, str]:
    match = client.create_match("tictactoe", **create).name
    return match, client.join(match).player_token, client.join(match).player_token


def test_draws_offered_declined_withdrawn_and_agreed_through_the_client(client):
    match, x, o = two_players(client)
    offered = client.offer_draw(match, x)
    assert offered.offer.seat == 0 and list(offered.offer.waiting) == [1]
    declined = client.answer_draw(match, o, False, offer_version=offered.offer.offer_version)
    assert not declined.HasField("offer") and not declined.agreed
    client.offer_draw(match, o)
    assert not client.withdraw_draw(match, o).HasField("offer")
    again = client.offer_draw(match, x)
    stale = error_of(client.answer_draw, match, o, True, offer_version=again.offer.offer_version - 1)
    assert stale.code == grpc.StatusCode.ABORTED
    assert client.answer_draw(match, o, True).agreed
    finished = client.match(match)
    assert finished.status == pb.MATCH_STATUS_FINISHED and list(finished.result.ranking) == [1, 1]


def test_resigning_through_the_client_makes_the_other_seat_win(client):
    match, x, o = two_players(client)
    client.move(match, x, move={"cell": 4})
    ended = client.resign(match, o)
    assert ended.status == pb.MATCH_STATUS_FINISHED and list(ended.result.winners) == [0]
    assert ended.seats[1].resigned


def test_the_session_resigns_offers_answers_withdraws_and_claims(client):
    match, x, o = two_players(client)
    with client.session() as session:
        offered = session.offer_draw(match, x)
        assert offered.offer.seat == 0
        assert not session.withdraw_draw(match, x).HasField("offer")
        session.offer_draw(match, o)
        assert not session.answer_draw(match, x, False).HasField("offer")
        assert session.resign(match, x).result.winners == [1]
    claimed, a, b = two_players(client, absent_grace=2.0)
    client.move(claimed, a, move={"cell": 4})
    assert error_of(client.claim_victory, claimed, a).reason == "CLAIM_TOO_EARLY"
    with client.session() as session:
        deadline = time.monotonic() + 20
        while True:  # b is to move and stays away: after the grace a may claim
            try:
                ended = session.claim_victory(claimed, a)
                break
            except GameHostError as error:
                assert error.reason == "CLAIM_TOO_EARLY" and time.monotonic() < deadline
                time.sleep(0.1)
    assert ended.status == pb.MATCH_STATUS_FINISHED and list(ended.result.ranking) == [1, 2]
