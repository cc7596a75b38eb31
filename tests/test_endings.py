"""Endings the players decide, over real sockets: resigning (two players:
the other wins; more: the bot plays the resigned seat to the end, ranked
last), draws by agreement (offered, declined, accepted, lapsing, refused
in a game without them), claims of victory over absent opponents (refused
before the grace, accepted after), and leaving a rated match, which costs
the leaver its rating. Each through the unary calls and the Session
stream, on SQLite and across two PostgreSQL replicas; a finished match
replays to its recorded result (``gamehost replay``)."""

from __future__ import annotations

import subprocess
import sys
import time
from typing import Callable, Iterator

import grpc
import pytest

from gamehost.client import GameHostClient, GameHostError
from gamehost.v1 import gamehost_pb2 as pb
from call_errors import error_of
from databases import create_database, drop_database
from hosts import HostProcess

pytestmark = pytest.mark.timeout(180)


class Endings:
    """The ending calls, made as unary calls or as a Session's requests."""

    def __init__(self, client: GameHostClient, via: str) -> None:
        self.client = client
        self.via = via

    def _unary(self, method: str, request):
        return self.client._call(getattr(self.client.stub, method), request)

    def _session(self, kind: str, request):
        with self.client.session() as session:
            answer = session.answer(session.send(**{kind: request}))
            return answer.ended if kind in ("resign", "claim_victory") else answer.draw

    def call(self, method: str, kind: str, request):
        return self._unary(method, request) if self.via == "unary" else self._session(kind, request)

    def resign(self, match: str, token: str = "") -> pb.Match:
        return self.call("Resign", "resign", pb.ResignRequest(name=match, player_token=token))

    def claim(self, match: str, token: str = "") -> pb.Match:
        return self.call("ClaimVictory", "claim_victory", pb.ClaimVictoryRequest(name=match, player_token=token))

    def offer(self, match: str, token: str = "") -> pb.DrawResponse:
        return self.call("OfferDraw", "offer_draw", pb.OfferDrawRequest(name=match, player_token=token))

    def answer(self, match: str, token: str, accept: bool) -> pb.DrawResponse:
        return self.call("AnswerDraw", "answer_draw",
                         pb.AnswerDrawRequest(name=match, player_token=token, accept=accept))

    def withdraw(self, match: str, token: str = "") -> pb.DrawResponse:
        return self.call("WithdrawDraw", "withdraw_draw", pb.WithdrawDrawRequest(name=match, player_token=token))


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def hosts(request, idp, tmp_path_factory) -> Iterator[list[HostProcess]]:
    """One SQLite host, or two PostgreSQL replicas (calls alternate between
    them), shared by the module's tests: each plays its own matches with its
    own users, so none sees another's, and a host start per test and store
    (two for the replicas) would cost more than the test itself."""
    flags = [*idp.host_args(), "--undo-ask-lifetime", "1", "--bot-delay", "0", "--bot-delay-with-humans", "0"]
    url = create_database() if request.param == "postgres" else None
    started: list[HostProcess] = []
    try:
        if url is None:
            started.append(HostProcess(*flags, data_dir=tmp_path_factory.mktemp("sqlite")).start())
        else:
            for name in "ab":
                started.append(HostProcess("--store", url, "--claim-lease", "1", "--replica-id", name, *flags).start())
        yield started
    finally:
        for host in started:
            host.stop()
        if url is not None:
            drop_database(url)


@pytest.fixture(params=["unary", "session"])
def via(request) -> str:
    return request.param


def clients(hosts, token: str = "") -> Iterator[GameHostClient]:
    """A client per host, round and round: each call on the next replica."""
    opened = [host.client(token) if token else host.client() for host in hosts]
    index = 0
    while True:
        yield opened[index % len(opened)]
        index += 1


def replay_verifies(host, match: str) -> str:
    done = subprocess.run([sys.executable, "-m", "gamehost.cli.main", "replay", match, "--host", host.target,
                           "--quiet"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def wait_for(check: Callable[[], object], timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = check()
        except GameHostError:
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("the condition never held")
        time.sleep(0.05)


def rated_match(hosts, first: str, second: str, game: str = "tictactoe", **create) -> str:
    a, b = hosts[0].client(first), hosts[-1].client(second)
    match = a.create_match(game, **create).name
    a.join(match, seat=0)
    b.join(match, seat=1)
    return match


def test_resigning_a_two_player_rated_match_makes_the_other_win_and_moves_ratings(hosts, via, user):
    (alice, alice_token), (bob, bob_token) = user("alice"), user("bob")
    match = rated_match(hosts, alice_token, bob_token)
    with hosts[-1].client(alice_token) as alice_client, hosts[0].client() as anyone:
        ended = Endings(alice_client, via).resign(match)
        assert ended.status == pb.MATCH_STATUS_FINISHED
        assert list(ended.result.ranking) == [2, 1] and list(ended.result.winners) == [1]
        assert ended.seats[0].resigned
        kinds = [e.kind for e in anyone.log(match).events][-2:]
        assert kinds == [pb.EVENT_KIND_RESIGNED, pb.EVENT_KIND_FINISHED]
        [lost], [won] = wait_for(lambda: anyone.profile(alice).ratings), anyone.profile(bob).ratings
        assert (lost.losses, won.wins) == (1, 1) and won.mu > lost.mu
        # Acting again as a resigned seat is refused and changes nothing.
        assert error_of(Endings(alice_client, via).resign, match).reason == "SEAT_RESIGNED"
    assert "ended by a resignation" in replay_verifies(hosts[0], match)


def test_resigning_with_three_players_ranks_the_seat_last_and_the_bot_plays_it_to_the_end(hosts, via):
    with hosts[0].client() as first, hosts[-1].client() as second:
        match = first.create_match("callisto", seats=3, seed=5).name
        tokens = {seat: (first if seat % 2 else second).join(match, seat=seat).player_token for seat in range(3)}
        on_resign = Endings(second, via).resign(match, tokens[1])
        assert on_resign.status == pb.MATCH_STATUS_ACTIVE and on_resign.seats[1].resigned
        assert on_resign.seats[1].kind == pb.SEAT_KIND_BOT
        assert error_of(first.move, match, tokens[1], move_id="x").reason == "INVALID_TOKEN"
        for turn in range(400):
            client = (first, second)[turn % 2]
            now = client.match(match)
            if now.status != pb.MATCH_STATUS_ACTIVE:
                break
            people = [s for s in now.to_move if s != 1]
            if not people:
                wait_for(lambda: client.match(match).to_move != now.to_move or
                         client.match(match).status != pb.MATCH_STATUS_ACTIVE)
                continue
            view = client.view(match, tokens[people[0]])
            try:
                client.move(match, tokens[people[0]], move_id=view.legal_moves[0].id, expected_version=view.version)
            except GameHostError as error:  # the bot moved meanwhile (another replica)
                assert error.reason in ("VERSION_MISMATCH", "NOT_YOUR_TURN", "UNKNOWN_MOVE", "CONCURRENT_UPDATE")
        finished = first.match(match)
        assert finished.status == pb.MATCH_STATUS_FINISHED
        assert finished.result.ranking[1] == 3 and 1 not in finished.result.winners
    assert "verified" in replay_verifies(hosts[0], match)


def test_draws_are_offered_declined_withdrawn_and_agreed(hosts, via):
    it = clients(hosts)
    match = next(it).create_match("tictactoe", seed=3).name
    x, o = next(it).join(match).player_token, next(it).join(match).player_token
    endings = Endings(next(it), via)
    offered = endings.offer(match, x)
    assert offered.offer.seat == 0 and list(offered.offer.waiting) == [1] and not offered.agreed
    assert next(it).match(match).draw_offer.offer_version == offered.offer.offer_version
    assert error_of(endings.offer, match, o).reason == "DRAW_ALREADY_OFFERED"
    assert error_of(endings.answer, match, x, True).reason == "DRAW_OWN_OFFER"
    declined = Endings(next(it), via).answer(match, o, False)
    assert not declined.HasField("offer") and not next(it).match(match).HasField("draw_offer")
    Endings(next(it), via).offer(match, o)
    Endings(next(it), via).withdraw(match, o)
    assert error_of(endings.answer, match, x, True).reason == "NO_DRAW_OFFERED"
    Endings(next(it), via).offer(match, x)
    agreed = Endings(next(it), via).answer(match, o, True)
    assert agreed.agreed
    finished = next(it).match(match)
    assert finished.status == pb.MATCH_STATUS_FINISHED and list(finished.result.ranking) == [1, 1]
    kinds = [e.kind for e in next(it).log(match).events]
    assert kinds[-3:] == [pb.EVENT_KIND_DRAW_ACCEPTED, pb.EVENT_KIND_DRAW_AGREED, pb.EVENT_KIND_FINISHED]
    assert pb.EVENT_KIND_DRAW_DECLINED in kinds and pb.EVENT_KIND_DRAW_WITHDRAWN in kinds
    assert "ended by a draw by agreement" in replay_verifies(hosts[0], match)


def test_a_draw_offer_lapses_and_a_move_closes_it(hosts, via):
    it = clients(hosts)
    match = next(it).create_match("tictactoe", seed=4).name
    x, o = next(it).join(match).player_token, next(it).join(match).player_token
    offered = Endings(next(it), via).offer(match, x)
    lapsed = next(e for e in next(it).watch(match, o, after_version=offered.version))
    assert (lapsed.kind, lapsed.seat) == (pb.EVENT_KIND_DRAW_LAPSED, 0)
    assert error_of(Endings(next(it), via).answer, match, o, True).reason == "NO_DRAW_OFFERED"
    Endings(next(it), via).offer(match, o)
    next(it).move(match, x, move={"cell": 4})
    assert not next(it).match(match).HasField("draw_offer")
    assert error_of(Endings(next(it), via).answer, match, x, True).reason == "NO_DRAW_OFFERED"


def test_offering_and_withdrawing_a_draw_in_a_loop_is_bounded_and_a_move_allows_offers_again(hosts, via):
    it = clients(hosts)
    match = next(it).create_match("tictactoe", seed=5).name
    x, o = next(it).join(match).player_token, next(it).join(match).player_token
    for _ in range(3):  # the host's default: 3 offers between two moves
        Endings(next(it), via).offer(match, x)
        Endings(next(it), via).withdraw(match, x)
    version = next(it).match(match).version
    refused = error_of(Endings(next(it), via).offer, match, o)
    assert (refused.reason, refused.metadata["offers"], refused.metadata["limit"]) == ("DRAW_OFFERS_EXHAUSTED", "3", "3")
    assert next(it).match(match).version == version  # the refused offer wrote nothing
    next(it).move(match, x, move={"cell": 4})
    assert Endings(next(it), via).offer(match, o).offer.seat == 1


def test_a_game_without_draws_by_agreement_refuses_an_offer(hosts, via):
    it = clients(hosts)
    games = {game.id: game.draw_by_agreement for game in next(it).games()}
    assert games["tictactoe"] and games["callisto"] and games["scalino"] and not games["campanile"]
    match = next(it).create_match("campanile").name
    token = next(it).join(match).player_token
    next(it).join(match)
    before = next(it).match(match).version
    error = error_of(Endings(next(it), via).offer, match, token)
    assert (error.code, error.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "DRAW_NOT_SUPPORTED")
    assert error.metadata["game"] == "campanile"
    assert next(it).match(match).version == before


def test_a_claim_is_refused_before_the_grace_and_accepted_after_it(hosts, via, user):
    (carol, carol_token), (dave, dave_token) = user("carol"), user("dave")
    match = rated_match(hosts, carol_token, dave_token, absent_grace=1.0)
    with hosts[0].client(carol_token) as carol_client, hosts[-1].client(dave_token) as dave_client:
        carol_client.move(match, "", move={"cell": 4})
        assert error_of(Endings(carol_client, via).claim, match).reason == "CLAIM_TOO_EARLY"
        # Dave is to move and does nothing: after the grace Carol may end it.
        refused = error_of(Endings(dave_client, via).claim, match)
        assert refused.reason == "CLAIM_TOO_EARLY"  # Carol is not to move: she waits, she is not absent
        claimed = wait_for(lambda: Endings(carol_client, via).claim(match), timeout=10)
        assert claimed.status == pb.MATCH_STATUS_FINISHED and list(claimed.result.ranking) == [1, 2]
        events = carol_client.log(match).events
        assert events[-2].kind == pb.EVENT_KIND_VICTORY_CLAIMED and list(events[-2].absent_seats) == [1]
        [won] = wait_for(lambda: carol_client.profile(carol).ratings)
        assert won.wins == 1
    assert "ended by a claim of victory" in replay_verifies(hosts[0], match)


def test_leaving_a_rated_match_costs_the_leaver_its_rating_and_a_casual_one_abandons(hosts, user):
    (erin, erin_token), (finn, finn_token) = user("erin"), user("finn")
    match = rated_match(hosts, erin_token, finn_token)
    with hosts[-1].client(erin_token) as erin_client, hosts[0].client() as anyone:
        left = erin_client.leave(match, "")
        assert left.status == pb.MATCH_STATUS_FINISHED and list(left.result.ranking) == [2, 1]
        assert anyone.log(match).events[-2].left
        [lost], [won] = wait_for(lambda: anyone.profile(erin).ratings), anyone.profile(finn).ratings
        assert (lost.losses, won.wins) == (1, 1)
        casual = anyone.create_match("tictactoe").name
        token = anyone.join(casual).player_token
        anyone.join(casual)
        assert anyone.leave(casual, token).status == pb.MATCH_STATUS_ABANDONED
