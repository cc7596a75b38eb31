"""Where each match's rules state lives, and the calls that reach it there.

Each match is *resident* in one place: a worker (or the host's own table)
holds its state, so a move ships the move, not the state. A match whose
worker was replaced, or that was never loaded, is loaded again from the
store (snapshot and log, under its own deadline) on its next call. A call
that overruns its deadline or whose worker dies fails with
DEADLINE_EXCEEDED / RULES_TIMEOUT or INTERNAL / RULES_CRASHED; the engine
hears of each such failure through ``on_failure`` and counts strikes. A
worker that went away for a reason that is not the call's (it waited behind
another match's call, the process was killed from outside, a replacement
died as it started) is no strike: the call goes again, on a fresh worker.
A match whose rules failed is a suspect from then on, held in the pool's
quarantine worker, apart from the matches of sound rules.
"""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from gamehost.host import errors
from gamehost.host.workers import messages
from gamehost.host.workers.applied import Applied
from gamehost.host.workers.budgets import RulesBudgets
from gamehost.host.workers.pool import Worker, WorkerDidNotStart, WorkerDied, WorkerPool, WorkerRestarted, WorkerTimeout
from gamehost.host.workers.resident import ResidentMatches, Unloaded
from gamehost.host.workers.rules_errors import refused, rules_failure
from gamehost.sdk.replay import recorded_moves

# Loads in a row a call may need because the worker holding its match went
# away for reasons not its own; beyond that the match itself is the likely
# cause (a plugin that has its own worker killed), and it is a failure.
RELOADS = 4

Loader = Callable[[Any], Awaitable[tuple[Any, list[dict]]]]
FailureHeard = Callable[[Any, errors.HostError], None]


@dataclass
class Residence:
    worker: Worker | None  # None: the host's own table
    generation: int
    tag: int
    version: int  # the match version the held state is at: catching up skips steps it already has
    # The seats to move of the held state (the one ``tag`` names), when an answer told them: a step that
    # leaves the rules' state alone (a join, a seat change) needs no round trip to learn them again.
    to_move: tuple[int, ...] | None = None

    def current(self) -> bool:
        """Whether the holder still holds it (a worker not replaced since)."""
        return self.worker is None or self.worker.generation == self.generation


class MatchResidences:
    """The matches' residences: where each is held, loading it there (again)
    when needed, sending it calls, and letting it go. ``isolated`` says
    whether a game's rules run in the workers; ``loader`` reads a match's
    snapshot and log from the store; ``on_failure`` hears of each rules
    failure (both the engine's, handed over when it builds the runner)."""

    def __init__(self, pool: WorkerPool | None, budgets: RulesBudgets, table: ResidentMatches,
                 isolated: Callable[[str], bool], *, loader: Loader, on_failure: FailureHeard) -> None:
        self.pool = pool
        self.budgets = budgets
        self.table = table  # the host's own: matches of games not isolated
        self.isolated = isolated
        self._on_failure = on_failure
        self._loader = loader
        self._where: dict[str, Residence] = {}
        self._loading: dict[str, asyncio.Future[Residence]] = {}
        self._tags = itertools.count(1)
        self._background: set[asyncio.Task[None]] = set()
        self._suspects: set[str] = set()  # matches whose rules timed out or crashed: held in the quarantine

    def new_tag(self) -> int:
        """A tag no held state has had: names the state a call makes."""
        return next(self._tags)

    # ------------------------------------------------------------ transport

    async def _choose_in_host(self, request: messages.Choose) -> Any:
        """A bot's choice for a match held in the host: a search bot thinks
        for up to a second, so it thinks in a thread, not on the event loop.
        The match's step is taken here first (the thread then only reads it),
        and the engine holds the match's lock: no move meanwhile."""
        try:
            self.table.held_match(request)
        except Unloaded:
            return {"error": "unloaded"}
        return await asyncio.to_thread(self.table.handle, request)

    async def send(self, live: Any, worker: Worker | None, request: messages.Request) -> Any:
        """The answer to ``request``. A worker that went away while the
        request waited behind another one's is not this match's fault: the
        request goes again (a match's state must then be loaded again, which
        the "unloaded" answer tells ``call``)."""
        if worker is None:
            if request["op"] == "choose":
                return await self._choose_in_host(request)
            return self.table.handle(request)
        op = request["op"]
        # A call that renders has each rendering's budget too (``render``); failures go by the hooks it calls.
        budgets, hook = (request["budgets"], request["hook"]) if request["op"] == "render" else (1, op)
        seconds = self.budgets.for_call(live.entry.game.id, op) * budgets
        assert self.pool is not None  # a worker is the pool's
        try:
            for attempt in (1, 2, 3):
                try:
                    answer = await self.pool.call(worker, request, seconds, think=op == "choose")
                    break
                except WorkerRestarted as restart:
                    if "match" in request and op not in ("load", "setup"):
                        return {"error": "unloaded"}
                    if attempt == 3:
                        raise WorkerDied(str(restart)) from None
        except WorkerTimeout:
            error = rules_failure(live, "RULES_TIMEOUT", hook,
                                  f"did not answer within {seconds:g} s")
        except WorkerDied as death:
            error = rules_failure(live, "RULES_CRASHED", hook, str(death))
        except WorkerDidNotStart as failed:  # no rules ran: not the match's failure, no strike
            live.log.error("no rules worker", hook=hook, error=str(failed))
            raise errors.Internal(
                f"No rules worker could be started for matches/{live.id} ({failed}); the match is unchanged. "
                "The host's log says why; try again.", "RULES_WORKER_UNAVAILABLE",
                metadata=errors.metadata_of(plugin=live.entry.plugin, game=live.entry.game.id, hook=hook)) from None
        else:
            if answer.get("error") != "memory":
                return answer
            error = rules_failure(live, "RULES_CRASHED", hook,
                                  f"ran out of memory (the limit is {self.pool.memory_mb} MB per worker)")
        self.suspect(live.id)
        self._on_failure(live, error)
        raise error

    def suspect(self, match_id: str) -> None:
        """The match's rules failed (here, or before a restart: a strike is
        stored): from its next load on it is held in the quarantine worker."""
        self._suspects.add(match_id)

    def answer(self, live: Any, answer: Any) -> Any:
        """``answer``, the one its request's class names in messages.py,
        unless it is a refusal or a failure: then its exception is raised."""
        if "error" not in answer:
            return answer
        if answer["error"] == "plugin" and answer["hook"].startswith(("apply", "load")):
            self._evict(live.id)  # the worker dropped it: its state may be damaged
        raise refused(live, answer)

    def _evict(self, match_id: str) -> Residence | None:
        """Forget where the match is held (the worker no longer holds it)."""
        where = self._where.pop(match_id, None)
        if where is not None and where.worker is not None and self.pool is not None:
            self.pool.release(where.worker)
        return where

    def _place(self, live: Any) -> Worker | None:
        if self.pool is None or not self.isolated(live.entry.game.id):
            return None
        return self.pool.assign(suspect=live.id in self._suspects)

    # ------------------------------------------------------------ residence

    async def settle(self, live: Any, request: messages.Load | messages.Setup, version: int
                     ) -> tuple[Residence, Any]:
        """The match held from now on where it is placed, with the state
        ``request`` (which makes one: a load or a setup) makes there at
        ``version``; and the request's answer."""
        worker = self._place(live)
        try:
            answer = self.answer(live, await self.send(live, worker, request))
        except BaseException:
            if worker is not None and self.pool is not None:
                self.pool.release(worker)
            raise
        where = Residence(worker, worker.generation if worker else 0, request["new_tag"], version)
        self._where[live.id] = where
        return where, answer

    async def resident(self, live: Any) -> Residence:
        where = self._where.get(live.id)
        if where is not None and where.current():
            return where
        loading = self._loading.get(live.id)
        if loading is not None:
            return await asyncio.shield(loading)
        loading = self._loading[live.id] = asyncio.get_running_loop().create_future()
        try:
            where = await self._load(live)
        except BaseException as error:
            loading.set_exception(error)
            loading.exception()  # retrieved: only the waiters care
            raise
        finally:
            del self._loading[live.id]
        loading.set_result(where)
        return where

    async def _load(self, live: Any) -> Residence:
        self._evict(live.id)  # a residence in a worker since replaced
        state, events = await self._loader(live)
        version = live.version  # what the loader read up to (no await since)
        moves = [[move.version, move.seat, move.args] for move in recorded_moves(events)]
        request: messages.Load = {"op": "load", "game": live.entry.rules_key, "match": live.id,
                                  "seed": live.record.seed, "state": state, "moves": moves, "new_tag": self.new_tag()}
        where, _ = await self.settle(live, request, version)
        live.log.debug("match loaded", worker=where.worker.index if where.worker else None, moves=len(moves))
        return where

    async def call(self, live: Any, request: messages.HeldRequest) -> Any:
        """A request about a resident match; loaded first if need be, and
        again each time its worker no longer holds it (replaced meanwhile),
        up to ``RELOADS`` times. The answer is the one the request's class
        names in messages.py."""
        for _ in range(RELOADS):
            where = await self.resident(live)
            request["match"], request["tag"] = live.id, where.tag
            answer = await self.send(live, where.worker, request)
            if answer.get("error") != "unloaded":
                return self.answer(live, answer)
            if self._where.get(live.id) is where:
                self._evict(live.id)
        error = rules_failure(live, "RULES_CRASHED", request["op"],
                              f"lost its worker {RELOADS} times in a row")
        self.suspect(live.id)
        self._on_failure(live, error)
        raise error

    async def call_at(self, live: Any, request: messages.Render, tag: int) -> Any | None:
        """``call`` of the held state ``tag`` names, or None once the
        holder no longer holds it (a newer state, or a worker replaced)."""
        where = await self.resident(live)
        request["match"], request["tag"] = live.id, tag
        answer = await self.send(live, where.worker, request)
        if answer.get("error") == "unloaded":
            return None
        return self.answer(live, answer)

    async def stateless(self, live: Any, request: messages.GameRequest) -> Any:
        """A request that needs the game, not the match's state."""
        where = self._where.get(live.id)
        game_id = live.entry.game.id
        if where is not None:
            worker = where.worker
        elif self.pool is not None and self.isolated(game_id):  # any worker has the game
            worker = min(self.pool.workers, key=lambda w: w.matches)
        else:
            worker = None
        request["game"] = live.entry.rules_key
        return self.answer(live, await self.send(live, worker, request))

    def forget(self, match_id: str) -> None:
        """The engine let go of the match: free its state where it is held."""
        where = self._evict(match_id)
        if where is None:
            return
        if where.worker is None:
            self.table.held.pop(match_id, None)
            return
        if where.worker.generation == where.generation and self.pool is not None:
            task = asyncio.get_running_loop().create_task(self._drop(self.pool, where.worker, match_id))
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    async def _drop(self, pool: WorkerPool, worker: Worker, match_id: str) -> None:
        drop: messages.Drop = {"op": "drop", "match": match_id}
        try:
            await pool.call(worker, drop, self.budgets.rules)
        except (WorkerTimeout, WorkerDied):
            pass  # its matches are reloaded where they are next used

    # ------------------------------------------------------------ what the held state is at

    def committed(self, live: Any, applied: Applied) -> None:
        """The step ``applied`` came from is in the store: its state is current."""
        where = self._where.get(live.id)
        if where is not None:
            where.tag, where.version, where.to_move = applied.tag, applied.version, applied.to_move

    async def catch_up(self, live: Any, events: list[dict[str, Any]]) -> None:
        """Catch the held state up with steps another replica committed."""
        loading = self._loading.get(live.id)
        if loading is not None:  # a load begun outside the match's lock: it may hold some of these steps
            try:
                await asyncio.shield(loading)
            except Exception:
                return  # not held: loaded from the store when next used
        where = self._where.get(live.id)
        if where is None:
            return  # loaded from the store, up to date, when next used
        if any(e["kind"] == "undone" for e in events):  # a move taken back: load the undo's snapshot when next used
            self.forget(live.id)
            return
        moves = [[e["version"], e["seat"], e["move"]] for e in events
                 if e["kind"] == "moved" and e["version"] > where.version]
        newest = max((e["version"] for e in events), default=where.version)
        if not moves:
            where.version = max(where.version, newest)
            return
        tag = self.new_tag()
        advance: messages.Advance = {"op": "advance", "moves": moves, "new_tag": tag}
        await self.call(live, advance)
        current = self._where.get(live.id)
        if current is not None:
            current.tag, current.version, current.to_move = tag, max(current.version, newest), None

    def known_to_move(self, live: Any) -> tuple[int, ...] | None:
        """The seats to move of the state the rules hold for the match, if
        an answer that made or read that very state told them; else None."""
        where = self._where.get(live.id)
        if where is None or not where.current():
            return None
        return where.to_move

    def learned_to_move(self, live: Any, tag: int, to_move: tuple[int, ...]) -> None:
        """An answer about the held state ``tag`` names told its seats to move."""
        where = self._where.get(live.id)
        if where is not None and where.tag == tag:
            where.to_move = to_move
