"""Per-caller quotas on a real host over real sockets.

gRPC clients here all come from 127.0.0.1. Other callers are browsers on
the web port bound to other loopback addresses (127.0.0.2, ...): the
gateway names each to the gRPC side, so each has its own budget.
"""

from __future__ import annotations

import base64
import http.client
import json
import struct
import subprocess
import sys
import time

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from gamehost.host.rpc.quotas import TokenBuckets
from gamehost.v1 import gamehost_pb2 as pb
from gamehost.v1 import gamehost_pb2_grpc as pb_grpc
from hosts import HostProcess

LIST_GAMES = "/gamehost.v1.GameHost/ListGames"
CREATE = "/gamehost.v1.GameHost/CreateMatch"


@pytest.fixture(scope="module")
def rate_host():
    host = HostProcess(env={"GAMEHOST_CALL_RATE": "2", "GAMEHOST_CALL_BURST": "10", "GAMEHOST_CREATE_RATE": "0.2",
                            "GAMEHOST_CREATE_BURST": "3"}).start()
    yield host
    host.stop()


@pytest.fixture(scope="module")
def watch_host():
    host = HostProcess("--max-watchers-per-caller", "2", "--max-watchers", "3").start()
    yield host
    host.stop()


def browser_call(host: HostProcess, source: str, path: str, message: dict, **headers) -> tuple[int, dict]:
    """A Connect JSON call from ``source`` (a loopback address) to the web port."""
    connection = http.client.HTTPConnection("127.0.0.1", host.web_port, timeout=10, source_address=(source, 0))
    try:
        connection.request("POST", path, json.dumps(message).encode(), {"Content-Type": "application/json", **headers})
        response = connection.getresponse()
        return response.status, json.loads(response.read() or b"{}")
    finally:
        connection.close()


def connect_details(error: dict) -> dict[str, bytes]:
    return {detail["type"]: base64.b64decode(detail["value"] + "=" * (-len(detail["value"]) % 4))
            for detail in error.get("details", ())}


def quota_refusal(error: grpc.RpcError) -> tuple[error_details_pb2.QuotaFailure, float]:
    """The QuotaFailure and the RetryInfo delay of a RESOURCE_EXHAUSTED."""
    assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, error
    status = rpc_status.from_call(error)
    failure, retry = error_details_pb2.QuotaFailure(), None
    for detail in status.details:
        if detail.Is(error_details_pb2.QuotaFailure.DESCRIPTOR):
            detail.Unpack(failure)
        if detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
            retry = error_details_pb2.RetryInfo()
            detail.Unpack(retry)
    assert failure.violations and retry is not None, status
    return failure, retry.retry_delay.ToNanoseconds() / 1e9


def test_a_call_flood_is_refused_with_quota_failure_and_retry_info_while_another_caller_is_served(rate_host):
    with grpc.insecure_channel(rate_host.target) as channel:
        stub = pb_grpc.GameHostStub(channel)
        refused = []
        for _ in range(40):
            try:
                stub.ListGames(pb.ListGamesRequest(), timeout=5)
            except grpc.RpcError as error:
                refused.append(error)
        # A burst of 10 and 2 a second: at most a few more than 10 of 40 get through.
        assert 25 <= len(refused) <= 30, len(refused)
        failure, retry_after = quota_refusal(refused[-1])
        assert failure.violations[0].subject == "peer:ipv4:127.0.0.1"
        assert "calls per second" in failure.violations[0].description
        assert 0 < retry_after <= 0.5

        # Another address is somebody else, with a full budget.
        status, answer = browser_call(rate_host, "127.0.0.2", LIST_GAMES, {})
        assert status == 200 and answer["games"], answer

        # A client cannot claim to be another address: without the gateway's key the header is ignored.
        with pytest.raises(grpc.RpcError) as spoofed:
            stub.ListGames(pb.ListGamesRequest(), timeout=5,
                           metadata=[("x-gamehost-peer", "ipv4:10.9.9.9"), ("x-gamehost-gateway-key", "guess")])
        assert quota_refusal(spoofed.value)[0].violations[0].subject == "peer:ipv4:127.0.0.1"


def test_browsers_are_charged_by_their_own_address(rate_host):
    codes = [browser_call(rate_host, "127.0.0.3", LIST_GAMES, {})[0] for _ in range(30)]
    assert codes.count(429) >= 15 and codes[0] == 200, codes
    status, error = browser_call(rate_host, "127.0.0.3", LIST_GAMES, {})
    assert status == 429 and error["code"] == "resource_exhausted", error
    failure = error_details_pb2.QuotaFailure.FromString(connect_details(error)["google.rpc.QuotaFailure"])
    assert failure.violations[0].subject == "peer:ipv4:127.0.0.3"
    assert "google.rpc.RetryInfo" in connect_details(error)
    # A header the browser sends itself does not change who it is.
    status, error = browser_call(rate_host, "127.0.0.3", LIST_GAMES, {}, **{"X-Gamehost-Peer": "ipv4:10.1.1.1"})
    assert status == 429
    failure = error_details_pb2.QuotaFailure.FromString(connect_details(error)["google.rpc.QuotaFailure"])
    assert failure.violations[0].subject == "peer:ipv4:127.0.0.3"


def test_creating_has_a_stricter_budget_than_reading(rate_host):
    created = [browser_call(rate_host, "127.0.0.4", CREATE, {"game": "games/tictactoe"}) for _ in range(5)]
    assert [status for status, _ in created] == [200, 200, 200, 429, 429], created
    failure = error_details_pb2.QuotaFailure.FromString(connect_details(created[-1][1])["google.rpc.QuotaFailure"])
    assert "CreateMatch/JoinMatch" in failure.violations[0].description
    # Reads still have their own budget left.
    assert browser_call(rate_host, "127.0.0.4", LIST_GAMES, {})[0] == 200


class BrowserWatch:
    """A Connect WatchMatch stream from ``source``, held open."""

    def __init__(self, host: HostProcess, source: str, name: str) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", host.web_port, timeout=10,
                                                     source_address=(source, 0))
        body = pb.WatchMatchRequest(name=name).SerializeToString()
        self.connection.request("POST", "/gamehost.v1.GameHost/WatchMatch", struct.pack(">BI", 0, len(body)) + body,
                                {"Content-Type": "application/connect+proto"})
        self.response = self.connection.getresponse()

    def first(self) -> tuple[int, bytes]:
        flags, length = struct.unpack(">BI", self.response.read(5))
        return flags, self.response.read(length)

    def close(self) -> None:
        self.connection.sock.close()
        self.connection.close()


def test_watch_streams_are_capped_per_caller_and_per_host(watch_host):
    with watch_host.client() as client, grpc.insecure_channel(watch_host.target) as channel:
        stub = pb_grpc.GameHostStub(channel)
        # Streams that fail (no such match) hold no place: more of them than the cap, one after another.
        for _ in range(4):
            with pytest.raises(grpc.RpcError) as missing:
                next(stub.WatchMatch(pb.WatchMatchRequest(name="matches/no-such-match")))
            assert missing.value.code() == grpc.StatusCode.NOT_FOUND, missing.value
        match = client.create_match("tictactoe").name
        client.join(match)  # an event for each new watcher to receive first
        first = stub.WatchMatch(pb.WatchMatchRequest(name=match))
        second = stub.WatchMatch(pb.WatchMatchRequest(name=match))
        next(first), next(second)  # both are open and have sent the match's first event
        with pytest.raises(grpc.RpcError) as third:
            next(stub.WatchMatch(pb.WatchMatchRequest(name=match)))
        assert third.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "per caller" in third.value.details()

        # Another caller may watch: the host's third stream.
        browser = BrowserWatch(watch_host, "127.0.0.2", match)
        flags, _ = browser.first()
        assert flags == 0, "a message, not the end of the stream"
        # The host is full: a fourth caller is refused, naming the host as the subject.
        refused = BrowserWatch(watch_host, "127.0.0.3", match)
        flags, end = refused.first()
        assert flags == 2 and json.loads(end)["error"]["code"] == "resource_exhausted", end
        failure = error_details_pb2.QuotaFailure.FromString(
            connect_details(json.loads(end)["error"])["google.rpc.QuotaFailure"])
        assert failure.violations[0].subject == "host"
        refused.close()

        # A stream that ends gives its place back, whichever way it ends.
        first.cancel()
        browser.close()
        for _ in range(50):
            try:
                third_stream = stub.WatchMatch(pb.WatchMatchRequest(name=match))
                next(third_stream)
                break
            except grpc.RpcError as error:
                assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                time.sleep(0.1)
        else:
            pytest.fail("the cancelled watch never gave its place back")
        third_stream.cancel()
        second.cancel()


def test_rate_and_cap_settings_are_checked():
    refused = subprocess.run([sys.executable, "-m", "gamehost.cli.main", "serve", "--store", "memory",
                              "--call-rate", "-1"], capture_output=True, text=True, timeout=30)
    assert refused.returncode == 2 and "argument --call-rate: must be 0 or more" in refused.stderr
    refused = subprocess.run([sys.executable, "-m", "gamehost.cli.main", "serve", "--store", "memory",
                              "--trusted-proxies", "10.0.0.0/8, nonsense"], capture_output=True, text=True,
                             timeout=30)
    assert refused.returncode == 2 and "'nonsense' is not an IP address or network" in refused.stderr


@pytest.fixture(scope="module")
def proxy_host():
    host = HostProcess("--trusted-proxies", "127.0.0.1, 127.0.0.5/32", "--call-rate", "0.1",
                       "--call-burst", "2").start()
    yield host
    host.stop()


def refused_subject_over_http(host: HostProcess, source: str, forwarded_for: str) -> str:
    for _ in range(3):
        status, error = browser_call(host, source, LIST_GAMES, {}, **{"X-Forwarded-For": forwarded_for})
    assert status == 429, error
    return error_details_pb2.QuotaFailure.FromString(
        connect_details(error)["google.rpc.QuotaFailure"]).violations[0].subject


def test_x_forwarded_for_is_believed_from_listed_proxies_only(proxy_host):
    # Through a listed proxy: the last hop the proxy added names the caller; what the client wrote before it does not.
    assert refused_subject_over_http(proxy_host, "127.0.0.5", "10.6.6.6, 203.0.113.7") == "peer:ipv4:203.0.113.7"
    # Not a listed proxy: its own address, whatever it says.
    assert refused_subject_over_http(proxy_host, "127.0.0.6", "198.51.100.9") == "peer:ipv4:127.0.0.6"
    # gRPC through a listed proxy (nginx's grpc_pass sets the header as metadata).
    with grpc.insecure_channel(proxy_host.target) as channel:
        stub = pb_grpc.GameHostStub(channel)
        metadata = [("x-forwarded-for", "2001:db8::1")]
        stub.ListGames(pb.ListGamesRequest(), metadata=metadata, timeout=5)
        # Another address of the same IPv6 /64 is the same subscriber: the same budget.
        stub.ListGames(pb.ListGamesRequest(), metadata=[("x-forwarded-for", "2001:db8::ffff:2")], timeout=5)
        with pytest.raises(grpc.RpcError) as refused:
            stub.ListGames(pb.ListGamesRequest(), metadata=metadata, timeout=5)
        assert quota_refusal(refused.value)[0].violations[0].subject == "peer:ipv6:[2001:db8::]/64"


def test_ipv4_callers_share_a_budget_by_a_configured_prefix(start_host):
    """Twenty loopback addresses are one caller when the IPv4 prefix says /8."""
    host = start_host("--quota-ipv4-prefix", "8", "--max-open-matches", "3")
    statuses = [browser_call(host, f"127.0.0.{n}", CREATE, {"game": "games/tictactoe"})[0] for n in range(2, 22)]
    assert statuses[:3] == [200, 200, 200] and set(statuses[3:]) == {429}, statuses
    status, error = browser_call(host, "127.0.0.30", CREATE, {"game": "games/tictactoe"})
    failure = error_details_pb2.QuotaFailure.FromString(connect_details(error)["google.rpc.QuotaFailure"])
    assert (status, failure.violations[0].subject) == (429, "peer:ipv4:127.0.0.0/8")


def test_refused_input_and_credentials_spend_the_callers_budget(start_host):
    """Bad input and bad credentials are charged to the address: once its
    budget is spent, even a good call from it waits."""
    host = start_host(env={"GAMEHOST_CALL_RATE": "0.1", "GAMEHOST_CALL_BURST": "10"})
    with grpc.insecure_channel(host.target) as channel:
        stub = pb_grpc.GameHostStub(channel)
        codes = []
        for n in range(14):
            try:
                if n % 2:
                    stub.GetMatch(pb.GetMatchRequest(name="x" * 100_000), timeout=5)
                else:
                    stub.ListGames(pb.ListGamesRequest(), timeout=5, metadata=[("authorization", "Bearer nonsense")])
            except grpc.RpcError as refusal:
                codes.append(refusal.code())
        assert grpc.StatusCode.RESOURCE_EXHAUSTED in codes, codes
        with pytest.raises(grpc.RpcError) as spent:
            stub.ListGames(pb.ListGamesRequest(), timeout=5)
        assert spent.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


# ------------------------------------------------------------------ the buckets themselves


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_refills_at_its_rate_up_to_its_burst():
    clock = Clock()
    buckets = TokenBuckets(rate=2.0, burst=3, capacity=10, clock=clock)
    assert [buckets.take("a") for _ in range(3)] == [0, 0, 0]
    assert buckets.take("a") == pytest.approx(0.5)
    clock.now = 0.5
    assert buckets.take("a") == 0 and buckets.take("a") == pytest.approx(0.5)
    clock.now = 100.0  # a long rest refills to the burst, not beyond
    assert [buckets.take("a") for _ in range(4)][-1] > 0
    assert buckets.take("b") == 0, "another key has its own bucket"


def test_the_bucket_table_stays_bounded_under_a_flood_of_addresses():
    clock = Clock()
    buckets = TokenBuckets(rate=1.0, burst=1, capacity=100, clock=clock)
    buckets.take("busy")
    for number in range(10_000):
        buckets.take(f"peer:{number}")
        if number % 50 == 0:
            buckets.take("busy")  # recently used: kept while the idle ones go
    assert len(buckets) == 100
    assert buckets.take("busy") > 0, "the busy caller's bucket survived and is still empty"
