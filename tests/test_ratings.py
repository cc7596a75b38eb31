"""Ratings: a rated match's result moves its players'
ratings the right way, once; the leaderboard pages; a player's profile.
One host for the module, players signed in with JWTs; the store's
count-once key is checked on every backend."""

from __future__ import annotations

import time
import uuid

import grpc
import pytest

from gamehost.client import GameHostError
from gamehost.host.engine.rating_rules import rate
from gamehost.host.store.base import MatchRecord, PlayerRating, SeatRecord
from gamehost.host.store.memory import MemoryStore
from gamehost.host.store.sqlite import SQLiteStore
from gamehost.v1 import gamehost_pb2 as pb

X_WINS = "a1 b1 a2 b2 a3".split()  # X completes column a
DRAW = "b2 a1 a3 c1 b1 b3 c2 a2 c3".split()  # the board fills with no line


@pytest.fixture(scope="module")
def host(signed_in_host):
    return signed_in_host


def play(host, first: str, second: str, moves: list[str]) -> pb.Match:
    """A tictactoe match, ``first`` in seat 0 (X), played by identity through ``moves``."""
    with host.client(first) as x, host.client(second) as o:
        match = x.create_match("tictactoe")
        x.join(match.name, seat=0)
        o.join(match.name, seat=1)
        for turn, move in enumerate(moves):
            (x if turn % 2 == 0 else o).move(match.name, "", move_id=move)
        return x.match(match.name)


def test_a_win_raises_the_winner_and_lowers_the_loser(host, user):
    (alice, alice_token), (bob, bob_token) = user("alice"), user("bob")
    finished = play(host, alice_token, bob_token, X_WINS)
    assert finished.status == pb.MATCH_STATUS_FINISHED and list(finished.result.ranking) == [1, 2]
    with host.client(alice_token) as a, host.client() as anonymous:
        mine = a.profile()
        assert (mine.name, mine.games, mine.wins, mine.losses, mine.draws) == (f"players/{alice}", 1, 1, 0, 0)
        theirs = anonymous.profile(bob)
        assert (theirs.games, theirs.wins, theirs.losses) == (1, 0, 1)
        [won], [lost] = mine.ratings, theirs.ratings
        start = PlayerRating("", "")
        assert won.mu > start.mu > lost.mu and won.sigma < start.sigma
        assert won.game == "games/tictactoe" and won.player_name == "Alice"
        # The loser wins the return match: the ratings come back towards each other.
        play(host, bob_token, alice_token, X_WINS)
        [again] = a.profile().ratings
        assert again.mu < won.mu and (again.games, again.wins, again.losses) == (2, 1, 1)


def test_a_draw_leaves_equal_players_equal_and_counts_as_a_draw(host, user):
    (carol, carol_token), (dave, dave_token) = user("carol"), user("dave")
    finished = play(host, carol_token, dave_token, DRAW)
    assert list(finished.result.ranking) == [1, 1]
    with host.client() as anonymous:
        [c], [d] = anonymous.profile(carol).ratings, anonymous.profile(dave).ratings
    assert (c.draws, d.draws, c.wins, d.losses) == (1, 1, 0, 0)
    assert c.mu == pytest.approx(d.mu) == pytest.approx(PlayerRating("", "").mu)
    assert c.sigma < PlayerRating("", "").sigma  # the host is surer of both


def test_a_match_with_a_bot_is_not_rated(host, user):
    erin, erin_token = user("erin")
    with host.client(erin_token) as e:
        match = e.create_match("tictactoe", bots=[1])
        e.join(match.name, seat=0)
        deadline = time.monotonic() + 60
        while (view := e.view(match.name)).status == pb.MATCH_STATUS_ACTIVE and time.monotonic() < deadline:
            if view.legal_moves:
                e.move(match.name, "", move_id=view.legal_moves[0].id)
            else:
                time.sleep(0.05)  # the bot's turn: poll for its move
        assert e.match(match.name).status == pb.MATCH_STATUS_FINISHED
        assert (e.profile().games, list(e.profile().ratings)) == (0, [])
    with host.client() as anonymous, pytest.raises(GameHostError) as refused:
        anonymous.profile("me")
    assert refused.value.code == grpc.StatusCode.UNAUTHENTICATED


def test_the_leaderboard_is_best_first_and_pages(host, user):
    players = [user(name) for name in ("fay", "gus", "hal")]
    # fay beats gus, gus beats hal, fay beats hal: fay, gus, hal.
    for winner, loser in ((0, 1), (1, 2), (0, 2)):
        play(host, players[winner][1], players[loser][1], X_WINS)
    with host.client() as anonymous:
        listed, token = [], ""
        while True:
            page = anonymous.leaderboard("tictactoe", page_size=2, page_token=token)
            assert len(page.ratings) <= 2
            listed += page.ratings
            token = page.next_page_token
            if not token:
                break
        ratings = [r.rating for r in listed]
        assert ratings == sorted(ratings, reverse=True)
        ours = [r.player for r in listed if r.player in {f"players/{s}" for s, _ in players}]
        assert ours == [f"players/{players[0][0]}", f"players/{players[1][0]}", f"players/{players[2][0]}"]
        with pytest.raises(GameHostError) as refused:
            anonymous.leaderboard("nosuchgame")
        assert refused.value.code == grpc.StatusCode.NOT_FOUND


def four_player_result(ranking: list[int]) -> dict[str, PlayerRating]:
    seats = [SeatRecord(i, "human", f"p{i}", subject=f"p{i}") for i in range(4)]
    record = MatchRecord("m", "scalino", "1", {}, 1, seats, status="finished",
                         result={"ranking": ranking, "scores": [], "winners": []})
    return {r.subject: r for r in rate(record, {})}


def test_a_four_player_ranking_orders_the_ratings_by_place():
    """Plackett-Luce over four places: the better the place, the higher the rating."""
    after = four_player_result([3, 1, 4, 2])
    assert after["p1"].mu > after["p3"].mu > PlayerRating("", "").mu > after["p0"].mu > after["p2"].mu
    assert (after["p1"].wins, after["p3"].losses, after["p0"].losses, after["p2"].losses) == (1, 1, 1, 1)


def test_players_tied_in_a_four_player_ranking_are_rated_alike():
    """Two seats sharing place 1 draw, gain alike; the last place loses most."""
    after = four_player_result([3, 1, 4, 1])
    assert after["p1"].mu == pytest.approx(after["p3"].mu) and after["p1"].mu > PlayerRating("", "").mu
    assert after["p2"].mu == min(r.mu for r in after.values())
    assert (after["p1"].draws, after["p3"].draws, after["p0"].losses) == (1, 1, 1)


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def store(request, tmp_path):
    if request.param == "memory":
        return MemoryStore()
    if request.param == "sqlite":
        return SQLiteStore(tmp_path / "host.db")
    from gamehost.host.store.postgres import PostgresStore
    return PostgresStore(request.getfixturevalue("postgres_url"))


async def test_a_result_counts_once_in_every_store(store):
    await store.open()
    try:
        suffix = uuid.uuid4().hex[:8]
        seats = [SeatRecord(i, "human", f"p{i}", subject=f"p{i}-{suffix}") for i in range(2)]
        record = MatchRecord(f"m{suffix}", "tictactoe", "1", {}, 1, seats, status="finished",
                             result={"ranking": [1, 2], "scores": [1, 0], "winners": [0]})
        subjects = [s.subject for s in seats]
        assert await store.rate_match(record.id, subjects, "tictactoe", lambda now: rate(record, now))
        assert not await store.rate_match(record.id, subjects, "tictactoe", lambda now: rate(record, now))
        [winner] = await store.player_ratings(subjects[0])
        assert (winner.games, winner.wins) == (1, 1)
        board = await store.leaderboard("tictactoe", 1000)
        assert [r.subject for r in board if r.subject in subjects] == subjects
    finally:
        await store.close()


def test_replicas_count_a_result_once_and_share_the_leaderboard(start_host, postgres_url, idp, user):
    """Two replicas on one PostgreSQL: moves alternate between them, the
    result counts once, and either replica answers the same ratings."""
    a, b = (start_host("--store", postgres_url, "--replica-id", name, *idp.host_args()) for name in "ab")
    (ivy, ivy_token), (jon, jon_token) = user("ivy"), user("jon")
    with a.client(ivy_token) as x, b.client(jon_token) as o:
        match = x.create_match("tictactoe")
        x.join(match.name, seat=0)
        o.join(match.name, seat=1)
        for turn, move in enumerate(X_WINS):
            (x if turn % 2 == 0 else o).move(match.name, "", move_id=move)
        assert o.match(match.name).status == pb.MATCH_STATUS_FINISHED
        for client in (x, o):
            assert [(p.games, p.wins, p.losses) for p in (client.profile(ivy), client.profile(jon))] == \
                [(1, 1, 0), (1, 0, 1)]
            board = client.leaderboard("tictactoe")
            assert [r.player for r in board.ratings] == [f"players/{ivy}", f"players/{jon}"]
