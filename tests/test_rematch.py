"""Rematch: the same players from a finished match, each
one seat on; asked only by a player, the same rematch for every ask. One
host for the module, players signed in with JWTs."""

from __future__ import annotations

import time

import grpc
import pytest

from gamehost.v1 import gamehost_pb2 as pb
from call_errors import error_of


@pytest.fixture(scope="module")
def host(signed_in_host):
    return signed_in_host



def play_out(match: str, players: dict) -> None:
    """Each seat in ``players`` plays its first legal move (bots play theirs)
    until the match is over; polls, with a deadline, while a bot is to move."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        views = {seat: client.view(match) for seat, client in players.items()}
        if any(v.status != pb.MATCH_STATUS_ACTIVE for v in views.values()):
            return
        mover = next((seat for seat, v in views.items() if v.legal_moves), None)
        if mover is None:
            time.sleep(0.05)  # a bot's move: poll for its result
            continue
        players[mover].move(match, "", move_id=views[mover].legal_moves[0].id)
    raise AssertionError(f"{match} did not finish")


def finished_match(host, alice, bob) -> str:
    with host.client(alice) as a, host.client(bob) as b:
        match = a.create_match("tictactoe")
        a.join(match.name, seat=0)
        b.join(match.name, seat=1)
        play_out(match.name, {0: a, 1: b})
        assert a.match(match.name).status == pb.MATCH_STATUS_FINISHED
        return match.name


def test_a_rematch_starts_once_every_player_asked_with_the_seats_rotated(host, user):
    (_, alice), (_, bob) = user("alice"), user("bob")
    old = finished_match(host, alice, bob)
    with host.client(alice) as a, host.client(bob) as b:
        before = a.match(old)
        rematch = a.rematch(old)
        assert rematch.name != old and rematch.game == before.game
        # Seat i's player takes seat i+1, the last one seat 0.
        assert [s.player_name for s in rematch.seats] == [before.seats[1].player_name,
                                                          before.seats[0].player_name]
        assert all(s.verified for s in rematch.seats)
        # Alice asked, so took her seat; bob's is held for him and the match waits.
        assert rematch.status == pb.MATCH_STATUS_OPEN
        assert [s.kind for s in rematch.seats] == [pb.SEAT_KIND_OPEN, pb.SEAT_KIND_HUMAN]
        assert a.rematch(old).status == pb.MATCH_STATUS_OPEN  # asking again changes nothing
        agreed = b.rematch(old)
        assert agreed.name == rematch.name  # the other player gets the same one, and it starts
        assert agreed.status == pb.MATCH_STATUS_ACTIVE
        assert a.rematch(f"matches/{old.split('/')[-1]}").name == rematch.name
        # Each player plays the new seat by identity, or takes its token.
        assert b.view(rematch.name).seat == 0 and a.view(rematch.name).seat == 1
        assert b.join(rematch.name).seat == 0
        assert a.rematch(old).name == rematch.name  # still the same once it is under way


def test_only_a_signed_in_player_of_a_finished_match_may_ask(host, user):
    (_, alice), (_, bob), (_, carol) = user("alice"), user("bob"), user("carol")
    old = finished_match(host, alice, bob)
    with host.client() as anonymous:
        refused = error_of(anonymous.rematch, old)
        assert refused.code == grpc.StatusCode.UNAUTHENTICATED and "sign in" in refused.message
    with host.client(carol) as c:
        refused = error_of(c.rematch, old)
        assert (refused.code, refused.reason) == (grpc.StatusCode.PERMISSION_DENIED, "NOT_A_PLAYER")
        # A refusal creates nothing: carol has no match.
        assert c.matches(mine=True) == []
    with host.client(alice) as a, host.client(bob) as b:
        running = a.create_match("tictactoe")
        a.join(running.name)
        b.join(running.name)
        refused = error_of(a.rematch, running.name)
        assert (refused.code, refused.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "MATCH_NOT_FINISHED")
        assert error_of(a.rematch, "matches/nosuchmatch").code == grpc.StatusCode.NOT_FOUND
        # Rematch request ids are the host's: a caller may not take one.
        taken = error_of(a.create_match, "tictactoe", request_id=f"rematch/{old.split('/')[-1]}")
        assert taken.code == grpc.StatusCode.INVALID_ARGUMENT


def test_bot_seats_and_anonymous_seats_rotate_too(host, user):
    """A bot keeps its strategy one seat on; an anonymous player cannot be
    recognised again, so their seat opens and the rematch waits for it."""
    _, alice = user("alice")
    with host.client(alice) as a, host.client() as anonymous:
        match = a.create_match("tictactoe", bots=[1], bot="random")
        a.join(match.name, seat=0)
        play_out(match.name, {0: a})
        assert a.match(match.name).status == pb.MATCH_STATUS_FINISHED
        rematch = a.rematch(match.name)
        assert [s.kind for s in rematch.seats] == [pb.SEAT_KIND_BOT, pb.SEAT_KIND_HUMAN]
        assert rematch.seats[0].bot == "random" and rematch.seats[1].verified
        assert rematch.status == pb.MATCH_STATUS_ACTIVE

        mixed = a.create_match("tictactoe")
        a.join(mixed.name, seat=0)
        token = anonymous.join(mixed.name, seat=1, player_name="guest").player_token
        play_out(mixed.name, {0: a, 1: _TokenPlayer(anonymous, token)})
        rematch = a.rematch(mixed.name)
        assert [s.kind for s in rematch.seats] == [pb.SEAT_KIND_OPEN, pb.SEAT_KIND_HUMAN]
        assert rematch.status == pb.MATCH_STATUS_OPEN
        assert anonymous.join(rematch.name, player_name="guest").seat == 0


class _TokenPlayer:
    """An anonymous player: acts with the seat's token."""

    def __init__(self, client, token: str) -> None:
        self.client, self.token = client, token

    def view(self, match):
        return self.client.view(match, self.token)

    def move(self, match, _token, move_id):
        return self.client.move(match, self.token, move_id=move_id)


def test_one_player_alone_cannot_start_a_rated_rematch_against_an_absent_opponent(host, user):
    """Farming a rating: the winner asks for rematches of a timed match
    whose loser made no call. The rematch waits for the loser, nobody can
    take the loser's seat, and no rating moves."""
    (alice_subject, alice), (bob_subject, bob), (_, carol) = user("alice"), user("bob"), user("carol")
    with host.client(alice) as a, host.client(bob) as b, host.client(carol) as c:
        match = a.create_match("tictactoe", turn_timeout=0.3)
        a.join(match.name, seat=0)
        b.join(match.name, seat=1)
        play_out(match.name, {0: a, 1: b})
        before = [(p.games, [r.rating for r in p.ratings]) for p in (a.profile(), b.profile())]
        assert before[0][0] == before[1][0] == 1  # the first match was rated

        rematch = a.rematch(match.name)
        assert rematch.status == pb.MATCH_STATUS_OPEN
        assert a.rematch(match.name).status == pb.MATCH_STATUS_OPEN
        held = next(s for s in rematch.seats if s.kind == pb.SEAT_KIND_OPEN)
        assert held.verified and held.player_name == "Bob"
        # Bob's seat is his alone: another player cannot fill it to start the match.
        refused = error_of(c.join, rematch.name)
        assert (refused.code, refused.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "SEAT_TAKEN")
        refused = error_of(c.join, rematch.name, seat=held.index)
        assert refused.code == grpc.StatusCode.FAILED_PRECONDITION
        assert [m.name for m in a.matches(mine=True, status=pb.MATCH_STATUS_ACTIVE)] == []
        assert a.match(rematch.name).status == pb.MATCH_STATUS_OPEN
        assert [(p.games, [r.rating for r in p.ratings]) for p in (a.profile(), b.profile())] == before
        # Bob joining is bob agreeing: now it starts, and he plays it.
        assert b.join(rematch.name).seat == held.index
        assert a.match(rematch.name).status == pb.MATCH_STATUS_ACTIVE
