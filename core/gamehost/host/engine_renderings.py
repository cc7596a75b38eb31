"""Renderings (text, SVG) made where the rules hold the state (issue 19,
after step 1).

A View with a rendering is merged from the View fields the worker encoded
(``MatchViews.encoded_view``) and the rendering the worker made of the same
version, from the viewer's own view: the serving process neither builds the
View from the view's data nor sends the view (and a Callisto seat's hundreds
of legal moves) back to a worker to be drawn. After a step, the renderings
the match's watchers asked for are asked for at once, in one call that
follows the commit (not in the move's answer: a slow renderer must fail the
pictures, never the move, as when the host rendered from the view's data).

A mixin of ``MatchEngine``; renderings are cached per version and viewer on
the live match, each with the version it was made from.
"""

from __future__ import annotations

import asyncio
import dataclasses

from gamehost.host import errors
from gamehost.host.live import LiveMatch
from gamehost.host.workers.runner import Applied


def asked_kinds(text: bool, svg: bool) -> tuple[str, ...]:
    """The renderings a RenderOptions asks for, by name."""
    return (("text",) if text else ()) + (("svg",) if svg else ())


@dataclasses.dataclass(frozen=True)
class Rendering:
    """A viewer's rendering and the version it shows."""

    version: int
    text: str


@dataclasses.dataclass(frozen=True)
class RenderBatch:
    """The renderings asked for after the step to ``version``, in flight or
    answered: (viewer, kind) -> the text, or the error to raise to whoever
    takes it. Each entry is taken once (a failure is not kept)."""

    version: int
    task: asyncio.Future


def _retrieved(task: asyncio.Future) -> None:
    if not task.cancelled():
        task.exception()  # a batch nobody waited for must not log "never retrieved"


class MatchRenderings:
    def renders_in_workers(self, live: LiveMatch) -> bool:
        """Whether the game's renderings are made where its rules hold the
        state (a worker); rules run in the host render from the view's data."""
        return self.rules.encodes_views(live.game.id)

    async def rendering(self, live: LiveMatch, seat: int | None, kind: str) -> Rendering:
        """``seat``'s rendering (None: a spectator's) of the current version,
        made in the worker from that viewer's view; its ``version`` says which
        (a step may land while it is made: it is then made again)."""
        async def compute() -> Rendering:
            while True:
                version = live.version
                made = await self._batched_rendering(live, seat, kind, version)
                if made is None:
                    listed = kind == "svg" and seat is not None and seat in await self.to_move(live)
                    made = (await self.rules.render(live, [(seat, kind, listed)]))[(seat, kind)]
                if isinstance(made, errors.HostError):
                    raise made
                if live.version == version:
                    return Rendering(version, made)

        return await live.derived_async(("rendering", seat, kind), compute)

    @staticmethod
    async def _batched_rendering(live: LiveMatch, seat: int | None, kind: str, version: int) -> str | None:
        """The rendering the batch after the step to ``version`` made, taken
        out of it; None when there is no such batch or entry."""
        batch = live.render_batch
        if batch is None or batch.version != version:
            return None
        try:
            made = await asyncio.shield(batch.task)
        except Exception:
            if live.render_batch is batch:  # its failure is raised once; later askers ask one by one
                live.render_batch = None
            raise
        return made.pop((seat, kind), None)

    def _render_after_step(self, live: LiveMatch, applied: Applied) -> None:
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
