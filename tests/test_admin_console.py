"""The admin console (clients/web, #/admin) in headless Chromium against a
real host, and the admin calls it reads (ListPlugins, GetMatchStrikes).

One host for the module: API keys for an operator and three players, a
webhook receiver that answers 500 (so a delivery is given up in about two
seconds), the fixture plugins (``faulty`` fails on demand; two others fail
to load) and rules cut short, so a bots' match of ``faulty`` is suspended
after three strikes.
"""

from __future__ import annotations

import asyncio
import http.server
import json
import os
import shutil
import subprocess
import threading
import time
import uuid
from pathlib import Path

import pytest

from gamehost.client import GameHostError
from gamehost.host.store import MemoryStore, SQLiteStore
from gamehost.host.store.base import QueuedPool, TicketRecord
from gamehost.testing.english_leaks import EnglishLeaks
from gamehost.v1 import gamehost_pb2 as pb
from hosts import HostProcess
from identities import write_api_keys

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "clients" / "web"
SCRIPT = WEB / "e2e" / "admin-console.mjs"
CHROMIUM = Path(os.environ.get("GAMEHOST_CHROMIUM", "/usr/bin/chromium"))
MAX_STRIKES = 3
RULES = ("--rules-timeout", "1", "--bot-timeout", "1", "--workers", "2", "--max-strikes", str(MAX_STRIKES))


class RefusingReceiver(http.server.ThreadingHTTPServer):
    """A webhook receiver that is down (500) until ``accepting`` is set."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), RefusingHandler)
        self.accepting = threading.Event()
        self.accepted: list[dict] = []


class RefusingHandler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802 (http.server's name)
        payload = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if self.server.accepting.is_set():
            self.server.accepted.append(payload)
        self.send_response(204 if self.server.accepting.is_set() else 500)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def receiver():
    server = RefusingReceiver()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    path = tmp_path_factory.mktemp("keys") / "api-keys.json"
    return path, write_api_keys(path, ("ops", ["admin"]), ("ada", []), ("bo", []), ("cy", []))


@pytest.fixture(scope="module")
def host(receiver, keys, tmp_path_factory):
    process = HostProcess(*RULES, "--api-keys", str(keys[0]), "--web-root", str(WEB / "dist"),
                          data_dir=tmp_path_factory.mktemp("console"), env={
        "GAMEHOST_WEBHOOK_URL": f"http://127.0.0.1:{receiver.server_port}/hook",
        "GAMEHOST_WEBHOOK_SECRET": "console-secret", "GAMEHOST_WEBHOOK_RETRY": "0.05"}).start()
    yield process
    process.stop()


def wait_until(read, timeout: float = 30.0, what: str = ""):
    deadline = time.monotonic() + timeout
    while not (found := read()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert found, f"timed out waiting for {what}"
    return found


def suspended_bots_match(client) -> str:
    """A bots' match of the fixture game whose rules raise after two moves: struck until suspended."""
    name = client.create_match("faulty", seats=2, bots=[0, 1], options={"fault": "raise", "after": 2}).name
    wait_until(lambda: client.match(name).status == pb.MATCH_STATUS_SUSPENDED, what=f"{name} suspended")
    return name


def given_up_delivery(host, keys, admin) -> tuple[str, str]:
    """A tictactoe match between the two players where X has moved: O's turn notification is given up."""
    with host.client(keys[1]["ada"]) as ada, host.client(keys[1]["bo"]) as bo:
        match = ada.create_match("tictactoe").name
        x = ada.join(match, seat=0).player_token
        started = bo.join(match, seat=1).match
        ada.move(match, x, move_id=ada.view(match, x).legal_moves[0].id)
    key = f"turn:{match.split('/')[1]}:{started.version + 1}:1"
    wait_until(lambda: any(d.key == key and d.state == pb.DELIVERY_STATE_FAILED for d in admin.deliveries(match=match)),
               what=f"{key} given up")
    return match, key


def test_an_admin_reads_the_plugins_with_their_load_errors_and_a_matchs_strikes(host, keys):
    with host.client() as client, host.client(keys[1]["ops"]) as admin:
        plugins = {plugin.name: plugin for plugin in admin.plugins()}
        assert "tictactoe" in plugins["tictactoe"].games and not plugins["tictactoe"].errors
        assert plugins["tictactoe"].distribution and plugins["tictactoe"].version
        failing = [plugin for plugin in plugins.values() if plugin.errors]
        assert failing, "the fixture site has plugins that fail to load"
        fresh = client.create_match("tictactoe").name
        assert (admin.strikes(fresh).strikes, admin.strikes(fresh).max_strikes) == (0, MAX_STRIKES)
        suspended = suspended_bots_match(client)
        counted = admin.strikes(suspended)
        assert counted.name == suspended and counted.strikes >= MAX_STRIKES


def test_an_admin_sees_the_pools_with_their_queued_tickets(host, keys):
    with host.client(keys[1]["ada"]) as ada, host.client(keys[1]["bo"]) as bo, host.client(keys[1]["ops"]) as admin:
        tickets = [player.create_ticket("callisto", seats=4, options={}) for player in (ada, bo)]
        [pool] = [pool for pool in admin.pools() if pool.game == "games/callisto" and pool.seats == 4]
        assert pool.queued_tickets == 2 and pool.oldest_queue_time.ToSeconds() <= tickets[1].create_time.ToSeconds()
        bo.cancel_ticket(tickets[1].name)
        assert [p.queued_tickets for p in admin.pools() if p.pool == pool.pool] == [1]
        ada.cancel_ticket(tickets[0].name)
        assert pool.pool not in [p.pool for p in admin.pools()]


@pytest.mark.parametrize("call", ["plugins", "pools", "strikes"])
def test_the_console_calls_refuse_players_and_anonymous_callers_and_bad_names(host, keys, call):
    with host.client() as anonymous, host.client(keys[1]["ada"]) as player, host.client(keys[1]["ops"]) as admin:
        match = anonymous.create_match("tictactoe").name
        ask = {"plugins": lambda client: client.plugins(), "pools": lambda client: client.pools(),
               "strikes": lambda client: client.strikes(match)}[call]
        with pytest.raises(GameHostError) as refused:
            ask(player)
        assert (refused.value.code.name, refused.value.reason) == ("PERMISSION_DENIED", "ROLE_REQUIRED")
        assert refused.value.metadata["role"] == "admin" and "admin" in refused.value.message
        with pytest.raises(GameHostError) as anonymous_refused:
            ask(anonymous)
        assert anonymous_refused.value.code.name == "UNAUTHENTICATED"
        if call == "strikes":
            with pytest.raises(GameHostError) as missing:
                admin.strikes("matches/no-such-match")
            assert missing.value.code.name == "NOT_FOUND"
            with pytest.raises(GameHostError) as malformed:
                admin.strikes("games/tictactoe")
            assert malformed.value.code.name == "INVALID_ARGUMENT"


def test_an_admin_aborts_a_suspended_match_retries_a_delivery_and_looks_up_a_player_in_the_console(
        host, keys, receiver):
    if not (WEB / "dist" / "index.html").is_file() or not (WEB / "node_modules" / "playwright-core").is_dir():
        pytest.fail("the web client is not built: run `make web` (npm ci and vite build in clients/web)")
    if not CHROMIUM.exists():
        pytest.fail(f"no {CHROMIUM}: `apt-get install chromium` (make test does it) or set GAMEHOST_CHROMIUM")
    with host.client() as client, host.client(keys[1]["ops"]) as admin:
        suspended, resumed = suspended_bots_match(client), suspended_bots_match(client)
        played, key = given_up_delivery(host, keys, admin)
        receiver.accepting.set()  # the receiver is back: the retry from the console gets through
        with host.client(keys[1]["bo"]) as bo:
            queued = bo.create_ticket("campanile", seats=5)
        pool = next(p for p in admin.pools() if p.game == "games/campanile" and p.seats == 5)
        with host.client(keys[1]["cy"]) as cy:  # the player whose data the console deletes: a match, over
            erased_match = cy.create_match("tictactoe", bots=[1]).name
            cy.join(erased_match, seat=0)
            admin.abort(erased_match)
        done = subprocess.run(
            [shutil.which("node") or "node", str(SCRIPT), "--target", host.web_url, "--admin-token", keys[1]["ops"],
             "--player-token", keys[1]["bo"], "--suspended", suspended.split("/")[1], "--delivery", key,
             "--resume", resumed.split("/")[1],
             "--subject", "ada", "--pool", pool.pool, "--erase-subject", "cy"],
            capture_output=True, text=True, timeout=240, stdin=subprocess.DEVNULL)
        assert done.returncode == 0, done.stderr[-4000:]
        shown = json.loads(done.stdout.strip().splitlines()[-1])

        # The player: no link, and the route says why.
        assert shown["playerLink"] is False and shown["playerLinkOnConsole"] is False
        assert "bo does not have the admin role" in shown["playerRefusal"]

        # The other suspended match: resumed after its confirmation (its faulty rules suspend it again).
        assert resumed.split("/")[1] in shown["resumeQuestion"]
        wait_until(lambda: any(event.kind == pb.EVENT_KIND_RESUMED for event in client.log(resumed).events),
                   what=f"{resumed} resumed")

        # The suspended match, first, with its strikes and the plugin that failed; aborted after a confirmation
        # (a cancelled one changed nothing).
        assert shown["hash"] == "#/admin"
        row = shown["suspendedRow"]
        assert row["status"] == "suspended" and set(row["above"]) <= {"suspended"}  # suspended matches come first
        assert row["strikes"].startswith(f"{admin.strikes(suspended).strikes} of {MAX_STRIKES}")
        assert "fixture-faulty" in row["why"]
        assert any("admin-resume" in action for action in row["actions"])
        assert shown["rowAfterCancel"] and suspended.split("/")[1] in shown["abortCancelled"]
        aborted = client.match(suspended)
        assert aborted.status == pb.MATCH_STATUS_ABORTED and aborted.status_detail.reason == "ADMIN_ABORT"

        # The delivery: retried, then delivered to the receiver.
        assert key in shown["retryQuestion"] and shown["deliveryAfterRetry"] in ("pending", "delivered")
        wait_until(lambda: any(d.key == key and d.state == pb.DELIVERY_STATE_DELIVERED
                               for d in admin.deliveries(match=played)), what=f"{key} delivered")
        assert [payload["key"] for payload in receiver.accepted].count(key) == 1

        # The pool with the queued ticket.
        assert shown["pool"] == {"queued": "1", "game": "campanile"}
        with host.client(keys[1]["bo"]) as bo:
            bo.cancel_ticket(queued.name)

        # The plugins, with the errors of those skipped.
        plugins = {plugin["name"]: plugin for plugin in shown["plugins"]}
        assert plugins["tictactoe"]["state"] == "ok"
        for plugin in admin.plugins():
            if plugin.errors:
                assert plugins[plugin.name]["state"] == "errors" and plugin.errors[0] in plugins[plugin.name]["errors"]

        # The player looked up: their match, their record, and the place for moderation buttons.
        assert shown["player"]["matches"] == [played.split("/")[1]]
        assert shown["player"]["record"].startswith("Rated matches: 0")
        assert shown["player"]["moderationSlot"] == "ada"

        # The other player: banned with the reason, unbanned, their data saved as a file, then deleted (a
        # cancelled deletion changed nothing).
        assert "Ban cy?" in shown["banQuestion"] and shown["bannedNote"] == "cy is banned."
        banned = host.wait_for_log("user banned", subject="cy")
        assert banned and host.wait_for_log("user unbanned", subject="cy") and "cy" in shown["unbanQuestion"]
        assert shown["exportFile"] == "gamehost-cy.json" and shown["exported"]["player"] == "players/cy"
        assert [match["match"] for match in shown["exported"]["matches"]] == [erased_match]
        assert "cannot be undone" in shown["deleteCancelled"] and "cy" in shown["deleteQuestion"]
        assert shown["pseudonym"].startswith("deleted-") and shown["pseudonym"] in shown["deletedNote"]
        assert [seat.player_name for seat in client.match(erased_match).seats][0] == shown["pseudonym"]
        left = admin.export_user_data("cy")  # only the operator's key file names cy now
        assert not left["matches"] and [key["name"] for key in left["api_keys"]] == ["cy"]

        # The same console in French has no English sentence of its own.
        french = EnglishLeaks.of_tables("fr", [json.loads((WEB / "src" / "locales" / "fr.json").read_text("utf-8"))])
        assert "Console d’administration" in shown["french"] and "Extensions" in shown["french"]
        assert not french.words_in(shown["french"])


def queued_ticket(subject: str, game: str, seats: int, pool: str, created: float) -> TicketRecord:
    return TicketRecord(uuid.uuid4().hex[:16], subject, subject.title(), game, seats, {}, pool,
                        create_time=created, expire_time=created + 600, update_time=created)


async def pools_after_queueing(store) -> tuple[list[QueuedPool], list[QueuedPool]]:
    """Three tickets in two pools, then one cancelled: the pools as ListPools reads them, before and after."""
    await store.open()
    try:
        now = time.time()
        first = queued_ticket("p1", "tictactoe", 2, "tictactoe/2/a", now - 30)
        for each in (first, queued_ticket("p2", "tictactoe", 2, "tictactoe/2/a", now - 10),
                     queued_ticket("p3", "campanile", 3, "campanile/3/b", now - 20)):
            assert await store.add_ticket(each, 5)
        before = await store.queued_pools()
        assert await store.cancel_ticket(first.id, now)
        return before, await store.queued_pools()
    finally:
        await store.close()


@pytest.mark.parametrize("backend", ["memory", "sqlite", "postgresql"])
def test_every_store_counts_the_queued_tickets_of_each_pool(backend, tmp_path, request):
    if backend == "postgresql":
        from gamehost.host.store.postgres import PostgresStore
        store = PostgresStore(request.getfixturevalue("postgres_url"))
    else:
        store = MemoryStore() if backend == "memory" else SQLiteStore(tmp_path / "gamehost.db")
    before, after = asyncio.run(pools_after_queueing(store))
    assert [(p.pool, p.game_id, p.seats, p.queued) for p in before] == [
        ("campanile/3/b", "campanile", 3, 1), ("tictactoe/2/a", "tictactoe", 2, 2)]
    assert before[1].oldest == pytest.approx(time.time() - 30, abs=5)
    assert [(p.pool, p.queued) for p in after] == [("campanile/3/b", 1), ("tictactoe/2/a", 1)]
    assert after[1].oldest == pytest.approx(before[1].oldest + 20, abs=0.01)  # the cancelled one was the oldest
