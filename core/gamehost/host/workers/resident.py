"""The matches a rules process holds in memory, and the operations on them.

The same table serves a worker process (requests decoded from the wire) and
the host itself for trusted plugins (requests passed as they are). Requests
and answers are plain data: dicts, lists, strings and numbers.

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
from typing import Any, Callable, Mapping

from gamehost.host.workers import wire
from gamehost.host.workers.choice_thread import ChoiceInThread
from gamehost.host.workers.view_bytes import ViewEncoder
from gamehost.sdk.chance import rng_for
from gamehost.sdk.replay import RecordedMove, replay
from gamehost.sdk.rules import IllegalMove, InvalidOptions, MalformedMove, Move, Part


class Unloaded(Exception):
    """The match is not held here, or not at the tag asked for."""


class PluginFailed(Exception):
    def __init__(self, hook: str, error: BaseException, message: str = "") -> None:
        super().__init__(message or f"{type(error).__name__}: {error}")
        self.hook = hook


def move_data(move: Move) -> list:
    """A move on the wire: [id, label, args], and its parts as [[id, label], ...] when it has any."""
    data = [move.id, move.label, dict(move.args)]
    if move.parts:
        data.append([[part.id, part.label] for part in move.parts])
    return data


MAX_PARTS_SHARED = 1 << 16  # distinct parts a table keeps; a plugin inventing endless parts only empties it


def move_of(data: list, parts: dict[tuple[str, str], Part] | None = None) -> Move:
    """The move ``move_data`` encoded. ``parts``: a table of parts already
    built, shared between moves (a game's hundreds of moves name the same few
    pieces and cells again and again; building each anew was most of a
    Callisto listing's cost in the host)."""
    if len(data) <= 3:
        return Move(data[0], data[1], data[2])
    if parts is None:
        return Move(data[0], data[1], data[2], tuple([Part(i, label) for i, label in data[3]]))
    built = []
    for i, label in data[3]:
        key = (i, label)
        part = parts.get(key)
        if part is None:
            if len(parts) >= MAX_PARTS_SHARED:
                parts.clear()
            part = parts[key] = Part(i, label)
        built.append(part)
    return Move(data[0], data[1], data[2], tuple(built))


def outcome_data(outcome) -> dict | None:
    if outcome is None:
        return None
    return {"scores": [float(s) for s in outcome.scores], "ranking": [int(r) for r in outcome.ranking],
            "winners": outcome.winners, "summary": outcome.summary}


class HeldMatch:
    __slots__ = ("game", "seed", "state", "tag", "pending", "previous", "moves")

    def __init__(self, game, seed: int, state: Any, tag: int) -> None:
        self.game = game
        self.seed = seed
        self.state = state
        self.tag = tag
        self.pending: tuple[int, Any, dict] | None = None
        self.previous: tuple[int, Any] | None = None
        self.moves: dict[int, list[Move]] = {}  # legal moves of the current state, by seat, once listed


class Choosing:
    """A bot's choice in progress. A bot with ``think`` (the SDK's search
    bots) searches in slices, ``run(until)`` each, so the worker holding it
    answers other calls in between. Any other bot's ``choose`` runs whole in
    one ``run``, or, where the caller ``slices`` (a worker), in a thread of
    its own that each ``run`` waits on. A bot that raises or offers a move
    that is not legal is replaced by the random bot for this move."""

    def __init__(self, held: HeldMatch, seat: int, moves: list[Move], rng, bot, fallback, *,
                 slices: bool = False) -> None:
        self.held, self.seat, self.moves, self.rng, self.bot, self.fallback = held, seat, moves, rng, bot, fallback
        self.think = None
        self.failure: str | None = None
        if hasattr(bot, "think"):
            try:
                self.think = bot.think(held.game, held.state, seat, moves, rng)
            except MemoryError:
                raise
            except Exception as error:
                self.failure = f"{type(error).__name__}: {error}"
        elif slices and bot is not fallback:  # the random bot chooses at once: no thread for it
            self.think = ChoiceInThread(bot, held.game, held.state, seat, moves, rng)

    @property
    def sliced(self) -> bool:
        return self.think is not None

    def run(self, until: float) -> dict | None:
        """Go on until the monotonic time ``until``; the answer once chosen, else None."""
        held = self.held
        choice = None
        if self.failure is None:
            try:
                if self.think is None:
                    choice = self.bot.choose(held.game, held.state, self.seat, self.moves, self.rng)
                elif not self.think.run(until):
                    return None
                else:
                    choice = self.think.choice()
                if choice not in self.moves:
                    raise ValueError(f"it chose {getattr(choice, 'id', choice)!r}, which is not a legal move")
            except MemoryError:
                raise
            except Exception as error:
                self.failure = f"{type(error).__name__}: {error}"
        if self.failure is not None:
            choice = self.fallback.choose(held.game, held.state, self.seat, self.moves, self.rng)
        answer = {"move": move_data(choice), "bot_failed": self.failure}
        if self.think is not None:
            answer["iterations"] = getattr(self.think, "iterations", None)
        return answer


class ResidentMatches:
    def __init__(self, games: Mapping[str, Any], bots: Mapping[str, Any], *, on_wire: bool = True,
                 clock_rule: Callable[..., Any] | None = None, slices: bool = False) -> None:
        self.games = games  # rules key ("game@version", plugins.rules_key) -> Game
        self.bots = bots  # bot name -> Bot
        self.clock_rule = clock_rule  # the plugins' gamehost_clock_ran_out hook, if any implements it
        self.held: dict[str, HeldMatch] = {}
        self.slices = slices  # a search bot's choice is answered as a Choosing, run by the caller in slices
        # In the host's own table the answers are never encoded: legal moves
        # go out as the plugin's Move objects, not rebuilt from lists.
        self.on_wire = on_wire
        self.move_out = move_data if on_wire else (lambda move: move)
        self.encoder = ViewEncoder()  # views as the View's protobuf fields, when the host asks ("encode")

    def handle(self, request: dict) -> dict:
        """Answer one request; rules failures become error answers."""
        op = request["op"]
        try:
            return getattr(self, f"_op_{op}")(request)
        except Unloaded:
            return {"error": "unloaded"}
        except InvalidOptions as refusal:
            return {"error": "options", "field": refusal.field, "reason": refusal.reason}
        except MalformedMove as refusal:
            return {"error": "malformed", "reason": refusal.reason, "rule": refusal.rule}
        except IllegalMove as refusal:
            return {"error": "illegal", "reason": refusal.reason, "rule": refusal.rule}
        except PluginFailed as failure:
            if op in ("apply", "advance", "load"):  # the plugin may have damaged the state in place
                self.held.pop(request["match"], None)
            return {"error": "plugin", "hook": failure.hook, "message": str(failure)}

    # ------------------------------------------------------------ helpers

    def _match(self, request: dict) -> HeldMatch:
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
        if (held.previous is not None and held.previous[0] == tag
                and request["op"] not in ("apply", "advance", "rewind")):
            return HeldMatch(held.game, held.seed, held.previous[1], tag)  # a read of the step before
        raise Unloaded()

    @staticmethod
    def _call(hook: str, function, *args):
        try:
            return function(*args)
        except (IllegalMove, InvalidOptions):
            raise
        except MemoryError:
            raise
        except Exception as error:
            raise PluginFailed(hook, error) from None

    def _to_move(self, held: HeldMatch) -> list[int]:
        return [int(s) for s in self._call("to_move", held.game.to_move, held.state)]

    def _moves(self, held: HeldMatch, seat: int) -> list[Move]:
        """The current state's legal moves for ``seat``, listed once: a bot's
        choice after a move needs the list the move's answer carried."""
        moves = held.moves.get(seat)
        if moves is None:
            moves = held.moves[seat] = list(self._call("legal_moves", held.game.legal_moves, held.state, seat))
        return moves

    # ------------------------------------------------------------ operations

    def _op_hello(self, request: dict) -> dict:
        return {"games": sorted(self.games), "bots": sorted(self.bots)}

    def _op_setup(self, request: dict) -> dict:
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

    def _op_load(self, request: dict) -> dict:
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

    def _op_advance(self, request: dict) -> dict:
        held = self._match(request)
        moves = [RecordedMove(v, seat, args) for v, seat, args in request["moves"]]
        try:
            held.state = replay(held.game, held.state, held.seed, moves)
        except MemoryError:
            raise
        except Exception as error:
            raise PluginFailed("apply (catching up)", error) from None
        held.tag, held.pending, held.previous, held.moves = request["new_tag"], None, None, {}
        return {}

    def _op_apply(self, request: dict) -> dict:
        held = self._match(request)
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
        encode = request.get("encode", False)
        answer, listed = self._position(game, state, listing=not encode)
        if played is not None:
            answer["played"] = self.move_out(played)
        if answer["outcome"] is not None or request.get("want_state"):
            answer["state"] = state
        if request.get("views") and encode:
            answer["encoded"] = self._encoded_after(game, state, request["views"], answer.get("to_move", ()), listed)
        if request.get("views") and not encode:
            answer["views"] = self._views_after(game, state, request["views"])
        held.pending = (request["new_tag"], state, listed)
        return answer

    def _position(self, game, state: Any, listing: bool = True) -> tuple[dict[str, Any], dict[int, list[Move]]]:
        """What a step's answer tells of a new state: its outcome, else the
        seats to move and their legal moves (kept, listed; in the answer
        unless ``listing`` is False: the host that asks for encoded views
        resolves moves by id here and lists them only when it needs them)."""
        outcome = outcome_data(self._call("outcome", game.outcome, state))
        answer: dict[str, Any] = {"outcome": outcome}
        listed: dict[int, list[Move]] = {}
        if outcome is None:
            to_move = [int(s) for s in self._call("to_move", game.to_move, state)]
            answer["to_move"] = to_move
            answer["moves"] = moves = {}
            for seat in to_move:
                try:
                    listed[seat] = list(self._call("legal_moves", game.legal_moves, state, seat))
                except PluginFailed:  # the move stands; the error comes when the moves are asked for
                    continue
                if listing:
                    moves[str(seat)] = [self.move_out(m) for m in listed[seat]]
        return answer, listed

    def _op_can_undo(self, request: dict) -> dict:
        """Whether the game lets the last move (``seat`` played ``move``) be taken back."""
        held = self._match(request)
        allowed = self._call("can_undo", held.game.can_undo, held.state, request["seat"], request["move"])
        return {"allowed": bool(allowed)}

    def _op_timeout_ranking(self, request: dict) -> dict:
        """The game's ranking when the clocks of ``ran_out`` run out now
        (``Game.timeout_ranking``, else a ``gamehost_clock_ran_out`` hook's),
        or None. The hook runs here too, under the same budget: it is
        plugin code, and the host's loop must not wait on it."""
        held = self._match(request)
        ran_out = [int(seat) for seat in request["ran_out"]]
        hook = "timeout_ranking"
        ranking = self._call(hook, held.game.timeout_ranking, held.state, ran_out)
        if ranking is None and self.clock_rule is not None:
            hook = "gamehost_clock_ran_out"
            ranking = self._call(hook, lambda: self.clock_rule(
                game_id=held.game.id, seats=int(request["seats"]), ran_out=ran_out))
        if ranking is None:
            return {"ranking": None}
        return {"ranking": self._call(hook, lambda: [int(place) for place in ranking])}

    def _op_rewind(self, request: dict) -> dict:
        """The position once a move is taken back: set up from the seed and
        the moves that still stand replayed, each with its own version's
        chance (so it is exactly the position before that move). Held as
        pending, like an applied move, until the step is committed."""
        held = self._match(request)
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

    def _views_after(self, game, state, viewers: list) -> list:
        """The new state as each of ``viewers`` (a seat, or None: a spectator)
        sees it, in the same answer as the move (one round trip for the step
        and its watchers' views). A failing view is left out: the move stands,
        and the error comes when that view is asked for."""
        views = []
        for viewer in viewers:
            try:
                views.append([viewer, dict(self._call("view", game.view, state, viewer))])
            except PluginFailed:
                continue
        return views

    def _encoded_after(self, game, state, viewers: list, to_move, listed: dict[int, list[Move]]) -> dict:
        """``_views_after`` encoded as each viewer's View fields
        (view_bytes.py): a seat to move gets its legal moves with its view.
        A view that fails, or a seat to move whose listing failed, is left
        out, as is one the encoding does not take: the move stands, and the
        host asks for that view when it needs it."""
        encoded = []
        for viewer in viewers:
            if viewer in to_move and viewer not in listed:
                continue
            try:
                view = self._call("view", game.view, state, viewer)
            except PluginFailed:
                continue
            fields = self.encoder.fields(view, listed.get(viewer, ()) if viewer in to_move else ())
            if fields is not None:
                encoded.append((viewer, fields))
        return self.encoder.shared(encoded)

    def _op_view_fields(self, request: dict) -> dict:
        """The viewer's View fields (view_bytes.py), with the seat's legal
        moves when the host says it is to move (``listed``), as
        ``ViewEncoder.shared`` answers them: none when the encoding does not
        take this view."""
        held = self._match(request)
        seat = request["seat"]
        view = self._call("view", held.game.view, held.state, seat)
        fields = self.encoder.fields(view, self._moves(held, seat) if request["listed"] else ())
        return self.encoder.shared([] if fields is None else [(seat, fields)])

    def _op_views_fields(self, request: dict) -> dict:
        """``view_fields`` of several viewers at once (a watched match's
        every seat and its spectators, as a move's answer brings them):
        ``listed`` names the seats the host says are to move. What fails is
        left out, as after a move; the host asks for that view alone."""
        held = self._match(request)
        to_move = request["listed"]
        listed = {}
        for seat in to_move:
            try:
                listed[seat] = self._moves(held, seat)
            except PluginFailed:
                continue
        return self._encoded_after(held.game, held.state, request["viewers"], to_move, listed)

    def _op_to_move(self, request: dict) -> dict:
        return {"to_move": self._to_move(self._match(request))}

    def _op_legal_moves(self, request: dict) -> dict:
        held = self._match(request)
        return {"moves": [self.move_out(m) for m in self._moves(held, request["seat"])]}

    def _op_view(self, request: dict) -> dict:
        held = self._match(request)
        return {"view": dict(self._call("view", held.game.view, held.state, request["seat"]))}

    def _op_state(self, request: dict) -> dict:
        return {"state": self._match(request).state}

    def _op_render_text(self, request: dict) -> dict:
        game = self.games[request["game"]]
        return {"text": str(self._call("render_text", game.render_text, request["view"]))}

    def _op_render_svg(self, request: dict) -> dict:
        game = self.games[request["game"]]
        moves = [move_of(data) for data in request["moves"]]
        return {"svg": str(self._call("render_svg", game.render_svg, request["view"], moves))}

    def view_as_sent(self, held: HeldMatch, viewer: int | None) -> dict:
        """The viewer's view as a worker's answer brings it to the host (which
        renders from what it received): through JSON, refused as the worker
        refuses an answer that is not JSON-shaped."""
        view = dict(self._call("view", held.game.view, held.state, viewer))
        if not self.on_wire:
            return view
        try:
            return wire.through(view)
        except (TypeError, ValueError) as error:
            raise PluginFailed("view", error, f"answer is not JSON-shaped: {error}") from None

    RENDERERS = {"text": "render_text", "svg": "render_svg"}

    def _op_render(self, request: dict) -> dict:
        """Renderings of the held state (issue 19, after step 1), each from
        its viewer's view only: ``renders`` lists [viewer, kind ("text" or
        "svg"), listed] (``listed``: the seat is to move, so its legal moves
        go to ``render_svg``). Each distinct text is answered once
        (``texts``; ``of``: [viewer, kind, its index in texts]). A renderer
        (or the view or listing it needs) that raises, or that took longer
        than ``budget`` seconds, fails its own entry only (``failed``:
        [viewer, kind, hook, message]; ``overran``: [viewer, kind, hook,
        seconds]): one viewer's picture must not cost the others theirs."""
        held = self._match(request)
        index: dict[str, int] = {}
        of, failed, overran = [], [], []
        views: dict[Any, dict] = {}  # one view per viewer, whatever it renders
        budget = request["budget"]
        for viewer, kind, listed in request["renders"]:
            hook = self.RENDERERS[kind]
            started = time.monotonic()
            try:
                if viewer not in views:
                    views[viewer] = self.view_as_sent(held, viewer)
                if kind == "text":
                    text = str(self._call(hook, held.game.render_text, views[viewer]))
                else:
                    moves = self._moves(held, viewer) if listed else []
                    text = str(self._call(hook, held.game.render_svg, views[viewer], list(moves)))
            except PluginFailed as failure:
                failed.append([viewer, kind, failure.hook, str(failure)])
                continue
            spent = time.monotonic() - started
            if spent > budget:
                overran.append([viewer, kind, hook, spent])
                continue
            of.append([viewer, kind, index.setdefault(text, len(index))])
        return {"texts": list(index), "of": of, "failed": failed, "overran": overran}

    def _op_public_move(self, request: dict) -> dict:
        game = self.games[request["game"]]
        shown = self._call("public_move", game.public_move, request["seat"], request["move"], request["viewer"])
        return {"move": None if shown is None else dict(shown)}

    def _op_public_moves(self, request: dict) -> dict:
        game, viewer = self.games[request["game"]], request["viewer"]
        shown = [self._call("public_move", game.public_move, seat, move, viewer) for seat, move in request["moves"]]
        return {"moves": [None if move is None else dict(move) for move in shown]}

    def _op_choose(self, request: dict) -> "dict | Choosing":
        """The bot's move for a seat, or the random bot's when the named one
        fails or offers a move that is not legal. A table that ``slices``
        answers a bot's choice as a ``Choosing`` for its caller to run in
        slices (the random bot's apart); otherwise the choice is made whole,
        here."""
        held = self._match(request)
        seat = request["seat"]
        moves = list(self._moves(held, seat))  # a copy: a bot may reorder what it is given
        if not moves:
            return {"move": None}
        rng = rng_for(held.seed, request["version"], request["stream"])
        bot = self.bots.get(request["bot"]) or self.bots["random"]
        choosing = Choosing(held, seat, moves, rng, bot, self.bots["random"], slices=self.slices)
        return choosing if self.slices and choosing.sliced else choosing.run(math.inf)

    def _op_replay_views(self, request: dict) -> dict:
        """A finished match's views at past versions (the replay page): set
        up from the seed, apply the recorded moves, and take the viewer's
        view and the seats to move at each version asked for (ascending).
        Nothing is held afterwards."""
        game = self.games[request["game"]]
        seed, viewer = request["seed"], request["seat"]
        try:
            state = game.setup(request["seats"], request["options"], rng_for(seed, 0))
        except MemoryError:
            raise
        except Exception as error:
            raise PluginFailed("setup (replaying the log)", error) from None
        first = state
        recorded = [RecordedMove(v, seat, args) for v, seat, args in request["moves"]]
        undone_at = {taken_back: at for at, taken_back in request.get("undos", ())}  # move version -> undo version
        applied: list[RecordedMove] = []
        views = []
        for version in request["versions"]:
            standing = [move for move in recorded if move.version <= version
                        and undone_at.get(move.version, version + 1) > version]
            if standing[:len(applied)] != applied:  # a move was taken back: replay from the start
                state, applied = first, []
            try:
                state = replay(game, state, seed, standing[len(applied):])
            except MemoryError:
                raise
            except Exception as error:
                raise PluginFailed("apply (replaying the log)", error) from None
            applied = standing
            views.append({"version": version, "view": dict(self._call("view", game.view, state, viewer)),
                          "to_move": [int(s) for s in self._call("to_move", game.to_move, state)]})
        return {"views": views}

    def _op_drop(self, request: dict) -> dict:
        self.held.pop(request["match"], None)
        return {}
