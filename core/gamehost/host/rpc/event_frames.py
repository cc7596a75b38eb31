"""Events as watchers receive them, encoded once and shared.

Every watcher of a match receives each of its events, the newest with the
viewer's view. Watchers that see the same thing (every spectator; one seat
followed from two devices; a seat's WatchMatch and its Session) receive the
same bytes, so the message is built and serialized once per (event, viewer,
renderings) and kept in the live match's per-version cache; each further
watcher costs a cache hit and the socket write. The servicer hands grpcio
the bytes (``grpc_handlers`` lets encoded messages through).

The view an event carries is written as bytes too (``view_bytes``): from
the fields the rules worker encoded, a View is its other fields' bytes
followed by those (protobuf merges concatenated fields), so the worker's
bytes are not parsed into a message, copied into the event and serialized
again for each viewer: that would cost the serving process CPU on every move.
"""

from __future__ import annotations

from google.protobuf.message import DecodeError

from gamehost.host.codec.length_delimited import field, field_tag
from gamehost.host.engine.live import LiveMatch
from gamehost.host.rpc.locales import Locale
from gamehost.host.rpc.match_messages import MatchMessages, localized_event
from gamehost.host.rpc.messages import shown_event_message, view_header
from gamehost.host.rpc.view_patches import PatchedWatch, ViewPatches
from gamehost.v1 import gamehost_pb2 as pb

# The fields written here around bytes already encoded.
_SESSION_MATCH = field_tag(pb.SessionEvent.DESCRIPTOR.fields_by_name["match"])  # the match name
_SESSION_MATCH_EVENT = field_tag(pb.SessionEvent.DESCRIPTOR.fields_by_name["match_event"])
_EVENT_VIEW = field_tag(pb.MatchEvent.DESCRIPTOR.fields_by_name["view"])
_EVENT_VIEW_PATCH = field_tag(pb.MatchEvent.DESCRIPTOR.fields_by_name["view_patch"])


def carries_view(live: LiveMatch, event: dict) -> bool:
    """The newest event carries the viewer's view (a suspended match has none to show)."""
    return event["version"] == live.version and live.record.status != "suspended"


class PatchedFrames:
    """What a watcher who asked for views as changes needs: the shared
    views' JSON (``patches``) and its own last view's version (``watch``)."""

    def __init__(self, patches: ViewPatches) -> None:
        self.patches = patches
        self.watch = PatchedWatch()


async def match_event_bytes(messages: MatchMessages, live: LiveMatch, event: dict, seat: int | None,
                            text: bool, svg: bool, locale: Locale | None = None,
                            patched: PatchedFrames | None = None) -> bytes:
    """The MatchEvent ``seat`` (None: a spectator) receives for ``event``, serialized; its words
    in ``locale`` when one was asked for (built for the watcher, from cached views). ``patched``:
    the watcher asked for views as changes (view_patches.py)."""
    if patched is not None and carries_view(live, event):
        return await _patched_event_bytes(messages, live, event, seat, text, svg, locale, patched)
    if locale is not None:
        return await _localized_event_bytes(messages, live, event, seat, text, svg, locale)
    with_view = carries_view(live, event)
    encoded = live.cache.kept_event_bytes(event["version"], seat, text, svg, with_view)
    if encoded is not None:
        return encoded
    encoded = await _event_head(messages, live, event, seat) + await messages.ended_turn_field(live, event, seat)
    if with_view:
        version, view = await view_bytes(messages, live, seat, text, svg)
        if version == event["version"]:  # else a later event brings the view
            encoded += field(_EVENT_VIEW, view)
    # No task to share the work in flight: the parts are cached already, and
    # two watchers racing here build the same bytes. The key names the
    # version it is of, so it may land in a newer version's cache unharmed.
    if event["version"] >= live.version - 1:  # not an old event (a watcher resuming): worth keeping
        live.cache.keep_event_bytes(event["version"], seat, text, svg, with_view, encoded)
    return encoded


async def _patched_event_bytes(messages: MatchMessages, live: LiveMatch, event: dict, seat: int | None,
                               text: bool, svg: bool, locale: Locale | None, patched: PatchedFrames) -> bytes:
    """The newest event with the viewer's view as a patch from the view this
    watch sent last, or whole when there is none (a new watch: a resume) or
    it is no longer kept."""
    viewer = (live.id, seat, text, svg, None if locale is None else locale.tag)
    base = patched.watch.version
    kept = live.cache.kept_patched_event_bytes(viewer, base, event["version"])
    if kept is not None:  # another watcher holding the same view had it made
        patched.watch.version = event["version"]
        return kept
    encoded = await _patched_event(messages, live, event, seat, text, svg, locale, patched, viewer)
    if patched.watch.version == event["version"]:  # it carries the view: shared with the next such watcher
        live.cache.keep_patched_event_bytes(viewer, base, event["version"], encoded)
    return encoded


async def _patched_event(messages: MatchMessages, live: LiveMatch, event: dict, seat: int | None, text: bool,
                         svg: bool, locale: Locale | None, patched: PatchedFrames, viewer: tuple) -> bytes:
    if locale is None:
        head = await _event_head(messages, live, event, seat)
        version, whole = await view_bytes(messages, live, seat, text, svg)
    else:
        head = localized_event(await messages.engine.public_event(live, event, seat), locale).SerializeToString()
        view = await messages.localized_view_message(live, seat, text, svg, locale)
        version, whole = view.version, view.SerializeToString()
    if version != event["version"]:  # a later event brings the view
        return head
    after = patched.patches.view_json(viewer, version, whole)
    base = patched.watch.version
    patched.watch.version = version
    before = None if base is None or base >= version else patched.patches.kept_json(viewer, base)
    if base is None or before is None:
        return head + field(_EVENT_VIEW, whole)
    patch = live.cache.view_patch(viewer, base, version,
                                  lambda: patched.patches.patch_bytes(before, after, base, len(whole)))
    if patch is None:  # no smaller than the view itself
        return head + field(_EVENT_VIEW, whole)
    return head + field(_EVENT_VIEW_PATCH, patch)


async def _localized_event_bytes(messages: MatchMessages, live: LiveMatch, event: dict, seat: int | None,
                                 text: bool, svg: bool, locale: Locale) -> bytes:
    message = localized_event(await messages.engine.public_event(live, event, seat), locale)
    turn = await messages.ended_turn(live, event, seat, locale)
    if turn is not None:
        message.turn.CopyFrom(turn)
    if carries_view(live, event):
        view = await messages.localized_view_message(live, seat, text, svg, locale)
        if view.version == event["version"]:  # else a later event brings the view
            message.view.CopyFrom(view)
    return message.SerializeToString()


async def _event_head(messages: MatchMessages, live: LiveMatch, event: dict, seat: int | None) -> bytes:
    """The MatchEvent without the view, serialized: once per event when the
    viewer sees it as it is (every event but a move hidden from this
    viewer), shared by every viewer then."""
    shown = await messages.engine.public_event(live, event, seat)
    if shown is not event or event["version"] < live.version - 1:  # a viewer's own, or an old event
        return shown_event_message(shown).SerializeToString()
    return live.cache.event_head(event["version"], lambda: shown_event_message(event).SerializeToString())


async def session_event_bytes(messages: MatchMessages, live: LiveMatch, event: dict, seat: int | None,
                              text: bool, svg: bool, locale: Locale | None = None,
                              patched: PatchedFrames | None = None) -> bytes:
    """The same event as a Session stream sends it: a SessionEvent with the
    match's name and the MatchEvent (tag 0: nobody asked for it)."""
    encoded = await match_event_bytes(messages, live, event, seat, text, svg, locale, patched)
    return session_wrapped(live, event, seat, text, svg, encoded, locale is not None or patched is not None)


def session_wrapped(live: LiveMatch, event: dict, seat: int | None, text: bool, svg: bool, encoded: bytes,
                    own: bool) -> bytes:
    """``encoded``, a MatchEvent, as a Session stream sends it; ``own``: bytes made for this
    watcher alone (a language, a patch), not shared through the cache."""
    if own:
        return field(_SESSION_MATCH, f"matches/{live.id}".encode()) + field(_SESSION_MATCH_EVENT, encoded)
    # Wrapping needs no await: a plain cache entry, no task (the key names the version it is of).
    return live.cache.session_event_bytes(
        event["version"], seat, text, svg, carries_view(live, event),
        lambda: field(_SESSION_MATCH, f"matches/{live.id}".encode()) + field(_SESSION_MATCH_EVENT, encoded))


async def view_bytes(messages: MatchMessages, live: LiveMatch, seat: int | None, text: bool,
                     svg: bool) -> tuple[int, bytes]:
    """``seat``'s View now, serialized, and the version it shows (once per
    viewer and version: the event's bytes that carry it are cached)."""
    if not text and not svg:  # renderings need the view as data: built by view_message
        encoded = await messages.engine.encoded_view(live, seat)
        if encoded is not None and _parses(live, encoded.fields):
            return encoded.version, (view_header(live, encoded).SerializeToString() + encoded.fields
                                     + await messages.last_turn_field(live, seat, encoded.version, None))
    view = await messages.view_message(live, seat, text, svg)  # it logs and rebuilds fields the parser refuses
    return view.version, view.SerializeToString()


def _parses(live: LiveMatch, fields: bytes) -> bool:
    """Whether protobuf's C parser takes the worker's fields (it refuses a
    state nested beyond its depth): a client must be able to read what it
    is sent. Checked once per distinct fields and version; viewers who see
    the same share one bytes object (view_bytes.decode_shared)."""
    def check() -> bool:
        try:
            pb.View().MergeFromString(fields)
        except DecodeError:
            return False
        return True

    return live.cache.fields_parse(fields, check)
