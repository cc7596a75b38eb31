"""Matchmaking: signed-in players queue with tickets and
are seated together in one match; tickets expire, can be cancelled, fill
with bots after the wait their player chose, respect rating ranges and a
per-player bound; anonymous callers are refused; a ticket queued on one
replica is matched with one queued on another (two hosts, one PostgreSQL).

One host for the module (memory store); every test ends its tickets, so no
ticket of one test is left queued for the next."""

from __future__ import annotations

import asyncio
import http.client
import json
import queue
import struct
import subprocess
import sys
import threading
import time
import uuid

import grpc
import pytest

from gamehost.host.engine.matchmaking import OPEN_TICKETS_PER_PLAYER
from gamehost.host.store.base import TicketRecord
from gamehost.host.store.memory import MemoryStore
from gamehost.host.store.sqlite import SQLiteStore
from gamehost.v1 import gamehost_pb2 as pb
from call_errors import error_of

pytestmark = pytest.mark.timeout(180)

X_WINS = "a1 b1 a2 b2 a3".split()  # the player in seat 0 (X) completes column a


@pytest.fixture(scope="module")
def host(signed_in_host):
    return signed_in_host


def states(tickets) -> list[int]:
    return [ticket.state for ticket in tickets]


def ends_in(seen, state: int) -> bool:
    """A watch saw the ticket queued (none of it, on a slow machine that
    opened the stream late) and then ``state``, where it ended."""
    return bool(seen) and seen[-1].state == state and set(states(seen[:-1])) <= {pb.TICKET_STATE_QUEUED}



def test_two_signed_in_players_queue_and_are_seated_in_one_rated_match(host, user):
    (alice, alice_token), (bob, bob_token) = user("alice"), user("bob")
    with host.client(alice_token) as a, host.client(bob_token) as b:
        queued = a.create_ticket("tictactoe", ttl=60)
        assert queued.state == pb.TICKET_STATE_QUEUED and queued.name.startswith("tickets/")
        assert (queued.game, queued.seats, queued.rating, queued.match) == ("games/tictactoe", 2, 0.0, "")
        matched = b.create_ticket("tictactoe", ttl=60)
        # Bob's ticket completes the pool: his answer is the match already.
        assert matched.state == pb.TICKET_STATE_MATCHED and matched.match.startswith("matches/")
        seen = list(a.watch_ticket(queued.name))  # the stream ends once the ticket is matched
        assert ends_in(seen, pb.TICKET_STATE_MATCHED) and seen[-1].match == matched.match
        assert a.ticket(queued.name) == seen[-1]
        assert {seen[-1].seat, matched.seat} == {0, 1}
        match = a.match(matched.match)
        assert match.status == pb.MATCH_STATUS_ACTIVE
        assert [(s.player_name, s.verified) for s in match.seats] == \
            [("Alice", True), ("Bob", True)][::1 if seen[-1].seat == 0 else -1]
        # Each player's seat: JoinMatch hands its token, or play by identity.
        joined = a.join(matched.match)
        assert joined.seat == seen[-1].seat and joined.player_token
        x, o = (a, b) if seen[-1].seat == 0 else (b, a)
        # A match that starts at once is in its first mover's "your turn" list at once.
        assert [m.name for m in x.matches(my_turn=True)] == [matched.match] and o.matches(my_turn=True) == []
        for turn, move in enumerate(X_WINS):
            (x if turn % 2 == 0 else o).move(matched.match, "", move_id=move)
        assert a.match(matched.match).status == pb.MATCH_STATUS_FINISHED
        # Two signed-in players and no bot: the match is rated.
        assert (a.profile().games, b.profile().games) == (1, 1)
        winner, loser = (alice, bob) if seen[-1].seat == 0 else (bob, alice)
        assert (a.profile(winner).wins, a.profile(loser).losses) == (1, 1)
        # Queuing again, each carries the rating the match gave them, which ranges are held to.
        again = a.create_ticket("tictactoe", ttl=60)
        [rated] = a.profile().ratings
        assert again.rating == pytest.approx(rated.rating) and again.rating != 0.0
        a.cancel_ticket(again.name)


def test_a_ticket_expires_after_its_ttl(host, user):
    _, token = user("carol")
    with host.client(token) as c:
        ticket = c.create_ticket("tictactoe", ttl=1)
        assert ticket.expire_time.ToNanoseconds() - ticket.create_time.ToNanoseconds() == 1_000_000_000
        assert ends_in(list(c.watch_ticket(ticket.name)), pb.TICKET_STATE_EXPIRED)
        assert c.ticket(ticket.name).state == pb.TICKET_STATE_EXPIRED
        error = error_of(c.cancel_ticket, ticket.name)
        assert (error.code, error.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "TICKET_EXPIRED")


def test_a_cancelled_ticket_leaves_the_queue_and_is_matched_with_nobody(host, user):
    (_, dave_token), (_, erin_token) = user("dave"), user("erin")
    with host.client(dave_token) as d, host.client(erin_token) as e:
        ticket = d.create_ticket("tictactoe", seats=2, ttl=60)
        cancelled = d.cancel_ticket(ticket.name)
        assert cancelled.state == pb.TICKET_STATE_CANCELLED and cancelled.match == ""
        assert d.cancel_ticket(ticket.name) == cancelled  # a retry answers the same
        assert states(d.watch_ticket(ticket.name)) == [pb.TICKET_STATE_CANCELLED]
        error = error_of(e.cancel_ticket, ticket.name)  # only its player may touch it
        assert (error.code, error.reason) == (grpc.StatusCode.PERMISSION_DENIED, "NOT_TICKET_HOLDER")
        alone = e.create_ticket("tictactoe", ttl=60)
        assert alone.state == pb.TICKET_STATE_QUEUED  # Dave's cancelled ticket is out of the pool
        assert e.cancel_ticket(alone.name).state == pb.TICKET_STATE_CANCELLED


def test_bots_fill_the_seats_after_the_chosen_wait(host, user):
    fay, token = user("fay")
    with host.client(token) as f:
        bot = f.game("tictactoe").bots[-1].name  # a bot of the game's catalog
        ticket = f.create_ticket("tictactoe", ttl=60, bot_wait=0.5, bot=bot)
        assert ticket.state == pb.TICKET_STATE_QUEUED and ticket.bot_wait.ToMilliseconds() == 500
        seen = list(f.watch_ticket(ticket.name))
        assert ends_in(seen, pb.TICKET_STATE_MATCHED)
        final = seen[-1]
        waited = final.update_time.ToNanoseconds() - final.create_time.ToNanoseconds()
        assert waited >= 500_000_000  # not before the wait
        match = f.match(final.match)
        assert match.seats[final.seat].player_name == "Fay" and match.seats[final.seat].verified
        [other] = [s for s in match.seats if s.index != final.seat]
        assert (other.kind, other.bot) == (pb.SEAT_KIND_BOT, bot)


def test_rating_ranges_keep_players_apart(host, user):
    (_, gus_token), (_, hal_token), (_, nia_token) = user("gus"), user("hal"), user("nia")
    with host.client(gus_token) as g, host.client(hal_token) as h, host.client(nia_token) as n:
        picky = g.create_ticket("tictactoe", ttl=60, min_rating=5.0)  # Hal and Nia, new, are rated 0
        other = h.create_ticket("tictactoe", ttl=60)
        assert (picky.state, other.state) == (pb.TICKET_STATE_QUEUED, pb.TICKET_STATE_QUEUED)
        assert picky.min_rating == 5.0 and not other.HasField("min_rating")
        # Nia fits Hal's (absent) range and he hers; Gus, who waited longest, is passed over.
        matched = n.create_ticket("tictactoe", ttl=60, max_rating=1.0)
        assert matched.state == pb.TICKET_STATE_MATCHED
        assert {s.player_name for s in n.match(matched.match).seats} == {"Hal", "Nia"}
        assert g.ticket(picky.name).state == pb.TICKET_STATE_QUEUED
        g.cancel_ticket(picky.name)


def test_player_counts_and_variants_split_the_queue(host, user):
    (_, ivy_token), (_, jon_token) = user("ivy"), user("jon")
    with host.client(ivy_token) as i, host.client(jon_token) as j:
        waiting = [i.create_ticket("callisto", seats=3, ttl=60), j.create_ticket("callisto", seats=2, ttl=60),
                   i.create_ticket("callisto", seats=2, variant="one-sided", ttl=60)]
        assert states(waiting) == [pb.TICKET_STATE_QUEUED] * 3
        # The same variant as options, keys in another order: the same pool.
        options = dict(reversed(list(i.ticket(waiting[2].name).options.items())))
        matched = j.create_ticket("callisto", seats=2, options=options, ttl=60)
        assert matched.state == pb.TICKET_STATE_MATCHED
        assert j.match(matched.match).seats[matched.seat].player_name == "Jon"
        i.cancel_ticket(waiting[0].name)
        j.cancel_ticket(waiting[1].name)


def test_a_player_holds_a_bounded_number_of_queued_tickets(host, user):
    _, token = user("kim")
    with host.client(token) as k:
        tickets = [k.create_ticket("tictactoe", ttl=60) for _ in range(OPEN_TICKETS_PER_PLAYER)]
        error = error_of(k.create_ticket, "tictactoe", ttl=60)
        assert (error.code, error.reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "TICKET_LIMIT")
        k.cancel_ticket(tickets[0].name)
        tickets.append(k.create_ticket("tictactoe", ttl=60))  # a cancelled one frees its place
        for ticket in tickets[1:]:
            k.cancel_ticket(ticket.name)


def test_bad_tickets_are_refused_with_the_field_named(host, user):
    _, token = user("lee")
    with host.client(token) as l:
        for kwargs, field in [({"ttl": 7200}, "ttl"), ({"ttl": 60, "bot_wait": 60}, "bot_wait"),
                              ({"seats": 5}, "seats"), ({"bot": "nobody"}, "bot"),
                              ({"min_rating": 3, "max_rating": 1}, "min_rating"),
                              ({"max_rating": float("nan")}, "max_rating"),
                              ({"options": {"nosuch": 1}}, "options")]:
            error = error_of(l.create_ticket, "tictactoe", **kwargs)
            assert error.code == grpc.StatusCode.INVALID_ARGUMENT and field in error.message, kwargs
        assert error_of(l.ticket, "tickets/nosuch").code == grpc.StatusCode.NOT_FOUND
        # Nothing was queued: the whole bound is still free.
        tickets = [l.create_ticket("tictactoe", ttl=60) for _ in range(OPEN_TICKETS_PER_PLAYER)]
        for ticket in tickets:
            l.cancel_ticket(ticket.name)


def test_an_anonymous_caller_cannot_queue(host, user):
    _, token = user("max")
    with host.client() as anonymous, host.client(token) as m:
        error = error_of(anonymous.create_ticket, "tictactoe")
        assert (error.code, error.reason) == (grpc.StatusCode.UNAUTHENTICATED, "SIGN_IN_REQUIRED")
        assert "sign in" in error.message
        ticket = m.create_ticket("tictactoe", ttl=60)
        assert error_of(anonymous.ticket, ticket.name).code == grpc.StatusCode.UNAUTHENTICATED
        assert error_of(anonymous.cancel_ticket, ticket.name).code == grpc.StatusCode.UNAUTHENTICATED
        assert m.cancel_ticket(ticket.name).state == pb.TICKET_STATE_CANCELLED


def test_a_ticket_on_one_replica_is_matched_with_one_on_the_other(start_host, postgres_url, idp):
    a, b = [start_host("--store", postgres_url, "--replica-id", name, *idp.host_args()) for name in "ab"]
    alice, bob = (f"{name}-{uuid.uuid4().hex[:6]}" for name in ("alice", "bob"))
    with a.client(idp.token(alice, name="Alice")) as on_a, b.client(idp.token(bob, name="Bob")) as on_b:
        queued = on_a.create_ticket("tictactoe", ttl=60)
        assert queued.state == pb.TICKET_STATE_QUEUED
        # Alice watches on a; b forms the match; a's stream hears of it from
        # the store's notification, long before the ticket would expire.
        seen: queue.Queue = queue.Queue()
        watcher = threading.Thread(target=lambda: [seen.put(t) for t in on_a.watch_ticket(queued.name, timeout=30)],
                                   daemon=True)
        watcher.start()
        assert seen.get(timeout=30).state == pb.TICKET_STATE_QUEUED
        matched = on_b.create_ticket("tictactoe", ttl=60)
        if matched.state != pb.TICKET_STATE_MATCHED:  # a's sweep formed it first
            matched = list(on_b.watch_ticket(matched.name, timeout=30))[-1]
        final = seen.get(timeout=30)
        watcher.join(30)
        assert final.state == pb.TICKET_STATE_MATCHED and not watcher.is_alive()
        assert final.match == matched.match and {final.seat, matched.seat} == {0, 1}
        error = error_of(on_b.ticket, queued.name)  # b reads it from the store, and keeps it Alice's
        assert (error.code, error.reason) == (grpc.StatusCode.PERMISSION_DENIED, "NOT_TICKET_HOLDER")
        assert on_a.match(final.match).status == on_b.match(final.match).status == pb.MATCH_STATUS_ACTIVE
        assert on_a.join(final.match).seat == final.seat
        assert len(on_a.matches(mine=True)) == 1  # one replica formed it, once


def test_a_browser_queues_and_follows_its_ticket_over_connect(host, user):
    """The web port: CreateTicket in Connect JSON, WatchTicket as a Connect
    server stream, each with the player's bearer token."""
    (_, browser_token), (_, other_token) = user("olga"), user("pia")
    signed_in = {"Authorization": f"Bearer {browser_token}"}
    connection = http.client.HTTPConnection("127.0.0.1", host.web_port, timeout=30)
    try:
        connection.request("POST", "/gamehost.v1.GameHost/CreateTicket",
                           json.dumps({"game": "games/tictactoe", "ttl": "60s"}),
                           {"Content-Type": "application/json", **signed_in})
        answer = connection.getresponse()
        queued = json.loads(answer.read())
        assert answer.status == 200 and queued["state"] == "TICKET_STATE_QUEUED", queued
        request = json.dumps({"name": queued["name"]}).encode()
        connection.request("POST", "/gamehost.v1.GameHost/WatchTicket", struct.pack(">BI", 0, len(request)) + request,
                           {"Content-Type": "application/connect+json", **signed_in})
        stream = connection.getresponse()

        def frame() -> tuple[int, dict]:
            flags, length = struct.unpack(">BI", stream.read(5))
            return flags, json.loads(stream.read(length))

        assert frame() == (0, queued)  # the ticket at once
        with host.client(other_token) as other:
            matched = other.create_ticket("tictactoe", ttl=60)
        flags, last = frame()
        assert flags == 0 and last["state"] == "TICKET_STATE_MATCHED" and last["match"] == matched.match
        assert frame() == (0x02, {})  # then the stream ends, without error
    finally:
        connection.close()


def test_the_command_line_queues_and_prints_the_match(host, user):
    _, token = user("quinn")

    def queue_command(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "gamehost.cli.main", "queue", "tictactoe", "--host", host.target,
                               "--bearer-token", token, *args], capture_output=True, text=True, timeout=60)

    matched = queue_command("--ttl", "30", "--bot-wait", "0")
    assert matched.returncode == 0, matched.stderr
    assert "queued for games/tictactoe, 2 players" in matched.stdout and "matches/" in matched.stdout
    expired = queue_command("--ttl", "1")
    assert expired.returncode == 1 and expired.stdout.rstrip().endswith(": expired"), expired.stdout


# ---------------------------------------------------------------- the stores


def ticket(subject: str, pool: str = "tictactoe/2/x", **fields) -> TicketRecord:
    now = time.time()
    times = {"create_time": now, "expire_time": now + 60, "update_time": now}
    return TicketRecord(uuid.uuid4().hex[:16], subject, subject.title(), "tictactoe", 2, {}, pool,
                        **{**times, **fields})


async def exercise_store(store) -> None:
    """A store's ticket rules: the bound on queued tickets, one match per
    ticket (what form_match places is matched; a later form sees none of
    it), cancel only while queued, expiry."""
    await store.open()
    try:
        first, second, third = ticket("p1"), ticket("p2"), ticket("p3", expire_time=time.time() - 1)
        assert await store.add_ticket(first, 1) and await store.add_ticket(second, 1)
        assert not await store.add_ticket(ticket("p1"), 1)  # p1 has one queued already
        assert await store.add_ticket(third, 1)
        assert await store.pools_to_match(time.time(), time.time() - 10) == ["tictactoe/2/x"]
        assert await store.pools_to_match(time.time(), time.time() + 1) == []  # nothing recent, no bot waits
        offered = []

        async def form(queued):
            offered.append([t.id for t in queued])
            return {first.id: ("m1", 0), second.id: ("m1", 1)}

        now = time.time()
        assert await store.form_match("tictactoe/2/x", now, form) == {first.id: ("m1", 0), second.id: ("m1", 1)}
        assert offered == [[first.id, second.id]]  # the expired one is not offered
        assert await store.form_match("tictactoe/2/x", now, form) == {} and len(offered) == 1
        matched = await store.get_ticket(first.id)
        assert (matched.state, matched.match_id, matched.seat) == ("matched", "m1", 0)
        assert not await store.cancel_ticket(first.id, now)
        assert [(t.id, t.game_id, t.state) for t in await store.expire_tickets(now, 0)] == [
            (third.id, "tictactoe", "expired")]
        assert (await store.get_ticket(third.id)).state == "expired"
        assert await store.pools_to_match(time.time(), 0) == []  # nothing queued
        await store.expire_tickets(now, now + 1)  # forgets the tickets over
        assert await store.get_ticket(first.id) is None

        async def failing(queued):
            raise RuntimeError("the match could not be created")

        fourth = ticket("p4")
        await store.add_ticket(fourth, 1)
        with pytest.raises(RuntimeError):
            await store.form_match(fourth.pool, now, failing)
        assert (await store.get_ticket(fourth.id)).state == "queued"  # nothing written

        # A cancel while the ticket is being placed waits, then finds it matched.
        holding, release = asyncio.Event(), asyncio.Event()

        async def slow_form(queued):
            holding.set()
            await release.wait()
            return {t.id: ("m3", seat) for seat, t in enumerate(queued)}

        forming = asyncio.create_task(store.form_match(fourth.pool, time.time(), slow_form))
        await asyncio.wait_for(holding.wait(), 30)
        cancel = asyncio.create_task(store.cancel_ticket(fourth.id, time.time()))
        await asyncio.sleep(0.05)  # let the cancel reach the store's lock (not a synchronisation: either order passes)
        release.set()
        assert await asyncio.wait_for(forming, 30) == {fourth.id: ("m3", 0)}
        assert await asyncio.wait_for(cancel, 30) is False
        assert (await store.get_ticket(fourth.id)).state == "matched"
    finally:
        await store.close()


@pytest.mark.parametrize("backend", ["memory", "sqlite"])
def test_each_store_places_a_ticket_in_one_match(backend, tmp_path):
    store = MemoryStore() if backend == "memory" else SQLiteStore(tmp_path / "gamehost.db")
    asyncio.run(exercise_store(store))


def test_postgres_places_a_ticket_in_one_match(postgres_url):
    from gamehost.host.store.postgres import PostgresStore
    asyncio.run(exercise_store(PostgresStore(postgres_url)))


def test_while_one_replica_forms_a_match_the_other_neither_forms_nor_cancels_it(postgres_url):
    """Two stores on one database, as two replicas: while one holds the pool
    (its match being created), the other's form_match passes (the holder sees
    the tickets) and a cancel of a ticket being placed waits, then finds it
    matched."""
    from gamehost.host.store.postgres import PostgresStore

    async def scenario():
        one, other = PostgresStore(postgres_url), PostgresStore(postgres_url)
        await one.open()
        await other.open()
        try:
            first, second = ticket("q1"), ticket("q2")
            await one.add_ticket(first, 4)
            await one.add_ticket(second, 4)
            holding, release = asyncio.Event(), asyncio.Event()

            async def slow_form(queued):
                holding.set()
                await release.wait()
                return {t.id: ("m2", seat) for seat, t in enumerate(queued)}

            async def never(queued):
                raise AssertionError("a second replica formed a match in a held pool")

            forming = asyncio.create_task(one.form_match(first.pool, time.time(), slow_form))
            await asyncio.wait_for(holding.wait(), 30)
            assert await other.form_match(first.pool, time.time(), never) == {}
            cancel = asyncio.create_task(other.cancel_ticket(first.id, time.time()))
            await asyncio.sleep(0)  # let the cancel reach the database before the release
            release.set()
            assert len(await asyncio.wait_for(forming, 30)) == 2
            assert await asyncio.wait_for(cancel, 30) is False
            assert (await other.get_ticket(first.id)).state == "matched"
        finally:
            await one.close()
            await other.close()

    asyncio.run(scenario())
