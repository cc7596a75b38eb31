"""Timers that fire early: uvloop's may wake up to about 1.2 ms
before their time. A real host on a loop whose every timer fires 2 ms early
(tests/fixtures/early_timers, put on the host's path by this module only)
still lapses an undo ask, times a turn out, ends a match on the clock,
expires a ticket and fills a ticket's seats with bots, each once and none
before its time (due_timers.py; docs/architecture.md, "Timers")."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gamehost.v1 import gamehost_pb2 as pb
from hosts import FIXTURE_SITE

pytestmark = pytest.mark.timeout(120)

EARLY_SITE = Path(__file__).parent / "fixtures" / "early_timers"
SHORT = 0.3  # seconds: each deadline below; the loop wakes 2 ms before it


def seconds(value) -> float:
    return value.ToNanoseconds() / 1e9


@pytest.fixture(scope="module")
def early_host(idp):
    from hosts import HostProcess

    path = os.pathsep.join(filter(None, [str(EARLY_SITE), str(FIXTURE_SITE), os.environ.get("PYTHONPATH")]))
    process = HostProcess(*idp.host_args(), "--event-loop", "asyncio", "--undo-ask-lifetime", str(SHORT),
                          env={"PYTHONPATH": path}).start()
    yield process
    process.stop()


def events_until(client, match: str, kinds: set[int], after_version: int = 0) -> list[pb.MatchEvent]:
    seen = []
    for event in client.watch(match, after_version=after_version):
        seen.append(event)
        if event.kind in kinds:
            return seen
    return seen


def test_the_host_serves_on_the_early_loop(early_host):
    assert early_host.log_lines("host serving")[0]["event_loop"] == "early_timers"


def test_a_turn_times_out_once_per_turn_and_not_before_its_deadline(early_host):
    with early_host.client() as client:
        match = client.create_match("tictactoe", seed=5, turn_timeout=SHORT).name
        client.join(match)
        started = client.join(match).match
        moves = [e for e in events_until(client, match, {pb.EVENT_KIND_FINISHED})
                 if e.kind == pb.EVENT_KIND_MOVED][:3]
    assert [(m.seat, m.timed_out) for m in moves] == [(0, True), (1, True), (0, True)]  # one move per turn
    assert seconds(moves[0].time) >= seconds(started.turn_deadline)
    for before, after in zip(moves, moves[1:]):
        assert seconds(after.time) >= seconds(before.time) + SHORT


def test_an_undo_ask_lapses_once_and_not_before_its_expire_time(early_host):
    with early_host.client() as client:
        match = client.create_match("tictactoe", seed=7).name
        x, o = client.join(match).player_token, client.join(match).player_token
        moved = client.move(match, x, move={"cell": 4}).version
        asked = client.ask_undo(match, x)
        lapsed = events_until(client, match, {pb.EVENT_KIND_UNDO_LAPSED}, after_version=asked.version)[-1]
        assert (lapsed.kind, lapsed.undoes) == (pb.EVENT_KIND_UNDO_LAPSED, moved)
        assert seconds(lapsed.time) >= seconds(asked.ask.expire_time)
        client.move(match, o, move={"cell": 0})  # a later step: no second lapse written meanwhile
        kinds = [e.kind for e in client.log(match).events]
    assert kinds.count(pb.EVENT_KIND_UNDO_LAPSED) == 1
    assert kinds[-3:] == [pb.EVENT_KIND_UNDO_ASKED, pb.EVENT_KIND_UNDO_LAPSED, pb.EVENT_KIND_MOVED]


def test_a_clock_runs_out_once_and_not_before_its_deadline(early_host):
    with early_host.client() as client:
        match = client.create_match("tictactoe", seed=3, clock=SHORT).name
        client.join(match)
        started = client.join(match).match
        events = events_until(client, match, {pb.EVENT_KIND_FINISHED})
        kinds = [e.kind for e in client.log(match).events]
    ran_out = next(e for e in events if e.kind == pb.EVENT_KIND_CLOCK_RAN_OUT)
    assert ran_out.seat == 0 and seconds(ran_out.time) >= seconds(started.clock.deadline)
    assert kinds.count(pb.EVENT_KIND_CLOCK_RAN_OUT) == 1 and kinds.count(pb.EVENT_KIND_FINISHED) == 1


def test_a_ticket_expires_once_and_not_before_its_ttl(early_host, user):
    _, token = user("early")
    with early_host.client(token) as client:
        ticket = client.create_ticket("tictactoe", ttl=1)
        seen = list(client.watch_ticket(ticket.name))  # woken at its expire time, 2 ms early
    expired = seen[-1]
    assert expired.state == pb.TICKET_STATE_EXPIRED
    assert {t.state for t in seen[:-1]} <= {pb.TICKET_STATE_QUEUED}
    assert seconds(expired.update_time) >= seconds(expired.expire_time)
    logged = [line for line in early_host.log_lines("tickets expired") if ticket.name.split("/")[-1]
              in line["ticket_ids"]]
    assert len(logged) == 1


def test_bots_fill_a_ticket_once_and_not_before_its_bot_wait(early_host, user):
    _, token = user("waiting")
    with early_host.client(token) as client:
        ticket = client.create_ticket("tictactoe", ttl=60, bot_wait=SHORT)
        matched = list(client.watch_ticket(ticket.name))[-1]
        assert matched.state == pb.TICKET_STATE_MATCHED
        assert seconds(matched.update_time) >= seconds(matched.create_time) + SHORT
        seats = client.match(matched.match).seats
    assert sorted(s.kind for s in seats) == sorted([pb.SEAT_KIND_HUMAN, pb.SEAT_KIND_BOT])
