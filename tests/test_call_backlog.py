"""Calls the host has not taken up yet wait for it.

grpcio's asyncio server takes up one call per turn of the event loop; calls
that arrive faster wait in grpc's own queue. With grpc's defaults that queue
cancelled calls (a bare CANCELLED the host never saw) beyond 1,000 waiting:
a saturated host, 1,000 matches created at once, lost 80 to 140 WatchMatch
streams so. Here the host is stopped (SIGSTOP) while 2,000 WatchMatch streams
are sent to it, so that all of them wait in that queue when it goes on; every
one must then start and deliver its match's first event. A loop standing
still is logged (loop_lag.py), since nothing else would say why calls wait.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import grpc
import pytest

from gamehost.v1 import gamehost_pb2 as pb
from gamehost.v1 import gamehost_pb2_grpc as pb_grpc
from hosts import HostProcess

STREAMS = 2_000   # twice grpc's default queue of calls not taken up (at random beyond 1,000, all beyond 3,000)
MATCHES = 10      # a match takes 256 watchers at most
TIMEOUT = 120.0   # for all of them to start on a busy machine


@pytest.fixture(scope="module")
def host():
    # One connection carries every stream: more than the default 1,000 may be open on it at once.
    host = HostProcess("--max-streams-per-connection", str(2 * STREAMS), "--max-watchers", str(2 * STREAMS)).start()
    yield host
    host.stop()


def unread_bytes(port: int) -> int:
    """Bytes the host's connections on ``port`` received and it has not read
    (rx_queue of its established sockets; a dual-stack listener's are in tcp6)."""
    total = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "01":
                total += int(fields[4].split(":")[1], 16)
    return total


def wait_unread(port: int, at_least: int) -> None:
    deadline = time.monotonic() + TIMEOUT
    while unread_bytes(port) < at_least:
        assert time.monotonic() < deadline, f"{unread_bytes(port)} bytes reached the host, not {at_least}"
        time.sleep(0.01)  # a polling period: the condition is the bytes waiting


async def watch_while_stopped(host: HostProcess) -> tuple[list[int], list[str]]:
    """Open STREAMS spectator streams while the host is stopped; the version
    of each stream's first event, and the status of each that ended instead."""
    async with grpc.aio.insecure_channel(host.target) as channel:
        stub = pb_grpc.GameHostStub(channel)
        names = []
        for _ in range(MATCHES):  # one seat joined: version 1, an event every watcher receives first
            match = await stub.CreateMatch(pb.CreateMatchRequest(game="games/tictactoe", seats=2))
            await stub.JoinMatch(pb.JoinMatchRequest(name=match.name))
            names.append(match.name)
        os.kill(host.process.pid, signal.SIGSTOP)
        try:
            requests = [pb.WatchMatchRequest(name=names[index % MATCHES]) for index in range(STREAMS)]
            calls = [stub.WatchMatch(request) for request in requests]
            # Every call is in the host's socket, unread: at least its request's DATA frame (a
            # 9-byte frame header, gRPC's 5-byte prefix, the message) and a HEADERS frame each.
            least = sum(9 + 5 + request.ByteSize() + 9 for request in requests)
            await asyncio.get_running_loop().run_in_executor(None, wait_unread, host.port, least)
        finally:
            os.kill(host.process.pid, signal.SIGCONT)

        async def first_event(call) -> int | str:
            try:
                return (await call.read()).version
            except grpc.aio.AioRpcError as ended:
                return f"{ended.code().name}: {ended.details()}"

        try:
            firsts = await asyncio.wait_for(asyncio.gather(*(first_event(call) for call in calls)), TIMEOUT)
        finally:
            for call in calls:
                call.cancel()
    return [first for first in firsts if isinstance(first, int)], [f for f in firsts if isinstance(f, str)]


def test_calls_waiting_for_a_busy_host_are_taken_up_not_cancelled(host):
    versions, ended = asyncio.run(watch_while_stopped(host))
    assert ended == []
    assert versions == [1] * STREAMS


def test_a_saturated_event_loop_is_logged_and_so_is_its_end(host):
    before = len(host.log_lines("event loop saturated: new calls wait in grpc's queue"))
    ends_before = len(host.log_lines("event loop caught up"))
    os.kill(host.process.pid, signal.SIGSTOP)
    try:
        time.sleep(1.5)  # the stimulus: the host's loop stands still this long (as under a burst of calls)
    finally:
        os.kill(host.process.pid, signal.SIGCONT)
    warned = host.wait_for_log("event loop saturated: new calls wait in grpc's queue", at_least=before + 1)
    assert len(warned) > before
    assert warned[-1]["late_ms"] >= 1000 and warned[-1]["level"] == "warning"
    caught_up = host.wait_for_log("event loop caught up", at_least=ends_before + 1)
    assert len(caught_up) > ends_before and caught_up[-1]["saturated_s"] >= 1.0
