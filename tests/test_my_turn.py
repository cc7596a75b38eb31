"""ListMatches' my_turn: the signed-in player's open matches where it is
their turn, read from the store's turn index, marked in
their own listing, and cheap to poll with an etag. One host per module, on
SQLite; signed-in users act by identity, with no player token."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid

import grpc
import pytest

from gamehost.v1 import gamehost_pb2 as pb
from hosts import HostProcess
from call_errors import error_of


@pytest.fixture(scope="module")
def host(idp, admin_key, tmp_path_factory):
    process = HostProcess(*idp.host_args(), "--api-keys", str(admin_key[0]),
                          data_dir=tmp_path_factory.mktemp("store")).start()
    yield process
    process.stop()


@pytest.fixture()
def players(host, idp):
    """Clients of fresh signed-in users (subjects differ between tests), by name."""
    opened = []

    def player(name: str):
        client = host.client(idp.token(f"{name}-{uuid.uuid4().hex[:6]}", name=name.title())).__enter__()
        opened.append(client)
        return client

    yield player
    for client in opened:
        client.__exit__(None, None, None)


def my_turn(client, **fields) -> pb.ListMatchesResponse:
    return client.stub.ListMatches(pb.ListMatchesRequest(my_turn=True, **fields), metadata=client.metadata)


def names(response_or_matches) -> list[str]:
    matches = getattr(response_or_matches, "matches", response_or_matches)
    return [match.name for match in matches]


def match_between(first, second, **create) -> str:
    """A tictactoe match with ``first`` in seat 0 (X, to move) and ``second`` in seat 1."""
    with_anyone = first.create_match("tictactoe", **create)
    first.join(with_anyone.name, seat=0)
    second.join(with_anyone.name, seat=1)
    return with_anyone.name



def test_each_player_lists_the_matches_where_it_is_their_turn_and_it_changes_after_a_move(players):
    ann, bob, cat, dan = players("ann"), players("bob"), players("cat"), players("dan")
    ann_first = match_between(ann, bob)
    bob_first = match_between(bob, ann)
    cat_first = match_between(cat, ann)
    others = match_between(dan, cat)  # Dan's turn: in neither Ann's nor Bob's list
    waiting = ann.create_match("tictactoe").name
    ann.join(waiting)  # open: nobody's turn yet
    assert names(my_turn(ann)) == [ann_first]
    assert names(my_turn(bob)) == [bob_first]
    assert names(my_turn(cat)) == [cat_first] and names(my_turn(dan)) == [others]

    # Ann's own listing marks her turn and her seats; the time is when her turn began.
    mine = {match.name: match for match in ann.matches(mine=True)}
    assert set(mine) == {ann_first, bob_first, cat_first, waiting}
    assert [name for name, match in mine.items() if match.HasField("user_turn_since")] == [ann_first]
    assert [list(mine[name].user_seats) for name in (ann_first, bob_first, waiting)] == [[0], [1], [0]]
    started = ann.match(ann_first)
    assert mine[ann_first].user_turn_since == started.update_time and list(mine[ann_first].to_move) == [0]

    # Ann moves: it is Bob's turn there now, since her move.
    moved = ann.move(ann_first, "", move_id="b2")
    assert names(my_turn(ann)) == []
    bobs = my_turn(bob)
    assert names(bobs) == [bob_first, ann_first]
    assert bobs.matches[1].user_turn_since == ann.match(ann_first).update_time and moved.version
    assert list(bobs.matches[1].user_seats) == [1] and list(bobs.matches[1].to_move) == [1]

    # Bob moves in the match he began: Ann's turn again, from then on.
    bob.move(bob_first, "", move_id="a1")
    assert names(my_turn(ann)) == [bob_first]
    assert names(my_turn(bob)) == [ann_first]


def test_a_finished_or_abandoned_match_leaves_the_list(players):
    eve, fay = players("eve"), players("fay")
    played = match_between(eve, fay)
    left = match_between(fay, eve)
    for seat_client, cell in [(eve, "a1"), (fay, "b1"), (eve, "a2"), (fay, "b2")]:
        seat_client.move(played, "", move_id=cell)
    assert names(my_turn(eve)) == [played] and names(my_turn(fay)) == [left]
    eve.move(played, "", move_id="a3")  # three in a column: Eve wins
    assert eve.match(played).status == pb.MATCH_STATUS_FINISHED
    assert names(my_turn(eve)) == [] and names(my_turn(fay)) == [left]
    fay.leave(left, "")  # no absent grace: leaving abandons the match
    assert names(my_turn(fay)) == [] and names(my_turn(eve)) == []
    assert not any(m.HasField("user_turn_since") for m in fay.matches(mine=True))


def test_a_clocked_match_in_the_list_carries_the_clock_that_runs(players):
    gus, hal = players("gus"), players("hal")
    clocked = match_between(gus, hal, clock=600, increment=5)
    timed = match_between(gus, hal, turn_timeout=3600)
    listed = {match.name: match for match in my_turn(gus).matches}
    assert set(listed) == {clocked, timed}
    assert list(listed[clocked].clock.running) == [0] and listed[clocked].clock.HasField("deadline")
    assert listed[clocked].clock.remaining[0].seconds <= 600
    assert listed[timed].turn_deadline.seconds > listed[timed].user_turn_since.seconds


def test_an_absent_players_seat_is_not_their_turn(players):
    ivy, jon = players("ivy"), players("jon")
    match = jon.create_match("tictactoe", absent_grace=3600)
    ivy.join(match.name, seat=0)
    jon.join(match.name, seat=1)
    assert names(my_turn(ivy)) == [match.name]
    ivy.leave(match.name, "")  # away: the bot plays for her after the grace
    assert ivy.match(match.name).status == pb.MATCH_STATUS_ACTIVE
    assert names(my_turn(ivy)) == []
    ivy.join(match.name)  # back: her turn again
    assert names(my_turn(ivy)) == [match.name]


def test_pages_and_an_etag_to_poll(players):
    kim, lou = players("kim"), players("lou")
    older, newer = match_between(kim, lou), match_between(kim, lou)
    first = my_turn(kim, page_size=1)
    assert names(first) == [newer] and first.next_page_token and first.etag
    rest = my_turn(kim, page_size=1, page_token=first.next_page_token)
    assert names(rest) == [older] and not rest.next_page_token

    # Polling: the same page again is "not modified", with no matches; a move changes the etag.
    unchanged = my_turn(kim, page_size=1, if_none_match=first.etag)
    assert unchanged.not_modified and not unchanged.matches and unchanged.etag == first.etag
    assert unchanged.next_page_token == first.next_page_token
    assert my_turn(kim, page_size=1, if_none_match="W/an-old-etag").matches  # unknown: the full page
    kim.move(newer, "", move_id="b2")
    after = my_turn(kim, page_size=1, if_none_match=first.etag)
    assert not after.not_modified and names(after) == [older] and after.etag != first.etag
    # Lou's etag changes too, though his page of two shows the same match names as before.
    lou.move(newer, "", move_id="a1")
    before_kim_moves = my_turn(kim)
    kim.move(newer, "", move_id="c3")
    assert my_turn(kim, if_none_match=before_kim_moves.etag).etag != before_kim_moves.etag


def test_an_admin_lists_another_users_turns(players, host, admin_key):
    mia, ned = players("mia"), players("ned")
    match = match_between(mia, ned)
    subject = mia.identity().subject
    with host.client(admin_key[1]) as admin:
        assert names(admin.matches(player=subject, my_turn=True)) == [match]
    assert error_of(ned.matches, player=subject, my_turn=True).code == grpc.StatusCode.PERMISSION_DENIED


def test_anonymous_callers_and_bad_requests_get_clear_errors(host, players):
    with host.client() as anonymous:
        refused = error_of(anonymous.matches, my_turn=True)
        assert (refused.code, refused.reason) == (grpc.StatusCode.UNAUTHENTICATED, "AUTHENTICATION_REQUIRED")
        assert "my_turn" in refused.message and "sign in" in refused.message
    oli = players("oli")
    finished = error_of(oli.matches, my_turn=True, status=pb.MATCH_STATUS_FINISHED)
    assert finished.code == grpc.StatusCode.INVALID_ARGUMENT and finished.field_violations[0][0] == "status"
    with pytest.raises(grpc.RpcError) as caught:
        my_turn(oli, if_none_match="x" * 65)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "if_none_match" in caught.value.details()
    # A page token of the my_turn listing does not page the whole "mine" listing.
    pip = players("pip")
    match_between(oli, pip), match_between(oli, pip)
    token = my_turn(oli, page_size=1).next_page_token
    with pytest.raises(grpc.RpcError) as caught:
        oli.stub.ListMatches(pb.ListMatchesRequest(mine=True, page_size=1, page_token=token), metadata=oli.metadata)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_the_cli_lists_and_marks_your_turns(host, idp):
    tia_token, uma_token = idp.token(f"tia-{uuid.uuid4().hex[:6]}"), idp.token(f"uma-{uuid.uuid4().hex[:6]}")
    with host.client(tia_token) as tia, host.client(uma_token) as uma:
        hers, theirs = match_between(tia, uma), match_between(uma, tia)

    def gamehost(*args: str) -> list[str]:
        done = subprocess.run([sys.executable, "-m", "gamehost.cli.main", "matches", *args, "--host", host.target],
                              env={**os.environ, "GAMEHOST_TOKEN": tia_token}, capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 0, done.stderr
        return done.stdout.splitlines()

    assert [line.split()[0] for line in gamehost("--my-turn")] == [hers]
    assert [(line.split()[0], line.endswith("(your turn)")) for line in gamehost("--mine")] == [(theirs, False),
                                                                                                  (hers, True)]


def test_the_turn_index_is_kept_in_the_store_across_a_restart(idp, tmp_path):
    first = HostProcess(*idp.host_args(), data_dir=tmp_path).start()
    try:
        with first.client(idp.token("rae", name="Rae")) as rae, first.client(idp.token("sam", name="Sam")) as sam:
            match = match_between(rae, sam)
            rae.move(match, "", move_id="b2")
            since = my_turn(sam).matches[0].user_turn_since
    finally:
        first.stop()
    again = HostProcess(*idp.host_args(), data_dir=tmp_path).start()
    try:
        with again.client(idp.token("sam", name="Sam")) as sam, again.client(idp.token("rae", name="Rae")) as rae:
            listed = my_turn(sam)
            assert names(listed) == [match] and listed.matches[0].user_turn_since == since
            assert names(my_turn(rae)) == []
    finally:
        again.stop()
