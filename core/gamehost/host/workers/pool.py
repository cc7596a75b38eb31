"""The host's side of the worker processes: start them, send each one
request at a time under a deadline, and kill and replace a worker that
overruns, dies or answers garbage."""

from __future__ import annotations

import asyncio
import os
import signal
import sys

import structlog

from gamehost.host.workers import wire

log = structlog.get_logger("gamehost.workers")

START_TIMEOUT = 60.0  # seconds a new worker may take to import the plugins


class WorkerTimeout(Exception):
    """The worker did not answer within the deadline; it was killed."""


class WorkerDied(Exception):
    """The worker exited, crashed or broke the wire protocol; it was replaced."""


class Worker:
    """One slot of the pool: a process, replaced when it fails. ``generation``
    counts replacements, so a match knows whether its state is still held."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.generation = 0
        self.process: asyncio.subprocess.Process | None = None
        self.lock = asyncio.Lock()
        self.matches = 0  # matches assigned, for placement
        self.games: frozenset[str] = frozenset()


class WorkerPool:
    def __init__(self, size: int, *, memory_mb: int = 0) -> None:
        self.workers = [Worker(i) for i in range(max(1, size))]
        self.memory_mb = memory_mb
        self._closing = False

    async def start(self) -> frozenset[str]:
        """Start every worker; the games all of them serve."""
        await asyncio.gather(*(self._run(worker) for worker in self.workers))
        games = frozenset.intersection(*(w.games for w in self.workers))
        log.info("workers started", workers=len(self.workers), memory_mb=self.memory_mb or None,
                 pids=[w.process.pid for w in self.workers])
        return games

    async def _run(self, worker: Worker) -> None:
        worker.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "gamehost.host.workers.worker", "--memory-mb", str(self.memory_mb),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=wire.MAX_FRAME + 16)
        try:
            answer = await self._exchange(worker, {"op": "hello"}, START_TIMEOUT)
        except (WorkerTimeout, WorkerDied) as error:
            raise RuntimeError(f"worker {worker.index} did not start: {error}") from None
        worker.games = frozenset(answer["games"])

    def assign(self) -> Worker:
        """The worker a newly loaded match goes to: the one holding fewest."""
        worker = min(self.workers, key=lambda w: w.matches)
        worker.matches += 1
        return worker

    def release(self, worker: Worker) -> None:
        worker.matches = max(0, worker.matches - 1)

    async def call(self, worker: Worker, request: dict, timeout: float) -> dict:
        """Send one request and wait for its answer, at most ``timeout``
        seconds once the worker has it. A caller that goes away meanwhile
        leaves the exchange to finish in the background: the worker's next
        answer must not reach the next caller."""
        await worker.lock.acquire()
        exchange = asyncio.ensure_future(self._locked_exchange(worker, request, timeout))
        return await asyncio.shield(exchange)

    async def _locked_exchange(self, worker: Worker, request: dict, timeout: float) -> dict:
        try:
            if worker.process is None or worker.process.returncode is not None:
                await self._replace(worker)
            return await self._exchange(worker, request, timeout)
        finally:
            worker.lock.release()

    async def _exchange(self, worker: Worker, request: dict, timeout: float) -> dict:
        process = worker.process
        data = wire.frame(request)
        try:
            async with asyncio.timeout(timeout):
                process.stdin.write(data)
                header = await process.stdout.readexactly(wire.HEADER.size)
                body = await process.stdout.readexactly(wire.body_length(header))
            answer = wire.decode(body)
        except TimeoutError:
            self._kill(worker, "deadline")
            raise WorkerTimeout(f"no answer in {timeout:g} s") from None
        except (asyncio.IncompleteReadError, ConnectionError, wire.FrameTooLarge, ValueError) as error:
            code = await self._reap(worker)
            raise WorkerDied(_death(code, error)) from None
        if answer.get("error") == "memory":  # the worker exits after saying so: replace it
            await self._reap(worker)
        return answer

    def _kill(self, worker: Worker, why: str) -> None:
        process = worker.process
        if process is not None and process.returncode is None:
            process.kill()
            log.warning("worker killed", worker=worker.index, pid=process.pid, why=why)
        worker.process = None
        worker.generation += 1

    async def _reap(self, worker: Worker) -> int | None:
        process = worker.process
        if process is None:
            return None
        if process.returncode is None:
            try:
                async with asyncio.timeout(1.0):
                    await process.wait()
            except TimeoutError:
                process.kill()
                await process.wait()
        log.warning("worker died", worker=worker.index, pid=process.pid, exit_code=process.returncode)
        worker.process = None
        worker.generation += 1
        return process.returncode

    async def _replace(self, worker: Worker) -> None:
        if self._closing:
            raise WorkerDied("the host is stopping")
        if worker.process is not None:
            await self._reap(worker)
        await self._run(worker)
        log.info("worker replaced", worker=worker.index, pid=worker.process.pid, generation=worker.generation)

    def rss_bytes(self) -> int:
        """The workers' resident memory, from /proc."""
        total = 0
        for worker in self.workers:
            if worker.process is not None and worker.process.returncode is None:
                try:
                    with open(f"/proc/{worker.process.pid}/statm") as statm:
                        total += int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
                except (OSError, ValueError, IndexError):
                    pass
        return total

    async def close(self, grace: float = 1.0) -> None:
        """Ask every worker to stop (its stdin closes), and kill the ones
        still running after ``grace`` seconds: a hung plugin does not hold
        the host's exit."""
        self._closing = True
        running = [w.process for w in self.workers if w.process is not None and w.process.returncode is None]
        for process in running:
            try:
                process.stdin.close()
            except (OSError, RuntimeError):
                pass
        try:
            async with asyncio.timeout(grace):
                await asyncio.gather(*(p.wait() for p in running))
        except TimeoutError:
            for process in running:
                if process.returncode is None:
                    process.kill()
            await asyncio.gather(*(p.wait() for p in running), return_exceptions=True)
        log.info("workers stopped", workers=len(running))


def _death(code: int | None, error: Exception) -> str:
    if code is not None and code < 0:
        try:
            return f"the worker was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"the worker was killed by signal {-code}"
    if code == 3:
        return "the worker ran out of memory"
    if code is not None:
        return f"the worker exited with code {code}"
    return f"the worker broke the protocol: {type(error).__name__}"
