"""Numbers and bytes a caller chooses, at the edges of what Python, JSON and
grpc can hold: integers past a float's range in page tokens and JWT claims,
header bytes gRPC metadata cannot carry, deadlines past what grpc keeps.
Each is the caller's error with the right status (never INTERNAL, never a
logged traceback), on a real host over real sockets."""

from __future__ import annotations

import base64
import http.client
import json
import struct
import time

import grpc
import jwt
import pytest

from gamehost.v1 import gamehost_pb2 as pb
from gamehost.v1 import gamehost_pb2_grpc as pb_grpc
from hosts import HostProcess
from identities import bearer
from test_input_limits import assert_invalid, refusal

PAST_A_FLOAT = 10 ** 309  # float(PAST_A_FLOAT) and math.isfinite(PAST_A_FLOAT) raise OverflowError


@pytest.fixture(scope="module")
def host(idp, admin_key):
    process = HostProcess(*idp.host_args(), "--api-keys", str(admin_key[0])).start()
    yield process
    process.stop()


@pytest.fixture()
def stub(host):
    with host.channel() as channel:
        yield pb_grpc.GameHostStub(channel)


@pytest.fixture()
def admin_stub(host):
    with host.channel() as channel:
        yield pb_grpc.GameHostAdminStub(channel)


def token_at(query: dict, at) -> str:
    """A page token of the listing with ``query`` naming position ``at``, spelled as the host spells its own."""
    return base64.urlsafe_b64encode(json.dumps({"q": query, "at": at}, separators=(",", ":")).encode()).decode()


def no_failures_logged(host: HostProcess) -> None:
    assert not host.log_lines("rpc failed")
    assert not host.log_lines("browser call failed")
    assert not [line for line in host.logs if "Traceback" in str(line.get("exception", "")) or line.get("raw")]


# ------------------------------------------------------------------ page tokens


def test_page_tokens_with_integers_past_a_float_are_invalid_argument(host, stub, admin_stub, user, admin_key):
    _, token = user("ann")
    signed_in, admin = bearer(token), bearer(admin_key[1])
    listings = [
        (lambda t: stub.ListGames(pb.ListGamesRequest(page_token=t)), {}, [PAST_A_FLOAT, -PAST_A_FLOAT]),
        (lambda t: stub.ListMatches(pb.ListMatchesRequest(page_token=t)), {"game": None, "status": None},
         [[PAST_A_FLOAT, "x"], [-PAST_A_FLOAT, "x"]]),
        (lambda t: stub.ListLeaderboard(pb.ListLeaderboardRequest(game="games/tictactoe", page_token=t)),
         {"leaderboard": "tictactoe"}, [[PAST_A_FLOAT, "x"], [-PAST_A_FLOAT, "x"]]),
        (lambda t: stub.ListTickets(pb.ListTicketsRequest(page_token=t), metadata=signed_in), {"tickets": []},
         [[0, -PAST_A_FLOAT, "x"], [PAST_A_FLOAT, -1.0, "x"]]),
        (lambda t: admin_stub.ListDeliveries(pb.ListDeliveriesRequest(page_token=t), metadata=admin),
         {"deliveries": ["", ""]}, [[PAST_A_FLOAT, "x"], [-PAST_A_FLOAT, "x"]]),
    ]
    for call, query, positions in listings:
        for at in positions:
            assert_invalid(lambda: call(token_at(query, at)), "page_token", "INVALID_PAGE_TOKEN")
        call("")  # the listing itself serves
    no_failures_logged(host)


def test_page_tokens_at_the_edges_of_a_listing_still_page(stub):
    """The checks take the positions the host issues: any finite time, any rating."""
    page = stub.ListLeaderboard(pb.ListLeaderboardRequest(
        game="games/tictactoe", page_token=token_at({"leaderboard": "tictactoe"}, [-1.7e308, "z"])))
    assert list(page.ratings) == []
    stub.ListMatches(pb.ListMatchesRequest(page_token=token_at({"game": None, "status": None}, [0, "x"])))


# ------------------------------------------------------------------ JWT claims


def signed(idp, **claims) -> str:
    now = int(time.time())
    payload = {"sub": "zed", "iss": idp.issuer, "aud": idp.audience, "iat": now, "exp": now + 600, **claims}
    return jwt.encode(payload, idp.key.private, algorithm="RS256", headers={"kid": idp.key.kid})


@pytest.mark.parametrize("exp", [PAST_A_FLOAT, 10 ** 20, 1e308])
def test_a_jwt_expiring_past_a_readable_time_is_unauthenticated(host, stub, idp, exp):
    token = signed(idp, exp=exp)
    for call in (lambda: stub.ListGames(pb.ListGamesRequest(), metadata=bearer(token)),
                 lambda: stub.GetGame(pb.GetGameRequest(name="games/tictactoe"), metadata=bearer(token))):
        with pytest.raises(grpc.RpcError) as caught:
            call()
        code, reason, _, metadata = refusal(caught.value)
        assert (code, reason, metadata.get("problem")) == (grpc.StatusCode.UNAUTHENTICATED, "INVALID_BEARER_TOKEN",
                                                           "claims")
        assert "past the year 9999" in caught.value.details()
    status, error = connect_post(host, "ListGames", b"{}", {"Content-Type": "application/json",
                                                            "Authorization": f"Bearer {token}"})
    assert status == 401 and error["code"] == "unauthenticated", error
    no_failures_logged(host)


def test_a_jwt_with_numbers_past_a_float_in_nbf_or_iat_is_unauthenticated(host, stub, idp):
    for claims in ({"nbf": PAST_A_FLOAT}, {"iat": PAST_A_FLOAT}, {"exp": -PAST_A_FLOAT}):
        with pytest.raises(grpc.RpcError) as caught:
            stub.ListGames(pb.ListGamesRequest(), metadata=bearer(signed(idp, **claims)))
        assert caught.value.code() == grpc.StatusCode.UNAUTHENTICATED, claims
    # an expiry spelled as a string of digits reads as PyJWT reads it
    stub.ListGames(pb.ListGamesRequest(), metadata=bearer(signed(idp, exp=str(int(time.time()) + 600))))
    no_failures_logged(host)


# ------------------------------------------------------------------ the web port's headers


def connect_post(host: HostProcess, method: str, body: bytes, headers: dict[str, str | bytes]) -> tuple[int, dict]:
    """A Connect call with headers as raw bytes (http.client would refuse some of them as str)."""
    connection = http.client.HTTPConnection("127.0.0.1", host.web_port, timeout=10)
    try:
        connection.putrequest("POST", f"/gamehost.v1.GameHost/{method}")
        for name, value in {**headers, "Content-Length": str(len(body))}.items():
            connection.putheader(name, value.encode("latin-1") if isinstance(value, str) else value)
        connection.endheaders(body)
        response = connection.getresponse()
        data = response.read()
        return response.status, (json.loads(data) if data.startswith(b"{") else {"body": data})
    finally:
        connection.close()


UNFORWARDABLE_AUTHORIZATION = [b"Bearer a\tb", b"Bearer \xff\xfe", "Bearer é".encode(), b"Bearer\tkey"]


@pytest.mark.parametrize("credential", UNFORWARDABLE_AUTHORIZATION)
def test_an_authorization_header_grpc_cannot_carry_is_unauthenticated_on_the_web_port(host, credential):
    status, error = connect_post(host, "ListGames", b"{}", {"Content-Type": "application/json",
                                                            "Authorization": credential})
    assert status == 401 and error["code"] == "unauthenticated", error
    assert "printable ASCII" in error["message"]
    assert [detail["debug"]["reason"] for detail in error["details"]] == ["INVALID_AUTHORIZATION"]
    frame = struct.pack(">BI", 0, 0)
    status, answer = connect_post(host, "ListGames", frame, {"Content-Type": "application/grpc-web+proto",
                                                             "Authorization": credential})
    assert status == 200 and b"grpc-status: 16\r\n" in answer["body"], answer
    status, answer = connect_post(host, "WatchMatch", struct.pack(">BI", 0, 2) + b"{}", {"Content-Type": "application/connect+json",
                                                              "Authorization": credential})
    end = json.loads(answer["body"][5:])
    assert status == 200 and end["error"]["code"] == "unauthenticated", end
    no_failures_logged(host)


def test_a_grpc_web_timeout_past_what_grpc_keeps_is_no_deadline(host):
    """The header allows 99,999,999 hours; grpc would expire such a deadline at once."""
    for timeout in ("99999999H", "99999999M", "9999999S"):
        status, answer = connect_post(host, "ListGames", struct.pack(">BI", 0, 0),
                                      {"Content-Type": "application/grpc-web+proto", "grpc-timeout": timeout})
        assert status == 200 and b"grpc-status: 0\r\n" in answer["body"], (timeout, answer["body"][-80:])
    status, games = connect_post(host, "ListGames", b"{}", {"Content-Type": "application/json",
                                                            "Connect-Timeout-Ms": "9999999999"})
    assert status == 200 and games["games"]
