"""Renderings (text, SVG) made where the rules hold the state, in the
rules workers.

A View with a rendering is merged from the View fields the worker encoded
(``MatchViews.encoded_view``) and the rendering the worker made of the same
version, from the viewer's own view: the serving process neither builds the
View from the view's data nor sends the view (and a Callisto seat's hundreds
of legal moves) back to a worker to be drawn. After a step, the renderings
the match's watchers asked for are asked for at once, in one call that
follows the commit (not in the move's answer: a slow renderer must fail the
pictures, never the move, as when the host rendered from the view's data).

An object the engine holds (``engine.renderings``); a viewer's fields and renderings are cached per
version on the live match, as one value: they are of one state.
"""

from __future__ import annotations

import asyncio
from typing import Protocol

from gamehost.host import errors
from gamehost.host.engine.view_data import EncodedView, RenderBatch, RenderedView
from gamehost.host.engine.live import LiveMatch
from gamehost.host.workers.runner import Applied, RulesRunner


def asked_kinds(text: bool, svg: bool) -> tuple[str, ...]:
    """The renderings a RenderOptions asks for, by name."""
    return (("text",) if text else ()) + (("svg",) if svg else ())


STEP_LANDED = "a step landed while the view was made: made again"  # logged (debug)


def _texts(made: dict[str, str | errors.HostError]) -> dict[str, str]:
    """The renderings, or the first failure among them raised (as the host raised it)."""
    texts = {}
    for kind, text in made.items():
        if isinstance(text, errors.HostError):
            raise text
        texts[kind] = text
    return texts


def _retrieved(task: asyncio.Future) -> None:
    if not task.cancelled():
        task.exception()  # a batch nobody waited for must not log "never retrieved"


class ViewSource(Protocol):
    """What renderings need of the engine's views."""

    async def to_move(self, live: LiveMatch) -> tuple[int, ...]: ...

    async def encoded_view(self, live: LiveMatch, seat: int | None) -> EncodedView | None: ...


class MatchRenderings:
    def __init__(self, rules: RulesRunner, views: ViewSource) -> None:
        self.rules = rules
        self.views = views

    def renders_in_workers(self, live: LiveMatch) -> bool:
        """Whether the game's renderings are made where its rules hold the
        state (a worker); rules run in the host render from the view's data."""
        return self.rules.encodes_views(live.game.id)

    async def rendered_view(self, live: LiveMatch, seat: int | None, kinds: tuple[str, ...]) -> RenderedView | None:
        """``seat``'s View fields (None: a spectator's) and its renderings
        ``kinds``, made in the worker from that viewer's view of one state;
        None when the encoding does not take the view (the View is then
        built and rendered from the view's data). The renderings come from
        the batch made after the step, paired with the version's View
        fields; else from a call naming the very state the fields were made
        from (a step may land between the two calls)."""
        async def compute() -> RenderedView | None:
            while True:
                version, status, result = live.version, live.record.status, live.record.result
                batched = await self._batched_renderings(live, seat, kinds, version)
                if batched is not None:
                    encoded = await self.views.encoded_view(live, seat)
                    if encoded is None or encoded.version == version:
                        return None if encoded is None else RenderedView(encoded, _texts(batched))
                    continue
                to_move = await self.views.to_move(live)
                listed = seat is not None and seat in to_move
                fields, tag = await self.rules.tagged_view_fields(live, seat, listed)
                if live.version != version:
                    live.log.debug(STEP_LANDED, seat=seat, version=version, now=live.version)
                    continue
                if fields is None:
                    return None
                made = await self.rules.render(live, [(seat, kind, listed) for kind in kinds], at_tag=tag)
                if made is None:  # two steps landed: the worker no longer holds that state
                    continue
                encoded = EncodedView(version, status, seat, to_move, fields, result)
                return RenderedView(encoded, _texts({kind: made[(seat, kind)] for kind in kinds}))

        return await live.cache.rendered_view(seat, kinds, compute)

    @staticmethod
    async def _batched_renderings(live: LiveMatch, seat: int | None, kinds: tuple[str, ...],
                                  version: int) -> dict[str, str | errors.HostError] | None:
        """``seat``'s renderings ``kinds`` from the batch made after the step
        to ``version``; None when there is no such batch, or it lacks one."""
        batch = live.render_batch
        if batch is None or batch.version != version:
            return None
        try:
            made = await asyncio.shield(batch.task)
        except Exception:
            if live.render_batch is batch:  # its failure is raised once; later askers ask one by one
                live.render_batch = None
            raise
        if any((seat, kind) not in made for kind in kinds):
            return None
        # A failure is raised once (to the watchers sharing this computation); a text serves every asker.
        return {kind: made.pop((seat, kind)) if isinstance(made[(seat, kind)], errors.HostError)
                else made[(seat, kind)] for kind in kinds}

    def render_after_step(self, live: LiveMatch, applied: Applied) -> None:
        """Ask, in one call, for the renderings the match's watchers asked
        for, of the step just committed (the worker has made its state
        current): each viewer's from its own view, a seat to move's SVG with
        its legal moves. The watchers the step wakes take them from here."""
        asked = [key for key, count in live.renderings_asked.items() if count > 0]
        if not asked or not self.renders_in_workers(live):
            return
        to_move = applied.to_move if live.record.status == "active" else ()
        renders = [(viewer, kind, kind == "svg" and viewer in to_move) for viewer, kind in asked]
        task = asyncio.ensure_future(self.rules.render(live, renders))
        task.add_done_callback(_retrieved)
        live.render_batch = RenderBatch(live.version, task)
