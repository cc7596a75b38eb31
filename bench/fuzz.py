"""The fuzz run: many hostile requests over every RPC and both ports of a real
host, with matches being played alongside; every answer's status is counted.

It starts ``gamehost serve`` on loopback (SQLite in a temporary directory,
the browser port on), prepares one match of every game with every seat
joined, and a "sentinel" match nobody but this script knows the tokens of.
Then ``--workers`` tasks send ``--requests`` requests in all, drawn from:

- structured requests over gRPC: every field of every method's request
  filled at random (names real and forged, long and odd strings, edge
  numbers, Structs with NaN, infinity, deep nesting, many keys), and moves
  that are a live match's legal moves mistyped, sent with the real tokens;
- mutated protobuf bytes over gRPC (bits flipped, bytes cut, inserted,
  repeated; garbage; a Struct nested past protobuf's decode limit);
- the browser port: Connect unary (JSON and proto, sometimes mutated, some
  declaring gzip over a plain body), Connect streaming, gRPC-Web binary and
  text (sometimes with broken envelopes).

Meanwhile a task plays whole tictactoe matches and must never fail. At the end
it checks: no INTERNAL and no UNKNOWN answer on either port, no hang (every
call has a deadline), the host still running and answering, no failure or
traceback in its log, and the sentinel match (only refused calls reached it)
exactly as it was. Exit status 0 only then. Usage:

    python -m bench.fuzz [--requests 100000] [--workers 16] [--max-seconds 1200] [--seed 1] [--json out.json]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import gzip
import json
import os
import platform
import random
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from datetime import datetime, timezone

import aiohttp
import grpc
from google.protobuf import json_format, message_factory, struct_pb2
from google.protobuf.descriptor import FieldDescriptor

from gamehost.client.structs import from_struct
from gamehost.testing.conformance import mistyped_moves
from gamehost.v1 import gamehost_pb2 as pb
from gamehost.v1 import gamehost_pb2_grpc as pb_grpc

from bench.fuzz_checks import check_matches, leaked_tokens
from bench.fuzz_credentials import ADMIN_KINDS, Credentials
from tests.hand_encoded import deep_struct_bytes, varint

SERVICES = [pb.DESCRIPTOR.services_by_name["GameHost"], pb.DESCRIPTOR.services_by_name["GameHostAdmin"]]
GAMES = ["tictactoe", "campanile", "burgbaumeister", "kensington", "scalino", "callisto"]
# One client sends everything from 127.0.0.1 at full speed: the per-caller
# budgets (their defaults stay as they are for every other host; tested in
# tests/test_quotas.py and test_match_limits.py) would refuse most of it.
QUOTAS_LIFTED = ["--call-rate", "0", "--create-rate", "0", "--max-watchers-per-caller", "0",
                 "--max-open-matches", "0", "--max-bot-matches", "0"]
CALL_TIMEOUT = 10.0  # seconds: an answer later than this counts as a hang
WATCH_TIMEOUT = 0.3  # watch streams of live matches never end by themselves
BAD = {"INTERNAL", "UNKNOWN", "HANG"}


class Method:
    def __init__(self, service, method) -> None:
        self.name = method.name
        self.path = f"/{service.full_name}/{method.name}"
        self.input = message_factory.GetMessageClass(method.input_type)
        self.streaming = method.server_streaming
        self.client_streaming = method.client_streaming  # Session: gRPC only (the browser port has none)


METHODS = [Method(service, method) for service in SERVICES for method in service.methods]


# ------------------------------------------------------------------ the host


class Host:
    """``gamehost serve`` on loopback in a child process; its log is kept."""

    def __init__(self, data_dir: str, *extra: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gamehost.cli.main", "serve", "--address", "127.0.0.1:0", "--web-port", "0",
             "--data-dir", data_dir, "--log-format", "json", "--log-level", "info", "--web-root", "off",
             *QUOTAS_LIFTED, *extra],
            stderr=subprocess.PIPE, text=True)
        self.log: list[str] = []
        for line in self.process.stderr:
            self.log.append(line)
            if '"host serving"' in line:
                entry = json.loads(line)
                self.target, self.web = f"127.0.0.1:{entry['port']}", f"http://127.0.0.1:{entry['web_port']}"
                break
        else:
            raise RuntimeError("the host did not start:\n" + "".join(self.log[-20:]))
        threading.Thread(target=lambda: self.log.extend(self.process.stderr), daemon=True).start()

    def failures(self) -> list[str]:
        """Log lines that show a failure of the host: unexpected errors, tracebacks."""
        words = ('"rpc failed"', '"browser call failed"', "Traceback", "ExecuteBatchError", '"plugin raised"')
        return [line for line in self.log if any(word in line for word in words)]

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(30)


# ------------------------------------------------------------------ random values


class Values:
    """Random field values, some real (names and tokens of live matches)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.names: list[str] = ["games/tictactoe", "games/campanile", "games/chess"]
        self.tokens: list[str] = []
        self.page_tokens: list[str] = []

    def string(self, field: str) -> str:
        r = self.rng
        pool = [
            lambda: "", lambda: r.choice(self.names), lambda: r.choice(self.tokens or [""]),
            lambda: r.choice(self.page_tokens or [""]), lambda: "x" * r.choice([41, 65, 129, 513, 5000, 200_000]),
            lambda: r.choice(["games/", "matches/", "matches/a/b", "games/../x", "\x00", "é" * 70, "💥" * 20,
                              "random", "greedy", "no-such-bot", "basic", "a3", "b2", "pass", "-1", "None"]),
            lambda: base64.urlsafe_b64encode(r.randbytes(r.randrange(1, 60))).decode(),
            lambda: base64.urlsafe_b64encode(json.dumps(self.json_value(3)).encode()).decode(),
            lambda: base64.urlsafe_b64encode(json.dumps({"q": {"game": None, "status": None},
                                                         "at": [self.number(), self.string("id")]}).encode()).decode(),
            lambda: "".join(chr(r.randrange(1, 0x2FF)) for _ in range(r.randrange(1, 30))),
        ]
        if field in ("name", "game"):
            pool += [lambda: r.choice(self.names)] * 4
        return r.choice(pool)()

    def number(self):
        return self.rng.choice([0, 1, -1, 2, 8, 9, 44, 2 ** 31 - 1, -2 ** 31, 2 ** 53, 1e300, 0.5, -0.0,
                                float("nan"), float("inf"), float("-inf"), self.rng.uniform(-1e6, 1e6)])

    def integer(self, descriptor) -> int:
        unsigned = descriptor.type in (FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_UINT64)
        wide = descriptor.type in (FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_UINT64)
        top = 2 ** (64 if wide else 32) - 1 if unsigned else 2 ** (63 if wide else 31) - 1
        low = 0 if unsigned else -top - 1
        return self.rng.choice([0, 1, 2, 3, -1 if not unsigned else 4, 9, 100, 1000, top, low,
                                self.rng.randint(low, top)])

    def json_value(self, depth: int):
        r = self.rng
        kind = r.randrange(9 if depth > 0 else 5)
        if kind == 0:
            return self.number()
        if kind == 1:
            return r.choice(["", "x", "y" * r.choice([10, 1000, 20_000]), "build", "reveal", "take", "S1"])
        if kind == 2:
            return r.choice([True, False])
        if kind == 3:
            return None
        if kind == 4:
            return r.randrange(-3, 50)
        wide = depth <= 1  # many keys or items only next to the leaves, so a value stays small
        if kind in (5, 6):
            keys = ["cell", "action", "place", "pile", "tower", "chip", "k" * r.choice([1, 70]), f"k{r.randrange(999)}"]
            return {r.choice(keys): self.json_value(depth - 1) for _ in range(r.choice([0, 1, 2, 3, 70 if wide else 2]))}
        return [self.json_value(depth - 1) for _ in range(r.choice([0, 1, 2, 300 if wide else 3]))]

    def struct(self) -> struct_pb2.Struct:
        r = self.rng
        shape = r.randrange(4)
        if shape == 0:  # deep
            value: object = {"leaf": 1}
            for _ in range(r.choice([5, 9, 20, 30])):
                value = {"a": value} if r.random() < 0.5 else {"a": [value]}
            data = value
        elif shape == 1:
            data = {"x": self.number(), "y": self.number()}
        else:
            data = self.json_value(4)
            data = data if isinstance(data, dict) else {"value": data}
        result = struct_pb2.Struct()
        try:
            result.update(data)
        except (ValueError, TypeError):  # protobuf's own refusals (e.g. nesting it will not build)
            pass
        return result

    def fill(self, message, depth: int = 0):
        """Set a random subset of ``message``'s fields to random values."""
        for descriptor in message.DESCRIPTOR.fields:
            if self.rng.random() < 0.35:
                continue
            self._set(message, descriptor, depth)
        return message

    def _set(self, message, descriptor, depth: int) -> None:
        r = self.rng
        repeated = descriptor.is_repeated
        if descriptor.type == FieldDescriptor.TYPE_MESSAGE:
            if descriptor.message_type.full_name == "google.protobuf.Struct":
                getattr(message, descriptor.name).CopyFrom(self.struct())
            elif descriptor.message_type.full_name == "google.protobuf.Duration":
                getattr(message, descriptor.name).seconds = r.choice([0, 1, -5, 30, 10 ** 9, 315_576_000_000])
            elif depth < 2 and not repeated:
                self.fill(getattr(message, descriptor.name), depth + 1)
            return
        if descriptor.type == FieldDescriptor.TYPE_STRING:
            make = lambda: self.string(descriptor.name)  # noqa: E731
        elif descriptor.type == FieldDescriptor.TYPE_BOOL:
            make = lambda: r.random() < 0.5  # noqa: E731
        elif descriptor.type == FieldDescriptor.TYPE_ENUM:
            make = lambda: r.choice([0, 1, 2, 3, 4, 5, 6, 99, -1])  # noqa: E731
        elif descriptor.type in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
            make = self.number
        else:
            make = lambda: self.integer(descriptor)  # noqa: E731
        if repeated:
            getattr(message, descriptor.name).extend(make() for _ in range(r.choice([0, 1, 2, 5, 100])))
        else:
            setattr(message, descriptor.name, make())


def mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    data = bytearray(data or b"\x00")
    for _ in range(rng.randrange(1, 4)):
        kind = rng.randrange(6)
        at = rng.randrange(len(data)) if data else 0
        if kind == 0 and data:
            data[at] ^= 1 << rng.randrange(8)
        elif kind == 1:
            del data[at:at + rng.randrange(1, 8)]
        elif kind == 2:
            data[at:at] = rng.randbytes(rng.randrange(1, 8))
        elif kind == 3:
            data[at:at] = data[at:at + rng.randrange(1, 16)]
        elif kind == 4 and data:
            data[at] = rng.choice([0x00, 0x7F, 0x80, 0xFF, 0x0A, 0x12, 0x1A, 0x22])
        else:
            data = data[:at]
    return bytes(data)


# ------------------------------------------------------------------ the fuzzer


# grpcio's asyncio client reports INTERNAL "Internal error from Core" for a
# stream the server ended (here: a Session refused at its start) while the
# client was still writing requests: the write fails and the client replaces
# the server's status with its own (grpc/grpc issue 36066). The host sent its
# status; the answer is counted apart, not as the host's INTERNAL.
CLIENT_WRITE_AFTER_END = "client wrote after the server ended"


def client_write_after_end(error: grpc.aio.AioRpcError) -> bool:
    return (error.code() == grpc.StatusCode.INTERNAL and error.details() == "Internal error from Core"
            and "SendMessageOperation" in (error.debug_error_string() or ""))


class Fuzzer:
    def __init__(self, host: Host, seed: int, credentials: Credentials) -> None:
        self.host = host
        self.rng = credentials.rng
        self.values = Values(self.rng)
        self.credentials = credentials
        self.counts: Counter = Counter()  # (port, status) -> answers
        self.by_method: Counter = Counter()
        self.by_method_status: Counter = Counter()  # (method, status) -> answers
        self.by_credential: Counter = Counter()  # (credential kind, status) -> answers
        self.views_checked = 0
        self.leaks: list[str] = []
        self.bad: list[str] = []
        self.seats: list[tuple[str, str]] = []  # (match name, token) of the prepared matches
        self.sentinel = b""  # the sentinel match's name, once prepared
        self.channel = grpc.aio.insecure_channel(host.target, options=[("grpc.max_send_message_length", 8 << 20)])
        self.stub = pb_grpc.GameHostStub(self.channel)
        self.http: aiohttp.ClientSession | None = None

    def count(self, port: str, status: str, method: str, detail: str = "", credential: str = "none") -> None:
        self.counts[(port, status)] += 1
        self.by_method[method] += 1
        self.by_method_status[(method, status)] += 1
        self.by_credential[(credential, status)] += 1
        if status in BAD and len(self.bad) < 50:
            self.bad.append(f"{port} {method} {status}: {detail[:300]}")

    async def prepare(self) -> str:
        """A match of every game with every seat taken; the sentinel's name."""
        for game in GAMES:
            info = await self.stub.GetGame(pb.GetGameRequest(name=f"games/{game}"))
            match = await self.stub.CreateMatch(pb.CreateMatchRequest(game=f"games/{game}", seats=info.min_players))
            self.values.names.append(match.name)
            for _ in range(info.min_players):
                token = (await self.stub.JoinMatch(pb.JoinMatchRequest(name=match.name))).player_token
                self.values.tokens.append(token)
                self.seats.append((match.name, token))
        sentinel = await self.stub.CreateMatch(pb.CreateMatchRequest(game="games/tictactoe"))
        for _ in range(2):
            await self.stub.JoinMatch(pb.JoinMatchRequest(name=sentinel.name))  # tokens thrown away
        self.values.names.append(sentinel.name)
        self.sentinel = sentinel.name.encode()
        page = await self.stub.ListMatches(pb.ListMatchesRequest(page_size=2))
        self.values.page_tokens.append(page.next_page_token)
        return sentinel.name

    async def snapshot(self, name: str) -> tuple:
        match = await self.stub.GetMatch(pb.GetMatchRequest(name=name))
        log = await self.stub.GetMatchLog(pb.GetMatchLogRequest(name=name))
        return match.SerializeToString(), log.SerializeToString()

    # ---------------------------------------------------------- one request

    def structured(self, method: Method):
        request = self.values.fill(method.input())
        return request

    async def mistyped_move(self) -> None:
        """A live match's legal move, mistyped, sent with a real token."""
        name, token = self.rng.choice(self.seats)
        try:
            view = await self.stub.GetView(pb.GetViewRequest(name=name, player_token=token), timeout=CALL_TIMEOUT)
        except grpc.aio.AioRpcError as error:
            self.count("grpc", error.code().name, "GetView", error.details() or "")
            return
        self.count("grpc", "OK", "GetView")
        self.views_checked += 1
        for leaked in leaked_tokens(view.SerializeToString(), token, self.values.tokens):
            if len(self.leaks) < 20:
                self.leaks.append(f"{name}: the view of {token[:6]}... holds the token {leaked[:6]}...")
        if not view.legal_moves:
            return
        legal = from_struct(self.rng.choice(view.legal_moves).move)
        move = self.rng.choice(mistyped_moves(legal))
        request = pb.SubmitMoveRequest(name=name, player_token=token)
        try:
            request.structured.update(move if isinstance(move, dict) else {"move": move})
        except (ValueError, TypeError):
            return
        await self.grpc_call(METHODS_BY_NAME["SubmitMove"], request.SerializeToString(), signed=False)

    def session_messages(self, data: bytes) -> list[bytes]:
        """A Session stream's requests: one fuzzed message, or a sequence
        of structured ones (watch, move, re-watch, unwatch... at random)."""
        if self.rng.random() < 0.5:
            return [data]
        session_request = SESSION.input
        return [self.values.fill(session_request()).SerializeToString() for _ in range(self.rng.randrange(2, 7))]

    def credential_for(self, data: bytes, browser: bool) -> tuple[str, str]:
        """A credential to send ``data`` with. An operator may abort or delete any match, so a
        request naming the sentinel never goes with an admin's: the sentinel is there to show
        that refused calls change nothing."""
        while True:
            kind, header = self.credentials.header(browser=browser)
            if kind not in ADMIN_KINDS or not self.sentinel or self.sentinel not in data:
                return kind, header

    async def grpc_call(self, method: Method, data: bytes, signed: bool = True) -> None:
        credential, header = self.credential_for(data, browser=False) if signed else ("none", "")
        metadata = (("authorization", header),) if header else None
        try:
            if method.client_streaming:  # its watches never end by themselves: the deadline ends the stream
                call = self.channel.stream_stream(method.path)(iter(self.session_messages(data)),
                                                               timeout=WATCH_TIMEOUT, metadata=metadata)
                async for _ in call:
                    pass
            elif method.streaming:
                call = self.channel.unary_stream(method.path)(data, timeout=WATCH_TIMEOUT, metadata=metadata)
                async for _ in call:
                    pass
            else:
                await self.channel.unary_unary(method.path)(data, timeout=CALL_TIMEOUT, metadata=metadata)
            self.count("grpc", "OK", method.name, credential=credential)
        except grpc.aio.AioRpcError as error:
            status = error.code().name
            if status == "DEADLINE_EXCEEDED" and not (method.streaming or method.client_streaming):
                status = "HANG"
            elif method.client_streaming and client_write_after_end(error):
                status = CLIENT_WRITE_AFTER_END
            self.count("grpc", status, method.name, error.details() or "", credential)

    async def browser_call(self, method: Method, request) -> None:
        r = self.rng
        data = request.SerializeToString()
        # gRPC-Web for every method; Connect streaming for streams, Connect unary for the rest.
        kind = r.choice([0, 1, 2] if method.streaming else [0, 1, 3, 4, 5])
        headers: dict[str, str] = {}
        credential, header = self.credential_for(data, browser=True)
        if header:
            headers["Authorization"] = header
        if kind == 0:  # gRPC-Web binary
            body = struct.pack(">BI", 0, len(data)) + data
            if r.random() < 0.3:
                body = mutate_bytes(body, r)
            headers["Content-Type"] = "application/grpc-web+proto"
        elif kind == 1:  # gRPC-Web text
            body = base64.b64encode(struct.pack(">BI", 0, len(data)) + (mutate_bytes(data, r) if r.random() < 0.3
                                                                          else data))
            headers["Content-Type"] = "application/grpc-web-text"
        elif kind == 2:  # Connect streaming (enveloped)
            body = struct.pack(">BI", r.choice([0, 0, 1]), len(data)) + data
            headers["Content-Type"] = "application/connect+proto"
        elif kind == 3:  # Connect unary JSON
            try:
                text = json_format.MessageToJson(request)
            except Exception:  # NaN in a Struct has no JSON: send the JSON protobuf would refuse anyway
                text = '{"structured": {"cell": NaN}}'
            if r.random() < 0.3:
                text = mutate_bytes(text.encode(), r).decode("utf-8", "replace")
            body = text.encode()
            headers["Content-Type"] = "application/json"
        elif kind == 4:  # Connect unary proto
            body = mutate_bytes(data, r) if r.random() < 0.5 else data
            headers["Content-Type"] = "application/proto"
        else:  # Connect unary declaring gzip, the body plain or gzip
            body = data if r.random() < 0.5 else gzip.compress(data)
            headers.update({"Content-Type": "application/proto", "Content-Encoding": "gzip"})
        port = "grpc-web" if "grpc-web" in headers["Content-Type"] else "connect"
        timeout = WATCH_TIMEOUT if method.streaming else CALL_TIMEOUT
        # Some browsers go away mid-call: the host must not print tracebacks when its answer finds nobody.
        gives_up = r.random() < 0.05
        if method.streaming:
            headers["grpc-timeout" if port == "grpc-web" else "Connect-Timeout-Ms"] = \
                "300m" if port == "grpc-web" else "300"
        try:
            async with self.http.post(self.host.web + method.path, data=body, headers=headers,
                                      timeout=aiohttp.ClientTimeout(total=r.uniform(0.0005, 0.005) if gives_up
                                                                    else timeout + CALL_TIMEOUT)) as response:
                answer = await response.read()
                self.count(port, browser_status(port, response.status, answer), method.name, answer[:300].decode(
                    "utf-8", "replace"), credential)
        except asyncio.TimeoutError:
            self.count(port, "client went away" if gives_up else "HANG", method.name, credential=credential)

    async def one(self) -> None:
        r = self.rng
        choice = r.random()
        if choice < 0.12:
            await self.mistyped_move()
            return
        method = r.choice(METHODS)
        if choice < 0.55:
            await self.grpc_call(method, self.structured(method).SerializeToString())
        elif choice < 0.75:
            raw = r.random()
            if raw < 0.1:
                data = r.randbytes(r.randrange(1, 200))
            elif raw < 0.15 and method.name in ("CreateMatch", "SubmitMove"):
                nested = deep_struct_bytes(r.choice([40, 120]))
                data = (b"\x1a" if method.name == "CreateMatch" else b"\x22") + varint(len(nested)) + nested
            else:
                data = mutate_bytes(self.structured(method).SerializeToString(), r)
            await self.grpc_call(method, data)
        else:
            await self.browser_call(method, self.structured(method))


METHODS_BY_NAME = {method.name: method for method in METHODS if method.path.startswith("/gamehost.v1.GameHost/")}
SESSION = METHODS_BY_NAME["Session"]


def browser_status(port: str, http_status: int, body: bytes) -> str:
    """The gRPC status name of a browser-port answer, or "HTTP <n>" for an
    answer outside the RPC protocols (415 for an unknown content type)."""
    if port == "grpc-web":
        if b"grpc-status:" not in body:
            try:
                body = b"".join(base64.b64decode(part + b"=" * (-len(part) % 4)) for part in body.split(b"=") if part)
            except ValueError:
                pass
        marker = body.rfind(b"grpc-status:")
        if marker < 0:
            return f"HTTP {http_status}"
        code = int(body[marker + 12:].split(b"\r\n", 1)[0].strip())
        return grpc.StatusCode(next(c for c in grpc.StatusCode if c.value[0] == code)).name
    if http_status == 200:
        if not body[:1] in (b"\x00", b"\x02"):
            return "OK"  # a unary answer
        while len(body) >= 5:  # a stream's envelopes; the end-of-stream one (flag 2) holds any error
            flags, length = struct.unpack_from(">BI", body)
            if flags & 0x02:
                error = json.loads(body[5:5 + length]).get("error")
                return error["code"].upper().replace("CANCELED", "CANCELLED") if error else "OK"
            body = body[5 + length:]
        return "HTTP 200 without end of stream"
    try:
        code = json.loads(body)["code"]
    except (ValueError, KeyError, TypeError):
        return f"HTTP {http_status}"
    return code.upper().replace("CANCELED", "CANCELLED")


async def live_traffic(stub, stop: asyncio.Event, played: Counter) -> None:
    """Whole tictactoe matches, one after another, by two players. A call
    refused or too slow is counted (``failed <code>``) and a new match begun:
    the report shows it rather than the run stopping."""
    rng = random.Random(7)
    while not stop.is_set():
        try:
            await live_match(stub, rng, played)
        except grpc.aio.AioRpcError as error:
            played[f"failed {error.code().name}"] += 1


async def live_match(stub, rng: random.Random, played: Counter) -> None:
    """One whole match by two players, moves chosen at random."""
    match = await stub.CreateMatch(pb.CreateMatchRequest(game="games/tictactoe"), timeout=CALL_TIMEOUT)
    tokens = [(await stub.JoinMatch(pb.JoinMatchRequest(name=match.name), timeout=CALL_TIMEOUT)).player_token
              for _ in range(2)]
    while True:
        views = [await stub.GetView(pb.GetViewRequest(name=match.name, player_token=t), timeout=CALL_TIMEOUT)
                 for t in tokens]
        mover = next((seat for seat, view in enumerate(views) if view.legal_moves), None)
        if mover is None:
            break
        move = rng.choice(views[mover].legal_moves)
        await stub.SubmitMove(pb.SubmitMoveRequest(name=match.name, player_token=tokens[mover], move_id=move.id),
                              timeout=CALL_TIMEOUT)
        played["moves"] += 1
    played["matches"] += 1


async def run(requests: int, workers: int, max_seconds: float, seed: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="gamehost-fuzz-") as data_dir, \
            tempfile.TemporaryDirectory(prefix="gamehost-fuzz-keys-") as keys_dir:
        credentials = Credentials(Path(keys_dir), random.Random(seed))
        host = Host(data_dir, *credentials.host_args())
        fuzzer = Fuzzer(host, seed, credentials)
        try:
            sentinel = await fuzzer.prepare()
            before = await fuzzer.snapshot(sentinel)
            stop, played = asyncio.Event(), Counter()
            fuzzer.http = aiohttp.ClientSession()
            live = asyncio.create_task(live_traffic(fuzzer.stub, stop, played))
            sent = 0
            started = time.monotonic()

            async def worker() -> None:
                nonlocal sent
                while sent < requests and time.monotonic() - started < max_seconds:
                    sent += 1
                    await fuzzer.one()

            await asyncio.gather(*(worker() for _ in range(workers)))
            elapsed = time.monotonic() - started
            stop.set()
            await live
            await fuzzer.http.close()
            after = await fuzzer.snapshot(sentinel)
            invariants = await check_matches(fuzzer.stub)
            still_serving = bool((await fuzzer.stub.ListGames(pb.ListGamesRequest(), timeout=CALL_TIMEOUT)).games)
            alive = host.process.poll() is None
            await fuzzer.channel.close()
        finally:
            host.stop()
        statuses = Counter()
        for (port, status), count in fuzzer.counts.items():
            statuses[status] += count
        answered = sum(fuzzer.counts.values())
        report = {
            "answered": answered, "sent": sent, "seconds": round(elapsed, 1), "workers": workers, "seed": seed,
            "statuses": dict(statuses.most_common()),
            "by_port": {port: dict(Counter({s: c for (p, s), c in fuzzer.counts.items() if p == port})
                                   .most_common()) for port in sorted({p for p, _ in fuzzer.counts})},
            "methods": dict(sorted(fuzzer.by_method.items())),
            "by_method": {method: dict(Counter({s: c for (m, s), c in fuzzer.by_method_status.items() if m == method})
                                       .most_common()) for method in sorted(fuzzer.by_method)},
            "by_credential": {kind: dict(Counter({s: c for (k, s), c in fuzzer.by_credential.items() if k == kind})
                                         .most_common()) for kind in sorted({k for k, _ in fuzzer.by_credential})},
            "unreached_methods": sorted({m.name for m in METHODS} - set(fuzzer.by_method)),
            "invariants": {**invariants, "views_checked": fuzzer.views_checked, "leaked_tokens": fuzzer.leaks},
            "live_traffic": dict(played), "sentinel_unchanged": before == after, "host_alive": alive,
            "still_serving": still_serving, "host_log_failures": host.failures()[:10], "bad_answers": fuzzer.bad,
        }
        report["passed"] = (not any(statuses.get(name) for name in BAD) and report["sentinel_unchanged"] and alive
                            and still_serving and not report["host_log_failures"] and played["matches"] > 0
                            and not any(key.startswith("failed") for key in played)
                            and answered >= requests and not report["unreached_methods"]
                            and not invariants["version_gaps"] and not invariants["replay_mismatches"]
                            and invariants["finished_replayed"] > 0 and not fuzzer.leaks)
        return report


def machine() -> dict:
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "")
    return {"date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "cores": os.cpu_count(), "cpu": cpu,
            "python": platform.python_version(), "grpcio": grpc.__version__}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=16)
    parser.add_argument("--max-seconds", type=float, default=1200.0, help="stop sending after this long")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="write the report here (default: bench/results/<UTC date>/fuzz-<requests>.json)")
    args = parser.parse_args()
    if args.json is None:
        args.json = str(Path(__file__).parent / "results" / datetime.now(timezone.utc).strftime("%Y-%m-%d")
                        / f"fuzz-{args.requests}.json")
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    report = {"machine": machine(), **asyncio.run(run(args.requests, args.workers, args.max_seconds, args.seed))}
    text = json.dumps(report, indent=2)
    print(text)
    if args.json:
        with open(args.json, "w") as out:
            out.write(text + "\n")
    sys.exit(0 if report["passed"] else 1)


if __name__ == "__main__":
    main()
