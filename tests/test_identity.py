"""Who is calling: JWTs checked against a JWKS served over HTTP, API keys,
anonymous callers, and the errors each gets. One host per module."""

from __future__ import annotations

import concurrent.futures
import socketserver
import threading
import time

import grpc
import pytest

from gamehost.client import GameHostError
from hosts import HostProcess
from identities import SigningKey, write_api_keys


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    return tmp_path_factory.mktemp("keys") / "api-keys.json"


@pytest.fixture(scope="module")
def api_keys(keys):
    return write_api_keys(keys, ("ops", ["admin"]), ("robot", []))


@pytest.fixture(scope="module")
def signed_host(idp, keys, api_keys):
    process = HostProcess(*idp.host_args(), "--api-keys", str(keys)).start()
    yield process
    process.stop()


def refusal(host, token: str) -> GameHostError:
    with host.client(token) as client, pytest.raises(GameHostError) as caught:
        client.identity()
    return caught.value


def test_anonymous_caller_has_no_subject(signed_host):
    with signed_host.client() as client:
        identity = client.identity()
    assert (identity.subject, identity.method, list(identity.roles)) == ("", "anonymous", [])


def test_valid_jwt_gives_its_subject_name_and_roles(signed_host, idp):
    with signed_host.client(idp.token("alice", roles=["admin", "player"], name="Alice A.")) as client:
        identity = client.identity()
    assert (identity.subject, identity.display_name, identity.method) == ("alice", "Alice A.", "jwt")
    assert list(identity.roles) == ["admin", "player"]


def test_expired_jwt_is_unauthenticated(signed_host, idp):
    error = refusal(signed_host, idp.token("alice", expires_in=-120))  # beyond the clock-skew leeway
    assert (error.code, error.reason) == (grpc.StatusCode.UNAUTHENTICATED, "TOKEN_EXPIRED")


@pytest.mark.parametrize("claims, problem", [
    ({"audience": "another-app"}, "audience"),
    ({"issuer": "https://evil.invalid"}, "issuer"),
])
def test_jwt_for_another_audience_or_issuer_is_refused(signed_host, idp, claims, problem):
    error = refusal(signed_host, idp.token("alice", **claims))
    assert (error.code, error.reason, error.metadata["problem"]) == (
        grpc.StatusCode.UNAUTHENTICATED, "INVALID_BEARER_TOKEN", problem)


def test_jwt_signed_by_another_key_with_a_known_kid_is_refused(signed_host, idp):
    forger = SigningKey(kid=idp.key.kid)  # claims the provider's key id, signs with its own key
    error = refusal(signed_host, idp.token("mallory", roles=["admin"], key=forger))
    assert (error.code, error.reason, error.metadata["problem"]) == (
        grpc.StatusCode.UNAUTHENTICATED, "INVALID_BEARER_TOKEN", "signature")


def test_unsigned_and_hmac_jwts_are_refused(signed_host, idp):
    import jwt

    for token in (jwt.encode({"sub": "mallory", "iss": idp.issuer, "aud": idp.audience, "exp": 4102444800},
                             None, algorithm="none"),
                  jwt.encode({"sub": "mallory", "iss": idp.issuer, "aud": idp.audience, "exp": 4102444800},
                             "a shared secret of 32 bytes at least!", algorithm="HS256",
                             headers={"kid": idp.key.kid})):
        error = refusal(signed_host, token)
        assert (error.code, error.metadata["problem"]) == (grpc.StatusCode.UNAUTHENTICATED, "algorithm")


def test_rotated_key_is_fetched_for_its_new_kid(signed_host, idp):
    with signed_host.client(idp.token("alice")) as client:
        assert client.identity().subject == "alice"  # the current key is cached
    fetches = idp.fetches
    old = idp.rotate()
    time.sleep(0.3)  # past --jwks-min-refresh (0.2 s here), the least time between fetches
    with signed_host.client(idp.token("bob")) as client:
        assert client.identity().subject == "bob"
    assert idp.fetches == fetches + 1
    error = refusal(signed_host, idp.token("carol", key=old))  # the retired key no longer passes
    assert error.metadata["problem"] == "unknown-key"


def test_garbage_bearer_and_wrong_scheme_are_refused(signed_host):
    assert refusal(signed_host, "not-a-key").reason == "INVALID_BEARER_TOKEN"
    with signed_host.channel() as channel:
        from gamehost.v1 import gamehost_pb2 as pb, gamehost_pb2_grpc as pb_grpc

        with pytest.raises(grpc.RpcError) as caught:
            pb_grpc.GameHostStub(channel).GetIdentity(pb.GetIdentityRequest(),
                                                      metadata=(("authorization", "Basic b3BzOnNlY3JldA=="),))
    assert caught.value.code() == grpc.StatusCode.UNAUTHENTICATED


def test_api_keys_identify_their_holders(signed_host, api_keys):
    with signed_host.client(api_keys["ops"]) as client:
        identity = client.identity()
    assert (identity.subject, identity.display_name, identity.method, list(identity.roles)) == (
        "ops", "Ops (key)", "api-key", ["admin"])
    with signed_host.client(api_keys["robot"]) as client:
        assert list(client.identity().roles) == []
    error = refusal(signed_host, api_keys["ops"][:-2] + "xx")
    assert (error.code, error.reason) == (grpc.StatusCode.UNAUTHENTICATED, "INVALID_BEARER_TOKEN")


def test_admin_calls_need_the_admin_role(signed_host, idp, api_keys):
    with signed_host.client() as anonymous:
        match = anonymous.create_match("tictactoe")
        with pytest.raises(GameHostError) as caught:
            anonymous.abort(match.name)
        assert caught.value.code == grpc.StatusCode.UNAUTHENTICATED
    for token in (idp.token("alice"), api_keys["robot"]):
        with signed_host.client(token) as player, pytest.raises(GameHostError) as caught:
            player.abort(match.name)
        assert (caught.value.code, caught.value.reason) == (grpc.StatusCode.PERMISSION_DENIED, "ROLE_REQUIRED")
    with signed_host.client() as anonymous:
        assert anonymous.match(match.name).status == 1  # still open: the refusals changed nothing


def test_sign_in_required_refuses_anonymous_callers(start_host, idp):
    host = start_host(*idp.host_args(), "--auth-required")
    with host.client() as client, pytest.raises(GameHostError) as caught:
        client.games()
    assert (caught.value.code, caught.value.reason) == (grpc.StatusCode.UNAUTHENTICATED, "AUTHENTICATION_REQUIRED")
    with host.client(idp.token("alice")) as client:
        assert client.games()


def test_the_web_port_forwards_the_authorization_header(signed_host, idp):
    import json
    import urllib.request

    def identity(headers: dict) -> dict:
        request = urllib.request.Request(f"{signed_host.web_url}/gamehost.v1.GameHost/GetIdentity", data=b"{}",
                                         headers={"Content-Type": "application/json", **headers})
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.loads(answer.read())

    assert identity({"Authorization": f"Bearer {idp.token('web-user', name='Web User')}"})["subject"] == "web-user"
    assert identity({}).get("subject", "") == ""
    with pytest.raises(urllib.error.HTTPError) as caught:
        identity({"Authorization": "Bearer not-a-key"})
    assert caught.value.code == 401 and json.loads(caught.value.read())["code"] == "unauthenticated"


def test_a_plugin_scheme_is_asked_first_and_a_crashing_one_is_passed_over(signed_host):
    from gamehost.v1 import gamehost_pb2 as pb, gamehost_pb2_grpc as pb_grpc

    def identity(user: str):
        with signed_host.channel() as channel:
            return pb_grpc.GameHostStub(channel).GetIdentity(pb.GetIdentityRequest(),
                                                             metadata=(("x-fixture-user", user),))

    found = identity("zed")
    assert (found.subject, found.display_name, found.method) == ("zed", "Zed", "fixture")
    with pytest.raises(grpc.RpcError) as caught:
        identity("refuse")
    assert caught.value.code() == grpc.StatusCode.UNAUTHENTICATED and "fixture scheme" in caught.value.details()
    assert identity("crash").subject == ""  # passed over: anonymous, as without the plugin
    deadline = time.monotonic() + 5  # the host's log lines are read by a thread: wait for it
    while not signed_host.log_lines("authentication plugin failed; passed over"):
        assert time.monotonic() < deadline, "the plugin's crash was not logged"
        time.sleep(0.02)


def test_a_jwks_that_cannot_be_read_refuses_jwts_until_it_can(start_host, tmp_path, idp):
    missing = tmp_path / "jwks.json"  # not written yet
    host = start_host("--jwks", str(missing), "--jwt-issuer", idp.issuer, "--jwt-audience", idp.audience,
                      "--jwks-min-refresh", "0.1")
    error = refusal(host, idp.token("alice"))
    assert (error.code, error.reason) == (grpc.StatusCode.UNAUTHENTICATED, "JWKS_UNAVAILABLE")
    import json
    missing.write_text(json.dumps({"keys": [idp.key.public_jwk()]}))
    time.sleep(0.2)
    with host.client(idp.token("alice")) as client:
        assert client.identity().subject == "alice"


def test_cross_origin_pages_may_send_the_authorization_header(start_host):
    import urllib.request

    host = start_host("--cors-origins", "http://app.example")
    preflight = urllib.request.Request(f"{host.web_url}/gamehost.v1.GameHost/GetIdentity", method="OPTIONS", headers={
        "Origin": "http://app.example", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization,content-type"})
    with urllib.request.urlopen(preflight, timeout=10) as answer:
        allowed = {h.strip().lower() for h in answer.headers["Access-Control-Allow-Headers"].split(",")}
    assert {"authorization", "content-type"} <= allowed


class SilentProvider(socketserver.ThreadingTCPServer):
    """An identity provider that takes connections and never answers: each
    fetch holds its connection until the provider hangs up ``hold`` seconds
    later. Counts the fetches it got."""

    daemon_threads = True

    def __init__(self, hold: float) -> None:
        provider = self
        self.hold, self.fetches, self.counted = hold, 0, threading.Lock()

        class Handler(socketserver.BaseRequestHandler):
            def handle(self):
                with provider.counted:
                    provider.fetches += 1
                time.sleep(provider.hold)  # reads nothing, answers nothing: a provider that hangs

        super().__init__(("127.0.0.1", 0), Handler)


def test_concurrent_callers_share_one_key_fetch_while_the_provider_does_not_answer(start_host, idp):
    silent = SilentProvider(hold=1.0)
    threading.Thread(target=silent.serve_forever, daemon=True).start()
    try:
        host = start_host("--jwks", f"http://127.0.0.1:{silent.server_address[1]}/jwks", "--jwt-issuer",
                          idp.issuer, "--jwt-audience", idp.audience, "--jwks-min-refresh", "30")
        for _ in range(2):  # the second wave comes within the refresh interval: no fetch at all
            with concurrent.futures.ThreadPoolExecutor(10) as pool:
                refusals = list(pool.map(lambda _: refusal(host, idp.token("alice")), range(10)))
            assert {(error.code, error.reason) for error in refusals} == \
                {(grpc.StatusCode.UNAUTHENTICATED, "JWKS_UNAVAILABLE")}
            assert silent.fetches == 1
    finally:
        silent.shutdown()
        silent.server_close()


@pytest.mark.parametrize("length, problem", [(8_000, "api-key"), (9_000, "length")])
def test_a_long_credential_is_answered_by_the_hosts_own_limit(signed_host, length, problem):
    """grpc's own header limit must not answer first: up to the documented
    8,192 characters a credential is read, past it the host says why."""
    with grpc.insecure_channel(signed_host.target) as channel:
        whoami = channel.unary_unary("/gamehost.v1.GameHost/GetIdentity")
        for _ in range(30):  # grpc's default refuses headers past 8 KiB at random, more often the longer they are
            with pytest.raises(grpc.RpcError) as caught:
                whoami(b"", metadata=(("authorization", "Bearer " + "k" * length),), timeout=10)
            error = GameHostError.from_rpc_error(caught.value)
            assert (error.code, error.reason, error.metadata.get("problem")) == \
                (grpc.StatusCode.UNAUTHENTICATED, "INVALID_BEARER_TOKEN", problem), error
    if problem == "length":
        assert "longer than 8192 characters" in error.message
