"""What one caller can take from everyone else, within the default limits.

For each resource attack, a fresh host with the default settings (SQLite in a
temporary directory, its rules workers) is measured at rest, then one
attacking caller (127.0.0.1, or for the last attack many loopback addresses
and ::1) runs the attack for ``--seconds`` while an unrelated caller
(127.0.0.2, through a relay in a process of its own so that the attacker's
work in this process does not delay it) calls ListGames 25 times a second.
Recorded: the attacker's calls by outcome (OK or the gRPC status), the
unrelated caller's ListGames p50/p99 before and during the attack, and the
host's resident memory (host and workers) at its peak against its idle
figure. The bound: p99 under 50 ms and the peak under 1.5 times idle.

Every attack sends traffic only to the host it started on 127.0.0.1 (and
::1), is bounded in calls and time, and stops by itself.

Run: . .venv/bin/activate && python -m bench.resource_attacks [--json FILE] [--seconds 40] [--only undo,streams]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import multiprocessing
import os
import select
import socket
import statistics
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Awaitable, Callable

import grpc
from google.protobuf import duration_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from bench.harness import PinnedHost, machine, tree_rss_bytes
from gamehost.host.auth.api_keys import key_entry, new_key
from gamehost.v1 import gamehost_pb2 as pb
from gamehost.v1 import gamehost_pb2_grpc as pb_grpc

P99_BOUND_MS = 50.0
MEMORY_BOUND = 1.5
PROBE_INTERVAL = 0.04   # the unrelated caller: 25 ListGames a second, well within its own budget
QUIET_SECONDS = 20.0    # the unrelated caller alone, before each attack
UNRELATED = "127.0.0.2"
SEPARATE = (("grpc.use_local_subchannel_pool", 1),)  # a channel of its own connection
DRAW = ["a3", "b3", "c3", "b2", "a2", "c2", "b1", "a1", "c1"]  # tictactoe: nine moves, no line


# ---------------------------------------------------------------- the unrelated caller


def probe(target_port: int, stop_at: float, results) -> None:
    """In a process of its own: ListGames from ``UNRELATED`` until ``stop_at``
    (time.monotonic, the same clock in every process); sends back
    (start, seconds, code) for each call."""
    from tests.tcp_relay import TcpRelay

    relay = TcpRelay(target_port, source=UNRELATED)
    samples = []
    with grpc.insecure_channel(relay.target) as channel:
        stub = pb_grpc.GameHostStub(channel)
        next_call = time.monotonic()
        while next_call < stop_at:
            start = time.monotonic()
            try:
                stub.ListGames(pb.ListGamesRequest(), timeout=5)
                code = "OK"
            except grpc.RpcError as error:
                code = error.code().name
            samples.append((start, time.monotonic() - start, code))
            next_call += PROBE_INTERVAL
            time.sleep(max(0.0, next_call - time.monotonic()))
    relay.close()
    results.send(samples)
    results.close()


def latency(samples: list, since: float, until: float) -> dict:
    inside = [s for s in samples if since <= s[0] < until]
    ordered = sorted(1000 * s[1] for s in inside if s[2] == "OK")
    failed = collections.Counter(s[2] for s in inside if s[2] != "OK")
    if not ordered:
        return {"calls": len(inside), "failed": dict(failed)}
    slow = [(round(s[0] - since, 1), round(1000 * s[1])) for s in inside if 1000 * s[1] >= P99_BOUND_MS]
    return {"calls": len(inside), "p50_ms": round(statistics.median(ordered), 2),
            "p99_ms": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 2),
            "max_ms": round(ordered[-1], 2), "failed": dict(failed),
            "over_bound": len(slow), "over_bound_at_s_ms": slow[:20]}  # when (s into the phase), how long


def runqueue_wait(pid: int) -> float:
    """Seconds the host process's threads have waited for a CPU while
    runnable (/proc schedstat): what a busy machine, not the host's own
    work, adds to its answers."""
    total = 0
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            total += int((task / "schedstat").read_text().split()[1])
        except (OSError, IndexError, ValueError):
            pass
    return total / 1e9


class MemorySampler:
    """The host's tree resident memory every 0.2 s, on a thread."""

    def __init__(self, pid: int) -> None:
        self.pid, self.samples, self.host_alone, self.running = pid, [], [], True
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while self.running:
            self.samples.append((time.monotonic(), tree_rss_bytes(self.pid)))
            try:
                self.host_alone.append((time.monotonic(), int(next(
                    line.split()[1] for line in Path(f"/proc/{self.pid}/status").read_text().splitlines()
                    if line.startswith("VmRSS:"))) * 1024))
            except OSError:
                pass
            time.sleep(0.2)

    def stop(self) -> None:
        self.running = False
        self.thread.join()

    def peak(self, since: float, until: float = float("inf"), host_alone: bool = False) -> int:
        """The most, from ``since`` to ``until``, of the host and its workers (or of the host alone)."""
        return max((rss for at, rss in (self.host_alone if host_alone else self.samples) if since <= at < until),
                   default=0)


# ---------------------------------------------------------------- the attacker's bookkeeping


def reason_of(error: grpc.aio.AioRpcError) -> str:
    """The ErrorInfo reason of a failed call's details, if any."""
    for key, value in error.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            status = status_pb2.Status.FromString(value)
            for detail in status.details:
                info = error_details_pb2.ErrorInfo()
                if detail.Unpack(info):
                    return info.reason
    return ""


@dataclass
class Tally:
    """The attacker's calls by kind and outcome (OK, or the code and
    reason), and facts it observed."""

    calls: collections.Counter = field(default_factory=collections.Counter)
    facts: dict = field(default_factory=dict)
    last_reason: str = ""

    async def call(self, kind: str, awaitable: Awaitable, refused_pause: float = 0.02):
        """The call's answer, or None when it failed (counted by its code
        and reason, kept in ``last_reason``). A call refused by a quota
        pauses the loop a little: the attacker's own CPU is on the same two
        cores as the host."""
        try:
            answer = await awaitable
        except grpc.aio.AioRpcError as error:
            self.last_reason = reason_of(error) or error.code().name
            outcome = f"{kind} {error.code().name} {reason_of(error)}".rstrip()
            if error.code() == grpc.StatusCode.INTERNAL and error.details() == "Internal error from Core":
                # grpc's client writing to a stream the host had just ended
                # (refused): the host's own status is lost, its log shows no error
                outcome = f"{kind} ended by the host while the client wrote"
            self.calls[outcome] += 1
            if error.code() in (grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN):
                self.facts.setdefault("unexpected_errors", {}).setdefault(outcome, error.details())
            if error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED:
                await asyncio.sleep(refused_pause)
            return None
        except asyncio.TimeoutError:
            self.last_reason = "TIMEOUT"
            self.calls[f"{kind} client timeout"] += 1
            return None
        self.calls[f"{kind} OK"] += 1
        return answer

    async def persist(self, kind: str, make_call: Callable[[], Awaitable], deadline: float,
                      refused_pause: float = 0.02):
        """The call, made again while only the call budget (QUOTA_EXCEEDED) refuses it."""
        while time.monotonic() < deadline:
            answer = await self.call(kind, make_call(), refused_pause)
            if answer is not None or self.last_reason != "QUOTA_EXCEEDED":
                return answer
        return None

    def summary(self) -> dict:
        return {"calls": dict(sorted(self.calls.items())), **self.facts}


def bearer(key: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {key}"),)


async def until(deadline: float, step: Callable[[], Awaitable[bool | None]], max_rounds: int = 1_000_000) -> None:
    """``step`` again and again until ``deadline`` (or it answers False)."""
    for _ in range(max_rounds):
        if time.monotonic() >= deadline or await step() is False:
            return


# ---------------------------------------------------------------- the attacks


async def undo_loop_and_log_readers(target: str, deadline: float, tally: Tally, **_) -> None:
    """One anonymous caller holds both seats of tictactoe matches: after each
    move its seat asks for the move back and withdraws, again and again until
    refused, then plays on (a new match when one ends); four readers page
    through the logs all the while."""
    matches: list[str] = []
    async with grpc.aio.insecure_channel(target) as channel:
        stub = pb_grpc.GameHostStub(channel)

        async def persist(kind: str, make_call: Callable[[], Awaitable]):
            return await tally.persist(kind, make_call, deadline)

        async def undo_loop() -> None:
            while time.monotonic() < deadline:
                match = await persist("CreateMatch", lambda: stub.CreateMatch(pb.CreateMatchRequest(
                    game="games/tictactoe")))
                if match is None:
                    await asyncio.sleep(0.5)  # over a match quota
                    continue
                tokens = [await persist("JoinMatch", lambda: stub.JoinMatch(pb.JoinMatchRequest(
                    name=match.name, seat=seat))) for seat in range(2)]
                if None in tokens:
                    continue
                matches.append(match.name)
                for turn, move_id in enumerate(DRAW):
                    token = tokens[turn % 2].player_token
                    if await persist("SubmitMove", lambda: stub.SubmitMove(pb.SubmitMoveRequest(
                            name=match.name, player_token=token, move_id=move_id))) is None:
                        break  # a new match
                    # ask the move back and withdraw until the host takes no more asks for it
                    while await persist("AskUndo", lambda: stub.AskUndo(pb.AskUndoRequest(
                            name=match.name, player_token=token))) is not None:
                        await persist("WithdrawUndo", lambda: stub.WithdrawUndo(pb.WithdrawUndoRequest(
                            name=match.name, player_token=token)))

        async def reader() -> None:
            while time.monotonic() < deadline:
                if not matches:
                    await asyncio.sleep(0.05)
                    continue
                for name in list(matches):
                    page_token = ""
                    while time.monotonic() < deadline:
                        await asyncio.sleep(0.2)  # the readers leave most of the budget to the undo loop
                        page = await tally.call("GetMatchLog", stub.GetMatchLog(pb.GetMatchLogRequest(
                            name=name, page_size=1000, page_token=page_token)))
                        if page is None:
                            continue
                        tally.facts["longest_log_read"] = max(tally.facts.get("longest_log_read", 0),
                                                              len(page.events))
                        page_token = page.next_page_token
                        if not page_token:
                            break

        await asyncio.gather(undo_loop(), *(reader() for _ in range(4)))
        tally.facts["matches"] = len(matches)
        versions = [((await stub.GetMatch(pb.GetMatchRequest(name=name))).version) for name in matches[-3:]]
        tally.facts["last_matches_versions"] = versions


HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])  # and an empty SETTINGS


async def idle_connection_flood(target: str, deadline: float, tally: Tally, max_attempts: int = 12_000,
                                per_second: int = 300, **_) -> None:
    """One address opens connections and never calls: half silent, half
    sending only the HTTP/2 preface. Counts those the host refused or closed
    and the most held open at once."""
    host, port = target.rsplit(":", 1)
    held: list[socket.socket] = []
    most_held = attempts = 0
    loop = asyncio.get_running_loop()
    while time.monotonic() < deadline and attempts < max_attempts:
        round_start = time.monotonic()
        for _ in range(per_second // 10):
            attempts += 1
            sock = socket.socket()
            sock.setblocking(False)
            try:
                await asyncio.wait_for(loop.sock_connect(sock, (host, int(port))), 2)
            except (OSError, asyncio.TimeoutError) as error:
                tally.calls[f"connect {type(error).__name__}"] += 1
                sock.close()
                continue
            if attempts % 2:
                try:
                    sock.send(HTTP2_PREFACE)
                except OSError:
                    pass
            tally.calls["connect OK"] += 1
            held.append(sock)
        # which the host closed: readable with nothing, or reset
        readable, _, _ = select.select(held, [], [], 0) if held else ([], [], [])
        for sock in readable:
            try:
                data = sock.recv(65536)
            except OSError:
                data = b""
            if not data:
                tally.calls["connection closed by the host"] += 1
                held.remove(sock)
                sock.close()
        most_held = max(most_held, len(held))
        await asyncio.sleep(max(0.0, 0.1 - (time.monotonic() - round_start)))
    tally.facts.update(attempts=attempts, most_held_open=most_held, held_at_end=len(held))
    for sock in held:
        sock.close()


async def stream_floods(target: str, deadline: float, tally: Tally, max_each: int = 3000, **_) -> None:
    """One address opens health Watch, reflection and Session streams on
    eight connections, keeping every one the host admits; a Session stream
    is proven admitted by an answer to one request, then left idle."""
    channels = [grpc.aio.insecure_channel(target, options=SEPARATE) for _ in range(8)]
    held: dict[str, list] = collections.defaultdict(list)
    try:
        async def health(channel) -> bool:
            call = health_pb2_grpc.HealthStub(channel).Watch(health_pb2.HealthCheckRequest(service=""))
            await call.read()
            return call

        async def reflection(channel):
            call = reflection_pb2_grpc.ServerReflectionStub(channel).ServerReflectionInfo()
            await call.write(reflection_pb2.ServerReflectionRequest(list_services=""))
            await call.read()
            return call

        async def session(channel):
            call = pb_grpc.GameHostStub(channel).Session()
            await call.write(pb.SessionRequest(tag=1, unwatch="matches/none"))
            answer = await call.read()
            if answer is grpc.aio.EOF:
                raise grpc.aio.AioRpcError(await call.code(), None, None, await call.details())
            return call

        async def flood(kind: str, opener) -> None:
            for attempt in range(max_each):
                if time.monotonic() >= deadline:
                    return
                call = await tally.call(f"{kind} open", asyncio.wait_for(opener(channels[attempt % 8]), 5))
                if call is not None:
                    held[kind].append(call)

        await asyncio.gather(flood("health Watch", health), flood("reflection", reflection),
                             flood("Session", session))
        for kind, calls in held.items():
            still = [call for call in calls if not call.done()]
            tally.facts[f"{kind} open at end"] = len(still)
            for call in calls:
                call.cancel()
    finally:
        for channel in channels:
            await channel.close()


async def replay_walk(target: str, deadline: float, tally: Tally, finished: list[str] = (), **_) -> None:
    """One anonymous reader steps through every version of finished bot
    matches (Kensington, Campanile), each view with its text and SVG pictures."""
    async with grpc.aio.insecure_channel(target) as channel:
        stub = pb_grpc.GameHostStub(channel)
        versions = {}
        for name in finished:
            match = await tally.call("GetMatch", stub.GetMatch(pb.GetMatchRequest(name=name)))
            if match is not None:
                versions[name] = match.version
        tally.facts["matches_walked"] = len(versions)
        tally.facts["versions_in_them"] = sum(versions.values())

        async def walker(names: list[str]) -> None:
            while time.monotonic() < deadline:
                for name in names:
                    for version in range(versions[name] + 1):
                        if time.monotonic() >= deadline:
                            return
                        await tally.call("GetView at_version", stub.GetView(pb.GetViewRequest(
                            name=name, at_version=version, render=pb.RenderOptions(text=True, svg=True))))

        names = list(versions)
        await asyncio.gather(*(walker(names[i::4]) for i in range(4)))


def duration(seconds: float) -> duration_pb2.Duration:
    whole = int(seconds)
    return duration_pb2.Duration(seconds=whole, nanos=round((seconds - whole) * 1e9))


async def rematch_and_host_played(target: str, deadline: float, tally: Tally, keys: dict[str, str] = {},
                                  finished_rated: str = "", **_) -> None:
    """A signed-in player (mallory) asks for rematches of a rated match whose
    opponent is absent, and tries to have the host play matches for her: all
    bots with the hardest bot, a 1 ns turn timeout, absent_grace 0 and leaving."""
    mallory = bearer(keys["mallory"])
    async with grpc.aio.insecure_channel(target) as channel:
        stub = pb_grpc.GameHostStub(channel)
        rating_before = await stub.GetPlayerProfile(pb.GetPlayerProfileRequest(name="players/victim"),
                                                    metadata=mallory)

        async def farm() -> None:
            while time.monotonic() < deadline:
                rematch = await tally.call("Rematch", stub.Rematch(pb.RematchRequest(name=finished_rated),
                                                                   metadata=mallory))
                if rematch is None:
                    continue
                tally.facts["rematch_status"] = pb.MatchStatus.Name(rematch.status)
                await tally.call("JoinMatch of the rematch", stub.JoinMatch(pb.JoinMatchRequest(
                    name=rematch.name), metadata=mallory))
                await asyncio.sleep(0.2)

        async def host_played() -> None:
            attempt = 0
            while time.monotonic() < deadline:
                attempt += 1
                how = attempt % 3
                if how == 0:
                    await tally.call("CreateMatch all bots mcts-hard", stub.CreateMatch(pb.CreateMatchRequest(
                        game="games/kensington", bot_seats=[0, 1], bot="mcts-hard"), metadata=mallory))
                    continue
                if how == 1:
                    request = pb.CreateMatchRequest(game="games/kensington", turn_timeout=duration(1e-9))
                    kind = "turn timeout 1 ns"
                else:
                    request = pb.CreateMatchRequest(game="games/kensington", bot_seats=[1], bot="mcts-hard",
                                                    absent_grace=duration(0))
                    kind = "absent_grace 0 and leave"
                match = await tally.call(f"CreateMatch {kind}", stub.CreateMatch(request, metadata=mallory))
                if match is None:
                    continue
                seats = [0, 1] if how == 1 else [0]
                tokens = []
                for seat in seats:
                    joined = await tally.call(f"JoinMatch {kind}", stub.JoinMatch(pb.JoinMatchRequest(
                        name=match.name, seat=seat), metadata=mallory))
                    if joined is not None:
                        tokens.append(joined.player_token)
                if how == 2 and tokens:
                    await tally.call(f"LeaveMatch {kind}", stub.LeaveMatch(pb.LeaveMatchRequest(
                        name=match.name, player_token=tokens[0]), metadata=mallory))

        async def count_host_played() -> None:
            most = 0
            while time.monotonic() < deadline:
                listed = await tally.call("ListMatches mine", stub.ListMatches(pb.ListMatchesRequest(
                    mine=True, status=pb.MATCH_STATUS_ACTIVE, page_size=500), metadata=mallory))
                if listed is not None:
                    most = max(most, sum(1 for m in listed.matches if m.game == "games/kensington"))
                await asyncio.sleep(1.0)
            tally.facts["most_active_kensington_matches_at_once"] = most

        await asyncio.gather(farm(), host_played(), count_host_played())
        rating_after = await stub.GetPlayerProfile(pb.GetPlayerProfileRequest(name="players/victim"),
                                                   metadata=mallory)
        tally.facts["victim_games_before_after"] = [rating_before.games, rating_after.games]


async def active_matches_and_tickets(target: str, deadline: float, tally: Tally, keys: dict[str, str] = {},
                                     **_) -> None:
    """A signed-in player creates tictactoe matches and takes both seats
    (active at once) until refused, and queues tickets with bots to fill
    them, until refused."""
    mallory = bearer(keys["mallory"])
    async with grpc.aio.insecure_channel(target) as channel:
        stub = pb_grpc.GameHostStub(channel)

        async def matches() -> bool | None:
            match = await tally.call("CreateMatch", stub.CreateMatch(pb.CreateMatchRequest(
                game="games/tictactoe"), metadata=mallory), refused_pause=0.2)
            if match is None:
                return None
            for seat in range(2):
                await tally.persist("JoinMatch", lambda: stub.JoinMatch(pb.JoinMatchRequest(
                    name=match.name, seat=seat), metadata=mallory), deadline, refused_pause=0.2)
            return None

        async def tickets() -> bool | None:
            await tally.call("CreateTicket", stub.CreateTicket(pb.CreateTicketRequest(
                game="games/tictactoe", ttl=duration(60), bot_wait=duration(1)), metadata=mallory),
                refused_pause=0.5)
            return None

        await asyncio.gather(until(deadline, matches, 5000), until(deadline, tickets, 2000))
        listed = await stub.ListMatches(pb.ListMatchesRequest(mine=True, status=pb.MATCH_STATUS_ACTIVE,
                                                              page_size=500), metadata=mallory)
        tally.facts["active_matches_held_at_end"] = len(listed.matches)


async def many_addresses(target: str, deadline: float, tally: Tally, ipv6_target: str = "", **_) -> None:
    """One person, twenty loopback addresses (127.0.0.10-29, each a budget of
    its own by default) and ::1 (IPv6 ::1 is the only reachable address of
    its /64): each creates tictactoe matches and takes both seats until
    refused."""
    from tests.tcp_relay import TcpRelay

    port = int(target.rsplit(":", 1)[1])
    relays = [TcpRelay(port, source=f"127.0.0.{10 + i}") for i in range(20)]
    targets = [relay.target for relay in relays] + ([ipv6_target] if ipv6_target else [])
    per_address: dict[str, int] = collections.Counter()
    try:
        async def one_address(index: int, address_target: str) -> None:
            async with grpc.aio.insecure_channel(address_target) as channel:
                stub = pb_grpc.GameHostStub(channel)
                label = "::1" if address_target == ipv6_target else "127.0.0.x"

                async def step() -> bool | None:
                    match = await tally.call(f"CreateMatch {label}", stub.CreateMatch(pb.CreateMatchRequest(
                        game="games/tictactoe")), refused_pause=0.5)
                    if match is None:
                        return None
                    per_address[address_target] += 1
                    for seat in range(2):
                        await tally.persist(f"JoinMatch {label}", lambda: stub.JoinMatch(pb.JoinMatchRequest(
                            name=match.name, seat=seat)), deadline, refused_pause=0.5)
                    return None

                await until(deadline, step, 2000)

        await asyncio.gather(*(one_address(i, t) for i, t in enumerate(targets)))
        tally.facts["matches_created_per_address"] = sorted(per_address.values())
        tally.facts["matches_created_from_::1"] = per_address.get(ipv6_target, 0) if ipv6_target else None
        tally.facts["addresses"] = len(targets)
    finally:
        for relay in relays:
            relay.close()


# ---------------------------------------------------------------- setting each attack up


def write_keys(path: Path) -> dict[str, str]:
    keys = {name: new_key() for name in ("mallory", "victim")}
    path.write_text(json.dumps([key_entry(name, key, [], name.title()) for name, key in keys.items()]))
    return keys


def finished_bot_matches(data_dir: str, games: dict[str, int], seconds: float = 120) -> list[str]:
    """Matches played to the end by random bots, on a host with the match
    limits off (a setup host, on the same data directory)."""
    host = PinnedHost("sqlite", data_dir, pinned=False,
                      quotas=("--max-bot-matches", "0", "--max-unfinished-matches", "0", "--max-open-matches", "0",
                              "--call-rate", "0", "--create-rate", "0"))
    try:
        with grpc.insecure_channel(host.target) as channel:
            stub = pb_grpc.GameHostStub(channel)
            names = [stub.CreateMatch(pb.CreateMatchRequest(game=f"games/{game}", bot_seats=[0, 1])).name
                     for game, count in games.items() for _ in range(count)]
            stop = time.monotonic() + seconds
            while time.monotonic() < stop:
                if all(stub.GetMatch(pb.GetMatchRequest(name=n)).status == pb.MATCH_STATUS_FINISHED for n in names):
                    return names
                time.sleep(0.5)
            return [n for n in names if stub.GetMatch(pb.GetMatchRequest(name=n)).status == pb.MATCH_STATUS_FINISHED]
    finally:
        host.stop()


def finished_rated_match(target: str, keys: dict[str, str]) -> str:
    """mallory against victim, tictactoe with a 0.3 s turn timeout: the
    victim joins and never moves; the host plays the victim's turns."""
    with grpc.insecure_channel(target) as channel:
        stub = pb_grpc.GameHostStub(channel)
        mallory, victim = bearer(keys["mallory"]), bearer(keys["victim"])
        match = stub.CreateMatch(pb.CreateMatchRequest(game="games/tictactoe", turn_timeout=duration(0.3)),
                                 metadata=mallory)
        token = stub.JoinMatch(pb.JoinMatchRequest(name=match.name, seat=0), metadata=mallory).player_token
        stub.JoinMatch(pb.JoinMatchRequest(name=match.name, seat=1), metadata=victim)
        stop = time.monotonic() + 30
        while time.monotonic() < stop:
            view = stub.GetView(pb.GetViewRequest(name=match.name, player_token=token), metadata=mallory)
            if view.status == pb.MATCH_STATUS_FINISHED:
                return match.name
            if view.legal_moves:
                try:
                    stub.SubmitMove(pb.SubmitMoveRequest(name=match.name, player_token=token,
                                                         move_id=view.legal_moves[0].id), metadata=mallory)
                except grpc.RpcError:
                    pass  # the timeout played first
            time.sleep(0.05)
        raise RuntimeError("the rated setup match did not finish")


def free_dual_stack_port() -> int:
    """A port free on both 127.0.0.1 and ::1."""
    for _ in range(50):
        with socket.socket() as v4:
            v4.bind(("127.0.0.1", 0))
            port = v4.getsockname()[1]
            try:
                with socket.socket(socket.AF_INET6) as v6:
                    v6.bind(("::1", port))
                    return port
            except OSError:
                continue
    raise RuntimeError("no port free on both 127.0.0.1 and ::1")


@dataclass
class Attack:
    name: str
    finding: str
    run: Callable[..., Awaitable[None]]
    needs_keys: bool = False
    bot_matches: dict[str, int] = field(default_factory=dict)
    rated_match: bool = False
    ipv6: bool = False


ATTACKS = [
    Attack("undo", "7: undo ask/withdraw loop from one seat, four GetMatchLog readers", undo_loop_and_log_readers),
    Attack("connections", "8: idle gRPC connections from one address", idle_connection_flood),
    Attack("streams", "9: health Watch, reflection and Session stream floods", stream_floods),
    Attack("replays", "10: replay walking of finished bot matches (Kensington, Campanile)", replay_walk,
           bot_matches={"kensington": 6, "campanile": 4}),
    Attack("rematch", "11-12: rematch farming, host-played matches bypass attempts", rematch_and_host_played,
           needs_keys=True, rated_match=True),
    Attack("active", "13: active matches until refused, tickets", active_matches_and_tickets, needs_keys=True),
    Attack("addresses", "15: twenty loopback addresses and ::1", many_addresses, ipv6=True),
]


def run_attack(attack: Attack, seconds: float) -> dict:
    with tempfile.TemporaryDirectory(prefix=f"gamehost-attack-{attack.name}-") as data_dir:
        extra: list[str] = []
        context: dict = {}
        if attack.needs_keys:
            keys_path = Path(data_dir) / "api-keys.json"
            context["keys"] = write_keys(keys_path)
            extra += ["--api-keys", str(keys_path)]
        if attack.bot_matches:
            context["finished"] = finished_bot_matches(data_dir, attack.bot_matches)
        port = 0
        if attack.ipv6:
            # The host listens on every address of this machine's loopback
            # port: 127.0.0.1 and ::1 (the only IPv6 address there). The
            # default's address is IPv4 alone; asyncio binds IPv6 sockets
            # v6-only, so one address cannot name both.
            port = free_dual_stack_port()
            extra += ["--address", f":{port}", "--port", str(port)]
        host = PinnedHost("sqlite", data_dir, pinned=False, quotas=(), web_port="0",
                          extra_args=tuple(extra), log_path=str(Path(data_dir) / "host.log"))
        if port:
            host.target = f"127.0.0.1:{port}"
            context["ipv6_target"] = f"ipv6:[::1]:{port}"
        try:
            if attack.rated_match:
                context["finished_rated"] = finished_rated_match(host.target, context["keys"])
            result = measure(host, attack, seconds, context)
        finally:
            host.stop()
        time.sleep(0.5)  # the log's reader thread writes what the host wrote last
        log = [json.loads(line) for line in (Path(data_dir) / "host.log").read_text().splitlines()
               if line.startswith("{")]
        result["host_log_lines"] = len(log)
        result["host_log_by_level"] = dict(collections.Counter(entry.get("level", "") for entry in log))
        result["host_log_errors"] = sorted({entry.get("event", "") for entry in log
                                            if entry.get("level") in ("error", "critical")})[:10]
        return result


def measure(host: PinnedHost, attack: Attack, seconds: float, context: dict) -> dict:
    started_rss = tree_rss_bytes(host.process.pid)
    memory = MemorySampler(host.process.pid)
    receiver, sender = multiprocessing.Pipe(duplex=False)
    quiet_start = time.monotonic() + 1.0  # the probe's own start-up aside
    attack_start = quiet_start + QUIET_SECONDS
    attack_deadline = attack_start + seconds
    prober = multiprocessing.get_context("spawn").Process(
        target=probe, args=(int(host.target.rsplit(":", 1)[1]), attack_deadline + 0.5, sender), daemon=True)
    prober.start()
    time.sleep(max(0.0, quiet_start - time.monotonic()))
    cpu_start, wait_start = host.cpu(), runqueue_wait(host.process.pid)
    time.sleep(max(0.0, attack_start - time.monotonic()))
    idle_rss = memory.peak(quiet_start, attack_start) or started_rss
    cpu_quiet, wait_quiet = host.cpu(), runqueue_wait(host.process.pid)
    tally = Tally()
    attacker_cpu = time.process_time()
    asyncio.run(attack.run(host.target, attack_deadline, tally, **context))
    attack_end = time.monotonic()
    cpu_attack = host.cpu() - cpu_quiet
    wait_attack = runqueue_wait(host.process.pid) - wait_quiet
    attacker_cpu = time.process_time() - attacker_cpu
    samples = receiver.recv()
    prober.join(10)
    memory.stop()
    quiet = latency(samples, quiet_start, attack_start)
    under_attack = latency(samples, attack_start, attack_end)
    peak = memory.peak(attack_start)
    ratio = peak / idle_rss
    p99 = under_attack.get("p99_ms", float("inf"))
    passed = p99 < P99_BOUND_MS and ratio < MEMORY_BOUND and not under_attack["failed"]
    return {"attack": attack.name, "finding": attack.finding, "seconds": round(attack_end - attack_start, 1),
            "attacker": tally.summary(),
            "host_cpu_share": {"quiet": round((cpu_quiet - cpu_start) / (attack_start - quiet_start), 3),
                               "under_attack": round(cpu_attack / (attack_end - attack_start), 3)},
            "attacker_cpu_share": round(attacker_cpu / (attack_end - attack_start), 3),
            "host_runqueue_wait_share": {"quiet": round((wait_quiet - wait_start) / (attack_start - quiet_start), 3),
                                         "under_attack": round(wait_attack / (attack_end - attack_start), 3)},
            "load_average_1m": round(os.getloadavg()[0], 2), "unrelated_list_games_quiet": quiet,
            "unrelated_list_games_under_attack": under_attack,
            "memory_mb": {"after_start": round(started_rss / 2**20, 1), "idle": round(idle_rss / 2**20, 1),
                          "peak_under_attack": round(peak / 2**20, 1),
                          "host_process_alone_idle": round(memory.peak(quiet_start, attack_start, True) / 2**20, 1),
                          "host_process_alone_peak": round(memory.peak(attack_start, host_alone=True) / 2**20, 1),
                          # the host and its workers every 5 s from the attack's start: still growing, or flat?
                          "every_5s_under_attack": [round(memory.peak(attack_start + t, attack_start + t + 5) / 2**20, 1)
                                                    for t in range(0, int(attack_end - attack_start), 5)]},
            "memory_ratio": round(ratio, 3), "result": "PASS" if passed else "FAIL"}


def table(results: list[dict]) -> str:
    """A Markdown table: the attacker's calls, the unrelated caller's
    ListGames, the host's CPU and its threads' wait for a CPU (what the
    machine adds), memory, and the verdict."""
    rows = [("attack", "attacker calls OK / refused", "ListGames p50/p99 ms quiet", "under attack",
             "host+workers CPU quiet / attack", "host run-queue wait s/s quiet / attack", "idle MB", "peak MB", "ratio",
             "result")]
    for r in results:
        calls = r["attacker"]["calls"]
        ok = sum(n for k, n in calls.items() if k.endswith(" OK"))
        refused = sum(n for k, n in calls.items() if not k.endswith(" OK"))
        quiet, loud = r["unrelated_list_games_quiet"], r["unrelated_list_games_under_attack"]
        cpu, wait = r["host_cpu_share"], r.get("host_runqueue_wait_share", {})
        failed = sum(loud["failed"].values())
        rows.append((r["attack"], f"{ok} / {refused}", f"{quiet.get('p50_ms')} / {quiet.get('p99_ms')}",
                     f"{loud.get('p50_ms')} / {loud.get('p99_ms')}" + (f" ({failed} failed)" if failed else ""),
                     f"{cpu['quiet']:.0%} / {cpu['under_attack']:.0%}",
                     f"{wait.get('quiet', '-')} / {wait.get('under_attack', '-')}",
                     str(r["memory_mb"]["idle"]), str(r["memory_mb"]["peak_under_attack"]),
                     f"{r['memory_ratio']:.2f}", r["result"]))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["| " + " | ".join(cell.ljust(w) for cell, w in zip(row, widths)) + " |" for row in rows]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", help="write the results here too")
    parser.add_argument("--seconds", type=float, default=40.0, help="each attack's length")
    parser.add_argument("--only", default="", help="comma-separated attack names: "
                                                   + ",".join(a.name for a in ATTACKS))
    parser.add_argument("--table", metavar="JSON", help="only print the table of a recorded run")
    args = parser.parse_args()
    if args.table:
        print(table(json.loads(Path(args.table).read_text())["attacks"]))
        return
    chosen = [a for a in ATTACKS if not args.only or a.name in args.only.split(",")]
    load_before, started = os.getloadavg(), time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    results = []
    for attack in chosen:
        print(f"attack {attack.name}: finding {attack.finding}", flush=True)
        result = run_attack(attack, args.seconds)
        print(json.dumps(result, indent=1), flush=True)
        results.append(result)
    report = {"machine": {**machine(), "started": started, "load_average_before": [round(x, 2) for x in load_before],
                          "load_average_after": [round(x, 2) for x in os.getloadavg()]},
              "bounds": {"p99_ms": P99_BOUND_MS, "memory_ratio": MEMORY_BOUND},
              "probe": f"ListGames from {UNRELATED} every {PROBE_INTERVAL * 1000:.0f} ms", "attacks": results}
    print(table(results))
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
