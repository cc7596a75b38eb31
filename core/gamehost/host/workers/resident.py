"""The matches a rules process holds in memory, and the operations on them.

The same table serves a worker process (requests decoded from the wire) and
the host itself for trusted plugins (requests passed as they are). Requests
and answers are the messages of messages.py: plain data (dicts, lists,
strings and numbers), each op answered by its handler in ``handle``'s table.

A state is known by a *tag* the host chose. ``apply`` keeps its new state
as *pending* under a new tag: the host commits the step to the store first,
and its first request naming that tag promotes it. A commit that failed
leaves the pending state unused until the next ``apply`` replaces it. So a
move costs one round trip, and a refused commit leaves the held state as it
was. The state before the last promotion stays too, for reads the host sent
just before it took the step.
"""

from __future__ import annotations

import math
import time
from typing import Any, Callable, Iterable, Mapping, Sequence, cast

from gamehost.host.workers import messages, wire
from gamehost.host.workers.choosing import Choosing
from gamehost.host.workers.history import MatchHistory
from gamehost.host.workers.messages import Answer, Request
from gamehost.host.workers.moves_on_wire import move_data, move_of, outcome_data
from gamehost.sdk.i18n import ENGLISH_TRANSLATOR, Translator, catalogues_of, message_of, translating
from gamehost.host.workers.plugin_calls import PluginFailed, call_plugin
from gamehost.host.workers.reveals import step_revealed
from gamehost.host.workers.view_bytes import ViewEncoder
from gamehost.sdk.chance import rng_for
from gamehost.sdk.replay import RecordedMove, replay
from gamehost.sdk.rules import IllegalMove, InvalidOptions, MalformedMove, Move


class Unloaded(Exception):
    """The match is not held here, or not at the tag asked for."""


class HeldMatch:
    __slots__ = ("game", "seed", "state", "tag", "pending", "previous", "moves")

    def __init__(self, game: Any, seed: int, state: Any, tag: int) -> None:
        self.game = game
        self.seed = seed
        self.state = state
        self.tag = tag
        self.pending: tuple[int, Any, dict[int, list[Move]]] | None = None
        self.previous: tuple[int, Any] | None = None
        self.moves: dict[int, list[Move]] = {}  # legal moves of the current state, by seat, once listed


# A step from the held state: never of the state before it (a read may be).
STEPS = frozenset(messages.op_of(request) for request in (messages.Apply, messages.Advance, messages.Rewind))
# The plugin may have damaged the state in place: the match is let go.
DAMAGING = frozenset(messages.op_of(request) for request in (messages.Apply, messages.Advance, messages.Load))


class ResidentMatches:
    def __init__(self, games: Mapping[str, Any], bots: Mapping[str, Any], *, on_wire: bool = True,
                 clock_rule: Callable[..., Any] | None = None, resign_rule: Callable[..., Any] | None = None,
                 slices: bool = False) -> None:
        self.games = games  # rules key ("game@version", plugins.rules_key) -> Game
        self.bots = bots  # bot name -> Bot
        self.clock_rule = clock_rule  # the plugins' gamehost_clock_ran_out hook, if any implements it
        self.resign_rule = resign_rule  # the plugins' gamehost_seat_resigned hook, if any implements it
        self.held: dict[str, HeldMatch] = {}
        self.slices = slices  # a search bot's choice is answered as a Choosing, run by the caller in slices
        # In the host's own table the answers are never encoded: legal moves
        # go out as the plugin's Move objects, not rebuilt from lists.
        self.on_wire = on_wire
        self.move_out: Callable[[Move], Any] = move_data if on_wire else (lambda move: move)
        self.encoder = ViewEncoder()  # views as the View's protobuf fields, when the host asks ("encode")
        self.history = MatchHistory(games)
        self._handlers: dict[str, Callable[[Any], Answer | Choosing]] = messages.handlers({
            messages.Hello: self._hello,
            messages.Setup: self._setup,
            messages.Load: self._load,
            messages.Advance: self._advance,
            messages.Apply: self._apply,
            messages.Rewind: self._rewind,
            messages.CanUndo: self._can_undo,
            messages.TimeoutRanking: self._timeout_ranking,
            messages.ResignRanking: self._resign_ranking,
            messages.ViewFields: self._view_fields,
            messages.ViewsFields: self._views_fields,
            messages.ToMove: self._seats_to_move,
            messages.LegalMoves: self._legal_moves,
            messages.View: self._view,
            messages.State: self._state,
            messages.Render: self._render,
            messages.RenderText: self._render_text,
            messages.RenderSvg: self._render_svg,
            messages.PublicMove: self.history.public_move,
            messages.PublicMoves: self.history.public_moves,
            messages.Choose: self._choose,
            messages.ReplayViews: self.history.replay_views,
            messages.Drop: self._drop,
        })

    def handle(self, request: Request) -> Answer | Choosing:
        """Answer one request; rules failures become error answers."""
        op = request["op"]
        try:
            return self._handlers[op](request)
        except Unloaded:
            return {"error": "unloaded"}
        except InvalidOptions as refusal:
            return {"error": "options", "field": refusal.field, "reason": refusal.reason}
        except MalformedMove as refusal:
            return {"error": "malformed", "reason": refusal.reason, "rule": refusal.rule,
                    "reason_text": message_of(refusal.reason)}
        except IllegalMove as refusal:
            return {"error": "illegal", "reason": refusal.reason, "rule": refusal.rule,
                    "reason_text": message_of(refusal.reason)}
        except PluginFailed as failure:
            if op in DAMAGING:
                self.held.pop(cast(Mapping[str, Any], request)["match"], None)  # each of them names its match
            return {"error": "plugin", "hook": failure.hook, "message": str(failure)}

    # ------------------------------------------------------------ helpers

    def held_match(self, request: messages.HeldRequest) -> HeldMatch:
        """The match ``request`` is about, at the state its tag names (a
        pending step becomes the current one when the tag names it); Unloaded
        when that state is not held here."""
        held = self.held.get(request["match"])
        if held is None:
            raise Unloaded()
        tag = request["tag"]
        if held.tag == tag:
            return held
        if held.pending is not None and held.pending[0] == tag:
            held.previous = (held.tag, held.state)
            held.tag, held.state, held.moves = held.pending
            held.pending = None
            return held
        if held.previous is not None and held.previous[0] == tag and request["op"] not in STEPS:
            return HeldMatch(held.game, held.seed, held.previous[1], tag)  # a read of the step before
        raise Unloaded()

    def _to_move(self, held: HeldMatch) -> list[int]:
        return [int(s) for s in call_plugin("to_move", held.game.to_move, held.state)]

    def _moves(self, held: HeldMatch, seat: int) -> list[Move]:
        """The current state's legal moves for ``seat``, listed once: a bot's
        choice after a move needs the list the move's answer carried."""
        moves = held.moves.get(seat)
        if moves is None:
            moves = held.moves[seat] = list(call_plugin("legal_moves", held.game.legal_moves, held.state, seat))
        return moves

    # ------------------------------------------------------------ operations

    def _hello(self, request: messages.Hello) -> messages.Catalogue:
        return {"games": sorted(self.games), "bots": sorted(self.bots)}

    def _setup(self, request: messages.Setup) -> messages.SetUp:
        game = self.games[request["game"]]
        try:
            state = game.setup(request["seats"], request["options"], rng_for(request["seed"], 0))
        except InvalidOptions:
            raise
        except MemoryError:
            raise
        except Exception as error:
            raise PluginFailed("setup", error) from None
        held = HeldMatch(game, request["seed"], state, request["new_tag"])
        to_move = self._to_move(held)
        self.held[request["match"]] = held
        return {"state": state, "to_move": to_move}

    def _load(self, request: messages.Load) -> messages.Loaded:
        game = self.games[request["game"]]
        moves = [RecordedMove(v, seat, args) for v, seat, args in request["moves"]]
        try:
            state = replay(game, request["state"], request["seed"], moves)
        except MemoryError:
            raise
        except Exception as error:
            raise PluginFailed("apply (replaying the log)", error) from None
        held = HeldMatch(game, request["seed"], state, request["new_tag"])
        self.held[request["match"]] = held
        return {"to_move": self._to_move(held) if request.get("active") else []}

    def _advance(self, request: messages.Advance) -> messages.Done:
        held = self.held_match(request)
        moves = [RecordedMove(v, seat, args) for v, seat, args in request["moves"]]
        try:
            held.state = replay(held.game, held.state, held.seed, moves)
        except MemoryError:
            raise
        except Exception as error:
            raise PluginFailed("apply (catching up)", error) from None
        held.tag, held.pending, held.previous, held.moves = request["new_tag"], None, None, {}
        return {}

    def _apply(self, request: messages.Apply) -> messages.Stepped | messages.UnknownMove:
        held = self.held_match(request)
        game = held.game
        seat = request["seat"]
        played = None
        if request.get("move_id"):  # a move named by its id: resolved against the listing held here
            played = next((m for m in self._moves(held, seat) if m.id == request["move_id"]), None)
            if played is None:
                return {"error": "unknown_move"}
            move = played.args
        else:
            move = request["move"]
        try:
            state = game.apply(held.state, seat, move, rng_for(held.seed, request["version"]))
        except IllegalMove:
            raise
        except MemoryError:
            raise
        except Exception as error:
            raise PluginFailed("apply", error) from None
        revealed = step_revealed(game, held.state, seat, move, state)
        encode = request.get("encode", False)
        answer, listed = self._position(game, state, listing=not encode)
        if revealed:
            answer["revealed"] = revealed
        if played is not None:
            answer["played"] = self.move_out(played)
        if answer["outcome"] is not None or request.get("want_state"):
            answer["state"] = state
        views = request.get("views")
        if views and encode:
            answer["encoded"] = self._encoded_after(game, state, views, answer.get("to_move", ()), listed)
        if views and not encode:
            answer["views"] = self._views_after(game, state, views)
        held.pending = (request["new_tag"], state, listed)
        return answer
    def _position(self, game: Any, state: Any, listing: bool = True) -> tuple[messages.Stepped, dict[int, list[Move]]]:
        """What a step's answer tells of a new state: its outcome, else the
        seats to move and their legal moves (kept, listed; in the answer
        unless ``listing`` is False: the host that asks for encoded views
        resolves moves by id here and lists them only when it needs them)."""
        outcome = outcome_data(call_plugin("outcome", game.outcome, state))
        answer: messages.Stepped = {"outcome": outcome}
        listed: dict[int, list[Move]] = {}
        if outcome is None:
            to_move = [int(s) for s in call_plugin("to_move", game.to_move, state)]
            answer["to_move"] = to_move
            moves: dict[str, list[Any]] = {}
            answer["moves"] = moves
            for seat in to_move:
                try:
                    listed[seat] = list(call_plugin("legal_moves", game.legal_moves, state, seat))
                except PluginFailed:  # the move stands; the error comes when the moves are asked for
                    continue
                if listing:
                    moves[str(seat)] = [self.move_out(m) for m in listed[seat]]
        return answer, listed

    def _can_undo(self, request: messages.CanUndo) -> messages.UndoAllowed:
        """Whether the game lets the last move (``seat`` played ``move``) be taken back."""
        held = self.held_match(request)
        allowed = call_plugin("can_undo", held.game.can_undo, held.state, request["seat"], request["move"])
        return {"allowed": bool(allowed)}

    def _timeout_ranking(self, request: messages.TimeoutRanking) -> messages.Ranking:
        """The game's ranking when the clocks of ``ran_out`` run out now
        (``Game.timeout_ranking``, else a ``gamehost_clock_ran_out`` hook's),
        or None. The hook runs here too, under the same budget: it is
        plugin code, and the host's loop must not wait on it."""
        held = self.held_match(request)
        ran_out = [int(seat) for seat in request["ran_out"]]
        hook = "timeout_ranking"
        ranking = call_plugin(hook, held.game.timeout_ranking, held.state, ran_out)
        clock_rule = self.clock_rule
        if ranking is None and clock_rule is not None:
            hook = "gamehost_clock_ran_out"
            ranking = call_plugin(hook, lambda: clock_rule(
                game_id=held.game.id, seats=int(request["seats"]), ran_out=ran_out))
        if ranking is None:
            return {"ranking": None}
        return {"ranking": call_plugin(hook, lambda: [int(place) for place in ranking])}

    def _resign_ranking(self, request: messages.ResignRanking) -> messages.Ranking:
        """The ranking a ``gamehost_seat_resigned`` hook gives a match
        ending because the seats ``resigned`` resigned, or None. Here, under
        the rules budget, as the timeout rule: it is plugin code."""
        held = self.held_match(request)
        resign_rule = self.resign_rule
        if resign_rule is None:
            return {"ranking": None}
        hook = "gamehost_seat_resigned"
        resigned = [int(seat) for seat in request["resigned"]]
        ranking = call_plugin(hook, lambda: resign_rule(game_id=held.game.id, seats=int(request["seats"]),
                                                        resigned=resigned))
        if ranking is None:
            return {"ranking": None}
        return {"ranking": call_plugin(hook, lambda: [int(place) for place in ranking])}

    def _rewind(self, request: messages.Rewind) -> messages.Stepped:
        """The position once a move is taken back: set up from the seed and
        the moves that still stand replayed, each with its own version's
        chance (so it is exactly the position before that move). Held as
        pending, like an applied move, until the step is committed."""
        held = self.held_match(request)
        game, seed = held.game, held.seed
        moves = [RecordedMove(v, seat, args) for v, seat, args in request["moves"]]
        try:
            state = replay(game, game.setup(request["seats"], request["options"], rng_for(seed, 0)), seed, moves)
        except MemoryError:
            raise
        except Exception as error:
            raise PluginFailed("apply (taking a move back)", error) from None
        answer, listed = self._position(game, state)
        answer["state"] = state
        held.pending = (request["new_tag"], state, listed)
        return answer

    def _views_after(self, game: Any, state: Any, viewers: Iterable[int | None]) -> list[list[Any]]:
        """The new state as each of ``viewers`` (a seat, or None: a spectator)
        sees it, in the same answer as the move (one round trip for the step
        and its watchers' views). A failing view is left out: the move stands,
        and the error comes when that view is asked for."""
        views: list[list[Any]] = []
        for viewer in viewers:
            try:
                views.append([viewer, dict(call_plugin("view", game.view, state, viewer))])
            except PluginFailed:
                continue
        return views

    def _encoded_after(self, game: Any, state: Any, viewers: Iterable[int | None], to_move: Sequence[int],
                       listed: dict[int, list[Move]]) -> messages.EncodedViews:
        """``_views_after`` encoded as each viewer's View fields
        (view_bytes.py): a seat to move gets its legal moves with its view.
        A view that fails, or a seat to move whose listing failed, is left
        out, as is one the encoding does not take: the move stands, and the
        host asks for that view when it needs it."""
        encoded: list[tuple[int | None, bytes]] = []
        for viewer in viewers:
            if viewer in to_move and viewer not in listed:
                continue
            try:
                view = call_plugin("view", game.view, state, viewer)
            except PluginFailed:
                continue
            moves = listed.get(viewer, ()) if viewer is not None and viewer in to_move else ()
            fields = self.encoder.fields(view, moves)
            if fields is not None:
                encoded.append((viewer, fields))
        return self.encoder.shared(encoded)

    def _view_fields(self, request: messages.ViewFields) -> messages.EncodedViews:
        """The viewer's View fields (view_bytes.py), with the seat's legal
        moves when the host says it is to move (``listed``), as
        ``ViewEncoder.shared`` answers them: none when the encoding does not
        take this view."""
        held = self.held_match(request)
        seat = request["seat"]
        view = call_plugin("view", held.game.view, held.state, seat)
        fields = self.encoder.fields(view, self._moves(held, seat) if request["listed"] and seat is not None else ())
        return self.encoder.shared([] if fields is None else [(seat, fields)])

    def _views_fields(self, request: messages.ViewsFields) -> messages.EncodedViews:
        """``view_fields`` of several viewers at once (a watched match's
        every seat and its spectators, as a move's answer brings them):
        ``listed`` names the seats the host says are to move. What fails is
        left out, as after a move; the host asks for that view alone."""
        held = self.held_match(request)
        to_move = request["listed"]
        listed: dict[int, list[Move]] = {}
        for seat in to_move:
            try:
                listed[seat] = self._moves(held, seat)
            except PluginFailed:
                continue
        return self._encoded_after(held.game, held.state, request["viewers"], to_move, listed)

    def _seats_to_move(self, request: messages.ToMove) -> messages.SeatsToMove:
        return {"to_move": self._to_move(self.held_match(request))}

    def _legal_moves(self, request: messages.LegalMoves) -> messages.Listing:
        held = self.held_match(request)
        return {"moves": [self.move_out(m) for m in self._moves(held, request["seat"])]}

    def _view(self, request: messages.View) -> messages.ViewOf:
        held = self.held_match(request)
        return {"view": dict(call_plugin("view", held.game.view, held.state, request["seat"]))}

    def _state(self, request: messages.State) -> messages.HeldState:
        return {"state": self.held_match(request).state}

    def _render_text(self, request: messages.RenderText) -> messages.Text:
        game = self.games[request["game"]]
        with translating(_translator(game, request.get("locale"))):
            return {"text": str(call_plugin("render_text", game.render_text, request["view"]))}

    def _render_svg(self, request: messages.RenderSvg) -> messages.Svg:
        game = self.games[request["game"]]
        moves = [move_of(data) for data in request["moves"]]
        with translating(_translator(game, request.get("locale"))):
            return {"svg": str(call_plugin("render_svg", game.render_svg, request["view"], moves))}

    def view_as_sent(self, held: HeldMatch, viewer: int | None) -> dict[str, Any]:
        """The viewer's view as a worker's answer brings it to the host (which
        renders from what it received): through JSON, refused as the worker
        refuses an answer that is not JSON-shaped."""
        view = dict(call_plugin("view", held.game.view, held.state, viewer))
        if not self.on_wire:
            return view
        try:
            return wire.through(view)
        except (TypeError, ValueError) as error:
            raise PluginFailed("view", error, f"answer is not JSON-shaped: {error}") from None

    RENDERERS = {"text": "render_text", "svg": "render_svg"}

    def _render(self, request: messages.Render) -> messages.Renderings:
        """Renderings of the held state, each from
        its viewer's view only: ``renders`` lists [viewer, kind ("text" or
        "svg"), listed] (``listed``: the seat is to move, so its legal moves
        go to ``render_svg``). Each distinct text is answered once
        (``texts``; ``of``: [viewer, kind, its index in texts]). A renderer
        (or the view or listing it needs) that raises, or that took longer
        than ``budget`` seconds, fails its own entry only (``failed``:
        [viewer, kind, hook, message]; ``overran``: [viewer, kind, hook,
        seconds]): one viewer's picture must not cost the others theirs."""
        held = self.held_match(request)
        index: dict[str, int] = {}
        of: list[list[Any]] = []
        failed: list[list[Any]] = []
        overran: list[list[Any]] = []
        views: dict[Any, dict[str, Any]] = {}  # one view per viewer, whatever it renders
        budget = request["budget"]
        for viewer, kind, listed in request["renders"]:
            hook = self.RENDERERS[kind]
            started = time.monotonic()
            try:
                if viewer not in views:
                    views[viewer] = self.view_as_sent(held, viewer)
                if kind == "text":
                    text = str(call_plugin(hook, held.game.render_text, views[viewer]))
                else:
                    moves = self._moves(held, viewer) if listed else []
                    text = str(call_plugin(hook, held.game.render_svg, views[viewer], list(moves)))
            except PluginFailed as failure:
                failed.append([viewer, kind, failure.hook, str(failure)])
                continue
            spent = time.monotonic() - started
            if spent > budget:
                overran.append([viewer, kind, hook, spent])
                continue
            of.append([viewer, kind, index.setdefault(text, len(index))])
        return {"texts": list(index), "of": of, "failed": failed, "overran": overran}

    def _choose(self, request: messages.Choose) -> messages.Chosen | Choosing:
        """The bot's move for a seat, or the random bot's when the named one
        fails or offers a move that is not legal. A table that ``slices``
        answers a bot's choice as a ``Choosing`` for its caller to run in
        slices (the random bot's apart); otherwise the choice is made whole,
        here."""
        held = self.held_match(request)
        seat = request["seat"]
        moves = list(self._moves(held, seat))  # a copy: a bot may reorder what it is given
        if not moves:
            return {"move": None}
        rng = rng_for(held.seed, request["version"], request["stream"])
        bot = self.bots.get(request["bot"]) or self.bots["random"]
        choosing = Choosing(held.game, held.state, seat, moves, rng, bot, self.bots["random"], slices=self.slices)
        if self.slices and choosing.sliced:
            return choosing
        chosen = choosing.run(math.inf)
        assert chosen is not None  # without a deadline the choice is made
        return chosen

    def _drop(self, request: messages.Drop) -> messages.Done:
        self.held.pop(request["match"], None)
        return {}


def _translator(game: Any, locale: str | None) -> Translator:
    """The words of ``game``'s pictures in ``locale`` (a language the host negotiated from the game's own)."""
    return ENGLISH_TRANSLATOR if locale is None else catalogues_of(game).translator(locale)
