"""The bounded soak: many live matches of every catalog game,
players who think, spectators, the SQLite store, for a fixed time.

A host runs in its own process, pinned to core 0 with its rules workers
(``taskset``); this process is the load, pinned to core 1. ``--cores
split`` keeps the serving process alone on core 0 and moves its rules
workers to core 1 with the load; ``--cores shared`` pins nothing: the OS
places the serving process, its rules workers and the load on both cores,
as the first soaks ran. ``--matches
match slots are kept live for ``--duration`` seconds: each slot plays a match
of a catalog game in turn (every game, player counts from its range), and
starts the next when one ends. Per match, every seat follows it with a
WatchMatch stream and, when its view says it is to move, thinks 0.5 to 5 s
(uniform) and submits a random legal move by id with the expected version;
``--spectators`` WatchMatch streams without a token follow it too.

``--transport session`` makes each player a native client of the Session
stream instead: one stream per player follows its match and carries its
moves (the move's latency is from the request until its ``moved`` answer);
spectators keep WatchMatch, as browsers do.

Players and spectators behave like real clients: a WatchMatch stream that
ends without being asked to (an error status, or the host ending it while the
match goes on) is counted and opened again after the last version seen, so a
match does not stall because one stream ended.

Measured: SubmitMove latency as the client sees it (p50/p99/max), errors
(any status but the STALE_VERSION a simultaneous move may draw; every stream
end not asked for, though it is resumed), WatchMatch streams resumed, the
time from opening a WatchMatch to its first event (mostly the wait for the
host to take the call up), stuck
matches (active, a seat to move, no move for longer than the longest think
plus a grace), moves per second, host CPU (host and its workers, from /proc)
and RSS during the load, after it, and of a fresh host that loads the same
matches. At the end every acknowledged move is looked up in its match's log
(GetMatchLog with the mover's token): the check fails on a move missing.

Usage:
    python -m bench.soak [--matches 1000] [--duration 300] [--spectators 1] [--transport unary|session]
                         [--cores pinned|split|shared] [--json FILE] [--profile FILE] [--no-fresh-host]
    python -m bench.soak --short      # smoke run: 40 matches, 30 s
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import AsyncIterator
from pathlib import Path

import grpc
from google.protobuf import json_format

from gamehost.client.view_patching import PatchedViews
from gamehost.v1 import gamehost_pb2 as pb
from gamehost.v1 import gamehost_pb2_grpc as pb_grpc

from bench.harness import LOAD_CORE, PinnedHost, host_cpu_seconds, machine, process_tree

THINK_SECONDS = (0.5, 5.0)
# Ends a client resumes from: the host cancelled, dropped or shed the stream, or it could not be reached.
RESUMABLE = {grpc.StatusCode.CANCELLED, grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.RESOURCE_EXHAUSTED,
             grpc.StatusCode.ABORTED, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.INTERNAL}
STUCK_GRACE_SECONDS = 20.0  # beyond the longest think: a busy machine runs at half speed
# One load process is every player: no per-caller limit on open matches or watchers.
HOST_FLAGS = ("--max-open-matches", "0", "--max-watchers", "100000")
CHANNELS = 96  # clients come over many connections (the host allows 100 streams on each)
SAMPLE_EVERY_SECONDS = 5.0
# The first seconds create and join every match at once (about 4 calls per
# seat): the latencies after them are the steady load's, reported apart.
WARM_UP_SECONDS = 30.0
RESUME_BACKOFF_SECONDS = 0.5  # a client's pause before opening a dropped stream again (times the attempt)
PROFILE_RATE = 100  # py-spy's samples per second (--profile)
RESUME_ATTEMPTS = 5           # in a row without an event in between: then the stream is given up


def rss_bytes(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            pass
    return total


def host_rss(host: PinnedHost) -> dict:
    """The serving process's RSS and its rules workers' (the workers are recycled; the host is what retains)."""
    tree = process_tree(host.process.pid)
    return {"host_mib": rss_bytes(tree[:1]) / 2**20, "workers_mib": rss_bytes(tree[1:]) / 2**20,
            "workers": len(tree) - 1}


def workers_to_load_core(host: PinnedHost) -> None:
    """``--cores split``: the rules workers (the serving process's children,
    started on its core) move to the load's core; called again at each sample
    for a worker started since."""
    for pid in process_tree(host.process.pid)[1:]:
        try:
            os.sched_setaffinity(pid, {LOAD_CORE})
        except OSError:  # a worker that ended meanwhile
            pass


def serving_cpu(host: PinnedHost) -> float:
    """CPU seconds of the serving process alone (``host.cpu()`` adds its rules workers)."""
    return host_cpu_seconds(host.process.pid)


class LoadProcess:
    """This process's own pauses: they would count in every latency it
    measures. Its event loop's lag (a timer due every 10 ms, how late it
    fires), its garbage collections and its CPU. Its start-up objects are
    frozen and its full collections made rare, as the host's are
    (gamehost.host.collector, not imported: a run against another tree's
    host does not have it): its own full collections are pauses of up to
    100 ms that would count as the host's."""

    TICK = 0.010

    def __init__(self, tune_collector: bool = True) -> None:
        self.lag: list[float] = []
        self.collections: list[tuple[int, float]] = []
        self._began = 0.0
        if tune_collector:
            gc.collect()
            gc.freeze()
            gc.set_threshold(2_000, 10, 100)
        gc.callbacks.append(self._collected)
        self.cpu = time.process_time()

    def _collected(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.collections.append((info["generation"], time.perf_counter() - self._began))

    async def watch(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            due = loop.time() + self.TICK
            await asyncio.sleep(self.TICK)
            self.lag.append(loop.time() - due)

    def figures(self, elapsed: float) -> dict:
        gc.callbacks.remove(self._collected)
        full = [spent for generation, spent in self.collections if generation == 2]
        return {"cpu_cores": (time.process_time() - self.cpu) / elapsed,
                "loop_lag_ms": {"p50": 1000 * percentile(self.lag, 0.5), "p99": 1000 * percentile(self.lag, 0.99),
                                "max": 1000 * max(self.lag, default=0.0)},
                "collections": len(self.collections), "full_collections": len(full),
                "full_collection_ms_max": 1000 * max(full, default=0.0)}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * (len(ordered) - 1)))] if ordered else float("nan")


@dataclass
class Figures:
    latencies: list[float] = field(default_factory=list)
    settled: list[float] = field(default_factory=list)  # the latencies after WARM_UP_SECONDS
    started: float = field(default_factory=time.monotonic)
    errors: dict[str, int] = field(default_factory=dict)
    stale: int = 0
    acknowledged: dict[str, dict[int, tuple[int, str]]] = field(default_factory=dict)  # match -> version -> seat, id
    tokens: dict[str, list[str]] = field(default_factory=dict)
    progress: dict[str, float] = field(default_factory=dict)  # active match -> time of its last step seen
    finished: int = 0
    games: dict[str, int] = field(default_factory=dict)
    watch_streams: int = 0
    resumed: int = 0  # WatchMatch streams opened again after an end not asked for
    unasked_ends: int = 0  # streams the host ended with OK while their match went on
    first_event: list[float] = field(default_factory=list)  # seconds from opening a WatchMatch to its first event
    events_received: int = 0  # match events the streams delivered: the fan-out, per move
    events_with_view: int = 0  # of them, those carrying a view (whole or as a patch)
    messages_received: int = 0  # messages the players' and spectators' streams read (events, move answers)
    bytes_received: int = 0  # their protobuf bytes

    def moved(self, latency: float) -> None:
        self.latencies.append(latency)
        if time.monotonic() - self.started >= WARM_UP_SECONDS:
            self.settled.append(latency)

    def error(self, where: str, failure: grpc.aio.AioRpcError) -> None:
        key = f"{where}: {failure.code().name}"
        self.errors[key] = self.errors.get(key, 0) + 1
        if self.errors[key] <= 3:  # grpc's debug string tells a status from the host from one made here
            print(f"error {key}: {failure.details()} ({failure.debug_error_string()})", flush=True)

    def error_text(self, where: str, problem: str) -> None:
        key = f"{where}: {problem}"
        self.errors[key] = self.errors.get(key, 0) + 1


class Soak:
    def __init__(self, stubs: list, catalog: list[pb.Game], spectators: int, until: float, seed: int,
                 transport: str = "unary", view_patches: bool = False, own_events: bool = False) -> None:
        self.stubs = stubs
        self.transport = transport
        self.view_patches = view_patches  # streams ask for views as changes, and make them whole
        self.own_events = own_events  # Session players get their own moves' events in the answers
        self.catalog = catalog
        self.spectators = spectators
        self.until = until
        self.random = random.Random(seed)
        self.figures = Figures()
        self.stopping = False  # the load is over: streams cut from here on are not errors

    async def slot(self, index: int) -> None:
        """One match after another until the time is up, the games in turn."""
        stub = self.stubs[index % len(self.stubs)]
        for round_ in itertools.count():
            if time.monotonic() >= self.until:
                return
            game = self.catalog[(index + round_) % len(self.catalog)]
            try:
                await self.match(stub, game)
            except grpc.aio.AioRpcError as failure:  # creating or joining
                self.figures.error("CreateMatch/JoinMatch", failure)
                return

    async def match(self, stub, game: pb.Game) -> None:
        seats = self.random.randint(game.min_players, game.max_players)
        try:
            match = await stub.CreateMatch(pb.CreateMatchRequest(game=game.name, seats=seats))
        except grpc.aio.AioRpcError as refusal:  # a count inside the range the game does not take (Scalino: 2 or 4)
            if refusal.code() != grpc.StatusCode.INVALID_ARGUMENT or seats == game.min_players:
                raise
            seats = game.min_players
            match = await stub.CreateMatch(pb.CreateMatchRequest(game=game.name, seats=seats))
        tokens = [(await stub.JoinMatch(pb.JoinMatchRequest(name=match.name))).player_token for _ in range(seats)]
        figures = self.figures
        figures.tokens[match.name] = tokens
        figures.acknowledged[match.name] = {}
        figures.progress[match.name] = time.monotonic()
        figures.games[game.id] = figures.games.get(game.id, 0) + 1
        player = self.session_player if self.transport == "session" else self.player
        await asyncio.gather(*(player(stub, match.name, seat, token) for seat, token in enumerate(tokens)),
                             *(self.spectator(stub, match.name) for _ in range(self.spectators)))
        figures.progress.pop(match.name, None)

    async def follow(self, stub, name: str, token: str, where: str,
                     seat: int | None = None) -> AsyncIterator[pb.MatchEvent]:
        """The match's events until it ends, as a client that resumes: a
        stream that ends unasked is counted and opened again after the last
        version seen (nothing missed, nothing twice)."""
        figures = self.figures
        seen, attempts = 0, 0
        while True:
            figures.watch_streams += 1
            opened = time.monotonic()
            watch = stub.WatchMatch(pb.WatchMatchRequest(name=name, player_token=token, after_version=seen,
                                                         view_patches=self.view_patches))
            patched = PatchedViews()
            try:
                async for event in watch:
                    figures.messages_received += 1
                    figures.bytes_received += event.ByteSize()
                    if self.view_patches:
                        whole_when_to_move(patched, event, seat)
                    if opened:
                        figures.first_event.append(time.monotonic() - opened)
                        opened, attempts = 0.0, 0
                    if event.version <= seen:
                        figures.error_text(where, f"version {event.version} again after {seen}")
                        continue
                    seen = event.version
                    figures.events_received += 1
                    figures.events_with_view += event.HasField("view")
                    yield event
                    if event.kind in (pb.EVENT_KIND_FINISHED, pb.EVENT_KIND_ABORTED):
                        return
                if self.stopping:
                    return
                figures.unasked_ends += 1  # OK while the match goes on (a host shutting down)
            except grpc.aio.AioRpcError as failure:
                if self.stopping:
                    return
                figures.error(where, failure)
                if failure.code() not in RESUMABLE:
                    return
            finally:
                watch.cancel()
            attempts += 1
            if attempts > RESUME_ATTEMPTS:
                figures.error_text(where, "given up after repeated ends")
                return
            figures.resumed += 1
            await asyncio.sleep(RESUME_BACKOFF_SECONDS * attempts)  # the client's back-off, not a wait for a state

    async def player(self, stub, name: str, seat: int, token: str) -> None:
        figures = self.figures
        thinking: asyncio.Task | None = None
        try:
            async for event in self.follow(stub, name, token, "WatchMatch", seat):
                figures.progress[name] = time.monotonic()
                if event.kind in (pb.EVENT_KIND_FINISHED, pb.EVENT_KIND_ABORTED):
                    if seat == 0:
                        figures.finished += event.kind == pb.EVENT_KIND_FINISHED
                    continue  # the last event: ``follow`` ends here and closes its stream
                view = event.view
                if not event.HasField("view") or view.status != pb.MATCH_STATUS_ACTIVE:
                    continue
                if thinking is not None and not thinking.done():
                    thinking.cancel()  # a newer view: choose again from it
                if seat in view.to_move and view.legal_moves and time.monotonic() < self.until:
                    thinking = asyncio.ensure_future(self.move(stub, name, seat, token, view))
            if thinking is not None:
                await asyncio.gather(thinking, return_exceptions=True)
        finally:
            if thinking is not None:
                thinking.cancel()

    async def move(self, stub, name: str, seat: int, token: str, view: pb.View) -> None:
        await asyncio.sleep(self.random.uniform(*THINK_SECONDS))  # the player's think time, not a wait for a state
        choice = self.random.choice(view.legal_moves)
        started = time.perf_counter()
        try:
            answer = await stub.SubmitMove(pb.SubmitMoveRequest(
                name=name, player_token=token, move_id=choice.id, expected_version=view.version))
        except grpc.aio.AioRpcError as failure:
            if failure.code() == grpc.StatusCode.ABORTED and "someone moved first" in (failure.details() or ""):
                self.figures.stale += 1  # another seat moved first (simultaneous turns)
            else:
                self.figures.error("SubmitMove", failure)
            return
        self.figures.moved(time.perf_counter() - started)
        self.figures.acknowledged[name][answer.version] = (seat, choice.id)

    async def session_player(self, stub, name: str, seat: int, token: str) -> None:
        """The player as a native client: one Session stream follows the
        match and carries the moves; resumed after the last version seen
        when it ends unasked, as ``follow`` does."""
        figures = self.figures
        seen, attempts = 0, 0
        while True:
            stream = SessionPlayerStream(self, stub, name, seat, token)
            figures.watch_streams += 1
            try:
                ended, seen = await stream.run(seen)
                if ended or self.stopping:
                    return
                figures.unasked_ends += 1
            except grpc.aio.AioRpcError as failure:
                if self.stopping:
                    return
                figures.error("Session", failure)
                if failure.code() not in RESUMABLE:
                    return
                seen = stream.seen
            finally:
                stream.close()
            attempts = 0 if stream.got_event else attempts + 1
            if attempts > RESUME_ATTEMPTS:
                figures.error_text("Session", "given up after repeated ends")
                return
            figures.resumed += 1
            await asyncio.sleep(RESUME_BACKOFF_SECONDS * max(1, attempts))  # the client's back-off

    async def spectator(self, stub, name: str) -> None:
        async for event in self.follow(stub, name, "", "WatchMatch (spectator)"):
            if time.monotonic() > self.until + 30:
                return  # the players have stopped: the match stays active

    def stuck(self, now: float) -> list[str]:
        limit = THINK_SECONDS[1] + STUCK_GRACE_SECONDS
        return [name for name, seen in self.figures.progress.items() if now - seen > limit]


def whole_when_to_move(patched: PatchedViews, event: pb.MatchEvent, seat: int | None) -> None:
    """Views as changes, as a lean client reads them: the patch applied to the JSON view held,
    and a View parsed from it only when ``seat`` is to move (its legal moves are needed);
    the event's status (the players' loop reads it) is kept from the JSON."""
    view = patched.apply(event)
    if view is None or not event.HasField("view_patch"):
        return
    if seat is not None and seat in view.get("toMove", ()):
        json_format.ParseDict(view, event.view, ignore_unknown_fields=True)
    else:  # what the loop reads of a view it will not move from
        event.view.version = int(view.get("version", 0))
        event.view.status = pb.MatchStatus.Value(view.get("status", "MATCH_STATUS_UNSPECIFIED"))
    event.ClearField("view_patch")


class SessionPlayerStream:
    """One Session stream of one player: watch the match, move by tag."""

    def __init__(self, soak: Soak, stub, name: str, seat: int, token: str) -> None:
        self.soak, self.name, self.seat, self.token = soak, name, seat, token
        self.requests: asyncio.Queue = asyncio.Queue()
        self.tags = itertools.count(1)
        self.pending: dict[int, tuple[float, str]] = {}  # tag -> (sent at, move id)
        self.thinking: asyncio.Task | None = None
        self.seen = 0
        self.got_event = False
        self.call = stub.Session(self._outgoing())

    async def _outgoing(self):
        while (request := await self.requests.get()) is not None:
            yield request

    async def run(self, after: int) -> tuple[bool, int]:
        """Until the match ends (True) or the stream does (False); and the last version seen."""
        figures, self.seen = self.soak.figures, after
        opened = time.monotonic()
        soak = self.soak
        self.requests.put_nowait(pb.SessionRequest(tag=next(self.tags), watch=pb.WatchMatchRequest(
            name=self.name, player_token=self.token, after_version=after, view_patches=soak.view_patches,
            own_events_in_answers=soak.own_events)))
        patched = PatchedViews()
        while (message := await self.call.read()) is not grpc.aio.EOF:
            figures.messages_received += 1
            figures.bytes_received += message.ByteSize()
            which = message.WhichOneof("event")
            if which == "moved":
                started, move_id = self.pending.pop(message.tag)
                figures.moved(time.perf_counter() - started)
                figures.acknowledged[self.name][message.moved.version] = (self.seat, move_id)
                if not message.moved.HasField("event"):
                    continue
                which, event = "match_event", message.moved.event  # the move's own event, carried
            elif which == "match_event":
                event = message.match_event
            if which == "match_event":
                if soak.view_patches:
                    whole_when_to_move(patched, event, self.seat)
                if opened:
                    figures.first_event.append(time.monotonic() - opened)
                    opened, self.got_event = 0.0, True
                if event.version <= self.seen:
                    figures.error_text("Session", f"version {event.version} again after {self.seen}")
                    continue
                self.seen = event.version
                figures.events_received += 1
                figures.events_with_view += event.HasField("view")
                figures.progress[self.name] = time.monotonic()
                if event.kind in (pb.EVENT_KIND_FINISHED, pb.EVENT_KIND_ABORTED):
                    figures.finished += self.seat == 0 and event.kind == pb.EVENT_KIND_FINISHED
                    return True, self.seen
                self._consider(event)
            elif which == "error":
                self.pending.pop(message.tag, None)
                refusal = message.error
                if refusal.code == grpc.StatusCode.ABORTED.value[0] and "someone moved first" in refusal.message:
                    figures.stale += 1
                else:
                    figures.error_text("Session", f"code {refusal.code}: {refusal.message[:80]}")
            elif which == "watch_ended":
                return True, self.seen
        return False, self.seen

    def _consider(self, event: pb.MatchEvent) -> None:
        view = event.view
        if not event.HasField("view") or view.status != pb.MATCH_STATUS_ACTIVE:
            return
        if self.thinking is not None and not self.thinking.done():
            self.thinking.cancel()  # a newer view: choose again from it
        if self.seat in view.to_move and view.legal_moves and time.monotonic() < self.soak.until:
            self.thinking = asyncio.ensure_future(self._move(view))

    async def _move(self, view: pb.View) -> None:
        await asyncio.sleep(self.soak.random.uniform(*THINK_SECONDS))  # the player's think time
        choice = self.soak.random.choice(view.legal_moves)
        tag = next(self.tags)
        self.pending[tag] = (time.perf_counter(), choice.id)
        self.requests.put_nowait(pb.SessionRequest(tag=tag, move=pb.SubmitMoveRequest(
            name=self.name, player_token=self.token, move_id=choice.id, expected_version=view.version)))

    def close(self) -> None:
        if self.thinking is not None:
            self.thinking.cancel()
        self.requests.put_nowait(None)
        self.call.cancel()


async def check_logs(stub, figures: Figures) -> dict:
    """Every acknowledged move is in its match's log, as acknowledged."""
    missing, checked = [], 0
    for name, moves in figures.acknowledged.items():
        if not moves:
            continue
        log = await stub.GetMatchLog(pb.GetMatchLogRequest(name=name, player_token=figures.tokens[name][0]))
        logged = {event.version: event for event in log.events if event.kind == pb.EVENT_KIND_MOVED}
        for version, (seat, move_id) in moves.items():
            checked += 1
            if version not in logged or logged[version].seat != seat:
                missing.append(f"{name}@{version}")
    return {"checked": checked, "missing": len(missing), "missing_examples": missing[:10]}


async def sample(host: PinnedHost, soak: Soak, samples: list[dict], started: float, stop: asyncio.Event,
                 split: bool = False) -> None:
    cpu, at = host.cpu(), time.monotonic()
    moves = 0
    while not stop.is_set():
        try:
            await asyncio.wait_for(stop.wait(), SAMPLE_EVERY_SECONDS)
        except asyncio.TimeoutError:
            pass
        if split:
            workers_to_load_core(host)
        now, now_cpu, now_moves = time.monotonic(), host.cpu(), len(soak.figures.latencies)
        row = {"t": round(now - started, 1), "moves_per_s": (now_moves - moves) / (now - at),
               "host_cpu_cores": (now_cpu - cpu) / (now - at), "live": len(soak.figures.progress), **host_rss(host)}
        samples.append(row)
        print(f"t={row['t']:6.1f}s {row['moves_per_s']:5.0f} moves/s host CPU {row['host_cpu_cores']:.2f} cores "
              f"RSS host {row['host_mib']:.0f} MiB workers {row['workers_mib']:.0f} MiB ({row['workers']}) "
              f"live {row['live']} p99 so far {1000 * percentile(soak.figures.latencies[-2000:], 0.99):.0f} ms",
              flush=True)
        cpu, at, moves = now_cpu, now, now_moves


async def run(matches: int, duration: float, spectators: int, seed: int, store: str, host_log: str | None,
              games: list[str], machine_note: str = "", transport: str = "unary", probe: str | None = None,
              host_env: dict[str, str] | None = None, load_gc_default: bool = False,
              host_loop: str = "default", cores: str = "pinned", profile: str | None = None,
              fresh_host: bool = True, view_patches: bool = False, own_events: bool = False,
              source: str | None = None) -> dict:
    pinned = cores in ("pinned", "split")
    if pinned:
        os.sched_setaffinity(0, {LOAD_CORE})
    if probe:  # the probes instrument asyncio's own loop
        host_loop = "asyncio"
    if host_loop != "default":  # the host's --event-loop; by default uvloop where installed
        os.environ["GAMEHOST_EVENT_LOOP"] = host_loop
    if probe:  # the serving process loads bench/tail_probe/sitecustomize.py and writes its figures at exit
        os.environ["GAMEHOST_TAIL_PROBE"] = str(Path(probe).resolve())
        os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(__file__).parent / "tail_probe"),
                                                                 os.environ.get("PYTHONPATH")]))
    os.environ.update(host_env or {})
    results = {"machine": {**machine(), "note": machine_note},
               "matches": matches, "duration_s": duration, "spectators_per_match": spectators, "store": store,
               "transport": transport, "host_loop": host_loop, "cores": cores,
               "think_s": THINK_SECONDS, "loadavg_start": os.getloadavg(),
               "view_patches": view_patches, "own_events": own_events, "source": source or "this tree"}
    with tempfile.TemporaryDirectory() as data_dir:
        host = PinnedHost(store, f"{data_dir}/data", source=source, extra_args=HOST_FLAGS, log_path=host_log,
                          pinned=pinned)
        if cores == "split":
            workers_to_load_core(host)
        try:
            channels = [grpc.aio.insecure_channel(host.target, options=[("grpc.use_local_subchannel_pool", 1)])
                        for _ in range(CHANNELS)]  # a connection each
            stubs = [pb_grpc.GameHostStub(channel) for channel in channels]
            catalog = [game for game in (await stubs[0].ListGames(pb.ListGamesRequest(page_size=100))).games
                       if not games or game.id in games]
            results["games"] = [game.id for game in catalog]
            results["rss_idle"] = host_rss(host)
            results["host_event_loop"] = host.event_loop
            load_process = LoadProcess(tune_collector=not load_gc_default)
            load_watch = asyncio.ensure_future(load_process.watch())
            started = time.monotonic()
            soak = Soak(stubs, catalog, spectators, started + duration, seed, transport, view_patches, own_events)
            samples: list[dict] = []
            stop = asyncio.Event()
            sampler = asyncio.ensure_future(sample(host, soak, samples, started, stop, split=cores == "split"))
            cpu_before, serving_before = host.cpu(), serving_cpu(host)
            profiler = start_profiler(host, profile, duration) if profile else None
            slots = [asyncio.ensure_future(soak.slot(index)) for index in range(matches)]
            watchdog_stuck: set[str] = set()
            while time.monotonic() < started + duration:
                await asyncio.sleep(1.0)  # a check period, not synchronisation
                watchdog_stuck.update(soak.stuck(time.monotonic()))
            load_elapsed = time.monotonic() - started
            load_watch.cancel()
            results["load_process"] = load_process.figures(load_elapsed)
            load_cpu, serving_load_cpu = host.cpu() - cpu_before, serving_cpu(host) - serving_before
            if profiler is not None:
                results["profile"] = {"file": profile, "rate_hz": PROFILE_RATE, "exit": stop_profiler(profiler)}
            live_at_end = list(soak.figures.progress)
            results["stuck_matches"] = sorted(watchdog_stuck)
            # The players stop moving; their streams and the spectators' are cancelled.
            soak.stopping = True
            for task in slots:
                task.cancel()
            await asyncio.gather(*slots, return_exceptions=True)
            stop.set()
            await sampler
            figures = soak.figures
            results["during"] = samples
            results["rss_during_max"] = max((s["host_mib"] for s in samples), default=0.0)
            results["log_check"] = await check_logs(stubs[0], figures)
            for channel in channels:
                await channel.close()
            # After the load: the matches stay open in memory, no stream left.
            before_settle = time.monotonic()
            while time.monotonic() - before_settle < 10:
                await asyncio.sleep(1.0)  # let the host drop its streams' state before the reading
            results["rss_after"] = host_rss(host)
        finally:
            host.stop()
        os.environ.pop("GAMEHOST_TAIL_PROBE", None)  # the probe's figures are the loaded host's
        if not fresh_host:
            results["rss_fresh_same_matches"] = {"host_mib": float("nan")}
            return finish(results, figures, load_elapsed, live_at_end, load_cpu, serving_load_cpu)
        # A fresh host on the same store, holding the same matches: each loaded by a GetView.
        fresh = PinnedHost(store, f"{data_dir}/data", extra_args=HOST_FLAGS)
        try:
            async with grpc.aio.insecure_channel(fresh.target) as channel:
                stub = pb_grpc.GameHostStub(channel)
                for name in live_at_end:
                    await stub.GetView(pb.GetViewRequest(name=name))
            results["rss_fresh_same_matches"] = host_rss(fresh)
        finally:
            fresh.stop()
    return finish(results, figures, load_elapsed, live_at_end, load_cpu, serving_load_cpu)


def finish(results: dict, figures: Figures, load_elapsed: float, live_at_end: list[str], load_cpu: float,
           serving_load_cpu: float) -> dict:
    latencies = figures.latencies
    results.update({
        "moves": len(latencies), "moves_per_s": len(latencies) / load_elapsed,
        "submit_ms": {"p50": 1000 * statistics.median(latencies) if latencies else None,
                      "p99": 1000 * percentile(latencies, 0.99), "max": 1000 * max(latencies, default=0)},
        "submit_ms_after_warm_up": {"warm_up_s": WARM_UP_SECONDS, "moves": len(figures.settled),
                                    "p50": 1000 * statistics.median(figures.settled) if figures.settled else None,
                                    "p99": 1000 * percentile(figures.settled, 0.99),
                                    "max": 1000 * max(figures.settled, default=0)},
        "errors": figures.errors, "watch_resumed": figures.resumed, "watch_ended_ok_unasked": figures.unasked_ends,
        "watch_first_event_s": {"p50": percentile(figures.first_event, 0.5),
                                "p99": percentile(figures.first_event, 0.99),
                                "max": max(figures.first_event, default=0.0)},
        "stale_version": figures.stale,
        "finished_matches": figures.finished, "matches_played": sum(figures.games.values()),
        "matches_per_game": figures.games, "watch_streams": figures.watch_streams,
        "live_at_end": len(live_at_end), "host_cpu_cores": load_cpu / load_elapsed,
        "serving_process_cpu_share": serving_load_cpu / max(load_cpu, 1e-9),
        "host_cpu_us_per_move": 1e6 * load_cpu / max(1, len(latencies)),
        "serving_cpu_us_per_move": 1e6 * serving_load_cpu / max(1, len(latencies)),
        "events_received": figures.events_received, "events_with_view": figures.events_with_view,
        "events_per_move": figures.events_received / max(1, len(latencies)),
        "messages_per_move": figures.messages_received / max(1, len(latencies)),
        "bytes_received_per_move": figures.bytes_received / max(1, len(latencies)),
        "loadavg_end": os.getloadavg()})
    return results


def start_profiler(host: PinnedHost, path: str, duration: float) -> subprocess.Popen:
    """py-spy records the serving process and its rules workers for the
    load's time: sampled from outside (``--nonblocking``: the process is not
    stopped to be read), only the thread holding the GIL (``--gil``: a
    sample is Python at work, not a thread waiting in epoll or on a lock),
    stacks in py-spy's raw (collapsed) format, each prefixed by its
    process; summarised by bench/profile_summary.py."""
    spy = os.environ.get("PY_SPY", "py-spy")
    return subprocess.Popen([spy, "record", "--pid", str(host.process.pid), "--subprocesses", "--nonblocking",
                             "--gil", "--rate", str(PROFILE_RATE), "--format", "raw", "--duration", str(int(duration)), "-o", path],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def stop_profiler(profiler: subprocess.Popen) -> int:
    """Waits for py-spy to write its file (it stops at the load's end)."""
    try:
        _, errors = profiler.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        profiler.send_signal(signal.SIGINT)
        _, errors = profiler.communicate(timeout=60)
    if profiler.returncode:
        print(f"py-spy ended {profiler.returncode}: {errors.decode(errors='replace')[-500:]}", flush=True)
    return profiler.returncode


def report(results: dict) -> None:
    submit = results["submit_ms"]
    print(f"{results['moves']} moves in {results['duration_s']:.0f} s ({results['moves_per_s']:.0f}/s), "
          f"{results['matches_played']} matches played ({results['finished_matches']} finished), "
          f"{results['watch_streams']} WatchMatch streams")
    way = "a Session move" if results.get("transport") == "session" else "SubmitMove"
    print(f"{way} p50 {submit['p50']:.1f} ms, p99 {submit['p99']:.1f} ms, max {submit['max']:.1f} ms")
    settled = results["submit_ms_after_warm_up"]
    if settled["moves"]:
            print(f"  after the first {settled['warm_up_s']:.0f} s (matches created and joined): p50 {settled['p50']:.1f} "
              f"ms, p99 {settled['p99']:.1f} ms, max {settled['max']:.1f} ms over {settled['moves']} moves")
    first = results["watch_first_event_s"]
    print(f"WatchMatch opened to first event p50 {first['p50']:.2f} s, p99 {first['p99']:.2f} s, "
          f"max {first['max']:.2f} s; streams resumed {results['watch_resumed']}, "
          f"ended with OK unasked {results['watch_ended_ok_unasked']}")
    load = results["load_process"]
    print(f"the load process (its pauses count in the latencies): CPU {load['cpu_cores']:.2f} cores, loop lag p50 "
          f"{load['loop_lag_ms']['p50']:.1f} ms, p99 {load['loop_lag_ms']['p99']:.1f} ms, max "
          f"{load['loop_lag_ms']['max']:.1f} ms, {load['full_collections']} full collections (longest "
          f"{load['full_collection_ms_max']:.0f} ms)")
    print(f"errors {results['errors'] or 'none'}, stale versions {results['stale_version']}, "
          f"stuck matches {len(results['stuck_matches'])}, log check {results['log_check']}")
    print(f"serving process on {results.get('host_event_loop', 'asyncio')}'s event loop; "
          f"host CPU {results['host_cpu_cores']:.2f} cores, {results['host_cpu_us_per_move']:.0f} us/move "
          f"({100 * results['serving_process_cpu_share']:.0f}% in the serving process, the rest in its workers); "
          f"host RSS max during {results['rss_during_max']:.0f} MiB, after {results['rss_after']['host_mib']:.0f} "
          f"MiB, fresh host with the same {results['live_at_end']} matches "
          f"{results['rss_fresh_same_matches']['host_mib']:.0f} MiB (idle {results['rss_idle']['host_mib']:.0f} MiB)")
    print(f"cores: {results.get('cores', 'pinned')}; {results['events_per_move']:.1f} match events received per move "
          f"({results['events_with_view']} of {results['events_received']} with a view); serving process "
          f"{results['serving_cpu_us_per_move']:.0f} us/move; {results['messages_per_move']:.1f} messages and "
          f"{results['bytes_received_per_move']:.0f} bytes received per move")
    print(json.dumps(results["machine"]), "loadavg", results["loadavg_start"], "->", results["loadavg_end"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=1000, help="match slots kept live")
    parser.add_argument("--duration", type=float, default=300.0, help="seconds of load")
    parser.add_argument("--spectators", type=int, default=1, help="WatchMatch streams without a token per match")
    parser.add_argument("--store", default="sqlite", help="memory or sqlite")
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--games", default="", help="comma-separated game ids to play (default: every catalog game)")
    parser.add_argument("--short", action="store_true", help="smoke run: 40 matches, 30 s")
    parser.add_argument("--json", help="also write the results to this file")
    parser.add_argument("--machine-note", default="", help="what else ran on the machine, kept in the results")
    parser.add_argument("--host-log", help="keep the host's log (JSON lines, level info) in this file")
    parser.add_argument("--transport", choices=("unary", "session"), default="unary",
                        help="players move with SubmitMove and follow with WatchMatch, or use one Session stream each")
    parser.add_argument("--probe", help="instrument the serving process (bench/tail_probe) and write its figures "
                        "to this JSON file; summarise it with bench/tail_report.py")
    parser.add_argument("--host-env", action="append", default=[], metavar="NAME=VALUE",
                        help="an environment variable for the host (e.g. GAMEHOST_LOOP=asyncio), repeatable")
    parser.add_argument("--load-gc-default", action="store_true",
                        help="leave this process's garbage collector as the interpreter sets it (its pauses then "
                             "count in the latencies)")
    parser.add_argument("--host-loop", choices=("default", "asyncio", "uvloop"), default="default",
                        help="the host's --event-loop (default: its own, uvloop where installed); --probe serves on "
                             "asyncio, whose loop the probes instrument")
    parser.add_argument("--cores", choices=("pinned", "split", "shared"), default="pinned",
                        help="pinned: the host and its workers on core 0, the load on core 1; split: the serving "
                             "process alone on core 0, its workers with the load on core 1; shared: wherever the "
                             "OS places them")
    parser.add_argument("--profile", help="record the serving process and its workers with py-spy (raw stacks) "
                        "into this file for the load's time (py-spy from $PY_SPY or PATH); bench/profile_summary.py")
    parser.add_argument("--view-patches", action="store_true",
                        help="every stream asks for views as changes (WatchMatchRequest.view_patches) and makes "
                             "them whole (gamehost.client.view_patching)")
    parser.add_argument("--own-events", action="store_true",
                        help="with --transport session: each player's own moves' events come in the move's answer "
                             "(WatchMatchRequest.own_events_in_answers)")
    parser.add_argument("--source", help="serve from this tree's core/ (e.g. a worktree at the commit before), "
                        "on PYTHONPATH ahead of this one")
    parser.add_argument("--no-fresh-host", action="store_true",
                        help="skip the fresh host's memory reading at the end (a shorter run)")
    args = parser.parse_args()
    if args.short:
        args.matches, args.duration = 40, 30.0
    results = asyncio.run(run(args.matches, args.duration, args.spectators, args.seed, args.store, args.host_log,
                                  [game for game in args.games.split(",") if game], args.machine_note,
                                  args.transport, args.probe,
                                  dict(item.split("=", 1) for item in args.host_env), args.load_gc_default,
                                  args.host_loop, args.cores, args.profile, not args.no_fresh_host,
                                  args.view_patches, args.own_events, args.source))
    report(results)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    failed = results["errors"] or results["watch_ended_ok_unasked"] or results["stuck_matches"] or results["log_check"]["missing"]
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
