"""Rules run apart from the host: plugins that hang, sleep, allocate without
bound, exit their worker or crash it hard fail their own calls, get their
match suspended, and leave the host serving (fixture game ``faulty``)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from gamehost.client import GameHostError
from gamehost.v1 import gamehost_pb2 as pb
from hosts import HostProcess

FAST = ("--rules-timeout", "1", "--bot-timeout", "1", "--worker-memory-mb", "200", "--workers", "2",
        "--max-strikes", "3", "--shutdown-grace", "2")
FAILURES = {"hang": ("DEADLINE_EXCEEDED", "RULES_TIMEOUT"), "sleep": ("DEADLINE_EXCEEDED", "RULES_TIMEOUT"),
            "allocate": ("INTERNAL", "RULES_CRASHED"), "exit": ("INTERNAL", "RULES_CRASHED"),
            "segfault": ("INTERNAL", "RULES_CRASHED"), "raise": ("INTERNAL", "PLUGIN_ERROR")}
DRAW = ["a3", "b3", "c3", "b2", "a2", "c2", "b1", "a1", "c1"]


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    running = HostProcess(*FAST, data_dir=tmp_path_factory.mktemp("isolation")).start()
    yield running
    running.stop()


def healthy(host: HostProcess) -> bool:
    with host.channel() as channel:
        answer = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=2)
    return answer.status == health_pb2.HealthCheckResponse.SERVING


def rss_mb(pid: int) -> float:
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def wait_suspended(client, name: str, timeout: float = 20.0) -> pb.Match:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        match = client.match(name)
        if match.status == pb.MATCH_STATUS_SUSPENDED:
            return match
        time.sleep(0.1)
    raise AssertionError(f"{name} not suspended: {client.match(name)}")


def tictactoe_pair(client):
    match = client.create_match("tictactoe")
    return match.name, [client.join(match.name, seat=seat).player_token for seat in (0, 1)]


@pytest.mark.parametrize("fault", sorted(FAILURES))
def test_a_faulty_plugin_fails_its_own_calls_and_is_suspended_while_the_host_serves_on(host, fault):
    client = host.client()
    other, tokens = tictactoe_pair(client)
    faulty = client.create_match("faulty", seats=1, options={"fault": fault}).name
    token = client.join(faulty).player_token
    caught = {}

    def view_faulty():
        try:
            client.view(faulty, token)
        except GameHostError as error:
            caught["error"] = error

    call = threading.Thread(target=view_faulty)
    call.start()
    # Meanwhile the host serves everyone else: the health check, and moves of another match.
    assert healthy(host)
    for turn, move in enumerate(DRAW[:4]):
        client.move(other, tokens[turn % 2], move_id=move)
    call.join(15)
    code, reason = FAILURES[fault]
    error = caught["error"]
    assert (error.code.name, error.reason) == (code, reason), error
    assert error.metadata["plugin"] == "fixture-faulty" and "fixture-faulty" in error.message
    assert client.view(faulty).version == 2, "a failed call changes nothing"
    # A match of bots only keeps failing: three strikes and it is suspended, with the reason. An
    # exception is a strike there too: the host's own moves would otherwise be retried for ever.
    bots = client.create_match("faulty", seats=2, bots=[0, 1], options={"fault": fault, "after": 2}).name
    suspended = wait_suspended(client, bots)
    assert suspended.status_detail.reason == reason and suspended.status_detail.plugin == "fixture-faulty"
    # v1 started, v2 a move; the next one never came back (the worker lists the moves after it),
    # except when listing them raises: that move stands (v3), and each bot move then fails.
    assert suspended.version == (4 if fault == "raise" else 3) and not suspended.to_move
    last = client.log(bots).events[-1]
    assert (last.kind, last.reason) == (pb.EVENT_KIND_SUSPENDED, reason)
    with pytest.raises(GameHostError) as refused:
        client.move(bots, "", move_id="add")
    assert refused.value.code == grpc.StatusCode.PERMISSION_DENIED  # no seat, and no bot moves either
    # The other match plays on to its end, in a worker started afresh if one died.
    for turn, move in enumerate(DRAW[4:], start=4):
        client.move(other, tokens[turn % 2], move_id=move)
    assert client.match(other).status == pb.MATCH_STATUS_FINISHED
    assert healthy(host)
    assert rss_mb(host.process.pid) < 250, "the host's memory stays bounded"


def test_a_bot_that_overruns_its_think_is_struck_and_the_random_bot_plays_that_move(host):
    """A plugin's bot that never answers: its think is cut at --bot-timeout,
    a strike for the match, and the random bot makes that move. Thinking
    again would hang the replacement worker and suspend a match whose rules
    are sound."""
    client = host.client()
    match = client.create_match("crashy", bots=[1], bot="stuck").name
    me = client.join(match, seat=0).player_token
    while (view := client.view(match, me)).status == pb.MATCH_STATUS_ACTIVE:
        if view.legal_moves:
            client.move(match, me, move_id="add1", expected_version=view.version)
        else:
            next(iter(client.watch(match, me, after_version=view.version)), None)
    assert client.match(match).status == pb.MATCH_STATUS_FINISHED
    bot_moves = [e for e in client.log(match).events if e.kind == pb.EVENT_KIND_MOVED and e.seat == 1]
    assert len(bot_moves) == 2 and {e.label for e in bot_moves} == {"add 1"}  # crashy's target is 5
    overran = host.wait_for_log("rules failed", match, at_least=2)
    assert [(line["reason"], line["hook"]) for line in overran] == [("RULES_TIMEOUT", "choose")] * 2
    stood_in = host.wait_for_log("bot overran; the random bot plays this move", match, at_least=2)
    # At least once a move: a stand-in's "add 3", which crashy's rules crash on, is drawn again.
    assert len(stood_in) >= 2 and {line["bot"] for line in stood_in} == {"stuck"}
    assert healthy(host)


def test_a_restart_on_the_same_data_serves_at_once_and_keeps_the_suspension(tmp_path):
    first = HostProcess(*FAST, data_dir=tmp_path).start()
    try:
        client = first.client()
        hung = client.create_match("faulty", seats=2, bots=[0, 1], options={"fault": "hang"}).name
        other, tokens = tictactoe_pair(client)
        client.move(other, tokens[0], move_id="a3")
        wait_suspended(client, hung)
        # Stopped before its third strike: restored at start, its bot turn hangs again, in the background.
        pending = client.create_match("faulty", seats=2, bots=[0, 1], options={"fault": "hang"}).name
    finally:
        first.stop()
    started = time.monotonic()
    second = HostProcess(*FAST, data_dir=tmp_path).start()
    try:
        assert time.monotonic() - started < 20  # serving at once (a busy machine runs at half speed)
        client = second.client()
        assert healthy(second)
        match = client.match(hung)
        assert match.status == pb.MATCH_STATUS_SUSPENDED and match.status_detail.reason == "RULES_TIMEOUT"
        assert "fixture-faulty" in match.status_detail.message
        listed = client.matches(status=pb.MATCH_STATUS_SUSPENDED)
        assert [m.name for m in listed] == [hung] and listed[0].status_detail == match.status_detail
        assert client.move(other, tokens[1], move_id="b3").version == 5
        assert wait_suspended(client, pending).status_detail.reason == "RULES_TIMEOUT"
        assert all(line.get("match_id") != hung for line in second.log_lines("rules strike"))
    finally:
        second.stop()


def test_strikes_are_stored_so_a_restart_does_not_forgive_them(tmp_path):
    """Two strikes, a restart, a third strike: suspended (the count is the store's)."""
    first = HostProcess(*FAST, data_dir=tmp_path).start()
    try:
        client = first.client()
        faulty = client.create_match("faulty", seats=1, options={"fault": "hang"}).name
        token = client.join(faulty).player_token
        for strike in (1, 2):
            with pytest.raises(GameHostError) as failed:
                client.view(faulty, token)
            assert failed.value.reason == "RULES_TIMEOUT"
            logged = first.wait_for_log("rules strike", faulty.split("/")[1], strikes=strike)
            assert logged, f"strike {strike} not counted"
        assert client.match(faulty).status == pb.MATCH_STATUS_ACTIVE
    finally:
        first.stop()
    second = HostProcess(*FAST, data_dir=tmp_path).start()
    try:
        client = second.client()
        with pytest.raises(GameHostError):
            client.view(faulty, token)
        suspended = wait_suspended(client, faulty)
        assert suspended.status_detail.reason == "RULES_TIMEOUT"
        assert second.wait_for_log("rules strike", faulty.split("/")[1], strikes=3)
    finally:
        second.stop()


def test_sigterm_stops_the_host_within_its_grace_while_a_plugin_hangs(tmp_path):
    host = HostProcess("--rules-timeout", "60", "--shutdown-grace", "2", "--workers", "1", data_dir=tmp_path).start()
    workers = host.log_lines("workers started")[0]["pids"]
    client = host.client()
    faulty = client.create_match("faulty", seats=1, options={"fault": "hang"}).name
    token = client.join(faulty).player_token
    threading.Thread(target=lambda: pytest.raises(GameHostError, client.view, faulty, token), daemon=True).start()
    time.sleep(0.5)  # the call is in the worker, which spins
    started = time.monotonic()
    os.kill(host.process.pid, signal.SIGTERM)
    host.process.wait(10)
    assert time.monotonic() - started < 2 + 2.5
    assert host.log_lines("host stopped")
    for pid in workers:
        assert not os.path.exists(f"/proc/{pid}") or open(f"/proc/{pid}/stat").read().split()[2] == "Z"


def test_trusted_plugins_run_in_the_host_and_the_others_in_workers(tmp_path):
    host = HostProcess("--trusted-plugins", "tictactoe", "--workers", "1", data_dir=tmp_path).start()
    try:
        placed = host.log_lines("rules isolation")[0]
        assert placed["in_host"] == ["tictactoe"] and "faulty" in placed["isolated"]
        client = host.client()
        for game in ("tictactoe", "faulty"):
            match = client.create_match(game, seats=2, bots=[0, 1])
            finished = list(client.watch(match.name))[-1]
            assert finished.kind == pb.EVENT_KIND_FINISHED, game
    finally:
        host.stop()


def open_store(kind: str, tmp_path, request):
    from gamehost.host.store import open_store as open_any

    if kind == "postgres":
        return open_any(request.getfixturevalue("postgres_url"), str(tmp_path))
    return open_any(kind, str(tmp_path))


@pytest.mark.parametrize("store_kind", ["memory", "sqlite", "postgres"])
async def test_a_suspension_is_stored_and_resuming_loads_the_match_afresh(monkeypatch, tmp_path, request,
                                                                          store_kind):
    """Engines of their own on each store: the suspension (status and why)
    outlives the engine, and the engine's side of ResumeMatch resets the
    strikes and loads the match into a worker again."""
    from hosts import FIXTURE_SITE

    from gamehost.host import errors
    from gamehost.host.engine.match_engine import MatchEngine
    from gamehost.host.plugins import load_catalog
    from gamehost.host.workers.pool import WorkerPool
    from gamehost.host.workers.runner import RulesBudgets, RulesPlacement

    monkeypatch.syspath_prepend(str(FIXTURE_SITE))
    monkeypatch.setenv("PYTHONPATH", str(FIXTURE_SITE))
    catalog = load_catalog()
    store = open_store(store_kind, tmp_path, request)
    await store.open()
    placement = RulesPlacement(pool=WorkerPool(1, memory_mb=300), budgets=RulesBudgets(rules=0.5))
    engine = MatchEngine(catalog, store, placement=placement, max_strikes=2)
    await engine.start()
    try:
        live = await engine.create_match("faulty", seats=1, options={"fault": "hang"})
        await engine.join(live.id, 0, "p")
        for _ in range(2):
            with pytest.raises(errors.DeadlineExceeded):
                await engine.legal_moves(live, 0)
        for _ in range(50):
            if live.record.status == "suspended":
                break
            await asyncio.sleep(0.05)
        assert live.record.status_detail["reason"] == "RULES_TIMEOUT" and live.strikes == 2
        # Another engine on the same store (a restart) reads the suspension back, without running rules.
        later = MatchEngine(catalog, store)
        kept = await later.live_match(live.id)
        assert kept.record.status == "suspended" and kept.record.status_detail == live.record.status_detail
        assert live.id not in {r.id for r in await store.unfinished_matches()}, "not restored at start"
        await engine.reset_rules_for_resume(live)
        assert live.strikes == 0
        assert (await engine.state_of(live))["count"] == 0, "held again by a (new) worker"
    finally:
        await engine.close()
        await engine.close_rules()
        await store.close()


async def test_a_bot_match_whose_apply_raises_on_every_choice_is_suspended_not_retried_for_ever(monkeypatch):
    """Each retry of a host move draws afresh, so one raise in ``apply`` is
    no strike; every third in a row is (APPLY_FAILURES_PER_STRIKE)."""
    from hosts import FIXTURE_SITE

    from gamehost.host.engine.match_engine import MatchEngine
    from gamehost.host.plugins import load_catalog
    from gamehost.host.store.memory import MemoryStore

    monkeypatch.syspath_prepend(str(FIXTURE_SITE))
    catalog = load_catalog()
    store = MemoryStore()
    await store.open()
    engine = MatchEngine(catalog, store, host_move_retry=0.001, max_strikes=2)
    await engine.start()
    try:
        live = await engine.create_match("faulty", seats=2, bot_seats=(0, 1), options={"fault": "raise-in-apply"})
        for _ in range(400):
            if live.record.status == "suspended":
                break
            await asyncio.sleep(0.025)
        assert live.record.status == "suspended", live.record
        assert live.record.status_detail["reason"] == "PLUGIN_ERROR"
        assert "apply" in live.record.status_detail["message"]
        assert live.strikes == 2 and await store.add_strike(live.id) == 3  # the two strikes are the store's
        events = await store.events(live.id)
        assert [e["kind"] for e in events][-1] == "suspended" and not any(e["kind"] == "moved" for e in events)
    finally:
        await engine.close()
        await engine.close_rules()
        await store.close()


@pytest.mark.parametrize(("args", "env", "complaint"), [
    (["--rules-timeout", "0"], {}, "argument --rules-timeout: 0.0 is not more than 0"),
    (["--workers", "0"], {}, "argument --workers: 0 is not from 1 to 256"),
    (["--game-rules-timeouts", "kensington"], {}, "expected game=seconds"),
    ([], {"GAMEHOST_BOT_TIMEOUT": "-2"}, "GAMEHOST_BOT_TIMEOUT in the environment: -2.0 is not more than 0"),
    ([], {"GAMEHOST_ISOLATION": "maybe"}, "isolation is 'on' or 'off', not 'maybe'"),
])
def test_isolation_settings_out_of_range_are_usage_errors(args, env, complaint):
    refused = subprocess.run([sys.executable, "-m", "gamehost.cli.main", "serve", "--store", "memory", *args],
                             capture_output=True, text=True, timeout=30, env={**os.environ, **env})
    assert refused.returncode == 2 and complaint in refused.stderr, refused.stderr
