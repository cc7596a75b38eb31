"""Matchmaking a demanding player expects: a player lists their own tickets (queued first, then those over;
paged; by state) and nobody else's; a rating range widens while its ticket
waits, up to its most, held both ways as fixed ranges are, on every store;
bad widenings are refused with the field named; the queue's figures are on
the metrics port.

One host for the module (memory store, metrics on); every test ends its
tickets, so none of one test is left queued for the next."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import time
import urllib.request
import uuid

import grpc
import pytest
from prometheus_client.parser import text_string_to_metric_families

from gamehost.host.engine import ticket_matching as matchmaking
from gamehost.host.engine.matchmaking import OPEN_TICKETS_PER_PLAYER
from gamehost.host.store.base import TicketRecord
from gamehost.host.store.memory import MemoryStore
from gamehost.host.store.sqlite import MIGRATIONS as SQLITE_MIGRATIONS
from gamehost.host.store.sqlite import SQLiteStore
from gamehost.v1 import gamehost_pb2 as pb
from tests.hosts import HostProcess
from call_errors import error_of

pytestmark = pytest.mark.timeout(180)


@pytest.fixture(scope="module")
def host(idp):
    process = HostProcess(*idp.host_args(), "--metrics-port", "0").start()
    yield process
    process.stop()



def wait_for(predicate, timeout: float = 30.0, what: str = "the condition"):
    deadline = time.monotonic() + timeout
    while not (found := predicate()):
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)
    return found


def names(tickets) -> list[str]:
    return [ticket.name for ticket in tickets]


# ---------------------------------------------------------------- ListTickets


def test_a_player_lists_their_own_tickets_queued_first_then_those_over(host, user):
    (_, ann_token), (_, ben_token) = user("ann"), user("ben")
    with host.client(ann_token) as a, host.client(ben_token) as b:
        # Games nobody else queues for here, and one player's tickets never match each other.
        first = a.create_ticket("campanile", ttl=60)
        second = a.create_ticket("kensington", ttl=60)
        third = a.create_ticket("campanile", ttl=60)
        fourth = a.create_ticket("kensington", ttl=60)
        a.cancel_ticket(first.name)
        a.cancel_ticket(second.name)
        # Queued ones first, newest first; then those over, most recently closed first.
        expected = [fourth.name, third.name, second.name, first.name]
        assert names(a.tickets()) == expected
        assert names(a.tickets(page_size=1)) == expected  # one a page, through the page tokens
        assert names(a.tickets(page_size=3)) == expected
        assert names(a.tickets(states=[pb.TICKET_STATE_CANCELLED])) == [second.name, first.name]
        assert names(a.tickets(states=[pb.TICKET_STATE_QUEUED, pb.TICKET_STATE_MATCHED])) == \
            [fourth.name, third.name]
        assert a.tickets(states=[pb.TICKET_STATE_EXPIRED]) == []
        listed = {t.name: t for t in a.tickets()}
        assert listed[first.name] == a.ticket(first.name)  # the same Ticket GetTicket answers
        # A stranger lists only their own: none of Ann's.
        assert b.tickets() == []
        own = b.create_ticket("campanile", ttl=60, min_rating=50.0)  # Ann's campanile ticket is rated 0: no match
        assert names(b.tickets()) == [own.name]
        b.cancel_ticket(own.name)
        for queued in (third, fourth):
            a.cancel_ticket(queued.name)
        assert names(a.tickets(states=[pb.TICKET_STATE_QUEUED])) == []


def test_listing_tickets_refuses_strangers_and_bad_requests(host, user):
    _, token = user("cat")
    with host.client(token) as c, host.client() as anonymous:
        error = error_of(anonymous.tickets)
        assert (error.code, error.reason) == (grpc.StatusCode.UNAUTHENTICATED, "SIGN_IN_REQUIRED")
        error = error_of(c.tickets, states=[pb.TICKET_STATE_UNSPECIFIED])
        assert error.code == grpc.StatusCode.INVALID_ARGUMENT and error.field_violations[0][0] == "states"
        queued = [c.create_ticket("campanile", ttl=60), c.create_ticket("kensington", ttl=60)]
        page = c.stub.ListTickets(pb.ListTicketsRequest(page_size=1), metadata=c.metadata)
        assert page.next_page_token and len(page.tickets) == 1
        # A token is good only for the listing it came from.
        for request in (pb.ListTicketsRequest(page_token=page.next_page_token, states=[pb.TICKET_STATE_QUEUED]),
                        pb.ListTicketsRequest(page_token="not a token"),
                        pb.ListTicketsRequest(page_size=-1)):
            with pytest.raises(grpc.RpcError) as error:
                c.stub.ListTickets(request, metadata=c.metadata)
            assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT, request
        rest = c.stub.ListTickets(pb.ListTicketsRequest(page_size=1, page_token=page.next_page_token),
                                  metadata=c.metadata)
        assert names([*page.tickets, *rest.tickets]) == names(reversed(queued)) and not rest.next_page_token
        for ticket in queued:
            c.cancel_ticket(ticket.name)


# ---------------------------------------------------------------- widening ranges


def test_tickets_too_far_apart_match_once_their_ranges_have_widened(host, user):
    """New players are rated 0. Hal wants 3 or more, Nia 2 or less: both
    ranges must widen (both ways, as fixed ranges are held) before they are
    matched, Hal's 3 points at 4 a second, Nia's 2 at 4 a second. Gus, who
    queued first and also wants 3 or more, may widen by 1 only: he never
    reaches them, though his ticket is the oldest."""
    (_, gus_token), (_, hal_token), (_, nia_token) = user("gus"), user("hal"), user("nia")
    with host.client(gus_token) as g, host.client(hal_token) as h, host.client(nia_token) as n:
        gus = g.create_ticket("tictactoe", ttl=60, min_rating=3.0, widen_per_second=4.0, max_widening=1.0)
        hal = h.create_ticket("tictactoe", ttl=60, min_rating=3.0, widen_per_second=4.0, max_widening=5.0)
        nia = n.create_ticket("tictactoe", ttl=60, max_rating=-2.0, widen_per_second=4.0, max_widening=5.0)
        # Too far apart at first (Nia's answer may be a match already, on a machine slow enough).
        assert [t.state for t in (gus, hal)] == [pb.TICKET_STATE_QUEUED] * 2
        assert (hal.rating_widen_per_second, hal.rating_max_widening) == (4.0, 5.0)
        assert not hal.HasField("max_rating") and not hal.HasField("current_max_rating")
        assert -2.0 <= hal.current_min_rating <= 3.0  # widened by the moment the answer was made
        matched = [t for t in h.watch_ticket(hal.name)][-1]
        assert matched.state == pb.TICKET_STATE_MATCHED
        waited = (matched.update_time.ToNanoseconds() - matched.create_time.ToNanoseconds()) / 1e9
        assert waited >= 0.75 - 1e-3  # not before Hal's range reached 0 (the ranges are judged at update_time)
        nia_now = n.ticket(nia.name)
        assert (nia_now.state, nia_now.match) == (pb.TICKET_STATE_MATCHED, matched.match)
        assert (nia_now.update_time.ToNanoseconds() - nia_now.create_time.ToNanoseconds()) / 1e9 >= 0.5 - 1e-3
        assert nia_now.current_max_rating >= -1e-3  # the range it was matched with, reaching Hal's 0
        assert {s.player_name for s in h.match(matched.match).seats} == {"Hal", "Nia"}
        # Gus widened all he may (3 - 1) and waits on.
        gus_now = g.ticket(gus.name)
        assert gus_now.state == pb.TICKET_STATE_QUEUED and gus_now.current_min_rating == pytest.approx(2.0)
        g.cancel_ticket(gus.name)


def test_bad_widenings_are_refused_with_the_field_named(host, user):
    _, token = user("lee")
    with host.client(token) as l:
        cases = [
            ({"widen_per_second": 1.0, "max_widening": 5.0}, "rating_widen_per_second"),  # no range to widen
            ({"min_rating": 1.0, "widen_per_second": 1.0}, "rating_max_widening"),  # its most missing
            ({"min_rating": 1.0, "max_widening": 5.0}, "rating_widen_per_second"),  # its pace missing
            ({"min_rating": 1.0, "widen_per_second": 0.0, "max_widening": 5.0}, "rating_widen_per_second"),
            ({"min_rating": 1.0, "widen_per_second": -1.0, "max_widening": 5.0}, "rating_widen_per_second"),
            ({"min_rating": 1.0, "widen_per_second": 1e6, "max_widening": 5.0}, "rating_widen_per_second"),
            ({"min_rating": 1.0, "widen_per_second": 1.0, "max_widening": float("nan")}, "rating_max_widening"),
            ({"min_rating": 1.0, "widen_per_second": 1.0, "max_widening": float("inf")}, "rating_max_widening"),
            ({"min_rating": 1.0, "widen_per_second": 1.0, "max_widening": 1e9}, "rating_max_widening"),
        ]
        for kwargs, field in cases:
            error = error_of(l.create_ticket, "tictactoe", ttl=60, **kwargs)
            assert error.code == grpc.StatusCode.INVALID_ARGUMENT, kwargs
            assert [v[0] for v in error.field_violations] == [field] and field in error.message, kwargs
        assert l.tickets() == []  # nothing was queued
        tickets = [l.create_ticket("tictactoe", ttl=60, min_rating=90.0, widen_per_second=1000.0,
                                   max_widening=10000.0) for _ in range(OPEN_TICKETS_PER_PLAYER)]  # the limits
        for ticket in tickets:
            l.cancel_ticket(ticket.name)


def widening_ticket(subject: str, created: float, pool: str = "tictactoe/2/w", **fields) -> TicketRecord:
    return TicketRecord(uuid.uuid4().hex[:16], subject, subject.title(), "tictactoe", 2, {}, pool,
                        create_time=created, expire_time=created + 3000, update_time=created, **fields)


async def exercise_widening(store) -> None:
    """A store keeps a ticket's widening, offers it to the pool's forming
    as it does fixed ranges, and names the pool to the sweep while its range
    still widens (well after it was queued)."""
    await store.open()
    try:
        now = time.time()
        # Old: queued 100 s ago, its range (3 and up) has widened by 5, to -2: it accepts a player rated 0.
        old = widening_ticket("w1", now - 100, min_rating=3.0, widen_per_second=1.0, max_widening=5.0)
        # New: just queued, 3 and up: not yet; in 3 s it accepts 0.
        new = widening_ticket("w2", now, min_rating=3.0, widen_per_second=1.0, max_widening=5.0)
        assert await store.add_ticket(old, 4) and await store.add_ticket(new, 4)
        kept = await store.get_ticket(new.id)
        assert (kept.widen_per_second, kept.max_widening) == (1.0, 5.0)
        assert await store.pools_to_match(now, now - 10) == ["tictactoe/2/w"]  # `new` was queued lately
        assert await store.pools_to_match(now + 50, now + 40) == []  # both done widening by then
        # Queued 500 s ago, widening for 1000 s: tried though not queued lately.
        await store.add_ticket(widening_ticket("w3", now - 500, "tictactoe/2/slow", min_rating=3.0,
                                               widen_per_second=1.0, max_widening=1000.0), 4)
        assert await store.pools_to_match(now + 50, now + 40) == ["tictactoe/2/slow"]

        def form_at(moment: float):
            async def form(queued):
                chosen = matchmaking.choose_group(queued, moment)
                return {} if chosen is None else {t.id: ("m", seat) for seat, t in enumerate(chosen[0])}
            return form

        assert await store.form_match("tictactoe/2/w", now, form_at(now)) == {}
        assert (await store.get_ticket(new.id)).state == "queued"
        placed = await store.form_match("tictactoe/2/w", now, form_at(now + 3.5))
        assert set(placed) == {old.id, new.id}
    finally:
        await store.close()


@pytest.mark.parametrize("backend", ["memory", "sqlite"])
def test_each_store_keeps_and_matches_widening_ranges(backend, tmp_path):
    store = MemoryStore() if backend == "memory" else SQLiteStore(tmp_path / "gamehost.db")
    asyncio.run(exercise_widening(store))


def test_postgres_matches_widening_ranges_in_its_one_transaction(postgres_url):
    from gamehost.host.store.postgres import PostgresStore
    asyncio.run(exercise_widening(PostgresStore(postgres_url)))


def test_a_sqlite_database_of_the_previous_schema_keeps_its_tickets_with_fixed_ranges(tmp_path):
    """The widening columns come by migration: a ticket queued before reads
    back with its fixed range (no widening)."""
    path = tmp_path / "gamehost.db"
    old = sqlite3.connect(path)
    widening = next(i for i, m in enumerate(SQLITE_MIGRATIONS) if "widen_per_second" in m)
    for version, migration in enumerate(SQLITE_MIGRATIONS[:widening]):  # the schema before the widening
        old.executescript(f"BEGIN; {migration} PRAGMA user_version = {version + 1}; COMMIT;")
    now = time.time()
    old.execute("INSERT INTO tickets VALUES ('t1', 'p1', 'P1', 'tictactoe', 2, '{}', 'tictactoe/2/x', 0, 1.5, NULL, "
                "'random', NULL, ?, ?, 'queued', '', -1, ?)", (now, now + 60, now))
    old.commit()
    old.close()

    async def read():
        store = SQLiteStore(path)
        await store.open()
        try:
            return await store.get_ticket("t1")
        finally:
            await store.close()

    kept = asyncio.run(read())
    assert (kept.min_rating, kept.widen_per_second, kept.max_widening) == (1.5, None, None)
    assert matchmaking.rating_range(kept, now + 1000) == (1.5, None)


# ---------------------------------------------------------------- metrics


def scrape(host) -> dict[tuple[str, frozenset], float]:
    with urllib.request.urlopen(f"http://127.0.0.1:{host.metrics_port}/metrics", timeout=10) as response:
        text = response.read().decode()
    return {(sample.name, frozenset(sample.labels.items())): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples}


def value(samples, name: str, **labels) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def test_the_queue_figures_are_on_the_metrics_port(host, user):
    (_, ola_token), (_, pat_token) = user("ola"), user("pat")
    game = "burgbaumeister"  # no other test here queues for it
    before = scrape(host)
    with host.client(ola_token) as o, host.client(pat_token) as p:
        waiting = o.create_ticket(game, ttl=60)
        # The open tickets are counted by the sweep (every second): wait for it.
        wait_for(lambda: value(scrape(host), "gamehost_tickets_open", game=game) == 1, what="one open ticket")
        cancelled = p.create_ticket(game, ttl=60, min_rating=50.0)  # Ola is rated 0: no match
        p.cancel_ticket(cancelled.name)
        matched = p.create_ticket(game, ttl=60)
        assert matched.state == pb.TICKET_STATE_MATCHED
        expiring = p.create_ticket(game, ttl=1, min_rating=50.0)
        wait_for(lambda: p.ticket(expiring.name).state == pb.TICKET_STATE_EXPIRED, what="the expiry")
        wait_for(lambda: value(scrape(host), "gamehost_tickets_open", game=game) == 0, what="no open ticket")
    after = scrape(host)

    def grew(name: str, **labels) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert grew("gamehost_tickets_queued_total", game=game) == 4
    assert grew("gamehost_tickets_closed_total", game=game, state="matched") == 2
    assert grew("gamehost_tickets_closed_total", game=game, state="cancelled") == 1
    assert grew("gamehost_tickets_closed_total", game=game, state="expired") == 1
    assert grew("gamehost_ticket_wait_seconds_count", game=game) == 2
    # Each wait runs from the ticket's create_time to the match (its update_time).
    waits = [(matched.update_time.ToNanoseconds() - ticket.create_time.ToNanoseconds()) / 1e9
             for ticket in (waiting, matched)]
    assert grew("gamehost_ticket_wait_seconds_sum", game=game) == pytest.approx(sum(waits), abs=1e-3)
    for bound in ("0.1", "1.0", "2.5", "10.0"):
        assert grew("gamehost_ticket_wait_seconds_bucket", game=game, le=bound) == \
            sum(wait <= float(bound) for wait in waits), bound
    assert grew("gamehost_ticket_wait_seconds_bucket", game=game, le="+Inf") == 2


# ---------------------------------------------------------------- the command line


def test_the_command_line_lists_the_players_tickets(host, user):
    _, token = user("rex")

    def queue_command(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "gamehost.cli.main", "queue", "--host", host.target,
                               "--bearer-token", token, *args], capture_output=True, text=True, timeout=60)

    with host.client(token) as r:
        queued = r.create_ticket("campanile", ttl=60, min_rating=3.0, widen_per_second=1.0, max_widening=1.0)
        cancelled = r.cancel_ticket(r.create_ticket("kensington", ttl=60).name)
        listed = queue_command("--list")
        assert listed.returncode == 0, listed.stderr
        lines = listed.stdout.splitlines()
        assert [line.split()[:3] for line in lines] == [[queued.name, "queued", "games/campanile"],
                                                        [cancelled.name, "cancelled", "games/kensington"]]
        only = queue_command("--list", "--state", "cancelled")
        assert only.returncode == 0 and [line.split()[0] for line in only.stdout.splitlines()] == [cancelled.name]
        r.cancel_ticket(queued.name)
