"""The messages GameHost answers about a match that take the engine to
build: the Match with its seats to move, a viewer's View, a MatchEvent as a
viewer sees it. Each is built once per version and viewer, in the live
match's per-version cache, and shared: a message handed out must not be
modified."""

from __future__ import annotations

from google.protobuf.message import DecodeError

from gamehost.client.structs import to_struct
from gamehost.host import errors
from gamehost.host.codec.legal_move_encodings import LegalMoveEncodings
from gamehost.host.codec.length_delimited import field, field_tag
from gamehost.host.engine.live import LiveMatch
from gamehost.host.engine.match_engine import MatchEngine, ViewData
from gamehost.host.engine.renderings import asked_kinds
from gamehost.host.engine.views import EncodedView
from gamehost.host.rpc.locales import Locale
from gamehost.host.rpc.turn_messages import reveals_pb, turn_pb
from gamehost.host.rpc.messages import (
    STATUS_TO_PB, draw_offer_pb, legal_move, match_pb, result_pb, shown_event_message, undo_ask_pb, view_header,
    view_state)
from gamehost.host.store.base import MatchRecord
from gamehost.sdk.rules import Move, Part
from gamehost.v1 import gamehost_pb2 as pb


_VIEW_LAST_TURN = field_tag(pb.View.DESCRIPTOR.fields_by_name["last_turn"])
_EVENT_TURN = field_tag(pb.MatchEvent.DESCRIPTOR.fields_by_name["turn"])


class MatchMessages:
    def __init__(self, engine: MatchEngine) -> None:
        self.engine = engine
        self._legal_moves = LegalMoveEncodings(lambda move: legal_move(move).SerializeToString())

    # ------------------------------------------------------------ matches

    async def match_message(self, match: LiveMatch | MatchRecord) -> pb.Match:
        """The Match message of ``match`` as GameHost answers it, built once
        per version. A stored row is a match whose rules this host lacks,
        shown as GetMatch shows it."""
        if isinstance(match, MatchRecord):
            return self.record_message(match)
        return await self.live_match_message(match)

    def record_message(self, record: MatchRecord) -> pb.Match:
        """The Match of a stored row, without its seats to move (they take the rules)."""
        return match_pb(record, (), self.engine.rules_available(record))

    async def live_match_message(self, live: LiveMatch) -> pb.Match:
        async def build() -> pb.Match:
            record = live.record
            message = match_pb(record, await self.engine.to_move(live), self.engine.rules_available(record))
            ask = self.engine.undo_ask(live)  # kept with the version: clients also check its expire_time
            if ask is not None:
                message.undo_ask.CopyFrom(undo_ask_pb(record.seats, ask))
            offer = self.engine.draw_offer(live)  # kept with the version, as the ask
            if offer is not None:
                message.draw_offer.CopyFrom(draw_offer_pb(record.seats, offer))
            return message

        return await live.cache.match_message(build)

    async def listed_match_message(self, record: MatchRecord) -> pb.Match:
        """A match as ListMatches lists it: from this process's live match
        when it holds the version listed."""
        live = self.engine.held(record.id)
        if live is None or live.version < record.version:  # another replica moved it on
            return self.record_message(record)
        try:
            return await self.live_match_message(live)
        except errors.HostError:  # its rules are failing: list it without the seats to move
            return self.record_message(live.record)

    # ------------------------------------------------------------ views

    async def view_message(self, live: LiveMatch, seat: int | None, text: bool, svg: bool) -> pb.View:
        """``seat``'s View now (None: a spectator's), built once per version."""
        async def build() -> pb.View:
            if not text and not svg:
                message = await self._encoded_view_message(live, seat)
            else:
                message = await self._rendered_view_message(live, seat, text, svg)
            if message is not None:
                message.MergeFromString(await self.last_turn_field(live, seat, message.version, None))
                return message
            view: ViewData = await self.engine.view(live, seat)
            message = pb.View(
                match=f"matches/{live.id}", version=view.version, status=STATUS_TO_PB[view.status],
                seat=-1 if seat is None else seat, to_move=view.to_move,
                result=result_pb(view.result),
                text=await self.engine.render(live, view, "text") if text else "",
                svg=await self.engine.render(live, view, "svg") if svg else "")
            view_state(message, view.state, live)
            message.MergeFromString(self._legal_moves.view_field(view.moves))  # encodings shared between views
            message.MergeFromString(await self.last_turn_field(live, seat, view.version, None))
            return message

        return await live.cache.view_message(seat, text, svg, build)

    async def localized_view_message(self, live: LiveMatch, seat: int | None, text: bool, svg: bool,
                                     locale: Locale | None) -> pb.View:
        """``view_message`` with its words in ``locale`` (None: none asked, the View as ever). A
        language other than English is built from the view's data, once per version, viewer and
        language: its labels and result translated, its pictures rendered for it."""
        if locale is None:
            return await self.view_message(live, seat, text, svg)
        if locale.english:
            message = pb.View()
            message.CopyFrom(await self.view_message(live, seat, text, svg))
            message.locale = locale.tag
            return message

        async def build() -> pb.View:
            view: ViewData = await self.engine.view(live, seat)
            message = pb.View(
                match=f"matches/{live.id}", version=view.version, status=STATUS_TO_PB[view.status],
                seat=-1 if seat is None else seat, to_move=view.to_move,
                result=localized_result(view.result, locale),
                text=await self.engine.render(live, view, "text", locale.tag) if text else "",
                svg=await self.engine.render(live, view, "svg", locale.tag) if svg else "", locale=locale.tag)
            view_state(message, view.state, live)
            message.legal_moves.extend(legal_move(localized_move(move, locale)) for move in view.moves)
            message.MergeFromString(await self.last_turn_field(live, seat, view.version, locale))
            return message

        return await live.cache.localized_view_message(seat, text, svg, locale.tag, build)

    async def _encoded_view_message(self, live: LiveMatch, seat: int | None) -> pb.View | None:
        """The View from the fields the rules worker encoded (view_bytes.py),
        merged by protobuf's C parser; None when there are none, or the
        parser refuses them (nesting beyond its depth): the View is then
        built from the view's data, which raises where it raised before."""
        encoded: EncodedView | None = await self.engine.encoded_view(live, seat)
        return None if encoded is None else self._encoded_view_pb(live, seat, encoded)

    @staticmethod
    def _encoded_view_pb(live: LiveMatch, seat: int | None, encoded: EncodedView) -> pb.View | None:
        message = view_header(live, encoded)
        try:
            message.MergeFromString(encoded.fields)
        except DecodeError:
            live.log.warning("encoded view refused by protobuf's parser: built from the view", seat=seat)
            return None
        return message

    async def _rendered_view_message(self, live: LiveMatch, seat: int | None, text: bool, svg: bool
                                     ) -> pb.View | None:
        """The View from the worker's fields and its renderings, made in the
        worker from the viewer's view of the same state
        (engine/renderings.py); None where the View is built and rendered
        from the view's data (rules run in the host, a view the encoding
        does not take)."""
        if not self.engine.renders_in_workers(live):
            return None
        made = await self.engine.rendered_view(live, seat, asked_kinds(text, svg))
        if made is None:
            return None
        message = self._encoded_view_pb(live, seat, made.encoded)
        if message is not None:
            message.text, message.svg = made.texts.get("text", ""), made.texts.get("svg", "")
        return message

    async def past_view_message(self, live: LiveMatch, seat: int | None, version: int, text: bool,
                                svg: bool, locale: Locale | None = None) -> pb.View:
        """``seat``'s View at an earlier ``version`` (replayed, not cached), its words in ``locale``."""
        view: ViewData = await self.engine.view_at(live, seat, version)
        tag = None if locale is None or locale.english else locale.tag
        return pb.View(
            match=f"matches/{live.id}", version=view.version, status=STATUS_TO_PB[view.status],
            seat=-1 if seat is None else seat, to_move=view.to_move, state=to_struct(dict(view.state)),
            result=result_pb(view.result) if tag is None or locale is None else localized_result(view.result, locale),
            text=await self.engine.render_at(live, view, "text", tag) if text else "",
            svg=await self.engine.render_at(live, view, "svg", tag) if svg else "",
            locale="" if locale is None else locale.tag,
            last_turn=await self.last_turn(live, seat, view.version, locale))

    # ------------------------------------------------------------ the whole turn

    async def last_turn(self, live: LiveMatch, seat: int | None, version: int,
                        locale: Locale | None) -> pb.TurnSummary | None:
        """The latest turn at ``version`` as ``seat`` sees it (a View's ``last_turn``), or None before any move."""
        turn = await self.engine.turns.latest(live, version, seat)
        return None if turn is None else turn_pb(turn, locale)

    async def last_turn_field(self, live: LiveMatch, seat: int | None, version: int,
                              locale: Locale | None) -> bytes:
        """``last_turn`` as a View's serialized field (empty before any move), once per version and viewer."""
        async def build() -> bytes:
            turn = await self.last_turn(live, seat, version, locale)
            return b"" if turn is None else field(_VIEW_LAST_TURN, turn.SerializeToString())

        if version != live.version:  # a view of a version already passed: not worth keeping
            return await build()
        return await live.cache.turn_field(version, seat, None if locale is None else locale.tag, build)

    async def ended_turn(self, live: LiveMatch, event: dict, seat: int | None, locale: Locale | None,
                         events: list[dict] | None = None) -> pb.TurnSummary | None:
        """The whole turn ``event`` ends, as ``seat`` sees it, or None for an event that ends none."""
        turn = await self.engine.turns.ended_by(live, event, seat, events)
        return None if turn is None else turn_pb(turn, locale)

    async def ended_turn_field(self, live: LiveMatch, event: dict, seat: int | None) -> bytes:
        """``ended_turn`` as a MatchEvent's serialized field (empty for an event that ends no turn)."""
        if event["kind"] != "moved" or not event.get("ends_turn"):
            return b""
        turn = await self.ended_turn(live, event, seat, None)
        return b"" if turn is None else field(_EVENT_TURN, turn.SerializeToString())

    # ------------------------------------------------------------ events

    async def event_messages(self, live: LiveMatch, events: list[dict], viewer: int | None,
                             locale: Locale | None = None) -> list[pb.MatchEvent]:
        """``events`` as ``viewer`` may see them, their labels in ``locale``; a step that ends a
        turn carries the whole turn."""
        messages = []
        # The page's turns may have begun before it: the log before it is read back once, for all of them.
        reach = events
        if events and events[0]["version"] > 1 and any(event.get("ends_turn") for event in events):
            reach = [*await self.engine.turns.window(live, events[0]["version"] - 1), *events]
        for event, shown in zip(events, await self.engine.public_events(live, events, viewer)):
            message = localized_event(shown, locale)
            turn = await self.ended_turn(live, event, viewer, locale, reach)
            if turn is not None:
                message.turn.CopyFrom(turn)
            messages.append(message)
        return messages


def localized_event(shown: dict, locale: Locale | None) -> pb.MatchEvent:
    """An event as a viewer may see it, its label in ``locale`` (None or English: as kept)."""
    message = shown_event_message(shown)
    if locale is not None and not locale.english and message.label:
        message.label = locale.say(message.label, shown.get("label_text"))
    if locale is not None and not locale.english and shown.get("revealed"):
        del message.revealed[:]
        message.revealed.extend(reveals_pb(shown["revealed"], locale))
    return message


def localized_result(result: dict | None, locale: Locale) -> pb.Result | None:
    message = result_pb(result)
    if message is not None and result is not None and not locale.english:
        message.summary = locale.say(result["summary"], result.get("summary_text"))
    return message


def localized_move(move: Move, locale: Locale) -> Move:
    """``move`` with its labels and its parts' in ``locale``."""
    say = locale.translator.translate
    return Move(move.id, say(move.label), move.args, tuple([Part(part.id, say(part.label)) for part in move.parts]))


def localized_match(message: pb.Match, result: dict | None, locale: Locale | None) -> pb.Match:
    """A (shared) Match message with its words in ``locale``: a copy, marked with the language."""
    if locale is None:
        return message
    localized = pb.Match()
    localized.CopyFrom(message)
    localized.locale = locale.tag
    if result is not None and not locale.english:
        localized.result.summary = locale.say(result["summary"], result.get("summary_text"))
    if localized.status_detail.message and not locale.english:  # the host's own reasons; an admin's as written
        localized.status_detail.message = locale.say(localized.status_detail.message, None)
    return localized
