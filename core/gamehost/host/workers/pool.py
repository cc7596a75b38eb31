"""The host's side of the worker processes: start them, send them requests,
hold each to its deadline, and kill and replace a worker that overruns,
dies or answers garbage.

Requests to one worker are pipelined: they are written as they come, each
with an id its answer names. The worker answers them in order, and the
deadline of each runs from when the worker starts on it (when the answer
before it arrived). So the event loop being busy with other calls never
holds a worker idle, and a slow call is charged to the call that was slow.

A bot's think is the exception: its deadline (the bot budget) runs from
sending, and the worker acknowledges it in order (``thinking``) when it
will search in slices between other calls; its answer comes later, out of
order. While it holds thinks, the worker says when it starts on a call
(``started``), and that call's deadline runs from then: a hang inside a
think's slice is the think's, caught by its deadline. A plugin's bot with
``choose`` only thinks the same way, in a thread of the worker
(choice_thread.py); the random bot is answered in order, as any call.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
import sys
import time
from collections import deque
from typing import Any, cast

import structlog

from gamehost.host import traces
from gamehost.host.due_timers import DueTimer
from gamehost.host.workers import messages, wire
from gamehost.host.workers.messages import Request

log = structlog.get_logger("gamehost.workers")

START_TIMEOUT = 60.0  # seconds a new worker may take to import the plugins
START_ATTEMPTS = 3  # tries to start a replacement before the call that needs it fails


class WorkerTimeout(Exception):
    """The worker did not answer this request within its deadline; it was killed."""


class WorkerDied(Exception):
    """The worker exited, crashed or broke the wire protocol on this request."""


class WorkerRestarted(Exception):
    """The worker went away for a reason that is not this request's fault
    (it waited behind another one, or the process was killed from outside):
    the request may go again; its match must be loaded again."""


class WorkerDidNotStart(Exception):
    """No worker process could be started for the slot: no request ran."""


class _Pending:
    __slots__ = ("id", "future", "timeout", "timer")

    def __init__(self, request_id: int, future: asyncio.Future[dict[str, Any]], timeout: float) -> None:
        self.id = request_id
        self.future = future
        self.timeout = timeout
        self.timer: DueTimer | None = None


class _Pipes(asyncio.SubprocessProtocol):
    """Cuts the worker's stdout into frames. Events of a process that was
    already replaced are ignored: they must not touch its successor."""

    def __init__(self, worker: "Worker") -> None:
        self.worker = worker
        self.buffer = bytearray()
        self.transport: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport

    @property
    def current(self) -> bool:
        return self.transport is not None and self.worker.transport is self.transport

    def pipe_data_received(self, fd: int, data: bytes) -> None:
        if not self.current:
            return
        buffer = self.buffer
        buffer += data
        while len(buffer) >= wire.HEADER.size:
            try:
                length = wire.body_length(bytes(buffer[:wire.HEADER.size]))
            except wire.FrameTooLarge as error:
                self.worker.broken(str(error))
                return
            end = wire.HEADER.size + length
            if len(buffer) < end:
                return
            body = bytes(buffer[wire.HEADER.size:end])
            del buffer[:end]
            self.worker.answered(body)
            if not self.current:  # that answer ended it (garbage)
                return

    # A closed stdout alone is not enough to judge: the exit (with its code)
    # or the deadline of the request in progress follows.

    def process_exited(self) -> None:
        if self.current:
            self.worker.broken("it exited")


class Worker:
    """One slot of the pool: a process, replaced when it fails. ``generation``
    counts processes, so a match knows whether its state is still held."""

    def __init__(self, index: int, memory_mb: int) -> None:
        self.index = index
        self.memory_mb = memory_mb
        self.generation = 0
        self.matches = 0  # matches placed here, for placement
        self.games: frozenset[str] = frozenset()
        self.transport: asyncio.SubprocessTransport | None = None
        self._stdin: asyncio.WriteTransport | None = None
        self._queue: deque[_Pending] = deque()  # answered in order
        self._thinking: dict[int, _Pending] = {}  # thinks acknowledged, answered when they end
        self._ids = itertools.count(1)
        self._starting: asyncio.Future[None] | None = None
        self._stopping = False
        self._outbox: list[bytes] = []  # frames written together at the end of this loop turn

    @property
    def alive(self) -> bool:
        return self.transport is not None

    @property
    def pid(self) -> int | None:
        return self.transport.get_pid() if self.transport is not None else None

    async def start(self) -> None:
        """Start a process in this slot (once, for concurrent callers)."""
        if self._starting is not None:
            return await asyncio.shield(self._starting)
        self._starting = asyncio.get_running_loop().create_future()
        try:
            await self._spawn()
        except BaseException as error:
            self._starting.set_exception(error)
            self._starting.exception()
            raise
        finally:
            starting, self._starting = self._starting, None
        starting.set_result(None)

    async def _spawn(self) -> None:
        loop = asyncio.get_running_loop()
        transport, _ = await loop.subprocess_exec(
            lambda: _Pipes(self), sys.executable, "-m", "gamehost.host.workers.worker",
            "--memory-mb", str(self.memory_mb), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=None)
        self.generation += 1
        self.transport, self._stdin = transport, cast(asyncio.WriteTransport, transport.get_pipe_transport(0))
        if transport.get_returncode() is not None:  # died while starting, before anyone listened
            self.transport = None
            raise RuntimeError(f"worker {self.index} did not start: exit code {transport.get_returncode()}")
        try:
            hello: messages.Hello = {"op": "hello"}
            answer = cast(messages.Catalogue, await self.send(hello, START_TIMEOUT))
        except (WorkerTimeout, WorkerDied, WorkerRestarted) as error:
            raise RuntimeError(f"worker {self.index} did not start: {error}") from None
        self.games = frozenset(answer["games"])

    def send(self, request: Request, timeout: float, *, think: bool = False) -> asyncio.Future[dict[str, Any]]:
        """Write one request; the future is its answer. A ``think`` (a bot's
        choice) has its deadline from now, any other call from when the
        worker starts on it."""
        request_id = next(self._ids)
        data = wire.frame({**request, "id": request_id})
        pending = _Pending(request_id, asyncio.get_running_loop().create_future(), timeout)
        self._queue.append(pending)
        if not self._outbox:
            asyncio.get_running_loop().call_soon(self._flush)
        self._outbox.append(data)
        if think or (len(self._queue) == 1 and not self._thinking):
            self._arm(pending)
        return pending.future

    def _flush(self) -> None:
        """One write (one wake-up of the worker) for every request of this loop turn."""
        frames, self._outbox = self._outbox, []
        if self.transport is not None and self._stdin is not None and frames:
            self._stdin.write(b"".join(frames))

    def _arm(self, pending: _Pending) -> None:
        if pending.timer is None:  # a think's runs from sending
            pending.timer = DueTimer(time.monotonic() + pending.timeout, lambda: self._overran(pending),
                                     time.monotonic)

    def answered(self, body: bytes) -> None:
        try:
            answer = wire.decode(body)
            request_id = answer.pop("id")
        except (ValueError, KeyError, AttributeError, TypeError):
            if self._queue:
                self._fail(self._queue[0], WorkerDied("the worker broke the protocol"))
            self.broken("it answered something that is not a JSON object naming its request")
            return
        if answer.get("started"):  # it starts on this call between slices of its thinks
            if self._queue and self._queue[0].id == request_id:
                self._arm(self._queue[0])
            return
        if self._queue and self._queue[0].id == request_id:
            pending = self._queue.popleft()
            if answer.get("thinking"):  # searching in slices: its answer comes when it ends
                self._thinking[request_id] = pending
                return
        elif request_id in self._thinking:
            pending = self._thinking.pop(request_id)
        else:
            self.broken("it answered a question nobody asked")
            return
        if pending.timer is not None:
            pending.timer.cancel()
        if self._queue and not self._thinking:  # else its deadline starts with "started"
            self._arm(self._queue[0])
        if not pending.future.done():
            pending.future.set_result(answer)

    def _overran(self, pending: _Pending) -> None:
        self._end(WorkerTimeout(f"no answer in {pending.timeout:g} s"), "deadline", [pending])

    def broken(self, why: str) -> None:
        """The process went away or broke the protocol: the request it was
        on fails (the first in order, if it had started on it; else the
        thinks it was slicing)."""
        if self.transport is None:
            return
        code = self.transport.get_returncode()
        if code == -signal.SIGKILL:
            # The host kills a worker only after taking it out of service
            # (``_end``), so this SIGKILL came from outside (the OOM killer,
            # an operator): no request of it is at fault; each may go again.
            self._end(WorkerRestarted("the worker was killed from outside (SIGKILL)"), "killed from outside")
            return
        started = bool(self._queue) and self._queue[0].timer is not None
        if started or (self._queue and not self._thinking):
            culprits = [self._queue[0]]
        else:  # its thinks, or nothing when it held no request (a worker stopping with the host)
            culprits = list(self._thinking.values())
        self._end(WorkerDied(_death(code, why)), why, culprits)

    def _end(self, error: Exception, why: str, culprits: list[_Pending] | None = None) -> None:
        """Stop the process: ``culprits`` fail with ``error`` (None: every
        request does), the other requests it held with WorkerRestarted."""
        transport, self.transport = self.transport, None
        if transport is None:
            return
        pid, code = transport.get_pid(), transport.get_returncode()
        if code is None:
            transport.kill()
        transport.close()
        if self._stopping:
            log.info("worker stopped", worker=self.index, pid=pid, exit_code=code)
        else:
            log.warning("worker lost", worker=self.index, pid=pid, why=why, exit_code=code,
                        waiting=len(self._queue), thinking=len(self._thinking))
        lost = [*self._queue, *self._thinking.values()]
        self._queue, self._thinking, self._outbox = deque(), {}, []
        for pending in lost:
            if pending.timer is not None:
                pending.timer.cancel()
            self._fail(pending, error if culprits is None or pending in culprits else WorkerRestarted("the worker was replaced"))

    @staticmethod
    def _fail(pending: _Pending, error: Exception) -> None:
        if not pending.future.done():
            pending.future.set_exception(error)

    def retire(self) -> None:
        """It said it will exit (out of memory): start afresh on next use."""
        self._end(WorkerRestarted("the worker is being replaced"), "out of memory")

    def close(self) -> None:
        self._stopping = True
        if self.transport is not None and self._stdin is not None:
            self._stdin.close()

    def kill(self) -> None:
        self._end(WorkerRestarted("the host is stopping"), "the host is stopping")


class WorkerPool:
    def __init__(self, size: int, *, memory_mb: int = 0) -> None:
        self.memory_mb = memory_mb
        self.workers = [Worker(i, memory_mb) for i in range(max(1, size))]
        # Matches whose rules already hung or crashed are held apart from the
        # others, in a slot of their own started when one first needs it:
        # each time they fail again, the worker they take down holds no
        # other plugin's match, and no other match waits behind their calls.
        self.quarantine = Worker(len(self.workers), memory_mb)
        self._closing = False

    @property
    def slots(self) -> list[Worker]:
        return [*self.workers, self.quarantine]

    async def start(self) -> frozenset[str]:
        """Start every worker; the games all of them serve."""
        await asyncio.gather(*(worker.start() for worker in self.workers))
        log.info("workers started", workers=len(self.workers), memory_mb=self.memory_mb or None,
                 pids=[w.pid for w in self.workers])
        return frozenset.intersection(*(w.games for w in self.workers))

    def assign(self, suspect: bool = False) -> Worker:
        """The worker a newly loaded match goes to: the one holding fewest,
        or the quarantine for a ``suspect`` match (its rules failed before)."""
        worker = self.quarantine if suspect else min(self.workers, key=lambda w: w.matches)
        worker.matches += 1
        return worker

    def release(self, worker: Worker) -> None:
        worker.matches = max(0, worker.matches - 1)

    async def call(self, worker: Worker, request: Request, timeout: float, *, think: bool = False
                   ) -> dict[str, Any]:
        """One request and its answer, within ``timeout`` seconds of the
        worker starting on it (a ``think``: of sending it). The answer is
        the one the request's class names in messages.py, or a refusal."""
        if not worker.alive:
            if self._closing:
                raise WorkerRestarted("the host is stopping")
            await self._replace(worker)
        if traces.on():
            traceparent = traces.current_traceparent()
            if traceparent:  # the worker times its work as this span's child and sends its span back
                cast(dict[str, Any], request)["traceparent"] = traceparent
        answer = await worker.send(request, timeout, think=think)
        if "span" in answer:
            traces.record_worker_span(answer.pop("span"))
        if answer.get("error") == "memory":
            worker.retire()
        return answer

    async def _replace(self, worker: Worker) -> None:
        """Start a process in ``worker``'s slot, trying again if it dies
        while starting: no request has run in it, so none is at fault."""
        for attempt in range(1, START_ATTEMPTS + 1):
            try:
                await worker.start()
            except RuntimeError as error:
                log.error("worker did not start", worker=worker.index, attempt=attempt, error=str(error))
                if attempt == START_ATTEMPTS or self._closing:
                    raise WorkerDidNotStart(str(error)) from None
                continue
            if worker.alive:  # else it died at once, after answering: start another
                log.info("worker replaced", worker=worker.index, pid=worker.pid, generation=worker.generation)
                return
        raise WorkerDidNotStart(f"worker {worker.index} kept dying as it started")

    def rss_bytes(self) -> int:
        """The workers' resident memory, from /proc."""
        total = 0
        for worker in self.slots:
            if worker.pid is None:
                continue
            try:
                with open(f"/proc/{worker.pid}/statm") as statm:
                    total += int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
            except (OSError, ValueError, IndexError, TypeError):
                pass
        return total

    async def close(self, grace: float = 0.5) -> None:
        """Ask every worker to stop (its stdin closes) and kill the ones
        still running after ``grace`` seconds: a hung plugin does not hold
        the host's exit."""
        self._closing = True
        running = [w for w in self.slots if w.alive]
        for worker in running:
            worker.close()
        deadline = asyncio.get_running_loop().time() + grace
        while any(w.transport is not None and w.transport.get_returncode() is None for w in running):
            if asyncio.get_running_loop().time() > deadline:
                break
            await asyncio.sleep(0.02)
        for worker in running:
            worker.kill()
        log.info("workers stopped", workers=len(running))


def _death(code: int | None, why: str) -> str:
    if code is not None and code < 0:
        try:
            return f"crashed: the worker was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"crashed: the worker was killed by signal {-code}"
    if code == 3:
        return "ran out of memory"
    if code is not None:
        return f"crashed: the worker exited with code {code}"
    return f"crashed: the worker broke off ({why})"
