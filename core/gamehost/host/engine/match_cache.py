"""What a live match keeps of its current version: values derived from the
record and the state (seats to move, legal moves, views, renderings, the
protobuf forms the servicer sends), each computed once per version.

Every value has its named accessor here, which builds its key: a caller
names what it wants, never a key. The match drops the whole cache when it
takes a new version (``LiveMatch.advance``).
"""

from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Callable, Hashable, TypeVar

from gamehost.host.engine.view_data import EncodedView, RenderedView, ViewData
from gamehost.sdk.rules import Move

T = TypeVar("T")


class MatchCache:
    def __init__(self) -> None:
        self._values: dict[Hashable, Any] = {}

    # ------------------------------------------------------------ the store of values

    def _once(self, key: Hashable, compute: Callable[[], T]) -> T:
        """A value computed from the current version, computed once."""
        try:
            return self._values[key]
        except KeyError:
            value = self._values[key] = compute()
            return value

    async def _once_async(self, key: Hashable, compute: Callable[[], Awaitable[T]]) -> T:
        """``_once`` for a value the rules compute elsewhere: callers that
        ask while it is being computed wait for the same answer, so it is
        still computed once per version. A failure is not kept."""
        try:
            value = self._values[key]
        except KeyError:
            task = self._values[key] = asyncio.ensure_future(compute())
            values = self._values

            def settled(done: asyncio.Future) -> None:
                if values.get(key) is done:
                    if done.cancelled() or done.exception() is not None:
                        del values[key]
                    else:
                        values[key] = done.result()

            task.add_done_callback(settled)
            return await asyncio.shield(task)
        if isinstance(value, asyncio.Future):
            return await asyncio.shield(value)
        return value

    def _kept(self, key: Hashable) -> Any:
        """The value kept under ``key``, or None (also while it is being computed)."""
        value = self._values.get(key)
        return None if isinstance(value, asyncio.Future) else value

    def clear(self) -> None:
        """A new version: nothing kept holds any more."""
        self._values = {}

    def drop_settled(self) -> None:
        """Drop what is kept (the match's last watcher left: a match nobody
        follows need not hold its encoded views and legal moves until its
        next move). Answers still being computed stay, for the callers
        waiting on them."""
        self._values = {key: value for key, value in self._values.items() if isinstance(value, asyncio.Future)}

    # ------------------------------------------------------------ the rules' answers

    def known_to_move(self) -> tuple[int, ...] | None:
        return self._kept("to_move")

    async def to_move(self, compute: Callable[[], Awaitable[tuple[int, ...]]]) -> tuple[int, ...]:
        return await self._once_async("to_move", compute)

    def settle_to_move(self, to_move: tuple[int, ...]) -> None:
        """Seed the seats to move with those already known (e.g. from a move's answer)."""
        self._values["to_move"] = to_move

    async def legal_moves(self, seat: int, compute: Callable[[], Awaitable[tuple[Move, ...]]]) -> tuple[Move, ...]:
        return await self._once_async(("moves", seat), compute)

    def settle_legal_moves(self, seat: int, moves: tuple[Move, ...]) -> None:
        self._values[("moves", seat)] = moves

    async def view(self, seat: int | None, compute: Callable[[], Awaitable[ViewData]]) -> ViewData:
        return await self._once_async(("view", seat), compute)

    def settle_view(self, seat: int | None, view: ViewData) -> None:
        self._values[("view", seat)] = view

    async def encoded_view(self, seat: int | None,
                           compute: Callable[[], Awaitable[EncodedView | None]]) -> EncodedView | None:
        return await self._once_async(("encoded_view", seat), compute)

    def settle_encoded_view(self, seat: int | None, view: EncodedView) -> None:
        self._values[("encoded_view", seat)] = view

    async def every_view_fields(self, version: int, compute: Callable[[], Awaitable[dict[int | None, bytes]]]
                                ) -> dict[int | None, bytes]:
        """Every viewer's View fields of a watched match, asked in one call."""
        return await self._once_async(("every_view_fields", version), compute)

    async def rendering(self, kind: str, seat: int | None, version: int,
                        compute: Callable[[], Awaitable[str]], locale: str | None = None) -> str:
        """The current view's text or SVG (``kind``), rendered from its data, its words in ``locale``."""
        return await self._once_async((kind, seat, version) if locale is None else (kind, seat, version, locale),
                                      compute)

    async def rendered_view(self, seat: int | None, kinds: tuple[str, ...],
                            compute: Callable[[], Awaitable[RenderedView | None]]) -> RenderedView | None:
        return await self._once_async(("rendered_view", seat, kinds), compute)

    async def public_event(self, version: int, viewer: int | None,
                           compute: Callable[[], Awaitable[dict]]) -> dict:
        """The newest step's event as ``viewer`` may see it."""
        return await self._once_async(("public_event", version, viewer), compute)

    # ------------------------------------------------------------ what the servicer sends

    def view_state_field(self, state_text: str, compute: Callable[[], bytes]) -> bytes:
        """A view's state as the View's encoded field, shared by the viewers
        whose states have the same JSON text ``state_text``."""
        return self._once(("view_state_field", state_text), compute)

    def kept_view_state_field(self, state_text: str) -> bytes | None:
        return self._kept(("view_state_field", state_text))

    async def match_message(self, compute: Callable[[], Awaitable[T]]) -> T:
        """The Match message of the current version."""
        return await self._once_async("match_pb", compute)

    async def view_message(self, seat: int | None, text: bool, svg: bool, compute: Callable[[], Awaitable[T]]) -> T:
        """``seat``'s View message with the renderings asked for."""
        return await self._once_async(("view_pb", seat, text, svg), compute)

    async def localized_view_message(self, seat: int | None, text: bool, svg: bool, locale: str,
                                     compute: Callable[[], Awaitable[T]]) -> T:
        """``view_message`` with its words in ``locale`` (a language other than English)."""
        return await self._once_async(("view_pb", seat, text, svg, locale), compute)

    async def turn_field(self, version: int, seat: int | None, locale: str | None,
                         compute: Callable[[], Awaitable[bytes]]) -> bytes:
        """A serialized TurnSummary field (a View's last turn, an event's whole turn) of ``version``
        as ``seat`` sees it, its words in ``locale`` (None: none asked)."""
        return await self._once_async(("turn_field", version, seat, locale), compute)

    def event_head(self, version: int, compute: Callable[[], bytes]) -> bytes:
        """The serialized MatchEvent of ``version`` without a view, shared by every viewer who sees it as it is."""
        return self._once(("event_head", version), compute)

    def kept_event_bytes(self, version: int, seat: int | None, text: bool, svg: bool, with_view: bool) -> bytes | None:
        """A viewer's serialized MatchEvent of ``version``, if kept."""
        return self._kept(("event_bytes", version, seat, text, svg, with_view))

    def keep_event_bytes(self, version: int, seat: int | None, text: bool, svg: bool, with_view: bool,
                         encoded: bytes) -> None:
        self._values[("event_bytes", version, seat, text, svg, with_view)] = encoded

    def session_event_bytes(self, version: int, seat: int | None, text: bool, svg: bool, with_view: bool,
                            compute: Callable[[], bytes]) -> bytes:
        """The same event wrapped as a Session stream sends it."""
        return self._once(("session_event_bytes", version, seat, text, svg, with_view), compute)

    def view_patch(self, viewer: Hashable, from_version: int, version: int,
                   compute: Callable[[], bytes | None]) -> bytes | None:
        """A viewer's serialized ViewPatch from ``from_version`` to ``version``, shared by its
        watchers (None: the whole view is sent instead)."""
        return self._once(("view_patch", viewer, from_version, version), compute)

    def kept_patched_event_bytes(self, viewer: Hashable, from_version: int | None, version: int) -> bytes | None:
        """The newest event as a watcher who asked for views as changes and holds the view at
        ``from_version`` (None: none) receives it, if kept: every such watcher gets the same bytes."""
        return self._kept(("patched_event_bytes", viewer, from_version, version))

    def keep_patched_event_bytes(self, viewer: Hashable, from_version: int | None, version: int,
                                 encoded: bytes) -> None:
        self._values[("patched_event_bytes", viewer, from_version, version)] = encoded

    def fields_parse(self, fields: bytes, check: Callable[[], bool]) -> bool:
        """Whether protobuf's parser takes a worker's View fields."""
        return self._once(("fields_parse", fields), check)
