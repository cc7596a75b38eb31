"""What the engine calls to run rules: one interface whether a game's rules
run in a worker process (the default) or in the host (trusted plugins, or
``--isolation off``). Where each match's state is held, and loaded again,
is the residences' (``residence.py``); the runner words the engine's calls
and reads their answers.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import structlog

from gamehost.host import errors
from gamehost.host.plugins import Catalog
from gamehost.host.workers import messages
from gamehost.host.workers.applied import Applied, listed_moves, step_applied
from gamehost.host.workers.budgets import RulesBudgets
from gamehost.host.workers.moves_on_wire import move_data, move_of
from gamehost.host.workers.placement import RulesPlacement
from gamehost.host.workers.residence import FailureHeard, Loader, MatchResidences
from gamehost.host.workers.resident import ResidentMatches
# The engine imports these from here: the runner is the workers' face to it.
from gamehost.host.workers.rules_errors import PLUGIN_ERROR, UnknownMoveId, renderings_read
from gamehost.host.workers.view_bytes import decode_shared
from gamehost.sdk.rules import Move, Part

__all__ = ["PLUGIN_ERROR", "Applied", "RulesBudgets", "RulesPlacement", "RulesRunner", "UnknownMoveId"]

log = structlog.get_logger("gamehost.rules")

class RulesRunner:
    """Built by the engine, with the two things the residences call back:
    ``loader`` reads a match's snapshot and log from the store,
    ``on_failure`` hears of each rules time-out or crash (a strike)."""

    def __init__(self, catalog: Catalog, placement: RulesPlacement, *, bots: Mapping[str, Any],
                 loader: Loader, on_failure: FailureHeard) -> None:
        self.catalog = catalog
        self.pool = placement.pool
        self.trusted = placement.trusted  # plugin names run in the host
        self.budgets = placement.budgets
        # The host's own table chooses with the host's bots (workers load their own).
        self.table = ResidentMatches(catalog.all_rules(), bots, on_wire=False,
                                     clock_rule=catalog.clock_rule(), resign_rule=catalog.resign_rule())
        self.isolated_games: frozenset[str] = frozenset()
        self._on_failure = on_failure
        self.residences = MatchResidences(self.pool, self.budgets, self.table, self.isolated, loader=loader,
                                          on_failure=on_failure)
        self._parts: dict[tuple[str, str], Part] = {}  # moves' parts, shared by the moves that name them

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

    # ------------------------------------------------------------ residence

    def suspect(self, match_id: str) -> None:
        """The match's rules failed (a strike is stored): from its next load
        on it is held in the quarantine worker."""
        self.residences.suspect(match_id)

    def forget(self, match_id: str) -> None:
        """The engine let go of the match: free its state where it is held."""
        self.residences.forget(match_id)

    def committed(self, live: Any, applied: Applied) -> None:
        """The step ``applied`` came from is in the store: its state is current."""
        self.residences.committed(live, applied)

    def known_to_move(self, live: Any) -> tuple[int, ...] | None:
        """The seats to move of the state the rules hold for the match, if
        an answer that made or read that very state told them; else None."""
        return self.residences.known_to_move(live)

    # ------------------------------------------------------------ rules calls

    async def setup(self, live: Any, seats: int, options: Mapping[str, Any]) -> tuple[Any, tuple[int, ...]]:
        """The first state of a new match, held from now on; its seats to move."""
        request: messages.Setup = {"op": "setup", "game": live.entry.rules_key, "match": live.id, "seats": seats,
                                   "options": dict(options), "seed": live.record.seed,
                                   "new_tag": self.residences.new_tag()}
        where, answer = await self.residences.settle(live, request, live.version)
        set_up: messages.SetUp = answer
        where.to_move = tuple(set_up["to_move"])
        return set_up["state"], where.to_move

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
        tag = self.residences.new_tag()
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
        answer: messages.Stepped = await self.residences.call(live, request)
        return step_applied(answer, tag, version, viewers, self._parts)

    async def advance(self, live: Any, events: list[dict[str, Any]]) -> None:
        """Catch the held state up with steps another replica committed."""
        await self.residences.catch_up(live, events)

    async def to_move(self, live: Any) -> tuple[int, ...]:
        known = self.known_to_move(live)
        if known is not None:
            return known
        request: messages.ToMove = {"op": "to_move"}
        answer: messages.SeatsToMove = await self.residences.call(live, request)
        to_move = tuple(answer["to_move"])
        self.residences.learned_to_move(live, request["tag"], to_move)
        return to_move

    async def legal_moves(self, live: Any, seat: int) -> tuple[Move, ...]:
        request: messages.LegalMoves = {"op": "legal_moves", "seat": seat}
        answer: messages.Listing = await self.residences.call(live, request)
        return listed_moves(answer["moves"], self._parts)

    async def view(self, live: Any, seat: int | None) -> dict[str, Any]:
        request: messages.View = {"op": "view", "seat": seat}
        answer: messages.ViewOf = await self.residences.call(live, request)
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
        answer: messages.EncodedViews = await self.residences.call(live, request)
        return {viewer: fields for viewer, fields in decode_shared(answer, answer.get("attached", ())).items()
                if viewer in viewers}

    async def state(self, live: Any) -> Any:
        request: messages.State = {"op": "state"}
        answer: messages.HeldState = await self.residences.call(live, request)
        return answer["state"]

    async def choose(self, live: Any, seat: int, bot: str, version: int, stream: str) -> tuple[Move | None, str | None]:
        """A bot's move for ``seat``; the second value says why the random
        bot chose instead, if it did."""
        live.log.debug("bot thinking", bot=bot, seat=seat)
        request: messages.Choose = {"op": "choose", "seat": seat, "bot": bot, "version": version, "stream": stream}
        answer: messages.Chosen = await self.residences.call(live, request)
        if answer.get("iterations") is not None:  # a search bot's: fewer when thinks share a worker
            live.log.info("bot thought", bot=bot, seat=seat, iterations=answer["iterations"])
        move = answer["move"]
        return (None if move is None else move_of(move)), answer.get("bot_failed")

    async def render_text(self, live: Any, view: Mapping[str, Any], locale: str | None = None) -> str:
        request: messages.RenderText = {"op": "render_text", "view": dict(view)}
        if locale is not None:
            request["locale"] = locale
        answer: messages.Text = await self.residences.stateless(live, request)
        return answer["text"]

    async def render_svg(self, live: Any, view: Mapping[str, Any], moves: Sequence[Move],
                         locale: str | None = None) -> str:
        request: messages.RenderSvg = {"op": "render_svg", "view": dict(view), "moves": [move_data(m) for m in moves]}
        if locale is not None:
            request["locale"] = locale
        answer: messages.Svg = await self.residences.stateless(live, request)
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
            return renderings_read(live, self._on_failure, await self.residences.call(live, request), seconds)
        answer = await self.residences.call_at(live, request, at_tag)
        return None if answer is None else renderings_read(live, self._on_failure, answer, seconds)

    async def tagged_view_fields(self, live: Any, seat: int | None, listed: bool) -> tuple[bytes | None, int]:
        """``view_fields``, and the tag of the state they are of (``render``'s ``at_tag``)."""
        request: messages.ViewFields = {"op": "view_fields", "seat": seat, "listed": listed}
        answer: messages.EncodedViews = await self.residences.call(live, request)
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
        answer: messages.PastViews = await self.residences.stateless(live, request)
        return answer["views"]

    async def can_undo(self, live: Any, seat: int, move: Mapping[str, Any]) -> bool:
        """The game's word on taking back ``seat``'s ``move``, the last one played."""
        request: messages.CanUndo = {"op": "can_undo", "seat": seat, "move": dict(move)}
        answer: messages.UndoAllowed = await self.residences.call(live, request)
        return answer["allowed"]

    async def timeout_ranking(self, live: Any, ran_out: Sequence[int]) -> list[int] | None:
        """The game's own timeout rule (``Game.timeout_ranking`` on the
        position, else a ``gamehost_clock_ran_out`` hook's), or None."""
        request: messages.TimeoutRanking = {"op": "timeout_ranking", "ran_out": list(ran_out),
                                            "seats": len(live.record.seats)}
        answer: messages.Ranking = await self.residences.call(live, request)
        return answer["ranking"]

    async def resign_ranking(self, live: Any, resigned: Sequence[int]) -> list[int] | None:
        """A ``gamehost_seat_resigned`` hook's ranking for the match ending
        because the seats ``resigned`` resigned, or None."""
        request: messages.ResignRanking = {"op": "resign_ranking", "resigned": list(resigned),
                                           "seats": len(live.record.seats)}
        answer: messages.Ranking = await self.residences.call(live, request)
        return answer["ranking"]

    async def rewind(self, live: Any, moves: list[list[Any]], version: int) -> Applied:
        """The position with a move taken back: the match set up again and
        ``moves`` ([version, seat, move], those that still stand) replayed;
        pending until committed, as an applied move is."""
        record = live.record
        tag = self.residences.new_tag()
        request: messages.Rewind = {"op": "rewind", "seats": len(record.seats), "options": dict(record.options),
                                    "moves": moves, "new_tag": tag}
        answer: messages.Stepped = await self.residences.call(live, request)
        return step_applied(answer, tag, version, (), self._parts)

    async def public_move(self, live: Any, seat: int, move: Mapping[str, Any], viewer: int | None
                          ) -> dict[str, Any] | None:
        request: messages.PublicMove = {"op": "public_move", "seat": seat, "move": move, "viewer": viewer}
        answer: messages.ShownMove = await self.residences.stateless(live, request)
        return answer["move"]

    async def public_moves(self, live: Any, viewer: int | None, moves: list[tuple[int, Mapping[str, Any]]]
                           ) -> list[dict[str, Any] | None]:
        """``public_move`` of each (seat, move) of a log, in one call."""
        request: messages.PublicMoves = {"op": "public_moves", "moves": [[seat, move] for seat, move in moves],
                                         "viewer": viewer}
        answer: messages.ShownMoves = await self.residences.stateless(live, request)
        return answer["moves"]
