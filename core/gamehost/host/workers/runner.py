"""What the engine calls to run rules: one interface whether a game's rules
run in a worker process (the default) or in the host (trusted plugins, or
``--isolation off``).

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
from typing import Any, Awaitable, Callable, Mapping, Sequence

import structlog

from gamehost.host import errors
from gamehost.host.plugins import Catalog
from gamehost.host.workers import messages
from gamehost.host.workers.applied import Applied, listed_moves, step_applied
from gamehost.host.workers.budgets import RulesBudgets
from gamehost.host.workers.moves_on_wire import move_data, move_of
from gamehost.host.workers.pool import (Worker, WorkerDidNotStart, WorkerDied, WorkerPool, WorkerRestarted,
                                        WorkerTimeout)
from gamehost.host.workers.residence import RELOADS, Residence
from gamehost.host.workers.resident import ResidentMatches, Unloaded
# The engine imports these from here: the runner is the workers' face to it.
from gamehost.host.workers.rules_errors import (PLUGIN_ERROR, UnknownMoveId, refused, renderings_read,
                                                 rules_failure)
from gamehost.host.workers.view_bytes import decode_shared
from gamehost.sdk.replay import recorded_moves
from gamehost.sdk.rules import Move, Part

__all__ = ["PLUGIN_ERROR", "Applied", "RulesBudgets", "RulesRunner", "UnknownMoveId"]

log = structlog.get_logger("gamehost.rules")

class RulesRunner:
    def __init__(self, catalog: Catalog, bots: Mapping[str, Any] | None = None, *, pool: WorkerPool | None = None,
                 trusted: frozenset[str] = frozenset(), budgets: RulesBudgets | None = None) -> None:
        self.catalog = catalog
        self.pool = pool
        self.trusted = trusted  # plugin names run in the host
        self.budgets = budgets or RulesBudgets()
        self.table = ResidentMatches(catalog.all_rules(), bots or {}, on_wire=False,
                                     clock_rule=catalog.clock_rule(), resign_rule=catalog.resign_rule())
        self.isolated_games: frozenset[str] = frozenset()
        self.on_failure: Callable[[Any, errors.HostError], None] = lambda live, error: None
        self.loader: Callable[[Any], Awaitable[tuple[Any, list[dict]]]] | None = None
        self._where: dict[str, Residence] = {}
        self._loading: dict[str, asyncio.Future[Residence]] = {}
        self._tags = itertools.count(1)
        self._background: set[asyncio.Task[None]] = set()
        self._parts: dict[tuple[str, str], Part] = {}  # moves' parts, shared by the moves that name them
        self._suspects: set[str] = set()  # matches whose rules timed out or crashed: held in the quarantine

    def use_bots(self, bots: Mapping[str, Any]) -> None:
        """The bots rules run in the host choose with (workers load their own)."""
        self.table.bots = bots

    async def start(self) -> None:
        if self.pool is None:
            return
        served_rules = await self.pool.start()
        chosen = {g for g, entry in self.catalog.games.items() if entry.plugin not in self.trusted}
        # A game runs in the workers only if they load every rules version of it the host has.
        served = {g for g in chosen
                  if all(v.rules_key in served_rules for v in self.catalog.games[g].versions.values())}
        self.isolated_games = frozenset(chosen & served)
        for game_id in sorted(chosen - served):  # e.g. a plugin handed to the host, not installed
            log.warning("game runs in the host: the workers do not load it", game=game_id)
        log.info("rules isolation", isolated=sorted(self.isolated_games),
                 in_host=sorted(set(self.catalog.games) - self.isolated_games))

    async def close(self, grace: float = 1.0) -> None:
        if self.pool is not None:
            await self.pool.close(grace)

    def isolated(self, game_id: str) -> bool:
        return game_id in self.isolated_games

    # ------------------------------------------------------------ transport

    async def _choose_in_host(self, request: messages.Choose) -> Any:
        """A bot's choice for a match held in the host: a search bot thinks
        for up to a second, so it thinks in a thread, not on the event loop.
        The match's step is taken here first (the thread then only reads it),
        and the engine holds the match's lock: no move meanwhile."""
        try:
            self.table._match(request)
        except Unloaded:
            return {"error": "unloaded"}
        return await asyncio.to_thread(self.table.handle, request)

    async def _send(self, live: Any, worker: Worker | None, request: messages.Request) -> Any:
        """The answer to ``request``. A worker that went away while the
        request waited behind another one's is not this match's fault: the
        request goes again (a match's state must then be loaded again, which
        the "unloaded" answer tells ``_call``)."""
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
        self.on_failure(live, error)
        raise error

    def suspect(self, match_id: str) -> None:
        """The match's rules failed (here, or before a restart: a strike is
        stored): from its next load on it is held in the quarantine worker."""
        self._suspects.add(match_id)

    def _answer(self, live: Any, answer: Any) -> Any:
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
        if self.pool is None or live.entry.game.id not in self.isolated_games:
            return None
        return self.pool.assign(suspect=live.id in self._suspects)

    # ------------------------------------------------------------ residence

    async def _resident(self, live: Any) -> Residence:
        where = self._where.get(live.id)
        if where is not None and (where.worker is None or where.worker.generation == where.generation):
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
        assert self.loader is not None, "the engine sets the loader"
        state, events = await self.loader(live)
        version = live.version  # what the loader read up to (no await since)
        worker = self._place(live)
        tag = next(self._tags)
        moves = [[move.version, move.seat, move.args] for move in recorded_moves(events)]
        request: messages.Load = {"op": "load", "game": live.entry.rules_key, "match": live.id,
                                  "seed": live.record.seed, "state": state, "moves": moves, "new_tag": tag}
        try:
            self._answer(live, await self._send(live, worker, request))
        except BaseException:
            if worker is not None and self.pool is not None:
                self.pool.release(worker)
            raise
        where = Residence(worker, worker.generation if worker else 0, tag, version)
        self._where[live.id] = where
        live.log.debug("match loaded", worker=worker.index if worker else None, moves=len(moves))
        return where

    async def _call(self, live: Any, request: messages.HeldRequest) -> Any:
        """A request about a resident match; loaded first if need be, and
        again each time its worker no longer holds it (replaced meanwhile),
        up to ``RELOADS`` times. The answer is the one the request's class
        names in messages.py."""
        for _ in range(RELOADS):
            where = await self._resident(live)
            request["match"], request["tag"] = live.id, where.tag
            answer = await self._send(live, where.worker, request)
            if answer.get("error") != "unloaded":
                return self._answer(live, answer)
            if self._where.get(live.id) is where:
                self._evict(live.id)
        error = rules_failure(live, "RULES_CRASHED", request["op"],
                              f"lost its worker {RELOADS} times in a row")
        self.suspect(live.id)
        self.on_failure(live, error)
        raise error

    async def _stateless(self, live: Any, request: messages.GameRequest) -> Any:
        """A request that needs the game, not the match's state."""
        where = self._where.get(live.id)
        game_id = live.entry.game.id
        if where is not None:
            worker = where.worker
        elif self.pool is not None and game_id in self.isolated_games:  # any worker has the game
            worker = min(self.pool.workers, key=lambda w: w.matches)
        else:
            worker = None
        request["game"] = live.entry.rules_key
        return self._answer(live, await self._send(live, worker, request))

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

    def committed(self, live: Any, applied: Applied) -> None:
        """The step ``applied`` came from is in the store: its state is current."""
        where = self._where.get(live.id)
        if where is not None:
            where.tag, where.version, where.to_move = applied.tag, applied.version, applied.to_move

    # ------------------------------------------------------------ rules calls

    async def setup(self, live: Any, seats: int, options: Mapping[str, Any]) -> tuple[Any, tuple[int, ...]]:
        """The first state of a new match, held from now on; its seats to move."""
        worker = self._place(live)
        tag = next(self._tags)
        request: messages.Setup = {"op": "setup", "game": live.entry.rules_key, "match": live.id, "seats": seats,
                                   "options": dict(options), "seed": live.record.seed, "new_tag": tag}
        try:
            answer: messages.SetUp = self._answer(live, await self._send(live, worker, request))
        except BaseException:
            if worker is not None and self.pool is not None:
                self.pool.release(worker)
            raise
        to_move = tuple(answer["to_move"])
        self._where[live.id] = Residence(worker, worker.generation if worker else 0, tag, live.version, to_move)
        return answer["state"], to_move

    def encodes_views(self, game_id: str) -> bool:
        """Whether the game's rules answer views as View fields
        (view_bytes.py): in a worker, where encoding them costs the serving
        process nothing; the host's own table answers them as they are."""
        return game_id in self.isolated_games

    async def apply(self, live: Any, seat: int, move: Mapping[str, Any] | None, version: int, *, want_state: bool,
                    viewers: Sequence[int | None] = (), move_id: str = "") -> Applied:
        """``move``, or the legal move whose id is ``move_id`` (resolved where
        the rules hold the listing; UnknownMoveId if there is none).
        ``viewers``: the seats (None: spectators) whose views of the new
        state to bring back with it, for the watchers the step wakes (rules
        in a worker encode them as View fields; renderings are asked for
        after the commit: ``render``)."""
        tag = next(self._tags)
        request: messages.Apply = {"op": "apply", "seat": seat, "version": version, "want_state": want_state,
                                   "new_tag": tag}
        if move_id:
            request["move_id"] = move_id
        else:
            request["move"] = dict(move or {})
        if self.encodes_views(live.entry.game.id):
            request["encode"] = True
        if viewers:
            request["views"] = list(viewers)
        answer: messages.Stepped = await self._call(live, request)
        return step_applied(answer, tag, version, viewers, self._parts)

    async def advance(self, live: Any, events: list[dict[str, Any]]) -> None:
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
        tag = next(self._tags)
        advance: messages.Advance = {"op": "advance", "moves": moves, "new_tag": tag}
        await self._call(live, advance)
        current = self._where.get(live.id)
        if current is not None:
            current.tag, current.version, current.to_move = tag, max(current.version, newest), None

    def known_to_move(self, live: Any) -> tuple[int, ...] | None:
        """The seats to move of the state the rules hold for the match, if
        an answer that made or read that very state told them; else None."""
        where = self._where.get(live.id)
        if where is None or (where.worker is not None and where.worker.generation != where.generation):
            return None
        return where.to_move

    async def to_move(self, live: Any) -> tuple[int, ...]:
        known = self.known_to_move(live)
        if known is not None:
            return known
        request: messages.ToMove = {"op": "to_move"}
        answer: messages.SeatsToMove = await self._call(live, request)
        to_move = tuple(answer["to_move"])
        where = self._where.get(live.id)
        if where is not None and where.tag == request["tag"]:
            where.to_move = to_move
        return to_move

    async def legal_moves(self, live: Any, seat: int) -> tuple[Move, ...]:
        request: messages.LegalMoves = {"op": "legal_moves", "seat": seat}
        answer: messages.Listing = await self._call(live, request)
        return listed_moves(answer["moves"], self._parts)

    async def view(self, live: Any, seat: int | None) -> dict[str, Any]:
        request: messages.View = {"op": "view", "seat": seat}
        answer: messages.ViewOf = await self._call(live, request)
        return answer["view"]

    async def view_fields(self, live: Any, seat: int | None, listed: bool) -> bytes | None:
        """``seat``'s View fields (view_bytes.py): its view's state and, if
        ``listed``, its legal moves; None when the encoding does not take
        them (the caller builds the View from ``view`` then)."""
        return (await self.tagged_view_fields(live, seat, listed))[0]

    async def views_fields(self, live: Any, viewers: Sequence[int | None], to_move: Sequence[int]
                           ) -> dict[int | None, bytes]:
        """``view_fields`` of each of ``viewers`` in one round trip (the seats
        in ``to_move`` with their legal moves); a viewer whose view failed or
        that the encoding does not take is left out."""
        request: messages.ViewsFields = {"op": "views_fields", "viewers": list(viewers), "listed": list(to_move)}
        answer: messages.EncodedViews = await self._call(live, request)
        return {viewer: fields for viewer, fields in decode_shared(answer, answer.get("attached", ())).items()
                if viewer in viewers}

    async def state(self, live: Any) -> Any:
        request: messages.State = {"op": "state"}
        answer: messages.HeldState = await self._call(live, request)
        return answer["state"]

    async def choose(self, live: Any, seat: int, bot: str, version: int, stream: str) -> tuple[Move | None, str | None]:
        """A bot's move for ``seat``; the second value says why the random
        bot chose instead, if it did."""
        live.log.debug("bot thinking", bot=bot, seat=seat)
        request: messages.Choose = {"op": "choose", "seat": seat, "bot": bot, "version": version, "stream": stream}
        answer: messages.Chosen = await self._call(live, request)
        if answer.get("iterations") is not None:  # a search bot's: fewer when thinks share a worker
            live.log.info("bot thought", bot=bot, seat=seat, iterations=answer["iterations"])
        move = answer["move"]
        return (None if move is None else move_of(move)), answer.get("bot_failed")

    async def render_text(self, live: Any, view: Mapping[str, Any], locale: str | None = None) -> str:
        request: messages.RenderText = {"op": "render_text", "view": dict(view)}
        if locale is not None:
            request["locale"] = locale
        answer: messages.Text = await self._stateless(live, request)
        return answer["text"]

    async def render_svg(self, live: Any, view: Mapping[str, Any], moves: Sequence[Move],
                         locale: str | None = None) -> str:
        request: messages.RenderSvg = {"op": "render_svg", "view": dict(view), "moves": [move_data(m) for m in moves]}
        if locale is not None:
            request["locale"] = locale
        answer: messages.Svg = await self._stateless(live, request)
        return answer["svg"]

    async def render(self, live: Any, renders: Sequence[tuple[int | None, str, bool]], at_tag: int | None = None
                     ) -> dict[tuple[int | None, str], str | errors.HostError] | None:
        """Renderings of the match's current state, made where the rules hold
        it: ``renders`` lists (viewer, kind ("text"
        or "svg"), whether the viewer is a seat to move). Each rendering
        keeps a renderer's budget (the batch's deadline is the sum) and
        fails on its own: a failed one comes back as the error the host
        raised when it rendered from the view's data (``render_text`` /
        ``render_svg``), to be raised to whoever asked for it. Equal texts
        come back as one string. ``at_tag``: of the state a ``tagged_view_fields``
        answer came from, or None once the worker no longer holds it (two
        steps later, or the worker was replaced)."""
        seconds = self.budgets.for_call(live.entry.game.id, "render")
        kinds = sorted({kind for _, kind, _ in renders})
        request: messages.Render = {"op": "render", "renders": [list(entry) for entry in renders], "budget": seconds,
                                    "budgets": len(renders), "hook": " and ".join(f"render_{kind}" for kind in kinds)}
        if at_tag is None:
            return renderings_read(live, self.on_failure, await self._call(live, request), seconds)
        where = await self._resident(live)
        request["match"], request["tag"] = live.id, at_tag
        answer = await self._send(live, where.worker, request)
        if answer.get("error") == "unloaded":
            return None
        return renderings_read(live, self.on_failure, self._answer(live, answer), seconds)

    async def tagged_view_fields(self, live: Any, seat: int | None, listed: bool) -> tuple[bytes | None, int]:
        """``view_fields``, and the tag of the state they are of (``render``'s ``at_tag``)."""
        request: messages.ViewFields = {"op": "view_fields", "seat": seat, "listed": listed}
        answer: messages.EncodedViews = await self._call(live, request)
        return decode_shared(answer, answer.get("attached", ())).get(seat), request["tag"]

    async def replay_views(self, live: Any, moves: list[list[Any]], versions: list[int], seat: int | None,
                           undos: Sequence[list[int]] = ()) -> list[messages.PastView]:
        """The views of an over match at ``versions`` (ascending), replayed
        from its first state in a worker; nothing stays held. ``undos``:
        [undo version, version of the move it took back]."""
        record = live.record
        request: messages.ReplayViews = {"op": "replay_views", "seats": len(record.seats),
                                         "options": dict(record.options), "seed": record.seed, "moves": moves,
                                         "versions": versions, "seat": seat, "undos": list(undos)}
        answer: messages.PastViews = await self._stateless(live, request)
        return answer["views"]

    async def can_undo(self, live: Any, seat: int, move: Mapping[str, Any]) -> bool:
        """The game's word on taking back ``seat``'s ``move``, the last one played."""
        request: messages.CanUndo = {"op": "can_undo", "seat": seat, "move": dict(move)}
        answer: messages.UndoAllowed = await self._call(live, request)
        return answer["allowed"]

    async def timeout_ranking(self, live: Any, ran_out: Sequence[int]) -> list[int] | None:
        """The game's own timeout rule (``Game.timeout_ranking`` on the
        position, else a ``gamehost_clock_ran_out`` hook's), or None."""
        request: messages.TimeoutRanking = {"op": "timeout_ranking", "ran_out": list(ran_out),
                                            "seats": len(live.record.seats)}
        answer: messages.Ranking = await self._call(live, request)
        return answer["ranking"]

    async def resign_ranking(self, live: Any, resigned: Sequence[int]) -> list[int] | None:
        """A ``gamehost_seat_resigned`` hook's ranking for the match ending
        because the seats ``resigned`` resigned, or None."""
        request: messages.ResignRanking = {"op": "resign_ranking", "resigned": list(resigned),
                                           "seats": len(live.record.seats)}
        answer: messages.Ranking = await self._call(live, request)
        return answer["ranking"]

    async def rewind(self, live: Any, moves: list[list[Any]], version: int) -> Applied:
        """The position with a move taken back: the match set up again and
        ``moves`` ([version, seat, move], those that still stand) replayed;
        pending until committed, as an applied move is."""
        record = live.record
        tag = next(self._tags)
        request: messages.Rewind = {"op": "rewind", "seats": len(record.seats), "options": dict(record.options),
                                    "moves": moves, "new_tag": tag}
        answer: messages.Stepped = await self._call(live, request)
        return step_applied(answer, tag, version, (), self._parts)

    async def public_move(self, live: Any, seat: int, move: Mapping[str, Any], viewer: int | None
                          ) -> dict[str, Any] | None:
        request: messages.PublicMove = {"op": "public_move", "seat": seat, "move": move, "viewer": viewer}
        answer: messages.ShownMove = await self._stateless(live, request)
        return answer["move"]

    async def public_moves(self, live: Any, viewer: int | None, moves: list[tuple[int, Mapping[str, Any]]]
                           ) -> list[dict[str, Any] | None]:
        """``public_move`` of each (seat, move) of a log, in one call."""
        request: messages.PublicMoves = {"op": "public_moves", "moves": [[seat, move] for seat, move in moves],
                                         "viewer": viewer}
        answer: messages.ShownMoves = await self._stateless(live, request)
        return answer["moves"]
