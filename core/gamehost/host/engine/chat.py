"""A match's chat and its moderation: writing, watching, reports, mutes and
blocks, hiding and bans. A part the engine holds, built with what it uses.

The chat is public to whoever may watch the match: it is never a channel
for a seat's hidden information. Players write on the players' channel,
everyone else on the spectators'; ``chat_feed.visible`` says who reads
what. The store keeps every message (hidden ones too, for audit); a host
keeps a ``ChatFeed`` per match whose chat someone watches here, fed by its
own writes and, on a shared store, by the other replicas' notifications,
which also carry bans and users' mutes and blocks.
"""

from __future__ import annotations

import time
from typing import Any, AsyncIterator, Callable, Coroutine, Protocol, Sequence

import pluggy
import structlog

from gamehost.host import errors
from gamehost.host.auth import Principal
from gamehost.host.auth.bans import BannedSubjects
from gamehost.host.engine.chat_feed import ChatFeed, ChatViewer, visible
from gamehost.host.engine.live import LiveMatch
from gamehost.host.engine.match_access import Access
from gamehost.host.store.chat_rows import (BanRecord, ChatRecord, Relations, ReportRecord,
                                           new_report_id)
from gamehost.host.store.base import Store

log = structlog.get_logger("gamehost.chat")

MAX_CHAT_CHARS = 500  # one message, after trimming (the gate bounds the request at the same length)
MAX_MATCH_MESSAGES = 2000  # a match's chat, every channel: past it the match takes no more
MAX_REASON_CHARS = 200  # what an admin or a reporter says, as kept
CHAT_REFUSED = "CHAT_REFUSED"
SIGN_IN_TO_CHAT = "SIGN_IN_REQUIRED"


class ChatMatches(Protocol):
    """What the chat needs of the engine: a match as its caller may read it, and the seat they read it as."""

    async def watched_match(self, match_id: str, access: Access) -> tuple[LiveMatch, int | None]: ...


class MatchChat:
    def __init__(self, matches: ChatMatches, store: Store, bans: BannedSubjects,
                 filters: Sequence[pluggy.HookImpl], spawn: Callable[[Coroutine[Any, Any, Any]], Any],
                 closing: Callable[[], bool]) -> None:
        self.matches = matches
        self.rows = store.chat
        self.store = store
        self.bans = bans
        self.filters = list(filters)
        self.spawn = spawn
        self.closing = closing
        self.feeds: dict[str, ChatFeed] = {}
        self._relations: dict[str, Relations] = {}  # users watching here, until a change of theirs is heard

    async def start(self) -> None:
        """Read the bans; on a shared store, hear of every replica's changes (before the store's ``subscribe``)."""
        await self._load_bans()
        if self.store.shared:
            subscribe: Callable[[Callable[[str | None], None]], None] = getattr(self.store, "subscribe_chat")
            subscribe(self._heard)

    # ------------------------------------------------------------ writing

    async def send(self, match_id: str, text: str, access: Access) -> ChatRecord:
        caller = access.caller
        if caller is None or caller.anonymous:
            raise errors.Unauthenticated("Chat needs a signed-in user, so that reports, mutes and bans have "
                                         "someone to name: sign in (authorization: Bearer ...).", SIGN_IN_TO_CHAT)
        words = text.strip()
        if not words:
            raise errors.invalid_field("text", "a chat message needs at least one character that is not a space.")
        if len(words) > MAX_CHAT_CHARS:
            raise errors.invalid_field("text", f"a chat message is at most {MAX_CHAT_CHARS} characters, "
                                               f"not {len(words)}.", "CHAT_TOO_LONG")
        live, seat = await self.matches.watched_match(match_id, access)
        words = self._filtered(words, live, caller.subject)
        record = ChatRecord(live.id, 0, "spectators" if seat is None else "players", caller.subject,
                            caller.display_name or caller.subject, -1 if seat is None else seat, words, time.time())
        stored = await self.rows.add_message(record, MAX_MATCH_MESSAGES)
        if stored is None:
            raise errors.ResourceExhausted(f"matches/{live.id} holds {MAX_MATCH_MESSAGES} chat messages, as many as "
                                           "a match keeps: it takes no more.", "CHAT_FULL",
                                           metadata=errors.metadata_of(limit=MAX_MATCH_MESSAGES))
        live.log.info("chat message", sequence=stored.sequence, channel=stored.channel, sender=caller.subject)
        feed = self.feeds.get(live.id)
        if feed is not None:
            feed.take([stored])
        return stored

    def _filtered(self, text: str, live: LiveMatch, sender: str) -> str:
        """The text after every plugin's word filter; refused when one leaves nothing."""
        for impl in self.filters:
            try:
                kept = impl.function(text=text, game_id=live.record.game_id, match_id=live.id, sender=sender)
            except Exception as error:  # a plugin's filter must not stop the chat
                live.log.error("chat filter failed", plugin=impl.plugin_name, error=f"{type(error).__name__}: {error}")
                continue
            if kept is None:
                continue
            if not isinstance(kept, str) or not kept.strip():
                raise errors.InvalidArgument("The host's word filter refused this message: say it otherwise.",
                                             CHAT_REFUSED, metadata=errors.metadata_of(plugin=impl.plugin_name))
            text = kept.strip()[:MAX_CHAT_CHARS]
        return text

    # ------------------------------------------------------------ reading

    async def viewer(self, live: LiveMatch, seat: int | None, caller: Principal) -> ChatViewer:
        if caller.subject and caller.subject not in self._relations:
            self._relations[caller.subject] = await self.rows.relations(caller.subject)
        return ChatViewer(caller.subject, seat is not None, caller.admin)

    def shown(self, records: Sequence[ChatRecord], viewer: ChatViewer, over: bool) -> list[ChatRecord]:
        """The messages ``viewer`` may see, as of the relations known now."""
        relations = self._relations.get(viewer.subject, Relations())
        return [record for record in records if visible(record, viewer, relations, over)]

    async def log(self, live: LiveMatch, seat: int | None, caller: Principal) -> list[ChatRecord]:
        """The match's chat as ``caller`` may read it now (GetMatchLog)."""
        viewer = await self.viewer(live, seat, caller)
        return self.shown(await self.rows.messages(live.id), viewer, live.over)

    async def watch(self, live: LiveMatch, seat: int | None, caller: Principal,
                    after: int) -> AsyncIterator[list[ChatRecord]]:
        """The chat ``caller`` may read, after the message ``after`` (the
        first batch, maybe empty), then each new or hidden message, until the
        engine closes (or the caller stops)."""
        viewer = await self.viewer(live, seat, caller)
        feed = self.feeds.get(live.id)
        fresh = feed is None
        if feed is None:  # held before the read: a write or another replica's note meanwhile reaches it too
            feed = self.feeds[live.id] = ChatFeed(live.id, ())
        feed.watchers += 1
        try:
            if fresh:
                try:
                    feed.take(await self.rows.messages(live.id))
                finally:
                    feed.loaded.set()
            else:  # another watcher is reading the stored messages: the backlog waits for them
                await feed.loaded.wait()
            first = True
            async for batch in feed.follow(after, self.closing):
                shown = self.shown(batch, viewer, live.over)
                if shown or first:
                    yield shown
                first = False
        finally:
            feed.watchers -= 1
            if not feed.watchers and self.feeds.get(live.id) is feed:
                del self.feeds[live.id]

    # ------------------------------------------------------------ players' moderation

    async def report_message(self, match_id: str, sequence: int, reason: str, access: Access) -> ReportRecord:
        reporter = self._signed_in(access.caller, "report a message")
        live, _ = await self.matches.watched_match(match_id, access)
        record = await self.rows.message(live.id, sequence)
        if record is None:
            raise errors.NotFound(f"matches/{live.id} has no chat message {sequence}.", "CHAT_MESSAGE_NOT_FOUND",
                                  resource=("chat message", f"matches/{live.id}/chat/{sequence}"))
        report = ReportRecord(new_report_id(), reporter, record.sender, live.id, sequence,
                              reason.strip()[:MAX_REASON_CHARS], time.time())
        await self.rows.add_report(report)
        live.log.info("chat message reported", sequence=sequence, reporter=reporter, reported=record.sender)
        return report

    async def report_player(self, subject: str, reason: str, match_id: str, caller: Principal) -> ReportRecord:
        reporter = self._signed_in(caller, "report a player")
        report = ReportRecord(new_report_id(), reporter, subject, match_id, 0, reason.strip()[:MAX_REASON_CHARS],
                              time.time())
        await self.rows.add_report(report)
        log.info("player reported", reporter=reporter, reported=subject, match_id=match_id or None)
        return report

    async def set_relation(self, caller: Principal, other: str, kind: str, on: bool) -> Relations:
        """Mute or block (``kind``) the user ``other`` (``on``), or stop; the caller's relations after it."""
        subject = self._signed_in(caller, "mute or block a user")
        if other == subject:
            raise errors.invalid_field("player", f"you cannot {kind} yourself.")
        await self.rows.set_relation(subject, other, kind, on)
        for changed in (subject, other):  # a block is seen from both sides
            self._relations.pop(changed, None)
        return await self.relations(caller)

    async def relations(self, caller: Principal) -> Relations:
        subject = self._signed_in(caller, "mute or block users")
        found = self._relations[subject] = await self.rows.relations(subject)
        return found

    async def blocked_pairs(self, subjects: Sequence[str]) -> set[frozenset[str]]:
        """Pairs of ``subjects`` that matchmaking must not seat together."""
        return await self.rows.blocked_pairs([subject for subject in subjects if subject])

    @staticmethod
    def _signed_in(caller: Principal | None, action: str) -> str:
        if caller is None or caller.anonymous:
            raise errors.Unauthenticated(f"Only a signed-in user may {action}: sign in "
                                         "(authorization: Bearer ...).", SIGN_IN_TO_CHAT)
        return caller.subject

    # ------------------------------------------------------------ admins' moderation

    async def hide(self, match_id: str, sequence: int, admin: Principal) -> ChatRecord:
        record = await self.rows.hide_message(match_id, sequence, admin.subject or "admin")
        if record is None:
            raise errors.NotFound(f"matches/{match_id} has no chat message {sequence}.", "CHAT_MESSAGE_NOT_FOUND",
                                  resource=("chat message", f"matches/{match_id}/chat/{sequence}"))
        log.info("chat message hidden", match_id=match_id, sequence=sequence, admin=admin.subject)
        feed = self.feeds.get(match_id)
        if feed is not None:
            feed.take([record])
        return record

    async def ban(self, subject: str, reason: str, admin: Principal) -> BanRecord:
        if subject == admin.subject:
            raise errors.invalid_field("player", "an admin cannot ban themselves.")
        record = BanRecord(subject, reason.strip()[:MAX_REASON_CHARS], admin.subject, time.time())
        await self.rows.ban(record)
        self.bans.add(subject, record.reason)
        log.info("user banned", subject=subject, admin=admin.subject)
        return record

    async def unban(self, subject: str, admin: Principal) -> BanRecord:
        record = await self.rows.unban(subject)
        if record is None:
            raise errors.NotFound(f"players/{subject} is not banned.", "BAN_NOT_FOUND",
                                  resource=("ban", f"players/{subject}"))
        self.bans.remove(subject)
        log.info("user unbanned", subject=subject, admin=admin.subject)
        return record

    async def reports(self, reported: str, after: tuple[float, str] | None, limit: int) -> list[ReportRecord]:
        return await self.rows.reports(reported, after, limit)

    # ------------------------------------------------------------ other replicas

    def _heard(self, note: str | None) -> None:
        """Another replica's change (postgres_chat.py says the notes); None: some may have been lost."""
        if note is None or note == "b":
            self.spawn(self._load_bans())
        if note is None:
            self._relations.clear()
            for match_id in list(self.feeds):
                self.spawn(self._reload(match_id))
            return
        kind, _, rest = note.partition(" ")
        if kind == "m" and rest in self.feeds:
            self.spawn(self._reload(rest))
        elif kind == "r":
            for subject in rest.split(" "):
                self._relations.pop(subject, None)

    def reread_after_erasure(self, subject: str, related: Sequence[str], match_ids: Sequence[str]) -> None:
        """A user's data was erased here: their ban and relations are gone, their messages carry a
        pseudonym (other replicas hear the same through ``_heard``)."""
        self.bans.remove(subject)
        for user in (subject, *related):
            self._relations.pop(user, None)
        for match_id in match_ids:
            if match_id in self.feeds:
                self.spawn(self._reload(match_id))

    async def _reload(self, match_id: str) -> None:
        records = await self.rows.messages(match_id)
        feed = self.feeds.get(match_id)
        if feed is not None:
            feed.take(records)

    async def _load_bans(self) -> None:
        self.bans.replace({record.subject: record.reason for record in await self.rows.bans()})
