"""Limits on matches, with the production defaults the test hosts relax
(hosts.TEST_HOST_ENV): who may choose a seed, per-caller match quotas, and
retention (open matches expire, matches over are pruned)."""

from __future__ import annotations

import time

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from gamehost.client import GameHostError
from gamehost.v1 import gamehost_pb2 as pb
from hosts import HostProcess
from identities import write_api_keys
from call_errors import error_of


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    path = tmp_path_factory.mktemp("keys") / "api-keys.json"
    return path, write_api_keys(path, ("ops", ["admin"]), ("ann", []), ("ben", []), ("cy", []), ("dee", []),
                                ("eve", []))


@pytest.fixture(scope="module")
def host(keys):
    process = HostProcess("--api-keys", str(keys[0]), "--chosen-seeds", "admins", "--max-open-matches", "2",
                          "--max-bot-matches", "1", "--bot-delay", "0.2").start()
    yield process
    process.stop()



@pytest.mark.parametrize("game, player", [("kensington", "cy"), ("campanile", "dee")])
def test_a_chosen_seed_in_a_game_of_chance_needs_an_admin(host, keys, game, player):
    with host.client(keys[1][player]) as player_client, host.client(keys[1]["ops"]) as admin:
        before = len(admin.matches(game=game))
        refused = error_of(player_client.create_match, game, seed=7)
        assert (refused.code, refused.reason) == (grpc.StatusCode.PERMISSION_DENIED, "SEED_NOT_ALLOWED")
        assert len(admin.matches(game=game)) == before  # nothing was created
        chosen = admin.create_match(game, seed=7)
        assert chosen.seed_chosen
        drawn = player_client.create_match(game)
        assert not drawn.seed_chosen


def test_anyone_may_choose_the_seed_of_a_game_without_chance(host, keys):
    with host.client(keys[1]["eve"]) as player_client:
        assert player_client.create_match("tictactoe", seed=7).seed_chosen


def quota_details(host, token: str, request: pb.CreateMatchRequest):
    from gamehost.v1 import gamehost_pb2_grpc as pb_grpc

    with host.channel() as channel, pytest.raises(grpc.RpcError) as caught:
        pb_grpc.GameHostStub(channel).CreateMatch(request, metadata=(("authorization", f"Bearer {token}"),))
    status = rpc_status.from_call(caught.value)
    found = {}
    for detail in status.details:
        for kind in (error_details_pb2.QuotaFailure, error_details_pb2.RetryInfo, error_details_pb2.ErrorInfo):
            message = kind()
            if detail.Unpack(message):
                found[kind.__name__] = message
    return caught.value.code(), found


def test_open_matches_per_caller_are_limited(host, keys):
    ann, ben = keys[1]["ann"], keys[1]["ben"]
    with host.client(ann) as client:
        for _ in range(2):
            client.create_match("tictactoe")
        mine_before = [m.name for m in client.matches() if m.status == pb.MATCH_STATUS_OPEN]
        code, details = quota_details(host, ann, pb.CreateMatchRequest(game="games/tictactoe"))
        assert code == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert details["ErrorInfo"].reason == "MATCH_QUOTA_EXCEEDED"
        assert [(v.subject, v.description) for v in details["QuotaFailure"].violations] == [
            ("user:ann", "at most 2 open matches")]
        assert details["RetryInfo"].retry_delay.seconds > 0  # until the oldest open match expires
        assert [m.name for m in client.matches() if m.status == pb.MATCH_STATUS_OPEN] == mine_before
    with host.client(ben) as other, host.client(keys[1]["ops"]) as admin:
        other.create_match("tictactoe")  # another caller's budget
        for _ in range(3):
            admin.create_match("tictactoe")  # admins have none


def test_running_all_bot_matches_per_caller_are_limited(host, keys):
    ben = keys[1]["ben"]
    with host.client(ben) as client:
        running = client.create_match("kensington", bots=[0, 1])  # long enough at 0.2 s per bot move
        assert running.status == pb.MATCH_STATUS_ACTIVE
        code, details = quota_details(host, ben, pb.CreateMatchRequest(game="games/tictactoe", seats=2,
                                                                       bot_seats=[0, 1]))
        assert code == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert [v.description for v in details["QuotaFailure"].violations] == [
            "at most 1 matches the host plays alone"]
        assert details["RetryInfo"].retry_delay.seconds == 30


def test_open_matches_expire_and_matches_over_are_pruned(start_host, tmp_path):
    retention = start_host("--open-match-ttl", "1", "--prune-finished-after", "2", "--retention-interval", "0.2",
                           data_dir=tmp_path)
    with retention.client() as client:
        waiting = client.create_match("tictactoe")
        started = client.create_match("tictactoe")
        client.join(started.name)
        client.join(started.name)  # active: it does not expire
        finished = client.create_match("tictactoe", bots=[0, 1])
        events = list(client.watch(waiting.name))  # ends when the match is over
        assert (events[-1].kind, events[-1].reason) == (pb.EVENT_KIND_ABORTED, "OPEN_EXPIRED")
        expired = client.match(waiting.name)
        assert (expired.status, expired.status_detail.reason) == (pb.MATCH_STATUS_ABORTED, "OPEN_EXPIRED")
        assert client.match(finished.name).status == pb.MATCH_STATUS_FINISHED
        deadline = time.monotonic() + 10
        while any(_exists(client, m.name) for m in (waiting, finished)):
            assert time.monotonic() < deadline, "matches over were not pruned"
            time.sleep(0.1)
        assert client.match(started.name).status == pb.MATCH_STATUS_ACTIVE


def _exists(client, name: str) -> bool:
    try:
        client.match(name)
        return True
    except GameHostError as error:
        assert error.code == grpc.StatusCode.NOT_FOUND
        return False


def test_replicas_on_postgresql_expire_an_open_match_once_and_prune_it(start_host, postgres_url):
    flags = ("--store", postgres_url, "--open-match-ttl", "1", "--prune-finished-after", "1.5",
             "--retention-interval", "0.2")
    first, second = start_host(*flags), start_host(*flags)
    with first.client() as one, second.client() as two:
        match = one.create_match("tictactoe")
        events = list(two.watch(match.name))  # ends when the match is over
        assert [(e.kind, e.reason) for e in events] == [(pb.EVENT_KIND_ABORTED, "OPEN_EXPIRED")]  # one abort
        deadline = time.monotonic() + 10
        while _exists(one, match.name):
            assert time.monotonic() < deadline, "the aborted match was not pruned"
            time.sleep(0.1)


def test_browsers_have_their_own_address_budget_through_the_web_port(start_host):
    import http.client
    import json

    from gamehost.v1 import gamehost_pb2_grpc as pb_grpc

    host = start_host("--max-open-matches", "1")

    def create_over_web(source: str) -> int:
        connection = http.client.HTTPConnection("127.0.0.1", host.web_port, timeout=10, source_address=(source, 0))
        connection.request("POST", "/gamehost.v1.GameHost/CreateMatch", body=json.dumps({"game": "games/tictactoe"}),
                           headers={"Content-Type": "application/json"})
        status = connection.getresponse().status
        connection.close()
        return status

    with host.channel() as channel:
        stub = pb_grpc.GameHostStub(channel)
        stub.CreateMatch(pb.CreateMatchRequest(game="games/tictactoe"))  # 127.0.0.1's one open match
        with pytest.raises(grpc.RpcError) as caught:  # claiming another address without the gateway's secret
            stub.CreateMatch(pb.CreateMatchRequest(game="games/tictactoe"), metadata=(
                ("x-gamehost-gateway", "guess"), ("x-gamehost-peer", "ipv4:10.1.2.3")))
        assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert create_over_web("127.0.0.1") == 429  # the same address as the gRPC caller: the same budget
    assert create_over_web("127.0.0.2") == 200  # another browser: its own
    assert create_over_web("127.0.0.2") == 429


def wait_for_status(client, match: str, status: int, timeout: float = 30.0) -> pb.Match:
    deadline = time.monotonic() + timeout
    while (found := client.match(match)).status != status:
        assert time.monotonic() < deadline, f"{match} stayed {pb.MatchStatus.Name(found.status)}"
        time.sleep(0.05)
    return found


@pytest.fixture()
def bot_limited_host(start_host, keys):
    return start_host("--api-keys", str(keys[0]), "--max-bot-matches", "1", "--bot-delay", "0.2")


def test_leaving_for_the_host_to_play_counts_against_the_bot_match_limit(bot_limited_host, keys):
    """absent_grace 0 and leaving turns a match with a bot into one the host
    plays alone: over the creator's limit, leaving ends it instead."""
    with bot_limited_host.client(keys[1]["ann"]) as ann:
        running = ann.create_match("kensington", bots=[0, 1])  # the one host-played match allowed
        assert running.status == pb.MATCH_STATUS_ACTIVE
        left = ann.create_match("kensington", bots=[1], bot="mcts-hard", absent_grace=0.0)
        token = ann.join(left.name, seat=0).player_token
        ann.leave(left.name, token)
        ended = wait_for_status(ann, left.name, pb.MATCH_STATUS_ABANDONED)
        assert [s.kind for s in ended.seats] == [pb.SEAT_KIND_HUMAN, pb.SEAT_KIND_BOT]
        assert ann.match(running.name).status == pb.MATCH_STATUS_ACTIVE


def test_turns_timing_out_for_the_host_to_play_count_against_the_bot_match_limit(bot_limited_host, keys):
    """A tiny turn timeout with players who never move is a match the host
    plays alone: over the creator's limit it ends instead of playing on."""
    with bot_limited_host.client(keys[1]["ann"]) as ann, bot_limited_host.client() as anonymous:
        running = ann.create_match("kensington", bots=[0, 1])
        timed = ann.create_match("kensington", turn_timeout=0.01)
        ann.join(timed.name, seat=0)
        anonymous.join(timed.name, seat=1)
        wait_for_status(ann, timed.name, pb.MATCH_STATUS_ABANDONED)
        assert ann.match(running.name).status == pb.MATCH_STATUS_ACTIVE


def test_unfinished_matches_per_creator_and_per_player_are_limited(start_host, keys):
    host = start_host("--api-keys", str(keys[0]), "--max-open-matches", "0", "--max-unfinished-matches", "2",
                      "--max-player-matches", "2")
    with host.client(keys[1]["ann"]) as ann, host.client(keys[1]["ben"]) as ben, \
            host.client(keys[1]["cy"]) as cy:
        first, second = ann.create_match("tictactoe"), ann.create_match("tictactoe", bots=[1])
        assert second.status == pb.MATCH_STATUS_OPEN
        code, details = quota_details(host, keys[1]["ann"], pb.CreateMatchRequest(game="games/tictactoe"))
        assert code == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert [(v.subject, v.description) for v in details["QuotaFailure"].violations] == [
            ("user:ann", "at most 2 unfinished matches")]
        # Active ones count too: ann plays her first match, still one too many.
        ann.join(first.name, seat=0)
        ben.join(first.name, seat=1)
        assert ann.match(first.name).status == pb.MATCH_STATUS_ACTIVE
        assert error_of(ann.create_match, "tictactoe").reason == "MATCH_QUOTA_EXCEEDED"

        # Ben sits in two unfinished matches: a third seat is refused, and so is a ticket.
        ben.join(second.name, seat=0)
        third = cy.create_match("tictactoe")
        refused = error_of(ben.join, third.name)
        assert (refused.code, refused.reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "MATCH_QUOTA_EXCEEDED")
        assert cy.match(third.name).seats[0].kind == pb.SEAT_KIND_OPEN  # nothing taken
        refused = error_of(ben.create_ticket, "tictactoe", ttl=60, bot_wait=0.1)
        assert refused.reason == "MATCH_QUOTA_EXCEEDED"


def test_matches_made_from_tickets_count_for_their_players(start_host, keys):
    host = start_host("--api-keys", str(keys[0]), "--max-player-matches", "2")
    with host.client(keys[1]["dee"]) as dee:
        for _ in range(2):
            ticket = dee.create_ticket("tictactoe", ttl=60, bot_wait=0.1)
            deadline = time.monotonic() + 30
            while dee.ticket(ticket.name).state != pb.TICKET_STATE_MATCHED:
                assert time.monotonic() < deadline
                time.sleep(0.05)
        assert len(dee.matches(mine=True, status=pb.MATCH_STATUS_ACTIVE)) == 2
        assert error_of(dee.create_ticket, "tictactoe", ttl=60, bot_wait=0.1).reason == "MATCH_QUOTA_EXCEEDED"


def test_active_matches_nobody_plays_expire(start_host, keys):
    host = start_host("--idle-match-ttl", "1", "--retention-interval", "0.2")
    with host.client() as one, host.client() as two:
        idle = one.create_match("tictactoe")
        one.join(idle.name, seat=0)
        two.join(idle.name, seat=1)
        ended = wait_for_status(one, idle.name, pb.MATCH_STATUS_ABORTED)
        assert ended.status_detail.reason == "IDLE_EXPIRED"


def test_request_ids_are_each_callers_own(start_host, keys):
    host = start_host("--api-keys", str(keys[0]))
    with host.client(keys[1]["ann"]) as ann, host.client(keys[1]["ben"]) as ben:
        mine = ann.create_match("tictactoe", request_id="same-id")
        assert ann.create_match("tictactoe", request_id="same-id").name == mine.name  # a repeat: the same match
        theirs = ben.create_match("tictactoe", request_id="same-id")
        assert theirs.name != mine.name  # another caller's id: its own match
        assert ben.create_match("tictactoe", request_id="same-id").name == theirs.name
