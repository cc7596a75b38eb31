"""What quotas cost, and what they protect.

1. The quota step's own work per call (``Quotas.charge`` plus resolving the
   peer), in-process: a caller within budget, a caller refused, and a table
   churned by a flood of addresses (each call a new key, LRU eviction).
2. Over real sockets: the latency of an unrelated ListGames from a browser
   address (127.0.0.2) alone, then while one gRPC client floods CreateMatch
   (refused once past its budget) and a connection flood of silent sockets
   hits the web port.

Run: . .venv/bin/activate && python -m bench.quotas [--json bench/results/2026-11-26/quotas.json]
"""

from __future__ import annotations

import argparse
import datetime
import http.client
import json
import os
import platform
import socket
import statistics
import threading
import time
from pathlib import Path

import grpc


from gamehost.host.auth import anonymous
from gamehost.host.errors import ResourceExhausted
from gamehost.host.rpc.peers import PeerResolver
from gamehost.host.rpc.quotas import QuotaLimits, Quotas
from gamehost.v1 import gamehost_pb2 as pb
from gamehost.v1 import gamehost_pb2_grpc as pb_grpc
from tests.hosts import HostProcess


class FakeMetadatum:
    def __init__(self, key, value):
        self.key, self.value = key, value


class Context:
    """The two things the gate reads from a grpc.aio context."""

    def __init__(self, peer: str) -> None:
        self._peer = peer
        self._metadata = (FakeMetadatum("user-agent", "grpc-python/1.85"),)

    def peer(self):
        return self._peer

    def invocation_metadata(self):
        return self._metadata


def per_call_cost(n: int = 200_000) -> dict:
    results = {}
    resolver = PeerResolver("k" * 43)
    context = Context("ipv4:10.0.0.1:50000")

    quotas = Quotas(QuotaLimits(call_rate=1e9, call_burst=1e9))
    start = time.perf_counter()
    for _ in range(n):
        quotas.charge("ListGames", anonymous(resolver.address(context)))
    results["admitted_us"] = (time.perf_counter() - start) / n * 1e6

    quotas = Quotas(QuotaLimits(call_rate=1e-9, call_burst=1))
    caller = anonymous("ipv4:10.0.0.1")
    start = time.perf_counter()
    for _ in range(n):
        try:
            quotas.charge("ListGames", caller)
        except ResourceExhausted:
            pass
    results["refused_us"] = (time.perf_counter() - start) / n * 1e6

    quotas = Quotas(QuotaLimits(tracked_callers=10_000))
    callers = [anonymous(f"ipv4:10.{i >> 16 & 255}.{i >> 8 & 255}.{i & 255}") for i in range(n)]
    start = time.perf_counter()
    for caller in callers:
        quotas.charge("ListGames", caller)
    results["address_flood_us"] = (time.perf_counter() - start) / n * 1e6
    results["table_size_after_flood"] = len(quotas.calls)
    return results


def list_games_latencies(port: int, seconds: float) -> list[float]:
    latencies = []
    deadline = time.monotonic() + seconds
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=("127.0.0.2", 0))
    while time.monotonic() < deadline:
        start = time.perf_counter()
        connection.request("POST", "/gamehost.v1.GameHost/ListGames", b"{}", {"Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        assert response.status == 200, response.status
        latencies.append((time.perf_counter() - start) * 1000)
        time.sleep(0.01)
    connection.close()
    return latencies


def summary(latencies: list[float]) -> dict:
    ordered = sorted(latencies)
    return {"calls": len(ordered), "p50_ms": round(statistics.median(ordered), 2),
            "p99_ms": round(ordered[int(len(ordered) * 0.99) - 1], 2)}


def under_flood(seconds: float = 5.0) -> dict:
    host = HostProcess(env={"GAMEHOST_CALL_RATE": "50", "GAMEHOST_CREATE_RATE": "2"}).start()
    try:
        quiet = summary(list_games_latencies(host.web_port, seconds))
        stop = threading.Event()
        counts = {"created": 0, "refused": 0, "connections": 0}

        def create_flood():
            with grpc.insecure_channel(host.target) as channel:
                stub = pb_grpc.GameHostStub(channel)
                while not stop.is_set():
                    try:
                        stub.CreateMatch(pb.CreateMatchRequest(game="games/tictactoe"), timeout=5)
                        counts["created"] += 1
                    except grpc.RpcError as error:
                        assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, error
                        counts["refused"] += 1

        def connection_flood():
            while not stop.is_set():
                try:
                    sockets = [socket.create_connection(("127.0.0.1", host.web_port), timeout=5) for _ in range(200)]
                except OSError:
                    continue
                counts["connections"] += len(sockets)
                time.sleep(0.2)
                for sock in sockets:
                    sock.close()

        threads = [threading.Thread(target=create_flood), threading.Thread(target=connection_flood)]
        for thread in threads:
            thread.start()
        time.sleep(0.5)
        flooded = summary(list_games_latencies(host.web_port, seconds))
        stop.set()
        for thread in threads:
            thread.join()
        return {"quiet": quiet, "flooded": flooded, "flood": counts}
    finally:
        host.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json", help="write the results here too")
    args = parser.parse_args()
    results = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
               "machine": f"{os.cpu_count()} cores, {platform.processor() or platform.machine()}, "
                          f"Python {platform.python_version()}, grpcio {grpc.__version__}",
               "per_call": per_call_cost(), "list_games_from_another_address": under_flood()}
    print(json.dumps(results, indent=2))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
