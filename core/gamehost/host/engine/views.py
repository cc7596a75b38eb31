"""What a viewer sees of a match: who is to move, the legal moves, the
view and its renderings, events as the viewer may see them, and watching
(the stream of events after a version).

A part of ``MatchEngine`` (an ``EngineCore``); the answers are cached per version on the live
match (``live.cache``).
"""

from __future__ import annotations

from typing import Any, AsyncIterator

from gamehost.host import errors
from gamehost.host.engine.core import EngineCore
from gamehost.host.engine.live import LiveMatch
from gamehost.host.engine.turns import seen_reveals
from gamehost.host.engine.view_data import EncodedView, ViewData
from gamehost.sdk.rules import Game, Move

__all__ = ["EncodedView", "MatchViews", "ViewData"]


class MatchViews(EngineCore):
    async def to_move(self, live: LiveMatch) -> tuple[int, ...]:
        if live.record.status != "active":
            return ()
        known = live.cache.known_to_move()
        if known is None:  # a step that left the rules' state alone (a join) kept its seats to move
            known = self.rules.known_to_move(live)
        if known is not None:
            return known
        return await live.cache.to_move(lambda: self.rules.to_move(live))

    async def legal_moves(self, live: LiveMatch, seat: int | None) -> tuple[Move, ...]:
        if seat is None or seat not in await self.to_move(live):
            return ()
        return await live.cache.legal_moves(seat, lambda: self.rules.legal_moves(live, seat))

    async def view(self, live: LiveMatch, seat: int | None) -> ViewData:
        async def compute() -> ViewData:
            while True:  # every part from one version: a step may land while the rules answer
                version, status, result = live.version, live.record.status, live.record.result
                state = await self.rules.view(live, seat)
                to_move, moves = await self.to_move(live), await self.legal_moves(live, seat)
                if live.version == version:
                    return ViewData(version, status, seat, to_move, state, moves, result)

        return await live.cache.view(seat, compute)

    async def encoded_view(self, live: LiveMatch, seat: int | None) -> EncodedView | None:
        """``view`` with its state and legal moves as View fields, when the
        game's rules encode them (in a worker) and the encoding takes this
        view; else None, and the caller builds the View from ``view``."""
        if not self.rules.encodes_views(live.game.id):
            return None

        async def compute() -> EncodedView | None:
            while True:  # every part from one version, as in ``view``
                version, status, result = live.version, live.record.status, live.record.result
                to_move = await self.to_move(live)
                viewers = self._viewers(live)
                fields = None
                if len(viewers) > 1:
                    # A watched match: its other viewers' streams ask too (each seat and the spectators open
                    # one when a match starts), so one round trip per version brings every view, as a move's
                    # answer does, and they all wait for that one.
                    every = await live.cache.every_view_fields(
                        version, lambda: self.rules.views_fields(live, viewers, to_move))
                    fields = every.get(seat)
                if fields is None:  # alone, or left out of the batch: asked alone, to raise its own error
                    fields = await self.rules.view_fields(live, seat, listed=seat is not None and seat in to_move)
                if live.version == version:
                    return None if fields is None else EncodedView(version, status, seat, to_move, fields, result)

        return await live.cache.encoded_view(seat, compute)

    async def state_of(self, live: LiveMatch) -> Any:
        """The match's current rules state, wherever the rules hold it (a
        copy when a worker does)."""
        return await self.rules.state(live)

    async def render(self, live: LiveMatch, view: ViewData, kind: str, locale: str | None = None) -> str:
        """The view's text or SVG picture, its words in ``locale`` (None: English, as ever)."""
        if kind == "text":
            return await live.cache.rendering("text", view.seat, view.version,
                                            lambda: self.rules.render_text(live, view.state, locale), locale)
        return await live.cache.rendering("svg", view.seat, view.version,
                                        lambda: self.rules.render_svg(live, view.state, view.moves, locale), locale)

    async def watch(self, live: LiveMatch, after_version: int, viewer: int | None = None,
                    renderings: tuple[str, ...] = ()) -> AsyncIterator[list[dict]]:
        """Batches of events after ``after_version``, in order, with no gap
        and no repeat, until the match is over or the host closes.
        ``renderings``: those ("text", "svg") the watcher, ``viewer``, asked
        for (made by the worker after each step: renderings.py)."""
        self.check_watch(live, after_version)
        live.watchers += 1
        asked = live.renderings_asked
        for kind in renderings:
            asked[(viewer, kind)] = asked.get((viewer, kind), 0) + 1
        sent = after_version
        try:
            while True:
                if live.version > sent:
                    batch = live.recent_after(sent)
                    if batch is None:
                        batch = await self.store.events(live.id, sent)
                    batch = [e for e in batch if e["version"] > sent]
                    if batch:
                        sent = batch[-1]["version"]
                        yield batch
                        continue
                if (live.over and sent >= live.version) or self._closing:
                    return
                await live.changed.wait()
        finally:
            live.watchers -= 1
            for kind in renderings:
                if asked[(viewer, kind)] > 1:
                    asked[(viewer, kind)] -= 1
                else:
                    del asked[(viewer, kind)]
            if not live.watchers:
                live.forget_derived()

    def check_watch(self, live: LiveMatch, after_version: int) -> None:
        """Refuse a watch ``watch`` would refuse, before it starts (a Session
        answers the request that asked for it)."""
        if not 0 <= after_version <= live.version:
            raise errors.invalid_field("after_version", f"must be 0 to the match's version ({live.version}), "
                                                        f"not {after_version}.", "VERSION_OUT_OF_RANGE")
        if live.watchers >= self.max_watchers_per_match:
            raise errors.ResourceExhausted(
                f"matches/{live.id} already has {live.watchers} watchers, the most this host allows; retry later.",
                "TOO_MANY_WATCHERS", metadata=errors.metadata_of(limit=self.max_watchers_per_match))

    async def log_events(self, live: LiveMatch, after_version: int, limit: int) -> list[dict]:
        """A page of the match's log: at most ``limit`` events after ``after_version``."""
        return await self.store.events(live.id, after_version, limit)

    @staticmethod
    def _hides(live: LiveMatch, event: dict, viewer: int | None) -> bool:
        """Whether ``viewer`` must see ``event`` through the rules'
        ``public_move``: a move hidden from others stays hidden until the
        match is over; the SDK's own ``public_move`` shows every move."""
        return (event["kind"] == "moved" and not live.over and viewer != event["seat"]
                and type(live.game).public_move is not Game.public_move)

    @staticmethod
    def _shown(event: dict, shown_move) -> dict:
        if shown_move == event["move"]:
            return event
        shown = {**event, "move": shown_move, "move_id": "", "label": "a hidden move"}
        shown.pop("label_text", None)  # the label's message names the move too
        return shown

    @staticmethod
    def _seen(event: dict, viewer: int | None) -> dict:
        """``event`` with only the reveals ``viewer`` may see: a copy of its own when the step
        revealed anything to one seat only (never the event every viewer shares)."""
        revealed = event.get("revealed")
        if not revealed or all(reveal.get("seen_by") is None for reveal in revealed):
            return event
        return {**event, "revealed": seen_reveals(event, viewer)}

    async def public_event(self, live: LiveMatch, event: dict, viewer: int | None) -> dict:
        """An event as ``viewer`` may see it (``_hides``), with the reveals it may see."""
        return self._seen(await self._public_move_event(live, event, viewer), viewer)

    async def _public_move_event(self, live: LiveMatch, event: dict, viewer: int | None) -> dict:
        if not self._hides(live, event, viewer):
            return event

        async def compute() -> dict:
            return self._shown(event, await self.rules.public_move(live, event["seat"], event["move"], viewer))

        if event["version"] < live.version - 1:  # an old event (a log read): not worth keeping
            return await compute()
        # The newest step's events go to every watcher: one rules call per viewer.
        return await live.cache.public_event(event["version"], viewer, compute)

    async def public_events(self, live: LiveMatch, events: list[dict], viewer: int | None) -> list[dict]:
        """A log's events as ``viewer`` may see them (GetMatchLog): the
        hidden moves go to the rules in one call, not one call each."""
        hidden = [index for index, event in enumerate(events) if self._hides(live, event, viewer)]
        if hidden:
            shown = await self.rules.public_moves(live, viewer,
                                                  [(events[i]["seat"], events[i]["move"]) for i in hidden])
            events = list(events)
            for index, move in zip(hidden, shown):
                events[index] = self._shown(events[index], move)
        return [self._seen(event, viewer) for event in events]
