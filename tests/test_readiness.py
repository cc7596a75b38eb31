"""Readiness follows the store; liveness follows the process.

The host runs in this process so the test can take its real SQLite store
away under it (close its connection) and give it back; probes go over a
real socket, by gRPC and by the ``gamehost health`` command.
"""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from gamehost.host.ops.config import HostConfig
from gamehost.host.ops.server import SERVICE_NAME, start_host
from gamehost.host.store import SQLiteStore
from gamehost.v1 import gamehost_pb2, gamehost_pb2_grpc
from hosts import HostProcess

SERVING, NOT_SERVING = health_pb2.HealthCheckResponse.SERVING, health_pb2.HealthCheckResponse.NOT_SERVING


async def status(target: str, service: str) -> int:
    async with grpc.aio.insecure_channel(target) as channel:
        response = await health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(service=service),
                                                                   timeout=5)
        return response.status


async def becomes(target: str, service: str, wanted: int, timeout: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while await status(target, service) != wanted:
        assert asyncio.get_running_loop().time() < deadline, f"{service!r} never became {wanted}"
        await asyncio.sleep(0.05)


async def health_command(target: str, *args: str) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "gamehost.cli.main", "health", "--host", target, *args,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    output, _ = await process.communicate()
    return process.returncode, output.decode()


async def test_not_ready_while_the_store_is_unreachable_and_ready_again_after(tmp_path):
    store = SQLiteStore(tmp_path / "gamehost.db")
    host = await start_host(HostConfig(address="127.0.0.1:0", store_check_interval=0.1, web_port=None), store=store)
    target = f"127.0.0.1:{host.port}"
    try:
        assert await status(target, SERVICE_NAME) == SERVING
        assert await health_command(target) == (0, f"{target} gamehost.v1.GameHost: SERVING\n")

        await store.close()  # the database is gone from under the host
        await becomes(target, SERVICE_NAME, NOT_SERVING)
        assert await status(target, "") == SERVING, "alive: restarting would not bring the store back"
        assert await health_command(target) == (1, f"{target} gamehost.v1.GameHost: NOT_SERVING\n")
        assert await health_command(target, "--service", "") == (0, f"{target} (overall): SERVING\n")

        await store.open()
        await becomes(target, SERVICE_NAME, SERVING)
        assert await health_command(target) == (0, f"{target} gamehost.v1.GameHost: SERVING\n")
    finally:
        await host.stop(1)


async def test_health_command_fails_when_no_host_answers():
    code, output = await health_command("127.0.0.1:1", "--timeout", "1")
    assert code == 1 and ("UNAVAILABLE" in output or "DEADLINE_EXCEEDED" in output), output



def test_store_check_interval_must_be_positive():
    refused = subprocess.run([sys.executable, "-m", "gamehost.cli.main", "serve", "--store", "memory",
                              "--store-check-interval", "0"], capture_output=True, text=True, timeout=30)
    assert refused.returncode == 2
    assert "argument --store-check-interval: must be more than 0" in refused.stderr


async def test_not_ready_while_writes_fail_and_ready_again_when_they_succeed(tmp_path):
    """A full database answers reads: readiness must notice that commits fail.
    The disk filling up is played by SQLite's max_page_count (no mount needed):
    held at the database's current size, no write that needs a page can commit."""
    store = SQLiteStore(tmp_path / "gamehost.db")
    host = await start_host(HostConfig(address="127.0.0.1:0", store_check_interval=0.1, web_port=None), store=store)
    target = f"127.0.0.1:{host.port}"
    try:
        async with grpc.aio.insecure_channel(target) as channel:
            stub = gamehost_pb2_grpc.GameHostStub(channel)
            await stub.CreateMatch(gamehost_pb2.CreateMatchRequest(game="games/tictactoe"), timeout=5)
            pages = store._db.execute("PRAGMA page_count").fetchone()[0]
            store._db.execute(f"PRAGMA max_page_count = {pages}")  # the disk is full
            await becomes(target, SERVICE_NAME, NOT_SERVING)
            with pytest.raises(grpc.aio.AioRpcError):  # and writes do fail
                for _ in range(50):
                    await stub.CreateMatch(gamehost_pb2.CreateMatchRequest(game="games/tictactoe"), timeout=5)
            assert await status(target, "") == SERVING, "alive: restarting would not free the disk"

            store._db.execute("PRAGMA max_page_count = 1000000")  # room again
            await becomes(target, SERVICE_NAME, SERVING)
            await stub.CreateMatch(gamehost_pb2.CreateMatchRequest(game="games/tictactoe"), timeout=5)
    finally:
        await host.stop(1)


@pytest.fixture()
def small_disk(tmp_path):
    """A filesystem of 8 MiB (a tmpfs mounted for the test; needs root)."""
    mount_point = tmp_path / "disk"
    mount_point.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(mount_point)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small filesystem here: {mounted.stderr.strip()}")
    yield mount_point
    subprocess.run(["umount", "-l", str(mount_point)], check=True)


def fill(path) -> None:
    """Write ``path`` until the disk it is on has no room left."""
    with open(path, "wb", buffering=0) as filler:
        try:
            while True:
                filler.write(b"\0" * 65536)
        except OSError:
            pass
        try:
            while True:
                filler.write(b"\0")
        except OSError:
            pass


async def test_not_ready_while_the_disk_is_full_and_ready_again_once_there_is_room(small_disk):
    """A real full disk (where max_page_count only plays one): the probe's
    own commit may still fit, so the disk's free room decides."""
    store = SQLiteStore(small_disk / "gamehost.db")
    host = await start_host(HostConfig(address="127.0.0.1:0", store_check_interval=0.1, web_port=None,
                                       max_open_matches=0, max_unfinished_matches=0, create_rate=0), store=store)
    target = f"127.0.0.1:{host.port}"
    try:
        async with grpc.aio.insecure_channel(target) as channel:
            stub = gamehost_pb2_grpc.GameHostStub(channel)
            # A host that has run a while: its log has grown and been copied back (checkpointed), and the
            # next commits write over its start, which needs no new room: a small commit still succeeds
            # on a full disk while a checkpoint, and the commits after it, fail.
            for _ in range(150):
                await stub.CreateMatch(gamehost_pb2.CreateMatchRequest(game="games/tictactoe"), timeout=5)
            busy, logged, copied = store._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            assert logged > 0 and copied == logged, "the log was copied back whole"
            await becomes(target, SERVICE_NAME, SERVING)
            fill(small_disk / "filler")
            await becomes(target, SERVICE_NAME, NOT_SERVING)
            assert await status(target, "") == SERVING, "alive: restarting would not free the disk"

            (small_disk / "filler").unlink()
            await becomes(target, SERVICE_NAME, SERVING)
            await stub.CreateMatch(gamehost_pb2.CreateMatchRequest(game="games/tictactoe"), timeout=5)
    finally:
        await host.stop(1)


@pytest.mark.parametrize("content, complaint", [
    (b"", "is empty (0 bytes), not a gamehost database"),
    (b"this is not a database, just some bytes " * 200, "is not an SQLite database"),
    (b"SQLite format 3\x00" + bytes(range(256)) * 64, "is damaged"),
])
def test_an_empty_or_damaged_database_file_is_refused_at_start(tmp_path, content, complaint):
    (tmp_path / "gamehost.db").write_bytes(content)
    refused = subprocess.run([sys.executable, "-m", "gamehost.cli.main", "serve", "--data-dir", str(tmp_path),
                              "--port", "0", "--web-port", "off"], capture_output=True, text=True, timeout=30)
    assert refused.returncode == 1, refused.stderr[-2000:]
    assert complaint in refused.stderr and "Traceback" not in refused.stderr, refused.stderr[-2000:]
    assert (tmp_path / "gamehost.db").read_bytes() == content, "the file is left as it was"


def test_a_database_damaged_past_its_header_is_refused_at_start(tmp_path):
    """The header and the schema read fine; pages in the middle (matches,
    events) are junk. The start check reads every page and refuses it."""
    host = HostProcess("--max-open-matches", "0", "--create-rate", "0", data_dir=tmp_path).start()
    with host.client() as client:
        for _ in range(60):
            client.join(client.create_match("tictactoe").name, player_name="x" * 60)
    assert host.stop() == 0
    path = tmp_path / "gamehost.db"
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:  # the schema's own pages stay intact
        leaves = [number for (number,) in db.execute(
            "SELECT pageno FROM dbstat WHERE name IN ('matches', 'events') AND pagetype = 'leaf'")]
    content = bytearray(path.read_bytes())
    page = int.from_bytes(content[16:18], "big")
    assert len(leaves) > 2, leaves
    for number in leaves[1:]:  # pages are numbered from 1
        content[(number - 1) * page:number * page] = bytes(range(256)) * (page // 256)
    path.write_bytes(bytes(content))
    refused = subprocess.run([sys.executable, "-m", "gamehost.cli.main", "serve", "--data-dir", str(tmp_path),
                              "--port", "0", "--web-port", "off"], capture_output=True, text=True, timeout=60)
    assert refused.returncode == 1, refused.stderr[-2000:]
    assert "Traceback" not in refused.stderr, refused.stderr[-2000:]
    complaint = [line for line in refused.stderr.splitlines() if "is damaged" in line]
    assert len(complaint) == 1 and "Restore it from a backup" in complaint[0], refused.stderr[-2000:]
    assert path.read_bytes() == bytes(content), "the file is left as it was"


def test_a_second_host_on_the_same_sqlite_file_is_refused_while_the_first_runs(tmp_path):
    serve = [sys.executable, "-m", "gamehost.cli.main", "serve", "--data-dir", str(tmp_path), "--port", "0",
             "--web-port", "off"]
    first = HostProcess(data_dir=tmp_path).start()
    try:
        with first.client() as client:
            match = client.create_match("tictactoe").name
        refused = subprocess.run(serve, capture_output=True, text=True, timeout=30)
        assert refused.returncode == 1 and "Traceback" not in refused.stderr, refused.stderr[-2000:]
        assert f"is in use by another gamehost process (pid {first.process.pid})" in refused.stderr, refused.stderr
        migrate = subprocess.run([sys.executable, "-m", "gamehost.cli.main", "migrate", "--data-dir", str(tmp_path)],
                                 capture_output=True, text=True, timeout=30)
        assert migrate.returncode == 1 and "in use by another gamehost process" in migrate.stderr
        with first.client() as client:
            assert client.match(match).name == match, "the first host serves on"
    finally:
        first.kill()  # no shutdown code runs: the kernel releases the lock
    second = HostProcess(data_dir=tmp_path).start()
    try:
        with second.client() as client:
            assert client.match(match).name == match
    finally:
        second.stop()
