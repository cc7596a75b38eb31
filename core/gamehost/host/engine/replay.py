"""A match that is over, as it was at a past version: what the replay page
steps through (GetView with ``at_version``).

An object the engine holds (``engine.replay``). The rules replay the log from the first state in
a worker, a chunk of versions per call, so stepping through a long match
replays it a few times, not once per step; each chunk, the log and the
pictures are kept in the host's replay cache (replay_cache.py: an over
match never changes), within its budget of bytes.
"""

from __future__ import annotations

from gamehost.host import errors
from gamehost.host.engine.view_data import ViewData
from gamehost.host.engine.live import LiveMatch
from gamehost.host.engine.log_pages import whole_log
from gamehost.host.engine.replay_cache import ReplayCache
from gamehost.host.store.base import Store
from gamehost.host.workers.messages import PastView
from gamehost.host.workers.runner import RulesRunner

REPLAY_CHUNK = 32  # versions replayed per rules call
OVER_EVENTS = {"finished": "finished", "abandoned": "abandoned", "aborted": "aborted"}
STATUS_EVENTS = {"started": "active", "suspended": "suspended", "resumed": "active", **OVER_EVENTS}


class MatchReplay:
    def __init__(self, rules: RulesRunner, store: Store, cache: ReplayCache) -> None:
        self.rules = rules
        self.store = store
        self.cache = cache

    async def view_at(self, live: LiveMatch, seat: int | None, version: int) -> ViewData:
        """The view ``seat`` (None: a spectator) had at ``version``, with no
        legal moves: a replay offers none."""
        if not live.over:
            raise errors.FailedPrecondition(
                f"matches/{live.id} is {live.record.status}: past versions are shown once the match is over "
                "(a past view of a running match could show again what the game has hidden since).",
                "MATCH_NOT_OVER", metadata=errors.metadata_of(status=live.record.status))
        if not 0 <= version <= live.version:
            raise errors.invalid_field("at_version", f"must be 0 to the match's version ({live.version}), "
                                                     f"not {version}.", "VERSION_OUT_OF_RANGE")
        events = await self.cache.events(live.id, lambda: whole_log(self.store, live.id, live.version))
        chunk = version // REPLAY_CHUNK
        views = await self.cache.chunk(live.id, seat, chunk, lambda: self._replay_chunk(live, events, seat, chunk))
        replayed = views[version - chunk * REPLAY_CHUNK]
        status = "open"
        for event in events:
            if event["version"] > version:
                break
            status = STATUS_EVENTS.get(event["kind"], status)
        return ViewData(version, status, seat, tuple(replayed["to_move"]) if status == "active" else (),
                        replayed["view"], (), live.record.result if status == "finished" else None)

    async def _replay_chunk(self, live: LiveMatch, events: list[dict], seat: int | None, chunk: int) -> list[PastView]:
        first = chunk * REPLAY_CHUNK
        versions = list(range(first, min(first + REPLAY_CHUNK, live.version + 1)))
        moves = [[e["version"], e["seat"], e["move"]] for e in events
                 if e["kind"] == "moved" and e["version"] <= versions[-1]]
        undos = [[e["version"], e["undoes"]] for e in events if e["kind"] == "undone" and e["version"] <= versions[-1]]
        live.log.debug("replaying for past views", seat=seat, versions=f"{versions[0]}-{versions[-1]}",
                       moves=len(moves))
        return await self.rules.replay_views(live, moves, versions, seat, undos)

    async def render_at(self, live: LiveMatch, view: ViewData, kind: str, locale: str | None = None) -> str:
        """A past view's picture or text, its words in ``locale`` (cached apart from the current view's
        renderings)."""
        which = kind if locale is None else f"{kind}/{locale}"
        if kind == "text":
            return await self.cache.rendering(live.id, which, view.seat, view.version,
                                              lambda: self.rules.render_text(live, view.state, locale))
        return await self.cache.rendering(live.id, which, view.seat, view.version,
                                          lambda: self.rules.render_svg(live, view.state, (), locale))
