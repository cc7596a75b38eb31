"""Web Push: signed-in players' browsers hear "your turn" and "match over"
with the page closed. The push service is tests/push_service.py: it checks
each message's VAPID signature and decrypts it as the browser would."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import grpc
import pytest

from gamehost.client import GameHostError
from hosts import HostProcess, wait_for
from push_service import PushService

WEB = Path(__file__).resolve().parents[1] / "clients" / "web"


@pytest.fixture(scope="module")
def push_host(idp, tmp_path_factory):
    key = tmp_path_factory.mktemp("vapid") / "vapid.pem"
    if not (WEB / "dist" / "push-worker.js").is_file() or not (WEB / "node_modules" / "playwright-core").is_dir():
        pytest.fail("the web client is not built: run `make web` (npm ci and vite build in clients/web)")
    process = HostProcess(*idp.host_args(), "--push-vapid-key", str(key), "--push-contact",
                          "mailto:ops@example.org", "--push-insecure-endpoints", "--web-root",
                          str(WEB / "dist")).start()
    yield process
    process.stop()


@pytest.fixture(scope="module")
def push_service(push_host):
    with push_host.client() as anonymous:
        service = PushService(anonymous.push_key()).start()
    yield service
    service.stop()


def refusal(call, *args, **kwargs) -> GameHostError:
    with pytest.raises(GameHostError) as caught:
        call(*args, **kwargs)
    return caught.value


def test_your_turn_and_match_over_reach_every_browser_of_the_players_signed_and_encrypted(
        push_host, push_service, idp):
    ann, bob = idp.token("push-ann", name="Ann"), idp.token("push-bob", name="Bob")
    ann_phone, ann_laptop, bob_laptop = (push_service.browser(name) for name in ("ann-phone", "ann-laptop", "bob"))
    with push_host.client(ann) as ann_client, push_host.client(bob) as bob_client:
        for client, browser in ((ann_client, ann_phone), (ann_client, ann_laptop), (bob_client, bob_laptop)):
            kept = client.subscribe_push(**browser.keys, locale="en")
            assert kept.endpoint == browser.endpoint and kept.subject.startswith(("push-ann", "push-bob"))
        match = ann_client.create_match("tictactoe")
        ann_client.join(match.name)
        bob_client.join(match.name)
        match_id = match.name.removeprefix("matches/")
        # Ann moves first: both her browsers are told it is her turn once the match starts.
        assert wait_for(lambda: len(ann_phone.received) == 1 and len(ann_laptop.received) == 1)
        for move, mover in (("a1", ann_client), ("b1", bob_client), ("a2", ann_client), ("b2", bob_client)):
            mover.move(match.name, "", move_id=move)
        assert wait_for(lambda: len(bob_laptop.received) == 2 and len(ann_phone.received) == 3)
        ann_client.move(match.name, "", move_id="a3")  # three in a column: Ann wins
        assert wait_for(lambda: ann_phone.received[-1]["type"] == "match_over"
                        and bob_laptop.received[-1]["type"] == "match_over")
    turn = bob_laptop.received[0]
    assert turn == {"type": "your_turn", "title": "Your turn", "body": "It is your move in Tic-tac-toe.",
                    "match": match.name, "game": "games/tictactoe", "url": f"#/matches/{match_id}",
                    "ttl": 3600, "urgency": "high"}
    over = bob_laptop.received[-1]
    assert over["title"] == "Match over" and over["body"].startswith("Tic-tac-toe: ") and "wins" in over["body"]
    assert [message["type"] for message in ann_laptop.received] == ["your_turn"] * 3 + ["match_over"]
    assert not any(browser.refusals for browser in push_service.browsers.values())


def test_a_browser_subscribed_in_french_is_told_in_french(push_host, push_service, idp):
    cleo = idp.token("push-cleo")
    browser = push_service.browser("cleo")
    with push_host.client(cleo) as client:
        client.subscribe_push(**browser.keys, locale="fr-CH")
        match = client.create_match("tictactoe", bots=[1])
        client.join(match.name)
    assert wait_for(lambda: browser.received)
    assert (browser.received[0]["title"], browser.received[0]["body"]) == ("À vous de jouer",
                                                                           "C'est votre tour dans Morpion.")


def test_a_subscription_the_push_service_says_is_gone_is_forgotten(push_host, push_service, idp):
    dan = idp.token("push-dan")
    browser = push_service.browser("dan")
    browser.answer = 410  # the browser unsubscribed at its push service
    with push_host.client(dan) as client:
        client.subscribe_push(**browser.keys)
        match = client.create_match("tictactoe", bots=[1])
        client.join(match.name)
        assert push_host.wait_for_log("push subscription gone; forgotten", match.name.removeprefix("matches/"))
        gone = refusal(client.unsubscribe_push, browser.endpoint)
    assert (gone.code, gone.reason) == (grpc.StatusCode.NOT_FOUND, "PUSH_SUBSCRIPTION_NOT_FOUND")


def test_a_user_unsubscribes_a_browser_and_only_their_own(push_host, push_service, idp):
    eve, fay = idp.token("push-eve"), idp.token("push-fay")
    dropped, kept = push_service.browser("eve-old"), push_service.browser("eve-new")
    with push_host.client(eve) as eve_client, push_host.client(fay) as fay_client:
        eve_client.subscribe_push(**dropped.keys)
        eve_client.subscribe_push(**kept.keys)
        stranger = refusal(fay_client.unsubscribe_push, dropped.endpoint)
        assert (stranger.code, stranger.reason) == (grpc.StatusCode.NOT_FOUND, "PUSH_SUBSCRIPTION_NOT_FOUND")
        eve_client.unsubscribe_push(dropped.endpoint)
        match = eve_client.create_match("tictactoe", bots=[1])
        eve_client.join(match.name)
    assert wait_for(lambda: kept.received)  # told in the same round as the dropped one would have been
    assert dropped.received == []


@pytest.mark.parametrize("change, field", [
    ({"endpoint": "ftp://127.0.0.1/push/x"}, "endpoint"),
    ({"endpoint": "https://user:secret@push.example/x"}, "endpoint"),
    ({"endpoint": "https://push.example/" + "x" * 1100}, "endpoint"),
    ({"p256dh": "AAAA"}, "p256dh"),
    ({"p256dh": "not base64!"}, "p256dh"),
    ({"auth": "c2hvcnQ"}, "auth"),
    ({"locale": "not a tag"}, "locale"),
])
def test_a_malformed_subscription_is_refused_naming_its_field(push_host, push_service, idp, change, field):
    browser = push_service.browser("malformed")
    with push_host.client(idp.token("push-gus")) as client:
        refused = refusal(client.subscribe_push, **{**browser.keys, **change})
        assert (refused.code, refused.field_violations[0][0]) == (grpc.StatusCode.INVALID_ARGUMENT, field)
        gone = refusal(client.unsubscribe_push, browser.endpoint)  # nothing was kept
        assert gone.code == grpc.StatusCode.NOT_FOUND


def test_an_anonymous_caller_cannot_subscribe(push_host, push_service):
    browser = push_service.browser("anonymous")
    with push_host.client() as anonymous:
        refused = refusal(anonymous.subscribe_push, **browser.keys)
    assert (refused.code, refused.reason) == (grpc.StatusCode.UNAUTHENTICATED, "AUTHENTICATION_REQUIRED")


def test_a_host_without_a_vapid_key_says_it_sends_no_push(host):
    with host.client() as client:
        refused = refusal(client.push_key)
    assert (refused.code, refused.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "PUSH_DISABLED")
    assert "--push-vapid-key" in refused.message


def test_a_player_turns_alerts_on_in_the_page_and_the_service_worker_shows_their_turn(push_host, push_service, idp):
    token = idp.token("push-web", name="Wendy")
    browser = push_service.browser("wendy-chromium")
    page = subprocess.Popen([shutil.which("node") or "node", str(WEB / "e2e" / "push.mjs"), "--target",
                             push_host.web_url, "--token", token, "--endpoint", browser.endpoint, "--p256dh",
                             browser.p256dh, "--auth", browser.keys["auth"], "--relay", push_service.relay(browser)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "LC_ALL": "C"})
    try:
        assert json.loads(page.stdout.readline() or "{}").get("step") == "subscribed", page.stderr.read()
        with push_host.client(token) as client:
            match = client.create_match("tictactoe", bots=[1])
            client.join(match.name)  # Wendy moves first: her turn, told to the browser
        shown = json.loads(page.stdout.readline() or "{}")
        assert page.wait(120) == 0, page.stderr.read()
    finally:
        if page.poll() is None:
            page.kill()
    with push_host.client() as anonymous:
        host_key = anonymous.push_key()
    assert shown["before"] == {"label": "Alert me", "state": "off"}
    assert shown["after"]["label"] == "Alerts on"
    assert shown["subscribedWith"] == {"userVisibleOnly": True, "applicationServerKey": host_key}
    match_id = match.name.removeprefix("matches/")
    push = shown["shown"]["push"]
    assert (push["type"], push["title"], push["body"]) == ("your_turn", "Your turn", "It is your move in Tic-tac-toe.")
    assert push["url"] == f"{push_host.web_url}/#/matches/{match_id}" and shown["shown"]["shown"] is True
    assert shown["notifications"] == [{"title": "Your turn", "body": "It is your move in Tic-tac-toe.",
                                       "tag": match.name}]
    assert browser.refusals == [] and browser.received[0]["type"] == "your_turn"


@pytest.mark.parametrize("store", ["sqlite", "postgresql"])
def test_a_users_newest_ten_browsers_are_kept_in_the_store_across_a_restart(tmp_path, idp, store, request):
    key = tmp_path / "vapid.pem"
    spec = request.getfixturevalue("postgres_url") if store == "postgresql" else ""
    args = (*idp.host_args(), "--push-vapid-key", str(key), "--push-insecure-endpoints",
            *(("--store", spec) if spec else ()))
    token = idp.token(f"push-many-{store}")
    host = HostProcess(*args, data_dir=tmp_path / "data").start()
    with host.client() as anonymous:
        push_service = PushService(anonymous.push_key()).start()
    browsers = [push_service.browser(f"many-{number}") for number in range(11)]
    try:
        with host.client(token) as client:
            for browser in browsers:
                client.subscribe_push(**browser.keys)
        host.stop()
        host = HostProcess(*args, data_dir=tmp_path / "data").start()  # the same key file, the same store
        with host.client(token) as client:
            match = client.create_match("tictactoe", bots=[1])
            client.join(match.name)
            assert wait_for(lambda: all(browser.received for browser in browsers[1:]), timeout=60)
            forgotten = refusal(client.unsubscribe_push, browsers[0].endpoint)
    finally:
        host.stop()
        push_service.stop()
    assert browsers[0].received == [] and forgotten.code == grpc.StatusCode.NOT_FOUND
    assert all(browser.refusals == [] for browser in browsers)


def test_a_host_sending_only_to_public_push_services_refuses_this_network_and_plain_http(idp, tmp_path):
    host = HostProcess(*idp.host_args(), "--push-vapid-key", str(tmp_path / "vapid.pem")).start()
    try:
        with host.client(idp.token("push-hal")) as client:
            for endpoint in ("http://push.example/x", "https://127.0.0.1/x", "https://10.1.2.3/x", "https://[::1]/x",
                             "https://localhost:8443/x", "https://metadata.internal/x"):
                refused = refusal(client.subscribe_push, endpoint=endpoint, p256dh="BA" + "A" * 85, auth="A" * 22)
                assert (refused.code, refused.field_violations[0][0]) == (grpc.StatusCode.INVALID_ARGUMENT,
                                                                          "endpoint"), endpoint
                assert refusal(client.unsubscribe_push, endpoint).code == grpc.StatusCode.NOT_FOUND  # none kept
    finally:
        host.stop()
