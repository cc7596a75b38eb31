"""Several host replicas on one PostgreSQL: any replica serves any match,
watchers follow moves made elsewhere, bot turns are played exactly once, and
a replica killed mid-run leaves nothing lost or doubled."""

from __future__ import annotations

import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import grpc
import psycopg
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from gamehost.client import GameHostClient, GameHostError
from gamehost.v1 import gamehost_pb2 as pb

pytestmark = pytest.mark.timeout(240)


@pytest.fixture()
def replicas(start_host, postgres_url):
    """Two hosts sharing one fresh database; takeover after a second."""
    return [start_host("--store", postgres_url, "--claim-lease", "1", "--replica-id", name) for name in "ab"]


def play_to_end(clients: list[GameHostClient], match: str, tokens: dict[int, str]) -> None:
    """Both seats play their first legal move, each move through the next replica."""
    for turn in range(100):
        client = clients[turn % len(clients)]
        seat = client.match(match).to_move
        if not seat:
            return
        token = tokens[seat[0]]
        view = client.view(match, token)
        client.move(match, token, move_id=view.legal_moves[0].id, expected_version=view.version)
    raise AssertionError("the match did not end")


def watch_in_background(client: GameHostClient, match: str) -> tuple[threading.Thread, list[int]]:
    """A thread that collects the versions the client's watch stream sends."""
    seen: list[int] = []
    watcher = threading.Thread(target=lambda: seen.extend(e.version for e in client.watch(match)), daemon=True)
    watcher.start()
    return watcher, seen


def test_a_move_on_replica_a_reaches_a_watcher_on_replica_b(replicas):
    a, b = replicas
    with a.client() as on_a, b.client() as on_b:
        match = on_a.create_match("tictactoe", seed=1).name
        tokens = {0: on_b.join(match).player_token, 1: on_a.join(match).player_token}
        watcher, seen = watch_in_background(on_b, match)
        play_to_end([on_a, on_b], match, tokens)
        watcher.join(30)
        final = on_a.match(match)
        assert final.status == pb.MATCH_STATUS_FINISHED
        assert seen == list(range(1, final.version + 1))
        assert on_b.log(match) == on_a.log(match)


def test_a_seat_joined_on_one_replica_moves_on_the_other_and_reads_its_own_move(replicas):
    a, b = replicas
    with a.client() as on_a, b.client() as on_b:
        match = on_a.create_match("tictactoe", bots=[1], seed=2).name
        on_b.view(match)  # b holds a copy before the join below makes it stale
        token = on_a.join(match).player_token
        view = on_b.view(match, token)  # b catches up: the token is known there
        answer = on_b.move(match, token, move_id=view.legal_moves[0].id)
        assert on_a.view(match, token).version >= answer.version


def test_a_bot_turn_is_played_once_though_both_replicas_hold_the_match(replicas):
    a, b = replicas
    with a.client() as on_a, b.client() as on_b:
        matches = [on_a.create_match("tictactoe", bots=[0, 1], seed=seed).name for seed in range(10)]
        for match in matches:
            on_b.view(match)
        deadline = time.monotonic() + 60
        while any(on_a.match(m).status != pb.MATCH_STATUS_FINISHED for m in matches):
            assert time.monotonic() < deadline, "bot matches did not finish"
            time.sleep(0.1)
        for match in matches:
            log = on_b.log(match)
            assert [e.version for e in log.events] == list(range(1, len(log.events) + 1))
    bot_moves = [line for host in replicas for line in host.logs if line.get("event") == "move applied"]
    moved = sum(1 for m in matches for e in GameHostClient(a.target).log(m).events if e.kind == pb.EVENT_KIND_MOVED)
    assert len(bot_moves) == moved  # each applied exactly once, by one replica


def test_a_bot_turn_claimed_by_a_killed_replica_is_taken_over(start_host, postgres_url):
    a, b = [start_host("--store", postgres_url, "--claim-lease", "1", "--bot-delay-with-humans", "0.5",
                       "--replica-id", name) for name in "ab"]
    with a.client() as on_a, b.client() as on_b:
        match = on_a.create_match("tictactoe", bots=[1], seed=3).name
        token = on_a.join(match, seat=0).player_token
        moved = on_b.move(match, token, move_id=on_b.view(match, token).legal_moves[0].id)
        b.kill()  # b claimed the bot's reply and waits half a second before playing it
        deadline = time.monotonic() + 30
        while on_a.match(match).version == moved.version:
            assert time.monotonic() < deadline, "nobody took over the bot turn"
            time.sleep(0.1)
        assert on_a.log(match).events[-1].seat == 1
    assert any(line.get("event") == "turn claimed" and line.get("match_id") == match.removeprefix("matches/")
               for line in a.logs)


@pytest.mark.long_running
def test_two_hundred_matches_over_two_replicas_survive_duplicates_and_a_sigkill(replicas):
    """Clients spread over both replicas send every move twice at once (once
    to each replica, same request id). Midway, replica b is SIGKILLed; its
    clients go on against a, and a takes over the bot turns b had claimed."""
    a, b = replicas
    channels = {host.target: grpc.insecure_channel(host.target) for host in replicas}
    clients = {target: GameHostClient(channel=channel, timeout=20) for target, channel in channels.items()}
    alive = [a.target, b.target]
    setup = clients[a.target]
    matches = []
    for seed in range(200):
        bots = [1] if seed % 4 == 0 else []  # a quarter against a bot: their turns get claimed
        name = setup.create_match("tictactoe", bots=bots, seed=seed).name
        tokens = {seat: setup.join(name, seat=seat).player_token for seat in range(2) if seat not in bots}
        matches.append((name, tokens))
    acknowledged: dict[str, dict[str, tuple[int, int]]] = {name: {} for name, _ in matches}
    moves_done = [0]
    killed = threading.Event()

    def kill_b_midway() -> None:
        while moves_done[0] < 500:
            time.sleep(0.01)
        b.kill()
        alive.remove(b.target)
        killed.set()

    def submit(target: str, name: str, token: str, move_id: str, request_id: str):
        try:
            return clients[target].move(name, token, move_id=move_id, request_id=request_id)
        except GameHostError as error:
            if error.code == grpc.StatusCode.UNAVAILABLE or target not in alive:
                return None  # that replica died: the client retries elsewhere with the same request id
            raise

    def play(index: int) -> None:
        name, tokens = matches[index]
        rng = random.Random(index)
        for _ in range(200):
            target = rng.choice(alive)
            try:
                view_any = clients[target].match(name)
            except GameHostError:
                continue  # the replica just died
            if view_any.status == pb.MATCH_STATUS_FINISHED:
                return
            seat = view_any.to_move[0] if view_any.to_move else None
            if seat not in tokens:
                time.sleep(0.02)  # the bot's turn
                continue
            try:
                view = clients[target].view(name, tokens[seat])
            except GameHostError:
                continue
            if not view.legal_moves:
                continue
            move_id = rng.choice(view.legal_moves).id
            request_id = f"{index}-{view.version}"
            while True:
                targets = list(alive)
                with ThreadPoolExecutor(len(targets)) as pool:  # the same move to every replica at once
                    answers = [a for a in pool.map(lambda t: submit(t, name, tokens[seat], move_id, request_id),
                                                   targets) if a is not None]
                if answers:
                    break
            assert len({answer.version for answer in answers}) == 1, "duplicates got different versions"
            acknowledged[name][request_id] = (answers[0].version, seat)
            moves_done[0] += 1
        raise AssertionError(f"{name} did not end")

    killer = threading.Thread(target=kill_b_midway, daemon=True)
    killer.start()
    with ThreadPoolExecutor(8) as pool:
        for finished in pool.map(play, range(len(matches))):
            assert finished is None
    assert killed.is_set(), "the run ended before replica b was killed"

    for name, tokens in matches:
        log = clients[a.target].log(name)
        assert [e.version for e in log.events] == list(range(1, len(log.events) + 1)), f"{name}: gap or repeat"
        assert log.events[-1].kind == pb.EVENT_KIND_FINISHED
        human_moves = {e.version: e.seat for e in log.events if e.kind == pb.EVENT_KIND_MOVED and e.seat in tokens}
        # Every acknowledged move is in the log once, at the version it was
        # acknowledged with, and the log has no human move nobody asked for.
        assert {version: seat for version, seat in acknowledged[name].values()} == human_moves, name
    for channel in channels.values():
        channel.close()


def test_a_turn_deadline_is_acted_on_once_across_replicas(replicas):
    a, b = replicas
    with a.client() as on_a, b.client() as on_b:
        match = on_a.create_match("tictactoe", seed=9, turn_timeout=0.3).name
        on_a.join(match)
        on_b.join(match)
        on_a.view(match)  # both replicas hold a copy
        events = list(on_b.watch(match))  # nobody moves: timeouts play the whole match
        assert events[-1].kind == pb.EVENT_KIND_FINISHED
        moves = [e for e in events if e.kind == pb.EVENT_KIND_MOVED]
        assert moves and all(e.timed_out for e in moves)
        assert [e.version for e in on_a.log(match).events] == list(range(1, events[-1].version + 1))
    acted = [line for host in replicas for line in host.logs if line.get("event") == "turn timed out"]
    assert len(acted) == len(moves)


def test_watchers_keep_following_after_the_notification_connection_is_cut(replicas, postgres_url):
    a, b = replicas
    with a.client() as on_a, b.client() as on_b:
        match = on_a.create_match("tictactoe", seed=4).name
        tokens = {0: on_a.join(match).player_token, 1: on_a.join(match).player_token}
        watcher, seen = watch_in_background(on_b, match)
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            cut = admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                "WHERE query LIKE 'LISTEN %' AND datname = current_database()").fetchall()
        assert len(cut) == 2  # each replica's listening connection
        play_to_end([on_a], match, tokens)  # every move on a; b hears of them once it has reconnected
        watcher.join(30)
        assert seen == list(range(1, on_a.match(match).version + 1))
    assert any(line.get("event") == "notifications resumed" for line in b.logs)


def test_a_replica_is_not_ready_while_the_database_refuses_it_and_ready_again_after(start_host, postgres_url):
    host = start_host("--store", postgres_url, "--store-check-interval", "0.2")
    database = postgres_url.rsplit("/", 1)[1]
    admin_url = postgres_url.rsplit("/", 1)[0] + "/postgres"

    def readiness() -> int:
        with host.channel() as channel:
            return health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service="gamehost.v1.GameHost"), timeout=5).status

    def becomes(status: int) -> None:
        deadline = time.monotonic() + 20
        while readiness() != status:
            assert time.monotonic() < deadline, f"readiness never became {status}"
            time.sleep(0.1)

    with psycopg.connect(admin_url, autocommit=True) as admin:
        assert readiness() == health_pb2.HealthCheckResponse.SERVING
        admin.execute(f"ALTER DATABASE {database} CONNECTION LIMIT 0")
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (database,))
        becomes(health_pb2.HealthCheckResponse.NOT_SERVING)
        admin.execute(f"ALTER DATABASE {database} CONNECTION LIMIT -1")
        becomes(health_pb2.HealthCheckResponse.SERVING)
    with host.client() as client:  # and it serves again
        match = client.create_match("tictactoe", bots=[1])
        assert client.join(match.name).match.status == pb.MATCH_STATUS_ACTIVE


async def test_a_catch_up_during_a_load_begun_outside_the_lock_applies_each_step_once(postgres_url, tmp_path):
    """The race CI once hit: a view (no lock) starts loading a match into the
    rules while a read catches up with another replica's moves under the
    lock. The load holds the steps it read; the catch-up must apply only
    the later ones, or the rules see a move twice ("It is O's turn")."""
    import asyncio

    from gamehost.host.engine.match_engine import MatchEngine
    from gamehost.host.plugins import load_catalog
    from gamehost.host.store import open_store

    catalog = load_catalog()
    stores = [open_store(postgres_url, str(tmp_path)) for _ in "ab"]
    for store in stores:
        await store.open()
    class LoadsHeldBack(MatchEngine):
        """Its rules' loads, once they have read the store, wait while ``held_back`` is set."""
        held_back: asyncio.Event | None = None

        async def _rules_source(self, live):
            source = await super()._rules_source(live)
            if self.held_back is not None:
                await self.held_back.wait()
            return source

    a, b = MatchEngine(catalog, stores[0]), LoadsHeldBack(catalog, stores[1])
    for engine in (a, b):
        await engine.start()
    try:
        live_a = await a.create_match("tictactoe", seed=1)
        tokens = [(await a.join(live_a.id, seat, f"p{seat}"))[2] for seat in (0, 1)]

        async def move_on_a() -> None:
            seat = (await a.to_move(live_a))[0]
            await a.submit(live_a.id, tokens[seat], move_id=(await a.legal_moves(live_a, seat))[0].id)

        await move_on_a()
        live_b = await b.live_match(live_a.id)  # held by b, not yet loaded into its rules
        release = asyncio.Event()
        b.held_back = release  # the catch-up runs while this load is in flight
        view = asyncio.create_task(b.view(live_b, None))
        await asyncio.sleep(0.05)
        await move_on_a()
        await move_on_a()
        catch_up = asyncio.create_task(b.read_match(live_a.id))
        await asyncio.sleep(0.05)
        release.set()
        await asyncio.gather(view, catch_up)
        b.held_back = None
        await move_on_a()
        await b.read_match(live_a.id)
        assert live_b.version == live_a.version
        assert await b.to_move(live_b) == await a.to_move(live_a)
        assert [m.id for m in await b.legal_moves(live_b, (await b.to_move(live_b))[0])] == \
            [m.id for m in await a.legal_moves(live_a, (await a.to_move(live_a))[0])]
    finally:
        for engine in (a, b):
            await engine.close()
            await engine.close_rules()
        for store in stores:
            await store.close()
