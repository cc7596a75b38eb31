"""The chat's calls, shared by the GameHost servicer and the Session stream:
protobuf in, ``MatchChat`` (engine/chat.py) calls, protobuf out; the
per-caller rate of messages; and chat events for a match's watchers.

The rate is counted on the replica a message reaches, as the gate's
budgets are (quotas.py): a caller spread over several replicas gets up to
that many times the rate.
"""

from __future__ import annotations

import asyncio
from typing import AsyncIterator, TypeVar

from gamehost.host import errors
from gamehost.host.auth.principal import Principal
from gamehost.host.engine.live import LiveMatch
from gamehost.host.engine.match_access import Access
from gamehost.host.engine.match_engine import MatchEngine
from gamehost.host.rpc.messages import timestamp
from gamehost.host.rpc.quotas import TokenBuckets
from gamehost.host.rpc.request_fields import resource_id
from gamehost.host.store.chat_rows import BLOCK, MUTE, BanRecord, ChatRecord, Relations, ReportRecord
from gamehost.v1 import gamehost_pb2 as pb

CHAT_RATE = 0.5  # messages a second a caller may send, on average
CHAT_BURST = 5  # messages a caller may send at once
TRACKED_SENDERS = 100_000
CHANNEL_TO_PB = {"players": pb.CHAT_CHANNEL_PLAYERS, "spectators": pb.CHAT_CHANNEL_SPECTATORS}

T = TypeVar("T")


def chat_pb(record: ChatRecord, admin: bool = False) -> pb.ChatMessage:
    """A message as a viewer receives it: a hidden one keeps its text for admins alone."""
    return pb.ChatMessage(match=f"matches/{record.match_id}", sequence=record.sequence,
                          channel=CHANNEL_TO_PB[record.channel], sender=f"players/{record.sender}",
                          sender_name=record.sender_name, seat=record.seat,
                          text=record.text if admin or not record.hidden else "", time=timestamp(record.time),
                          hidden=record.hidden)


def report_pb(report: ReportRecord, message: ChatRecord | None = None) -> pb.ChatReport:
    return pb.ChatReport(name=f"reports/{report.id}", reporter=f"players/{report.reporter}",
                         reported=f"players/{report.reported}",
                         match=f"matches/{report.match_id}" if report.match_id else "", sequence=report.sequence,
                         reason=report.reason, create_time=timestamp(report.create_time),
                         message=chat_pb(message, admin=True) if message else None)


def relations_pb(relations: Relations) -> pb.ChatRelations:
    return pb.ChatRelations(muted=[f"players/{s}" for s in sorted(relations.muted)],
                            blocked=[f"players/{s}" for s in sorted(relations.blocked)])


def ban_pb(record: BanRecord, active: bool) -> pb.Ban:
    return pb.Ban(player=f"players/{record.subject}", reason=record.reason, banned_by=f"players/{record.banned_by}",
                  create_time=timestamp(record.create_time), active=active)


def chat_event(live: LiveMatch, record: ChatRecord, admin: bool) -> pb.MatchEvent:
    """A chat message as a match event: not a step, so it carries the match's version as it is now."""
    return pb.MatchEvent(version=live.version, kind=pb.EVENT_KIND_CHAT, time=timestamp(record.time),
                         seat=record.seat, chat=chat_pb(record, admin))


def player_subject(name: str, field: str = "player") -> str:
    return resource_id(name, "players", field)


class ChatCalls:
    def __init__(self, engine: MatchEngine) -> None:
        self.engine = engine
        self.chat = engine.chat
        self.rate = TokenBuckets(CHAT_RATE, CHAT_BURST, TRACKED_SENDERS)

    async def send(self, request: pb.SendChatRequest, caller: Principal) -> pb.ChatMessage:
        match_id = resource_id(request.name, "matches")
        if not caller.anonymous:  # the anonymous are refused by the chat, saying why
            wait = self.rate.take(caller.quota_key)
            if wait:
                wait = round(wait + 0.005, 2)
                raise errors.ResourceExhausted(
                    f"More than {CHAT_BURST} chat messages at once, or {CHAT_RATE:g} a second on average. "
                    f"Retry in {wait:.2f} s.", "CHAT_RATE", metadata=errors.metadata_of(limit="chat"),
                    quota_violations=[(caller.quota_key, f"{CHAT_RATE:g} chat messages a second, "
                                                         f"bursts of {CHAT_BURST}")], retry_after=wait)
        record = await self.chat.send(match_id, request.text,
                                      Access(caller, request.player_token, request.invitation_code))
        return chat_pb(record, caller.admin)

    async def report_message(self, request: pb.ReportChatRequest, caller: Principal) -> pb.ChatReport:
        report = await self.chat.report_message(resource_id(request.name, "matches"), request.sequence,
                                                request.reason, Access(caller, "", request.invitation_code))
        return report_pb(report)

    async def report_player(self, request: pb.ReportPlayerRequest, caller: Principal) -> pb.ChatReport:
        match_id = resource_id(request.match, "matches", "match") if request.match else ""
        report = await self.chat.report_player(player_subject(request.player), request.reason, match_id, caller)
        return report_pb(report)

    async def relate(self, player: str, caller: Principal, kind: str, on: bool) -> pb.ChatRelations:
        return relations_pb(await self.chat.set_relation(caller, player_subject(player), kind, on))

    async def mute(self, request: pb.MuteUserRequest, caller: Principal) -> pb.ChatRelations:
        return await self.relate(request.player, caller, MUTE, True)

    async def unmute(self, request: pb.UnmuteUserRequest, caller: Principal) -> pb.ChatRelations:
        return await self.relate(request.player, caller, MUTE, False)

    async def block(self, request: pb.BlockUserRequest, caller: Principal) -> pb.ChatRelations:
        return await self.relate(request.player, caller, BLOCK, True)

    async def unblock(self, request: pb.UnblockUserRequest, caller: Principal) -> pb.ChatRelations:
        return await self.relate(request.player, caller, BLOCK, False)

    async def relations(self, caller: Principal) -> pb.ChatRelations:
        return relations_pb(await self.chat.relations(caller))

    async def log(self, live: LiveMatch, seat: int | None, caller: Principal) -> list[pb.ChatMessage]:
        return [chat_pb(record, caller.admin) for record in await self.chat.log(live, seat, caller)]

    async def events(self, live: LiveMatch, seat: int | None, caller: Principal,
                     after: int) -> AsyncIterator[list[pb.MatchEvent]]:
        """The chat a watcher may read, as batches of match events: first the
        messages after ``after`` (maybe none), then each change."""
        async for batch in self.chat.watch(live, seat, caller, after):
            yield [chat_event(live, record, caller.admin) for record in batch]


async def flattened(batches: AsyncIterator[list[T]]) -> AsyncIterator[T]:
    async for batch in batches:
        for item in batch:
            yield item


async def merged(events: AsyncIterator[T], chat: AsyncIterator[T]) -> AsyncIterator[T]:
    """``events`` with ``chat`` sent in between, each in its own order, until
    ``events`` ends (the match's watch: over and fully sent, or the host
    closing); then the chat stops too. A failure of either ends both. The
    chat's backlog goes first, before this (``WatchMatch``), so a watch of a
    match that is over still gets it."""
    queue: asyncio.Queue[tuple[bool, T | BaseException | None]] = asyncio.Queue(maxsize=64)

    async def pump(source: AsyncIterator[T], last: bool) -> None:
        try:
            async for item in source:
                await queue.put((False, item))
        except Exception as error:
            await queue.put((True, error))
            return
        if last:
            await queue.put((True, None))

    tasks = [asyncio.ensure_future(pump(events, True)), asyncio.ensure_future(pump(chat, False))]
    try:
        while True:
            done, item = await queue.get()
            if done:
                if isinstance(item, BaseException):
                    raise item
                return
            yield item  # type: ignore[misc]
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
