"""Parties (matchmaking): friends queue together and are
seated in one match. One player's ticket starts a party (party_size); the
friends join it by its name, taking its game, player count and options; the
party is matched only once all its players are queued, always whole, and
with bots only when every one of them accepts bots. Joining a party that is
full, gone, another game's, or one's own twice is refused and queues
nothing; each store counts a party's places in the transaction that adds a
ticket.

One signed-in host for the module (memory store); every test ends its
tickets, so none is left queued for the next."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
import uuid

import grpc
import pytest

from gamehost.host.engine import ticket_matching as matchmaking
from gamehost.host.store.base import PartyFull, TicketRecord
from gamehost.host.store.memory import MemoryStore
from gamehost.host.store.sqlite import SQLiteStore
from gamehost.v1 import gamehost_pb2 as pb
from call_errors import error_of

pytestmark = pytest.mark.timeout(180)

QUEUED, MATCHED = pb.TICKET_STATE_QUEUED, pb.TICKET_STATE_MATCHED


@pytest.fixture(scope="module")
def host(signed_in_host):
    return signed_in_host



def test_a_party_is_matched_only_once_all_its_friends_have_queued_and_then_in_one_match(host, user):
    (_, ann_token), (_, bob_token), (_, cat_token), (_, dan_token) = (user(n) for n in ("ann", "bob", "cat", "dan"))
    with host.client(ann_token) as ann, host.client(bob_token) as bob, host.client(cat_token) as cat, \
            host.client(dan_token) as dan:
        started = ann.create_ticket("callisto", seats=4, ttl=60, party_size=2)
        assert started.state == QUEUED and started.party.startswith("parties/")
        assert (started.party_size, started.party_queued) == (2, 1)
        # Two strangers and Ann's half party: three queued, four seats, but
        # the party is not whole yet, so nobody is matched.
        strangers = [cat.create_ticket("callisto", seats=4, ttl=60), dan.create_ticket("callisto", seats=4, ttl=60)]
        assert [t.state for t in strangers] == [QUEUED, QUEUED]
        # Bob joins by the party's name alone: the game, player count and
        # options are the party's. The party is whole: all four are seated.
        joined = bob.create_ticket("", party=started.party, ttl=60)
        assert joined.state == MATCHED and (joined.game, joined.seats, joined.party) == \
            ("games/callisto", 4, started.party)
        seen = list(ann.watch_ticket(started.name))
        assert seen[-1].state == MATCHED and seen[-1].match == joined.match
        assert {cat.ticket(strangers[0].name).match, dan.ticket(strangers[1].name).match} == {joined.match}
        match = ann.match(joined.match)
        assert sorted(s.player_name for s in match.seats) == ["Ann", "Bob", "Cat", "Dan"]


def test_strangers_are_not_split_into_a_party_nor_a_party_between_matches(host, user):
    (_, eve_token), (_, fay_token), (_, gil_token) = user("eve"), user("fay"), user("gil")
    with host.client(eve_token) as eve, host.client(fay_token) as fay, host.client(gil_token) as gil:
        alone = gil.create_ticket("tictactoe", ttl=60)
        started = eve.create_ticket("tictactoe", ttl=60, party_size=2)
        assert eve.ticket(started.name).state == QUEUED  # Gil waits: Eve's seat is her party's
        joined = fay.create_ticket("tictactoe", party=started.party.removeprefix("parties/"), ttl=60)
        assert joined.state == MATCHED
        assert {s.player_name for s in fay.match(joined.match).seats} == {"Eve", "Fay"}
        assert gil.ticket(alone.name).state == QUEUED
        gil.cancel_ticket(alone.name)


def test_the_party_count_follows_its_friends_joining_and_cancelling(host, user):
    (_, hal_token), (_, ida_token), (_, jon_token) = user("hal"), user("ida"), user("jon")
    with host.client(hal_token) as hal, host.client(ida_token) as ida, host.client(jon_token) as jon:
        started = hal.create_ticket("callisto", seats=4, ttl=60, party_size=3)
        watch = hal.watch_ticket(started.name)
        assert next(watch).party_queued == 1
        second = ida.create_ticket("", party=started.party, ttl=60)
        assert second.party_queued == 2 and next(watch).party_queued == 2  # Hal's stream is told
        ida.cancel_ticket(second.name)
        assert next(watch).party_queued == 1
        third = jon.create_ticket("", party=started.party, ttl=60)  # a place freed is taken again
        assert third.party_queued == 2 and hal.ticket(started.name).party_queued == 2
        assert [t.party for t in hal.tickets(states=[QUEUED])] == [started.party]
        hal.cancel_ticket(started.name)
        jon.cancel_ticket(third.name)


def assert_a_lapsed_friend_wakes_the_party(starter, friend) -> None:
    """A party of two for four seats (so it is never matched): the friend's
    ticket expires, and the starter's WatchTicket stream, asked nothing
    more, sends the party's new count (the stream's deadline bounds the
    wait; the starter's own ticket would only be read again at its expiry)."""
    started = starter.create_ticket("callisto", seats=4, ttl=120, party_size=2)
    watch = starter.watch_ticket(started.name, timeout=60)
    assert next(watch).party_queued == 1
    lapsing = friend.create_ticket("", party=started.party, ttl=1)
    assert next(watch).party_queued == 2
    lapsed = next(watch)  # woken by the expiry: no call since
    assert (lapsed.state, lapsed.party_queued) == (QUEUED, 1)
    assert friend.ticket(lapsing.name).state == pb.TICKET_STATE_EXPIRED
    starter.cancel_ticket(started.name)
    assert [t.state for t in watch] == [pb.TICKET_STATE_CANCELLED]


def test_a_friends_ticket_that_expires_wakes_the_partys_watchers(host, user):
    (_, uma_token), (_, vic_token) = user("uma"), user("vic")
    with host.client(uma_token) as uma, host.client(vic_token) as vic:
        assert_a_lapsed_friend_wakes_the_party(uma, vic)


def test_a_friends_ticket_that_expires_wakes_the_partys_watchers_on_sqlite(start_host, idp, user, tmp_path):
    sqlite_host = start_host(*idp.host_args(), data_dir=tmp_path / "data")
    (_, uma_token), (_, vic_token) = user("uma"), user("vic")
    with sqlite_host.client(uma_token) as uma, sqlite_host.client(vic_token) as vic:
        assert_a_lapsed_friend_wakes_the_party(uma, vic)


def test_a_friends_ticket_that_expires_on_one_replica_wakes_the_partys_watchers_on_the_other(
        start_host, postgres_url, idp, user):
    a, b = [start_host("--store", postgres_url, "--replica-id", name, *idp.host_args()) for name in "ab"]
    (_, uma_token), (_, vic_token) = user("uma"), user("vic")
    with a.client(uma_token) as uma, b.client(vic_token) as vic:
        assert_a_lapsed_friend_wakes_the_party(uma, vic)


def test_joining_a_party_that_is_full_gone_another_games_or_ones_own_is_refused_and_queues_nothing(host, user):
    (_, kai_token), (_, lou_token), (_, mo_token), (_, ned_token) = (user(n) for n in ("kai", "lou", "mo", "ned"))
    with host.client(kai_token) as kai, host.client(lou_token) as lou, host.client(mo_token) as mo, \
            host.client(ned_token) as ned:
        started = kai.create_ticket("callisto", seats=4, ttl=60, party_size=2)
        error = error_of(kai.create_ticket, "", party=started.party, ttl=60)
        assert (error.code, error.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "ALREADY_IN_PARTY")
        for kwargs, field in [({"game": "tictactoe"}, "game"), ({"game": "callisto", "seats": 3}, "seats"),
                              ({"game": "callisto", "variant": "one-sided"}, "options")]:
            error = error_of(lou.create_ticket, party=started.party, ttl=60, **kwargs)
            assert (error.code, error.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "PARTY_MISMATCH"), kwargs
            assert field in error.message and "leave" in error.message
        # The party's own terms, named in full, are accepted.
        joined = lou.create_ticket("callisto", seats=4, party=started.party, ttl=60)
        assert joined.party_queued == 2
        error = error_of(mo.create_ticket, "", party=started.party, ttl=60)
        assert (error.code, error.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "PARTY_FULL")
        assert error.metadata["party_size"] == "2"
        error = error_of(mo.create_ticket, "", party="parties/nosuch", ttl=60)
        assert (error.code, error.reason) == (grpc.StatusCode.NOT_FOUND, "PARTY_NOT_FOUND")
        for kwargs in [{"party_size": 5}, {"party_size": 1}, {"party_size": 2, "party": started.party}]:
            error = error_of(ned.create_ticket, "callisto", seats=4, ttl=60, **kwargs)
            assert error.code == grpc.StatusCode.INVALID_ARGUMENT and "party" in error.message, kwargs
        # Nothing of the refused calls was queued.
        assert mo.tickets() == [] and ned.tickets() == []
        assert kai.ticket(started.name).party_queued == 2
        kai.cancel_ticket(started.name)
        lou.cancel_ticket(joined.name)


def test_the_command_line_starts_a_party_and_a_friend_joins_it(host, user):
    (_, oz_token), (_, pam_token) = user("oz"), user("pam")
    leader = subprocess.Popen([sys.executable, "-m", "gamehost.cli.main", "queue", "tictactoe", "--host", host.target,
                               "--bearer-token", oz_token, "--party-size", "2", "--ttl", "60"],
                              stdout=subprocess.PIPE, text=True)
    try:
        first = leader.stdout.readline()
        party_line = leader.stdout.readline()
        assert first.startswith("tickets/") and party_line.startswith("parties/")
        party = party_line.split(":")[0]
        assert f"gamehost queue --party {party}" in party_line and "1 of 2" in party_line
        friend = subprocess.run([sys.executable, "-m", "gamehost.cli.main", "queue", "--party", party, "--host",
                                 host.target, "--bearer-token", pam_token], capture_output=True, text=True, timeout=60)
        assert friend.returncode == 0, friend.stderr
        out, _ = leader.communicate(timeout=60)
        assert leader.returncode == 0
        match = friend.stdout.split("matches/")[1].split(":")[0]
        assert f"matches/{match}: you are" in out
    finally:
        leader.kill()


def record(subject: str, party: str = "", party_size: int = 0, **fields) -> TicketRecord:
    now = time.time()
    return TicketRecord(uuid.uuid4().hex[:16], subject, subject.title(), "callisto", 4, {}, "callisto/4/x",
                        party=party, party_size=party_size,
                        **{"create_time": now, "expire_time": now + 60, "update_time": now, **fields})


def test_a_party_gets_bots_only_when_every_one_of_its_players_accepts_them():
    now = time.time()
    waited = {"bot_wait": 1.0, "create_time": now - 5}
    patient = record("ann", "p", 2, **waited)
    friend_without_bots = record("bob", "p", 2, create_time=now - 4)
    assert matchmaking.choose_group([patient, friend_without_bots], now) is None
    friend_with_bots = record("bob", "p", 2, bot_wait=1.0, create_time=now - 4)
    group, bots = matchmaking.choose_group([patient, friend_with_bots], now)
    assert ({t.subject for t in group}, bots) == ({"ann", "bob"}, 2)


def test_a_party_with_more_tickets_than_places_seats_its_oldest_and_is_never_split():
    now = time.time()
    eve = record("eve", create_time=now - 20)
    party = [record(name, "p", 3, create_time=now - 10 + i) for i, name in enumerate(("ann", "bob", "cat", "dan"))]
    fay = record("fay", create_time=now)
    # Two friends joined at once for the last place: the oldest three play.
    group, bots = matchmaking.choose_group([eve, *party, fay], now)
    assert ([t.subject for t in group], bots) == (["eve", "ann", "bob", "cat"], 0)
    # Eve, Gil and Fay alone and the party of three: the party is not split
    # to seat the three who came alone first; it plays with the oldest of them.
    gil = record("gil", create_time=now - 15)
    group, _ = matchmaking.choose_group([eve, gil, *party[:3], fay], now)
    assert [t.subject for t in group] == ["ann", "bob", "cat", "eve"]


async def exercise_party_places(store) -> None:
    await store.open()
    try:
        first, second = record("p1", "party1", 2), record("p2", "party1", 2)
        assert await store.add_ticket(first, 4) and await store.add_ticket(second, 4)
        with pytest.raises(PartyFull):
            await store.add_ticket(record("p3", "party1", 2), 4)
        assert [t.subject for t in await store.party_tickets("party1")] == ["p1", "p2"]
        assert await store.cancel_ticket(first.id, time.time())
        assert await store.add_ticket(record("p3", "party1", 2), 4)  # the place freed
        assert [t.subject for t in await store.party_tickets("party1")] == ["p2", "p3"]
        stored = await store.get_ticket(second.id)
        assert (stored.party, stored.party_size) == ("party1", 2)
    finally:
        await store.close()


@pytest.mark.parametrize("backend", ["memory", "sqlite"])
def test_each_store_counts_a_partys_places_when_adding_a_ticket(backend, tmp_path):
    store = MemoryStore() if backend == "memory" else SQLiteStore(tmp_path / "gamehost.db")
    asyncio.run(exercise_party_places(store))


def test_postgres_counts_a_partys_places_when_adding_a_ticket(postgres_url):
    from gamehost.host.store.postgres import PostgresStore
    asyncio.run(exercise_party_places(PostgresStore(postgres_url)))


async def announce_a_lapsed_friend(postgres_url) -> None:
    """Whichever replica's sweep expires a ticket, every replica hears of it
    and of its party's queued tickets, whose watchers read their count again."""
    from gamehost.host.store.postgres import PostgresStore
    expiring, listening = PostgresStore(postgres_url, owner="a"), PostgresStore(postgres_url, owner="b")
    await expiring.open()
    await listening.open()
    try:
        heard: asyncio.Queue = asyncio.Queue()
        listening.subscribe_tickets(heard.put_nowait)
        listening.subscribe(lambda match_id, version: None)
        await asyncio.sleep(0.2)  # LISTEN is in place
        lapsing, staying = record("p1", "party1", 2, expire_time=time.time() - 1), record("p2", "party1", 2)
        alone = record("p3", expire_time=time.time() - 1)
        for ticket in (lapsing, staying, alone):
            assert await expiring.add_ticket(ticket, 4)
        assert await asyncio.wait_for(heard.get(), 5) == [lapsing.id]  # told of its friend's joining
        expired = await expiring.expire_tickets(time.time(), 0)
        assert sorted(t.id for t in expired) == sorted([lapsing.id, alone.id])
        assert sorted(await asyncio.wait_for(heard.get(), 5)) == sorted([lapsing.id, alone.id, staying.id])
    finally:
        await expiring.close()
        await listening.close()


def test_postgres_tells_every_replica_of_a_lapsed_friends_party(postgres_url):
    asyncio.run(announce_a_lapsed_friend(postgres_url))
