"""Bench-only instrument of the serving process: where the soak's tail comes from.

Loaded by ``bench/soak.py --probe FILE`` through ``PYTHONPATH`` (Python
imports ``sitecustomize`` at start-up); it acts only in the process that runs
``gamehost serve`` (and its rules workers) and only when
``GAMEHOST_TAIL_PROBE`` names the file to write; the host then serves on
asyncio's own loop (``--event-loop asyncio``), which the probes instrument.
Nothing here is part of the host. It records, from the first turn of
the serving loop until the host exits:

- the loop's lag: a timer due every ``TICK`` seconds, how late it fires;
- each turn of the loop: the time it spent running callbacks (not waiting
  in ``select``), and the callbacks that ran longest, named by what they run;
- Python's garbage collections, per generation (``gc.callbacks``);
- each SQLite transaction (``SQLiteStore._transaction``), and whether the
  WAL was restarted by it (its header's salt changed: the commit before ran
  a checkpoint to the end);
- each round trip to a rules worker (``WorkerPool.call``), with the number
  of requests already queued at that worker;
- each ``MatchEngine.submit`` (the move in the engine: lock, worker, commit).

Durations go to arrays (milliseconds) and the slowest items to short lists;
the JSON is written at exit.
"""

from __future__ import annotations

import asyncio
import atexit
import gc
import json
import os
import selectors
import sys
import time

OUT = os.environ.get("GAMEHOST_TAIL_PROBE")
TICK = 0.010        # the lag timer's period
SLOW_MS = 5.0        # a callback or a turn this long is kept with its name
KEEP = 400           # slow items kept per kind

clock = time.perf_counter
data: dict = {"lag_ms": [], "turn_busy_ms": [], "turn_handles": [], "slow_turns": [], "slow_callbacks": [],
              "gc": [], "sqlite_ms": [], "sqlite_wal_restarts": [], "worker_ms": {}, "worker_queued": [],
              "submit_ms": [], "callbacks": 0, "callback_ms_total": 0.0, "started": None}


def _serving() -> bool:
    return "gamehost.cli.main" in sys.orig_argv and "serve" in sys.orig_argv


def _rules_worker() -> bool:
    return "gamehost.host.workers.worker" in sys.orig_argv


def _name(handle) -> str:
    callback = getattr(handle, "_callback", None)
    owner = getattr(callback, "__self__", None)
    if isinstance(owner, asyncio.Task):
        coro = owner.get_coro()
        chain = [str(getattr(coro, "__qualname__", None) or type(coro).__name__)]
        inner = getattr(coro, "cr_await", None)
        while inner is not None and len(chain) < 6:
            chain.append(str(getattr(inner, "__qualname__", None) or type(inner).__name__))
            inner = getattr(inner, "cr_await", None) or getattr(inner, "gi_yieldfrom", None)
        return "task " + " > ".join(chain)
    return str(getattr(callback, "__qualname__", None) or repr(callback))[:120]


def _keep(kind: str, item) -> None:
    items = data[kind]
    if len(items) < KEEP:
        items.append(item)


def install_loop_probes() -> None:
    waiting = [0.0]
    original_select = selectors.EpollSelector.select

    def select(self, timeout=None):
        start = clock()
        try:
            return original_select(self, timeout)
        finally:
            waiting[0] += clock() - start

    selectors.EpollSelector.select = select

    original_run = asyncio.events.Handle._run

    def run(self):
        start = clock()
        original_run(self)
        spent = 1000 * (clock() - start)
        data["callbacks"] += 1
        data["callback_ms_total"] += spent
        if spent >= SLOW_MS:
            _keep("slow_callbacks", [round(time.monotonic(), 3), round(spent, 2), _name(self)])

    asyncio.events.Handle._run = run

    original_run_once = asyncio.base_events.BaseEventLoop._run_once

    def run_once(self):
        if data["started"] is None:
            data["started"] = time.monotonic()
            _install_once(self)
        waiting[0] = 0.0
        ready = len(self._ready)
        start = clock()
        original_run_once(self)
        busy = 1000 * (clock() - start - waiting[0])
        data["turn_busy_ms"].append(round(busy, 3))
        data["turn_handles"].append(ready)
        if busy >= SLOW_MS:
            _keep("slow_turns", [round(time.monotonic(), 3), round(busy, 2), ready])

    asyncio.base_events.BaseEventLoop._run_once = run_once


def _install_once(loop) -> None:
    def tick(due: float) -> None:
        now = loop.time()
        data["lag_ms"].append(round(1000 * (now - due), 3))
        loop.call_at(now + TICK, tick, now + TICK)

    loop.call_at(loop.time() + TICK, tick, loop.time() + TICK)
    _patch_host()


def install_gc_probe() -> None:
    began = [0.0]

    def callback(phase, info):
        if phase == "start":
            began[0] = clock()
        else:
            data["gc"].append([round(time.monotonic(), 3), info["generation"],
                               round(1000 * (clock() - began[0]), 3), info["collected"]])

    gc.callbacks.append(callback)


def _patch_host() -> None:
    from gamehost.host.engine.match_engine import MatchEngine
    from gamehost.host.store.sqlite import SQLiteStore
    from gamehost.host.workers.pool import WorkerPool

    original_transaction = SQLiteStore._transaction

    def transaction(self, work):
        salt = _wal_salt(self.path)
        start = clock()
        try:
            return original_transaction(self, work)
        finally:
            spent = 1000 * (clock() - start)
            data["sqlite_ms"].append(round(spent, 3))
            if salt != _wal_salt(self.path):
                data["sqlite_wal_restarts"].append(len(data["sqlite_ms"]) - 1)

    SQLiteStore._transaction = transaction

    original_call = WorkerPool.call

    async def call(self, worker, request, timeout):
        queued = len(getattr(worker, "_queue", ()))
        start = clock()
        try:
            return await original_call(self, worker, request, timeout)
        finally:
            kind = str(request.get("op") or request.get("kind") or "?")
            data["worker_ms"].setdefault(kind, []).append(round(1000 * (clock() - start), 3))
            data["worker_queued"].append(queued)

    WorkerPool.call = call

    original_submit = MatchEngine.submit

    async def submit(self, *args, **kwargs):
        start = clock()
        try:
            return await original_submit(self, *args, **kwargs)
        finally:
            data["submit_ms"].append(round(1000 * (clock() - start), 3))

    MatchEngine.submit = submit


def _wal_salt(path) -> bytes:
    try:
        with open(f"{path}-wal", "rb") as wal:
            return wal.read(24)[16:24]
    except OSError:
        return b""


def _write() -> None:
    data["gc_thresholds"] = gc.get_threshold()
    data["gc_frozen"] = gc.get_freeze_count()
    with open(OUT, "w") as out:
        json.dump(data, out)


def install_worker_probe() -> None:
    """In a rules worker: each request's handling, by op, and the worker's own collections."""
    from gamehost.host.workers.resident import ResidentMatches

    original_handle = ResidentMatches.handle

    handled = [0]

    def handle(self, request):
        start = clock()
        try:
            return original_handle(self, request)
        finally:
            data["worker_ms"].setdefault(str(request.get("op")), []).append(round(1000 * (clock() - start), 3))
            handled[0] += 1
            if handled[0] % 2000 == 0:  # the host may kill its workers at exit: write as it goes
                _write()

    ResidentMatches.handle = handle


if OUT and _serving():
    install_loop_probes()
    install_gc_probe()
    atexit.register(_write)
elif OUT and _rules_worker():
    OUT = f"{OUT}.worker-{os.getpid()}"
    install_worker_probe()
    install_gc_probe()
    atexit.register(_write)
