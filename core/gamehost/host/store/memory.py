"""In-memory store for tests and benchmarks: the SQLite semantics, no disk.

Snapshots and events are kept as JSON text, as the durable backends keep
them, so a state that would not survive the database does not survive here.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
from typing import Sequence

from gamehost.host.store.base import (OVER_STATUSES, Append, DeliveryRecord, MatchRecord, PendingDelivery,
                                      PartyFull, PlayerRating, Snapshot, TicketRecord, VersionConflict,
                                      QueuedPool, delivery_state)
from gamehost.host.store.push_rows import PushSubscriptionRecord
from gamehost.host.store.records import copy_record, dumps, loads, player_subjects, turn_rows
from gamehost.host.store.memory_chat import MemoryChat
from gamehost.host.store.user_data import Erasure, UserDataUnavailable
from gamehost.host.store.ticket_rows import party_full


@dataclasses.dataclass
class _QueuedNotification:
    """A notifications row (delivery_rows.py says what each field means)."""

    match_id: str
    body: str
    create_time: float
    state: str = "pending"
    attempts: int = 0
    next_attempt: float | None = None
    claim_until: float | None = None
    round_start: int = 0


class MemoryUsers:
    """Users' data in the memory store: none outlives the host, so there is nothing to export or erase."""

    async def export(self, subject: str) -> dict:
        raise UserDataUnavailable("the memory store")

    async def erase(self, subject: str, pseudonym: str) -> Erasure:
        raise UserDataUnavailable("the memory store")


class MemoryStore:
    shared = False  # this process is the only writer

    def __init__(self) -> None:
        self._matches: dict[str, MatchRecord] = {}
        self._events: dict[str, list[str]] = {}
        self._snapshots: dict[str, tuple[int, str]] = {}
        self._requests: dict[str, dict[tuple[int, str], int]] = {}
        self._rated: set[str] = set()  # matches whose result counted in the ratings
        self._ratings: dict[tuple[str, str], PlayerRating] = {}  # (subject, game) -> rating
        self._notifications: dict[str, _QueuedNotification] = {}  # key -> its row (delivery_rows.py)
        self._attempts: dict[str, list[tuple[int, float, int, str]]] = {}
        self._tickets: dict[str, TicketRecord] = {}  # matchmaking's queue
        self._tickets_lock = asyncio.Lock()  # held while a match forms from a pool, as in sqlite.py
        self._turns: dict[str, dict[str, float | None]] = {}  # match -> signed-in player -> since when to move
        self._strikes: dict[str, int] = {}  # match -> rules failures counted
        self._invitations: dict[str, str] = {}  # match -> the hash of its invitation code
        self._push: dict[str, PushSubscriptionRecord] = {}  # endpoint -> its browser's subscription
        self.chat = MemoryChat()  # chat and moderation (chat_rows.py)
        self.users = MemoryUsers()

    async def open(self) -> None:
        pass

    async def close(self) -> None:
        pass

    async def ping(self) -> None:
        pass  # always reachable: it is this process

    async def create_match(self, record: MatchRecord, snapshot: Snapshot, events: Sequence[dict] = (),
                           due_in: float | None = None, to_move: Sequence[int] | None = None) -> None:
        if record.id in self._matches:
            raise VersionConflict(f"match {record.id} exists")
        if record.create_request_id and await self.find_match_by_request(record.create_request_id):
            raise VersionConflict(f"create request {record.create_request_id} already made a match")
        self._matches[record.id] = copy_record(record)
        self._events[record.id] = [dumps(event) for event in events]
        self._snapshots[record.id] = (snapshot.version, dumps(snapshot.state))
        self._requests[record.id] = {}
        self._turns[record.id] = turns = dict.fromkeys(player_subjects(record))
        for moves, since, _, subject in turn_rows(record, to_move):
            turns[subject] = since if moves else None

    async def append(self, step: Append) -> None:
        match_id = step.record.id
        log = self._events[match_id]
        requests = self._requests[match_id]
        for offset, event in enumerate(step.events):
            if event["version"] != len(log) + 1 + offset:
                raise VersionConflict(f"match {match_id} has no free version {event['version']}")
            key = (event.get("seat", -1), event.get("request_id") or "")
            if key[1] and key in requests:
                raise VersionConflict(f"request {key[1]} already applied")
        encoded = [dumps(event) for event in step.events]
        snapshot = None if step.snapshot is None else (step.snapshot.version, dumps(step.snapshot.state))
        # Everything is checked and encoded: from here on nothing can fail.
        log.extend(encoded)
        for event in step.events:
            if event.get("request_id"):
                requests[(event["seat"], event["request_id"])] = event["version"]
        self._matches[match_id] = copy_record(step.record)
        turns = self._turns[match_id]
        if step.seats_changed:  # players who stay keep their turn's start
            self._turns[match_id] = turns = {subject: turns.get(subject) for subject in player_subjects(step.record)}
        for to_move, since, _, subject in turn_rows(step.record, step.to_move):
            turns[subject] = (turns[subject] or since) if to_move else None
        if snapshot is not None:
            self._snapshots[match_id] = snapshot

    async def get_match(self, match_id: str) -> MatchRecord | None:
        record = self._matches.get(match_id)
        return None if record is None else copy_record(record)

    async def find_match_by_request(self, request_id: str) -> MatchRecord | None:
        for record in self._matches.values():
            if record.create_request_id == request_id:
                return copy_record(record)
        return None

    async def list_matches(self, *, game_id, status, limit, before, player=None, my_turn=False, public_only=False):
        rows = sorted(self._matches.values(), key=lambda r: (r.create_time, r.id), reverse=True)
        selected = []
        for record in rows:
            if public_only and record.visibility != "public":
                continue
            if player and all(seat.subject != player for seat in record.seats):
                continue
            if player and my_turn and self._turns[record.id].get(player) is None:
                continue
            if game_id and record.game_id != game_id:
                continue
            if status and record.status != status:
                continue
            if before is not None and (record.create_time, record.id) >= before:
                continue
            selected.append(copy_record(record))
            if len(selected) == limit:
                break
        return selected

    async def list_match_keys(self, *, game_id, status, limit, before, player=None, my_turn=False,
                              public_only=False):
        return [(r.id, r.version, r.create_time) for r in await self.list_matches(
            game_id=game_id, status=status, limit=limit, before=before, player=player, my_turn=my_turn,
            public_only=public_only)]

    async def player_turns(self, subject: str, match_ids: Sequence[str]) -> dict[str, float]:
        since = {match_id: self._turns.get(match_id, {}).get(subject) for match_id in match_ids}
        return {match_id: time for match_id, time in since.items() if time is not None}

    async def delete_match(self, match_id: str) -> bool:
        record = self._matches.get(match_id)
        if record is None or record.status not in OVER_STATUSES:
            return False
        for table in (self._matches, self._events, self._snapshots, self._requests, self._turns, self._strikes,
                      self._invitations):
            table.pop(match_id, None)
        self.chat.forget_match(match_id)
        return True

    async def stale_open_matches(self, created_before: float, limit: int) -> list[str]:
        stale = sorted((r.create_time, r.id) for r in self._matches.values()
                       if r.status == "open" and r.create_time < created_before)
        return [match_id for _, match_id in stale[:limit]]

    async def idle_active_matches(self, updated_before: float, limit: int) -> list[str]:
        idle = sorted((r.update_time, r.id) for r in self._matches.values()
                      if r.status == "active" and r.update_time < updated_before)
        return [match_id for _, match_id in idle[:limit]]

    async def prune_over_matches(self, updated_before: float, limit: int) -> list[str]:
        old = [r.id for r in self._matches.values() if r.status in OVER_STATUSES and r.update_time < updated_before]
        for match_id in old[:limit]:
            await self.delete_match(match_id)
        return old[:limit]

    async def unfinished_matches(self) -> list[MatchRecord]:
        return [copy_record(r) for r in self._matches.values() if r.status in ("open", "active")]

    async def events(self, match_id: str, after_version: int = 0, limit: int | None = None) -> list[dict]:
        texts = self._events.get(match_id, [])[after_version:]
        return [loads(text) for text in (texts if limit is None else texts[:limit])]

    async def events_before(self, match_id: str, before_version: int, limit: int) -> list[dict]:
        end = max(before_version - 1, 0)  # versions start at 1: version v is at index v - 1
        return [loads(text) for text in self._events.get(match_id, [])[max(end - limit, 0):end]]

    def log_length(self, match_id: str) -> int:
        """Events committed for a match (for the conformance kit's checks)."""
        return len(self._events[match_id])

    async def latest_snapshot(self, match_id: str) -> Snapshot:
        version, text = self._snapshots[match_id]
        return Snapshot(version, loads(text))

    async def request_versions(self, match_id: str) -> dict[tuple[int, str], int]:
        return dict(self._requests.get(match_id, {}))

    # ------------------------------------------------------------ ratings

    async def rate_match(self, match_id: str, subjects: list[str], game_id: str, compute) -> bool:
        if match_id in self._rated:
            return False
        current = {s: self._ratings[(s, game_id)] for s in subjects if (s, game_id) in self._ratings}
        after = compute(current)
        self._rated.add(match_id)
        for rating in after:
            self._ratings[(rating.subject, game_id)] = rating
        return True

    async def leaderboard(self, game_id: str, limit: int, after: tuple[float, str] | None = None) -> list:
        ranked = sorted((r for (_, game), r in self._ratings.items() if game == game_id),
                        key=lambda r: (-r.rating, r.subject))
        if after:
            ranked = [r for r in ranked if (-r.rating, r.subject) > (-after[0], after[1])]
        return [dataclasses.replace(r) for r in ranked[:limit]]

    async def player_ratings(self, subject: str) -> list:
        return [dataclasses.replace(r) for (s, _), r in sorted(self._ratings.items()) if s == subject]

    # ------------------------------------------------------------ turn notifications

    async def claim_notification(self, key: str, match_id: str, body: str, now: float) -> bool:
        if key in self._notifications:
            return False
        self._notifications[key] = _QueuedNotification(match_id, body, now, next_attempt=now)
        return True

    async def claim_deliveries(self, now: float, hold: float, limit: int) -> list[PendingDelivery]:
        due = sorted(((row.next_attempt, key) for key, row in self._notifications.items()
                      if row.next_attempt is not None and row.next_attempt <= now
                      and (row.claim_until is None or row.claim_until < now)))[:limit]
        claimed = []
        for _, key in due:
            row = self._notifications[key]
            row.claim_until = now + hold
            claimed.append(PendingDelivery(key, row.match_id, row.body, row.attempts, row.round_start))
        return claimed

    async def record_delivery_attempt(self, key: str, attempt: int, now: float, status: int, error: str,
                                      retry_in: float | None = None) -> None:
        recorded = self._attempts.setdefault(key, [])
        if all(made != attempt for made, *_ in recorded):
            recorded.append((attempt, now, status, error))
        row = self._notifications.get(key)
        if row is not None and row.attempts < attempt:
            row.attempts, row.state, row.claim_until = attempt, delivery_state(status, retry_in), None
            row.next_attempt = None if retry_in is None else now + retry_in

    async def delivery_attempts(self, key: str) -> list[tuple[int, float, int, str]]:
        return list(self._attempts.get(key, []))

    async def add_strike(self, match_id: str) -> int:
        self._strikes[match_id] = self._strikes.get(match_id, 0) + 1
        return self._strikes[match_id]

    async def add_push_subscription(self, subscription: PushSubscriptionRecord, keep: int) -> None:
        self._push[subscription.endpoint] = subscription
        held = sorted((s for s in self._push.values() if s.subject == subscription.subject),
                      key=lambda s: (-s.created, s.endpoint))
        for beyond in held[keep:]:
            del self._push[beyond.endpoint]

    async def push_subscriptions(self, subjects: Sequence[str]) -> list[PushSubscriptionRecord]:
        wanted = set(subjects)
        return sorted((s for s in self._push.values() if s.subject in wanted), key=lambda s: (s.subject, s.created))

    async def remove_push_subscription(self, endpoint: str, subject: str | None = None) -> bool:
        held = self._push.get(endpoint)
        if held is None or (subject is not None and held.subject != subject):
            return False
        del self._push[endpoint]
        return True

    async def set_invitation(self, match_id: str, code_hash: str) -> None:
        self._invitations[match_id] = code_hash

    async def invitation_admits(self, match_id: str, code_hash: str) -> bool:
        return self._invitations.get(match_id) == code_hash

    async def revoke_invitation(self, match_id: str) -> bool:
        return self._invitations.pop(match_id, None) is not None

    async def clear_strikes(self, match_id: str) -> None:
        self._strikes.pop(match_id, None)

    async def strikes(self, match_id: str) -> int:
        return self._strikes.get(match_id, 0)

    async def list_deliveries(self, state: str | None, match_id: str | None, after: tuple[float, str] | None,
                              limit: int) -> list[DeliveryRecord]:
        listed = sorted(((row.create_time, key) for key, row in self._notifications.items()
                         if (state is None or row.state == state) and (match_id is None or row.match_id == match_id)
                         and (after is None or (row.create_time, key) < after)), reverse=True)
        return [self._delivery_record(key) for _, key in listed[:limit]]

    async def delivery(self, key: str) -> DeliveryRecord | None:
        return self._delivery_record(key) if key in self._notifications else None

    def _delivery_record(self, key: str) -> DeliveryRecord:
        row = self._notifications[key]
        return DeliveryRecord(key, row.match_id, row.body, row.create_time, row.state, row.next_attempt,
                              tuple(self._attempts.get(key, [])))

    async def retry_delivery(self, key: str, now: float) -> str | None:
        row = self._notifications.get(key)
        if row is None:
            return None
        before = row.state
        if before == "failed":
            row.state, row.next_attempt, row.round_start, row.claim_until = "pending", now, row.attempts, None
        return before

    # ------------------------------------------------------------ matchmaking

    async def add_ticket(self, ticket: TicketRecord, max_open: int) -> bool:
        if sum(t.subject == ticket.subject and t.state == "queued" for t in self._tickets.values()) >= max_open:
            return False
        if ticket.party and party_full(ticket, len(await self.party_tickets(ticket.party))):
            raise PartyFull(ticket.party)
        self._tickets[ticket.id] = dataclasses.replace(ticket, options=dict(ticket.options))
        return True

    async def get_ticket(self, ticket_id: str) -> TicketRecord | None:
        ticket = self._tickets.get(ticket_id)
        return None if ticket is None else dataclasses.replace(ticket)

    async def cancel_ticket(self, ticket_id: str, now: float) -> bool:
        async with self._tickets_lock:
            ticket = self._tickets.get(ticket_id)
            if ticket is None or ticket.state != "queued":
                return False
            ticket.state, ticket.update_time = "cancelled", now
            return True

    async def expire_tickets(self, now: float, forget_before: float) -> list[TicketRecord]:
        async with self._tickets_lock:
            expired = []
            for ticket in list(self._tickets.values()):
                if ticket.state == "queued" and ticket.expire_time <= now:
                    ticket.state, ticket.update_time = "expired", now
                    expired.append(dataclasses.replace(ticket))
                elif ticket.state != "queued" and ticket.update_time < forget_before:
                    del self._tickets[ticket.id]
            return expired

    async def pools_to_match(self, now: float, queued_since: float) -> list[str]:
        return sorted({t.pool for t in self._tickets.values() if t.state == "queued" and (
            t.create_time >= queued_since or (t.bot_wait is not None and t.create_time + t.bot_wait <= now)
            or (t.widen_per_second is not None and t.max_widening is not None
                and t.create_time + t.max_widening / t.widen_per_second >= queued_since))})

    async def player_tickets(self, subject: str) -> list[TicketRecord]:
        return [dataclasses.replace(t) for t in self._tickets.values() if t.subject == subject]

    async def party_tickets(self, party: str) -> list[TicketRecord]:
        return sorted((dataclasses.replace(t) for t in self._tickets.values() if t.party == party and t.state == "queued"),
                      key=lambda t: (t.create_time, t.id))

    async def queued_ticket_counts(self) -> dict[str, int]:
        return dict(collections.Counter(t.game_id for t in self._tickets.values() if t.state == "queued"))

    async def queued_pools(self) -> list[QueuedPool]:
        pools: dict[tuple[str, str, int], list[float]] = {}
        for t in self._tickets.values():
            if t.state == "queued":
                pools.setdefault((t.game_id, t.pool, t.seats), []).append(t.create_time)
        ordered = sorted(pools.items(), key=lambda item: (item[0][0], item[0][2], item[0][1]))  # game, seats, pool
        return [QueuedPool(pool, game_id, seats, len(times), min(times)) for (game_id, pool, seats), times in ordered]

    async def form_match(self, pool: str, now: float, form) -> dict[str, tuple[str, int]]:
        async with self._tickets_lock:
            queued = sorted((t for t in self._tickets.values()
                             if t.pool == pool and t.state == "queued" and t.expire_time > now),
                            key=lambda t: (t.create_time, t.id))
            placed = await form([dataclasses.replace(t) for t in queued]) if queued else {}
            for ticket_id, (match_id, seat) in placed.items():
                ticket = self._tickets[ticket_id]
                ticket.state, ticket.match_id, ticket.seat, ticket.update_time = "matched", match_id, seat, now
            return placed
