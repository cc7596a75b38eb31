"""A match's log is bounded and read in pages: what one seat can repeat
without advancing the game (asking a move back and withdrawing the ask) is
limited per move and per match, a refused ask writes nothing, GetMatchLog
pages a long log exactly, and a reader paging a long log does not slow
another caller. Over real sockets, on the stores that keep logs."""

from __future__ import annotations

import grpc
import pytest

from call_errors import error_of
from gamehost.client import GameHostClient
from gamehost.v1 import gamehost_pb2 as pb

pytestmark = pytest.mark.timeout(180)


def new_match(client: GameHostClient) -> tuple[str, str, str]:
    match = client.create_match("tictactoe").name
    return match, client.join(match).player_token, client.join(match).player_token


def mark(client: GameHostClient, match: str, token: str, cell: int) -> int:
    return client.move(match, token, move={"cell": cell}).version


def test_a_move_is_asked_back_at_most_three_times_and_a_refused_ask_writes_nothing(client):
    match, x, o = new_match(client)
    mark(client, match, x, 4)
    for _ in range(3):
        client.ask_undo(match, x)
        client.withdraw_undo(match, x)
    before = client.match(match).version
    refused = error_of(client.ask_undo, match, x)
    assert (refused.code, refused.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "UNDO_ASKS_EXHAUSTED")
    assert refused.metadata == {"undoes": "4", "asks": "3", "limit": "3"}
    assert client.match(match).version == before  # the refused ask wrote nothing
    assert client.log(match).events[-1].kind == pb.EVENT_KIND_UNDO_WITHDRAWN
    # The bound is per move: the next move of the same seat may be asked back again.
    mark(client, match, o, 0)
    mark(client, match, x, 8)
    assert client.ask_undo(match, x).HasField("ask")


def test_past_the_event_cap_no_ask_is_taken_but_the_game_goes_on(start_host, tmp_path):
    host = start_host(data_dir=tmp_path, env={"GAMEHOST_MAX_MATCH_EVENTS": "20", "GAMEHOST_MAX_UNDO_ASKS": "1000"})
    with host.client() as client:
        match, x, o = new_match(client)
        mark(client, match, x, 4)
        while client.match(match).version < 20:
            client.ask_undo(match, x)
            client.withdraw_undo(match, x)
        version = client.match(match).version
        full = error_of(client.ask_undo, match, x)
        assert (full.code, full.reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "MATCH_LOG_FULL")
        assert full.metadata == {"limit": "20", "version": str(version)}
        assert client.match(match).version == version  # nothing written
        assert mark(client, match, o, 0) == version + 1  # moves still advance the game
    host.stop()
    with start_host(data_dir=tmp_path, env={"GAMEHOST_MAX_MATCH_EVENTS": "20"}).client() as client:
        assert error_of(client.ask_undo, match, o).reason == "MATCH_LOG_FULL"  # the cap holds across a restart


def long_log(client: GameHostClient, events: int) -> tuple[str, str, str]:
    """A tictactoe match whose log has at least ``events`` events: asks and
    withdrawals of X's first move (the host must allow that many asks)."""
    match, x, o = new_match(client)
    mark(client, match, x, 4)
    with client.session() as session:
        version = 4
        while version < events:
            session.ask_undo(match, x)
            version = session.withdraw_undo(match, x).version
    return match, x, o


@pytest.fixture(scope="module")
def long_log_host(tmp_path_factory):
    """SQLite, with asks limited only by the log's cap."""
    from hosts import HostProcess, UNLIMITED
    host = HostProcess(data_dir=tmp_path_factory.mktemp("long-log"),
                       env={**UNLIMITED, "GAMEHOST_MAX_UNDO_ASKS": "100000", "GAMEHOST_MAX_MATCH_EVENTS": "100000"}
                       ).start()
    yield host
    host.stop()


def test_a_long_log_pages_completely_and_exactly(long_log_host):
    with long_log_host.client() as client:
        match, x, o = long_log(client, 1_234)
        version = client.match(match).version
        pages = list(client.log_pages(match))
        assert [len(p.events) for p in pages] == [500, 500, version - 1000]  # the default page size
        assert [e.version for p in pages for e in p.events] == list(range(1, version + 1))
        assert all(p.next_page_token for p in pages[:-1]) and not pages[-1].next_page_token
        small = list(client.log_pages(match, x, page_size=97))
        assert [e for p in small for e in p.events] == [e for p in pages for e in p.events]
        assert len(client.log(match, page_size=1000).events) == version  # every page, in one message
        first = client._call(client.stub.GetMatchLog, pb.GetMatchLogRequest(name=match, page_size=1000))
        assert len(first.events) == 1000 and first.next_page_token


def test_a_page_token_that_is_not_this_logs_is_refused(long_log_host):
    with long_log_host.client() as client:
        match, x, o = new_match(client)
        other, _, _ = new_match(client)
        token = client._call(client.stub.GetMatchLog, pb.GetMatchLogRequest(name=match, page_size=1)).next_page_token
        for name, page_token, size in ((other, token, 0), (match, "bm90IGEgdG9rZW4", 0), (match, "", -1)):
            refused = error_of(client._call, client.stub.GetMatchLog,
                               pb.GetMatchLogRequest(name=name, page_token=page_token, page_size=size))
            assert refused.code == grpc.StatusCode.INVALID_ARGUMENT
            assert [field for field, _ in refused.field_violations] in (["page_token"], ["page_size"])


def test_readers_paging_a_long_log_leave_another_callers_listgames_fast(long_log_host):
    import statistics
    import threading
    import time

    with long_log_host.client() as client:
        match, _, _ = long_log(client, 3_000)
        stop = threading.Event()
        pages_read = [0]

        def read_pages() -> None:
            with long_log_host.client() as reader:
                while not stop.is_set():
                    for _ in reader.log_pages(match, page_size=1000):
                        pages_read[0] += 1

        readers = [threading.Thread(target=read_pages) for _ in range(4)]
        for reader in readers:
            reader.start()
        try:
            while pages_read[0] < 20:  # the readers are at it
                time.sleep(0.01)
            took = []
            for _ in range(50):
                start = time.perf_counter()
                client.games()
                took.append(time.perf_counter() - start)
        finally:
            stop.set()
            for reader in readers:
                reader.join(60)
        assert statistics.median(took) < 0.25, took  # a page is one bounded read: the loop keeps turning
