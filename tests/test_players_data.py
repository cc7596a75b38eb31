"""Players' data: a user, or an admin, exports everything the host holds
about them and deletes it. On a SQLite host, and on two replicas of one
PostgreSQL store (the export and the deletion on the replica that did not
play the matches, the reads on the one that did). Players sign in by the
fixture plugin's header (``x-fixture-user``), the admin and another user by
API keys."""

from __future__ import annotations

import base64
import json
import os
import queue
import sqlite3
import subprocess
import sys
import threading
import uuid

import grpc
import psycopg
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from databases import create_database, drop_database
from callers import Caller as StubCaller
from hosts import HostProcess, wait_for
from identities import write_api_keys

from gamehost.host.store.postgres import PostgresStore
from gamehost.host.store.sqlite import SQLiteStore
from gamehost.host.store.user_rows import IDENTITY_COLUMNS, OTHER_COLUMNS
from gamehost.v1 import gamehost_pb2 as pb

pytestmark = pytest.mark.timeout(120)

X_WINS = "a1 b1 a2 b2 a3".split()  # X completes column a
DRAW = "b2 a1 a3 c1 b1 b3 c2 a2 c3".split()  # the board fills with no line


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def hosts(request, tmp_path_factory):
    """(A, B, where the store is, the admin's key, another user's key): one
    SQLite host (A is B), or two replicas of one fresh PostgreSQL database."""
    folder = tmp_path_factory.mktemp("players-data")
    keys = folder / "api-keys.json"
    written = write_api_keys(keys, ("privacy-admin", ["admin"]), ("mallory", []))
    args = ("--api-keys", str(keys), "--push-vapid-key", str(folder / "vapid.pem"), "--push-insecure-endpoints",
            "--push-contact", "mailto:ops@example.org")
    # Turn notifications go to a port nobody answers: their deliveries stay in the store, failed or pending.
    env = {"GAMEHOST_WEBHOOK_URL": "http://127.0.0.1:9/hook", "GAMEHOST_WEBHOOK_SECRET": "s",
           "GAMEHOST_WEBHOOK_RETRY": "30"}
    if request.param == "sqlite":
        host = HostProcess(*args, data_dir=folder / "data", env=env).start()
        yield host, host, folder / "data" / "gamehost.db", written["privacy-admin"], written["mallory"]
        host.stop()
        return
    url = create_database()
    started = [HostProcess(*args, "--store", url, "--replica-id", name, env=env).start() for name in "ab"]
    yield started[0], started[1], url, written["privacy-admin"], written["mallory"]
    for host in started:
        host.stop()
    drop_database(url)


class Caller(StubCaller):
    """A caller who asks for a user's data."""

    def export(self, player: str = "") -> dict:
        return json.loads(self("ExportUserData", pb.ExportUserDataRequest(player=player)).json)


def reason(error: grpc.RpcError) -> str:
    status = rpc_status.from_call(error)
    for detail in status.details if status else ():
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return info.reason
    return ""


def play(x: Caller, o: Caller, moves: list[str]) -> str:
    """A tictactoe match, ``x`` in seat 0, played through ``moves``: its name."""
    match = x("CreateMatch", pb.CreateMatchRequest(game="games/tictactoe")).name
    x("JoinMatch", pb.JoinMatchRequest(name=match, seat=0))
    o("JoinMatch", pb.JoinMatchRequest(name=match, seat=1))
    for turn, move in enumerate(moves):
        (x if turn % 2 == 0 else o)("SubmitMove", pb.SubmitMoveRequest(name=match, move_id=move))
    return match


def browser_keys() -> dict[str, str]:
    """A browser's push keys: a P-256 public key and a 16-byte secret, base64url."""
    point = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return {"p256dh": base64.urlsafe_b64encode(point).decode().rstrip("="),
            "auth": base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")}


def rows_naming(store, words: list[str]) -> list[tuple[str, str]]:
    """(table, column) of every value in the store that holds one of ``words`` (any case)."""
    found = []
    if isinstance(store, str):  # a PostgreSQL URL
        with psycopg.connect(store) as db:
            columns = db.execute("SELECT table_name, column_name FROM information_schema.columns "
                                 "WHERE table_schema = 'public'").fetchall()
            for table, column in columns:
                for word in words:
                    if db.execute(f"SELECT count(*) FROM {table} WHERE {column}::text ILIKE %s",
                                  (f"%{word}%",)).fetchone()[0]:
                        found.append((table, column))
        return found
    with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as db:
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for table in tables:
            for column in [row[1] for row in db.execute(f"PRAGMA table_info({table})")]:
                for word in words:
                    if db.execute(f"SELECT count(*) FROM {table} WHERE CAST({column} AS TEXT) LIKE ?",
                                  (f"%{word}%",)).fetchone()[0]:
                        found.append((table, column))
    return found


def replays(host: HostProcess, match: str) -> str:
    """What `gamehost replay` says of the match: it checks the seed's commitment and replays every move."""
    done = subprocess.run([sys.executable, "-m", "gamehost.cli.main", "replay", match, "--host", host.target],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_user_exports_everything_then_deletes_it_and_no_trace_remains_while_matches_replay(hosts):
    a, b, store, admin_key, _ = hosts
    tag = uuid.uuid4().hex[:8]
    erin, finn = f"erin{tag}", f"finn{tag}"
    erin_a, erin_b, finn_a, finn_b = Caller(a, erin), Caller(b, erin), Caller(a, finn), Caller(b, finn)
    admin_a = Caller(a, key=admin_key)
    won = play(erin_a, finn_a, X_WINS)
    drawn = play(finn_a, erin_a, DRAW)
    said = erin_a("SendChat", pb.SendChatRequest(name=won, text="good game, I am Erin from Lyon"))
    watched = finn_a("CreateMatch", pb.CreateMatchRequest(game="games/tictactoe")).name  # finn waits for a player
    finn_a("JoinMatch", pb.JoinMatchRequest(name=watched, seat=0))
    erin_a("SendChat", pb.SendChatRequest(name=watched, text="watching"))  # as a spectator
    finn_a("ReportChat", pb.ReportChatRequest(name=won, sequence=said.sequence, reason="spam"))
    erin_a("ReportPlayer", pb.ReportPlayerRequest(player=f"players/{finn}", reason="rude", match=won))
    finn_a("MuteUser", pb.MuteUserRequest(player=f"players/{erin}"))
    erin_a("BlockUser", pb.BlockUserRequest(player=f"players/{finn}"))
    ticket = erin_a("CreateTicket", pb.CreateTicketRequest(game="games/tictactoe")).name
    erin_a("CancelTicket", pb.CancelTicketRequest(name=ticket))
    endpoint = f"http://127.0.0.1:9/push/{tag}"
    erin_a("SubscribePush", pb.SubscribePushRequest(endpoint=endpoint, **browser_keys()))
    assert wait_for(lambda: len(erin_b.export()["webhook_deliveries"]) >= 3)  # erin's turns in the two matches
    finn_rating = finn_a("GetPlayerProfile", pb.GetPlayerProfileRequest(name=f"players/{finn}")).ratings[0]

    # The user's own export, on the other replica: every item, one JSON document.
    exported = erin_b.export()
    assert exported["format"] == "gamehost.user-data/1" and exported["player"] == f"players/{erin}"
    assert erin_b.export("players/me")["matches"] == exported["matches"]
    assert [m["match"] for m in exported["matches"]] == [won, drawn]
    assert [m["game"] for m in exported["matches"]] == ["games/tictactoe"] * 2
    assert [[s["seat"] for s in m["seats"]] for m in exported["matches"]] == [[0], [1]]
    assert [m["result"]["ranking"] for m in exported["matches"]] == [[1, 2], [1, 1]]
    assert all(m["rated"] and m["seats"][0]["player_name"] == erin.title() for m in exported["matches"])
    assert [e["kind"] for e in exported["matches"][0]["events"]].count("moved") == 3  # erin's three moves
    assert [h["match"] for h in exported["rating_history"]] == [won, drawn]
    [rating] = exported["ratings"]
    assert (rating["game"], rating["games"], rating["wins"], rating["draws"]) == ("games/tictactoe", 2, 1, 1)
    assert [(t["ticket"], t["state"]) for t in exported["tickets"]] == [(ticket, "cancelled")]
    assert [(c["match"], c["text"]) for c in exported["chat_messages"]] == [
        (won, "good game, I am Erin from Lyon"), (watched, "watching")]
    assert [(r["player"], r["reason"]) for r in exported["reports_made"]] == [(f"players/{finn}", "rude")]
    assert [(r["match"], r["reason"]) for r in exported["reports_about"]] == [(won, "spam")]
    assert "reporter" not in json.dumps(exported["reports_about"])  # the reporter is finn's data, not erin's
    assert exported["mutes_and_blocks"] == [{"player": f"players/{finn}", "kind": "block"}]
    assert all(d["body"]["subject"] == erin for d in exported["webhook_deliveries"])
    assert [(p["endpoint"], "auth" in p) for p in exported["push_subscriptions"]] == [(endpoint, False)]
    assert exported["ban"] is None and exported["api_keys"] == []
    # An admin exports anyone's data: the same document.
    by_admin = Caller(b, key=admin_key).export(f"players/{erin}")
    assert by_admin["matches"] == exported["matches"] and by_admin["chat_messages"] == exported["chat_messages"]

    # A deletion asked by the user themself on replica B; A played the matches and keeps copies of them.
    for match in (won, drawn, watched):
        admin_a("GetMatchLog", pb.GetMatchLogRequest(name=match))
    # Another spectator watches the match erin spoke in, with its chat, on replica A: the message comes again,
    # renamed.
    heard: queue.Queue[pb.ChatMessage] = queue.Queue()
    gus = Caller(a, f"gus{tag}")
    watch = gus.game.WatchMatch(pb.WatchMatchRequest(name=watched, with_chat=True, chat_only=True),
                                metadata=gus.metadata)

    def listen() -> None:
        try:
            for event in watch:
                if event.kind == pb.EVENT_KIND_CHAT:
                    heard.put(event.chat)
        except grpc.RpcError:
            pass  # cancelled at the end
    threading.Thread(target=listen, daemon=True).start()
    assert heard.get(timeout=20).sender == f"players/{erin}"
    deleted = erin_b("DeleteUserData", pb.DeleteUserDataRequest(confirm=True))
    pseudonym = deleted.pseudonym
    assert pseudonym.startswith("deleted-") and deleted.matches == 2 and deleted.player == f"players/{erin}"
    assert {"matches", "events", "ratings", "tickets", "chat_messages", "chat_reports", "chat_relations",
            "push_subscriptions", "notifications", "match_players"} <= set(deleted.rows)
    assert rows_naming(store, [erin]) == []  # every column of every table: no trace of the subject or name
    [audit] = b.wait_for_log("user data erased", pseudonym=pseudonym)  # the audit, without the personal data
    assert audit["by"] == "self" and erin not in json.dumps(audit)

    # What replica A serves: logs, matches, chat, leaderboard and profiles name the pseudonym.
    def clean_on_a() -> bool:
        logs = [str(admin_a("GetMatchLog", pb.GetMatchLogRequest(name=match))) for match in (won, drawn, watched)]
        rows = [str(admin_a("GetMatch", pb.GetMatchRequest(name=match))) for match in (won, drawn)]
        return all(erin.lower() not in text.lower() for text in logs + rows) and all(pseudonym in row for row in rows)
    assert wait_for(clean_on_a, timeout=20)
    renamed = heard.get(timeout=20)
    watch.cancel()
    assert (renamed.sender, renamed.sender_name, renamed.text) == (f"players/{pseudonym}", pseudonym, "watching")
    log = finn_a("GetMatchLog", pb.GetMatchLogRequest(name=won))
    assert [(c.sender, c.sender_name, c.text) for c in log.chat] == [
        (f"players/{pseudonym}", pseudonym, "good game, I am Erin from Lyon")]
    board = str(finn_a("ListLeaderboard", pb.ListLeaderboardRequest(game="games/tictactoe", page_size=100)))
    assert erin not in board and pseudonym in board
    assert finn_a("GetPlayerProfile", pb.GetPlayerProfileRequest(name=f"players/{finn}")).ratings[0] == finn_rating
    assert not erin_a("GetPlayerProfile", pb.GetPlayerProfileRequest(name=f"players/{erin}")).ratings
    assert finn_b("GetChatRelations", pb.GetChatRelationsRequest()) == pb.ChatRelations()  # finn's mute went too
    for match in (won, drawn):
        said = replays(a, match)
        assert said.startswith("commitment verified") and "\nverified: " in said and "MISMATCH" not in said

    # Once more: nothing is held, so there is nothing to export or delete, and nothing changes.
    again = erin_a.refused("DeleteUserData", pb.DeleteUserDataRequest(confirm=True))
    assert (again.code(), reason(again)) == (grpc.StatusCode.NOT_FOUND, "USER_NOT_FOUND")
    assert erin_a.refused("ExportUserData", pb.ExportUserDataRequest()).code() == grpc.StatusCode.NOT_FOUND


def cli(host: HostProcess, key: str, *args: str) -> subprocess.CompletedProcess:
    """``gamehost admin ARGS`` against ``host`` with ``key``, stdin not a terminal."""
    return subprocess.run([sys.executable, "-m", "gamehost.cli.main", "admin", *args, "--host", host.target,
                           "--bearer-token", key], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
                          env={**os.environ, "LC_ALL": "C", "LANG": "C"})


def test_another_user_s_data_a_missing_confirmation_and_live_matches_are_refused_changing_nothing(hosts, tmp_path):
    a, b, _, admin_key, mallory_key = hosts
    tag = uuid.uuid4().hex[:8]
    gil, hal = Caller(a, f"gil{tag}"), Caller(b, f"hal{tag}")
    mallory, anonymous, admin = Caller(a, key=mallory_key), Caller(b), Caller(b, key=admin_key)
    match = gil("CreateMatch", pb.CreateMatchRequest(game="games/tictactoe")).name
    gil("JoinMatch", pb.JoinMatchRequest(name=match, seat=0))
    hal("JoinMatch", pb.JoinMatchRequest(name=match, seat=1))
    assert wait_for(lambda: gil.export()["webhook_deliveries"])  # gil's turn, queued after the joins

    def held() -> dict:
        """The export but its time and the deliveries' attempts, which the webhook's retries change."""
        document = gil.export()
        document["webhook_deliveries"] = [delivery["key"] for delivery in document["webhook_deliveries"]]
        return {**document, "export_time": 0}
    before = held()

    unknown = admin.refused("ExportUserData", pb.ExportUserDataRequest(player=f"players/nobody{tag}"))
    assert (unknown.code(), reason(unknown)) == (grpc.StatusCode.NOT_FOUND, "USER_NOT_FOUND")
    assert f"nobody{tag}" in unknown.details()
    for method, request in (("ExportUserData", pb.ExportUserDataRequest(player=f"players/gil{tag}")),
                            ("DeleteUserData", pb.DeleteUserDataRequest(player=f"players/gil{tag}", confirm=True))):
        other = mallory.refused(method, request)
        assert (other.code(), reason(other)) == (grpc.StatusCode.PERMISSION_DENIED, "NOT_YOUR_DATA")
        assert "only your own data" in other.details()
        assert anonymous.refused(method, request).code() == grpc.StatusCode.UNAUTHENTICATED
    # A user the store knows nothing of, but whose API key the host's key file holds: that entry, never its hash.
    own = mallory.export()
    assert own["api_keys"] == [{"name": "mallory", "roles": [], "display_name": "Mallory (key)"}] and not own["matches"]
    assert "sha256" not in json.dumps(own)
    unconfirmed = gil.refused("DeleteUserData", pb.DeleteUserDataRequest())
    assert (unconfirmed.code(), reason(unconfirmed)) == (grpc.StatusCode.INVALID_ARGUMENT, "CONFIRMATION_REQUIRED")
    assert "confirm" in unconfirmed.details()
    malformed = admin.refused("DeleteUserData", pb.DeleteUserDataRequest(player="gil", confirm=True))
    assert malformed.code() == grpc.StatusCode.INVALID_ARGUMENT
    # In a match still being played: refused, naming the match and what to do.
    for caller, player in ((gil, ""), (admin, f"players/gil{tag}")):
        live = caller.refused("DeleteUserData", pb.DeleteUserDataRequest(player=player, confirm=True))
        assert (live.code(), reason(live)) == (grpc.StatusCode.FAILED_PRECONDITION, "USER_IN_LIVE_MATCHES")
        assert match in live.details() and "abort" in live.details()
    assert held() == before
    # Once the match is over (aborted by an admin), the admin's CLI exports and deletes.
    admin("AbortMatch", pb.AbortMatchRequest(name=match), admin=True)
    out = tmp_path / "gil.json"
    exported = cli(b, admin_key, "export-user", f"players/gil{tag}", "--out", str(out))
    assert exported.returncode == 0 and str(out) in exported.stdout
    assert [m["match"] for m in json.loads(out.read_text())["matches"]] == [match]
    unasked = cli(b, admin_key, "delete-user", f"gil{tag}")  # no terminal to ask on, no --yes
    assert unasked.returncode == 2 and "--yes" in unasked.stderr and gil.export()["matches"]
    deleted = cli(b, admin_key, "delete-user", f"gil{tag}", "--yes")
    assert deleted.returncode == 0 and "deleted-" in deleted.stdout and "1 match" in deleted.stdout
    audit = b.wait_for_log("user data erased", by="admin")
    assert audit and audit[-1]["admin"] == "privacy-admin" and f"gil{tag}" not in json.dumps(audit)


def test_a_host_on_the_memory_store_says_it_keeps_no_user_data(host):
    """The memory store forgets everything when the host stops: there is nothing to export or delete."""
    tag = uuid.uuid4().hex[:8]
    ivy = Caller(host, f"ivy{tag}")
    ivy("CreateMatch", pb.CreateMatchRequest(game="games/tictactoe"))
    for method, request in (("ExportUserData", pb.ExportUserDataRequest()),
                            ("DeleteUserData", pb.DeleteUserDataRequest(confirm=True))):
        refused = ivy.refused(method, request)
        assert (refused.code(), reason(refused)) == (grpc.StatusCode.FAILED_PRECONDITION, "USER_DATA_UNAVAILABLE")
        assert "--data-dir" in refused.details()


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_every_column_of_the_store_is_classified_as_naming_a_user_or_not(backend, tmp_path):
    """A table or column added without saying whether it may name a user fails here: export and
    deletion (store/user_rows.py) must then cover it."""
    import asyncio

    async def columns() -> set[tuple[str, str]]:
        if backend == "sqlite":
            store = SQLiteStore(tmp_path / "schema.db")
            await store.open()
            await store.close()
            with sqlite3.connect(tmp_path / "schema.db") as db:
                tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
                return {(table, row[1]) for table in tables for row in db.execute(f"PRAGMA table_info({table})")}
        url = create_database()
        try:
            store = PostgresStore(url)
            await store.open()
            await store.close()
            with psycopg.connect(url) as db:
                return set(db.execute("SELECT table_name, column_name FROM information_schema.columns "
                                      "WHERE table_schema = 'public'").fetchall())
        finally:
            drop_database(url)

    found = asyncio.run(columns())
    classified = {(table, column) for kinds in (IDENTITY_COLUMNS, OTHER_COLUMNS)
                  for table, named in kinds.items() for column in named}
    assert found - classified == set(), "classify these columns in store/user_rows.py"
    both = {(t, c) for t, named in IDENTITY_COLUMNS.items() for c in named} & \
        {(t, c) for t, named in OTHER_COLUMNS.items() for c in named}
    assert both == set()
