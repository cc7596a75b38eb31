"""The store interface and the records it keeps."""

from __future__ import annotations

from urllib.parse import urlsplit

from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Protocol, Sequence

from gamehost.host.store.push_rows import PushSubscriptionRecord
from gamehost.host.store.chat_rows import ChatStore
from gamehost.host.store.user_data import UserDataStore


class StoreUnusable(Exception):
    """The store cannot be opened as a gamehost store (an empty or damaged
    database file); the message says which file and what to do."""


class VersionConflict(Exception):
    """An event at this (match, version) is already committed: someone else
    moved first. Nothing of the failed append was written."""


@dataclass
class SeatRecord:
    index: int
    kind: str = "open"  # "open" | "human" | "bot"
    player_name: str = ""
    token_hash: str = ""
    bot: str = ""
    subject: str = ""  # the signed-in user holding the seat; "": anonymous or none
    away_until: float = 0.0  # a bot plays for the absent player after this time (epoch s); 0: not away
    reserved_for: str = ""  # the signed-in user (subject) the seat is held for; "": anyone may take it
    resigned: int = 0  # 0: in play; n: the n-th seat to resign (the bot plays it to the end, ranked last)

    def to_json(self) -> dict:
        data = {"index": self.index, "kind": self.kind, "player_name": self.player_name,
                "token_hash": self.token_hash, "bot": self.bot}
        if self.subject:  # rows of anonymous seats stay as they were
            data["subject"] = self.subject
        if self.away_until:
            data["away_until"] = self.away_until
        if self.reserved_for:
            data["reserved_for"] = self.reserved_for
        if self.resigned:
            data["resigned"] = self.resigned
        return data

    @classmethod
    def from_json(cls, data: dict) -> "SeatRecord":
        return cls(**data)


@dataclass
class MatchRecord:
    """The match row: everything about a match but its state and log."""

    id: str
    game_id: str
    rules_version: str
    options: dict[str, Any]
    seed: int
    seats: list[SeatRecord]
    status: str = "open"  # "open" | "active" | "finished" | "abandoned" | "aborted" | "suspended"
    version: int = 0
    create_time: float = 0.0
    update_time: float = 0.0
    result: dict[str, Any] | None = None
    create_request_id: str = ""
    turn_timeout: float = 0.0  # seconds a player may take per move; 0: no limit
    creator: str = ""  # the creator's Principal.quota_key ("user:..." or "peer:...")
    seed_chosen: bool = False  # the creator chose the seed
    status_detail: dict[str, str] | None = None  # why it is aborted or suspended: reason, message, plugin
    clock: dict | None = None  # a chess-style clock (clocks.py); None: untimed or a turn timeout
    absent_grace: float | None = None  # seconds before a bot plays for a player who left; None: leaving abandons
    visibility: str = "public"  # "public" | "unlisted" | "private" (match_access.py)
    spectators: str = "anyone"  # who may watch without a seat: "anyone" | "players" | "none"
    rated: bool | None = None  # False: casual, whatever the seats; None: rated by the rule (rating_rules.py)
    # The seed's salt and the commitment published at creation (gamehost.client.seed_commitment);
    # None in a match created before the host made commitments.
    seed_salt: bytes | None = None
    seed_commitment: bytes | None = None

    def replace(self, **changes: Any) -> "MatchRecord":
        """A copy with ``changes``: the engine's way to make the next row
        (dataclasses.replace costs ten times more on the move path)."""
        copy = object.__new__(MatchRecord)
        copy.__dict__.update(self.__dict__)
        copy.__dict__.update(changes)
        return copy


@dataclass
class PlayerRating:
    """One player's standing in one game . mu and sigma
    start at openskill's defaults; ratings.py moves them."""

    subject: str
    game_id: str
    player_name: str = ""
    mu: float = 25.0
    sigma: float = 25.0 / 3
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def rating(self) -> float:
        """The shown, conservative rating (mu - 3 sigma): what leaderboards sort by."""
        return self.mu - 3 * self.sigma


@dataclass
class TicketRecord:
    """A player queuing for a match (matchmaking). Tickets of one
    ``pool`` (game, player count, options) may be matched together."""

    id: str
    subject: str
    player_name: str
    game_id: str
    seats: int
    options: dict[str, Any]
    pool: str
    rating: float = 0.0  # the player's shown rating in the game when queuing
    min_rating: float | None = None  # the range the other players' ratings must be in
    max_rating: float | None = None
    bot: str = "random"
    bot_wait: float | None = None  # seconds after which bots may fill the seats; None: never
    create_time: float = 0.0
    expire_time: float = 0.0
    state: str = "queued"  # "queued" | "matched" | "cancelled" | "expired"
    match_id: str = ""
    seat: int = -1
    update_time: float = 0.0
    # The rating range widens while the ticket waits (matchmaking.rating_range).
    widen_per_second: float | None = None  # rating points each bound moves out per second waited; None: fixed
    max_widening: float | None = None  # the most each bound moves
    # A party: friends matched together (matchmaking.py).
    party: str = ""  # the party's id ("" queues alone): the tickets with this id are seated in one match
    party_size: int = 0  # how many players the party has (0 alone)
    party_queued: int = 0  # not stored: how many of its tickets are queued, read with the ticket (engine)


class PartyFull(Exception):
    """add_ticket: the party has all its players queued already."""


# A ticket's match is being formed from the pool's queued tickets (oldest
# first): it answers {ticket id: (match id, seat)} for the tickets it placed.
FormMatch = Callable[[list[TicketRecord]], Awaitable[dict[str, tuple[str, int]]]]


@dataclass(frozen=True)
class QueuedPool:
    """A matchmaking pool's queued tickets, for operators (ListPools)."""

    pool: str
    game_id: str
    seats: int
    queued: int
    oldest: float  # the create_time of its longest-waiting ticket


@dataclass
class Snapshot:
    version: int
    state: Any


@dataclass
class Append:
    """What one committed step writes, all or nothing: events at consecutive
    versions, the updated match row and, sometimes, a state snapshot."""

    record: MatchRecord
    events: Sequence[dict]
    snapshot: Snapshot | None = None
    seats_changed: bool = True  # a move leaves the seats alone: no need to rewrite them
    due_in: float | None = None  # seconds until the host must act for a seat (a bot, a deadline), or None
    details_changed: bool = False  # status_detail changed (an abort, a suspension, a resumption)
    clock_changed: bool = False  # the chess clock was charged (a move in a clocked match)
    # The seats to move after this step of an active match, when the engine
    # asked (a match with signed-in players, or a shared store): the store
    # keeps who is to move (match_players.turn_since) for ListMatches' my_turn.
    to_move: tuple[int, ...] | None = None


OVER_STATUSES = ("finished", "abandoned", "aborted")


@dataclass(frozen=True)
class PendingDelivery:
    """A turn notification whose next delivery attempt this replica claimed
    (webhooks.py): the queued row as the store keeps it."""

    key: str
    match_id: str
    body: str
    attempts: int  # attempts made so far: this one is attempts + 1
    round_start: int = 0  # attempts made before its last retry by an operator: the backoff starts again there


@dataclass(frozen=True)
class DeliveryRecord:
    """A turn notification's row and its attempts, for operators
    (ListDeliveries): delivery_rows.py says what each field means."""

    key: str
    match_id: str
    body: str
    create_time: float
    state: str  # pending, delivered or failed
    next_attempt: float | None
    attempts: tuple[tuple[int, float, int, str], ...]  # (attempt, time, status, error), in order


def delivery_state(status: int, retry_in: float | None) -> str:
    """A notification's state after an attempt answered ``status``:
    delivered on a 2xx, pending while a retry is due, else failed."""
    if 200 <= status < 300:
        return "delivered"
    return "pending" if retry_in is not None else "failed"


class Store(Protocol):
    """Every backend has these semantics:

    - ``append`` is one transaction; events must continue the match's
      version with no gap and no repeat, else it raises ``VersionConflict``
      and writes nothing;
    - a request id is unique per (match, seat) (``request_versions`` maps
      each to the version its move produced), a create request id unique
      per store (``find_match_by_request``);
    - nothing is acknowledged before it is committed.

    A *shared* store (``shared = True``, PostgreSQL) is written by several
    host replicas. It also offers ``subscribe`` (a call per step any
    replica commits) and ``claim_due`` (bot moves and deadlines nobody is
    acting on), and records ``due_in`` for those claims; the other stores
    ignore ``due_in``. It also offers ``subscribe_tickets`` (a call with the
    tickets any replica changed: matchmaking's watchers), and
    ``subscribe_chat`` (a call per chat or moderation change, before
    ``subscribe``).
    """

    shared: bool

    @property
    def chat(self) -> ChatStore:
        """A match's chat, reports, mutes and blocks, bans (chat_rows.py)."""

    @property
    def users(self) -> UserDataStore:
        """One user's data, exported and erased (user_data.py, user_rows.py)."""

    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def ping(self) -> None:
        """Return if the store answers now, raise if it does not: the
        readiness check. Cheap, and it must not wait long."""

    async def create_match(self, record: MatchRecord, snapshot: Snapshot, events: Sequence[dict] = (),
                           due_in: float | None = None, to_move: Sequence[int] | None = None) -> None:
        """``to_move``: the seats to move of a match that starts at once (a
        rematch, a matchmaking match), for the signed-in players' turn index."""

    async def append(self, step: Append) -> None: ...

    async def get_match(self, match_id: str) -> MatchRecord | None: ...

    async def find_match_by_request(self, request_id: str) -> MatchRecord | None: ...

    async def list_matches(self, *, game_id: str | None, status: str | None, limit: int,
                           before: tuple[float, str] | None, player: str | None = None,
                           my_turn: bool = False, public_only: bool = False) -> list[MatchRecord]:
        """Newest first; ``player``: only matches where that user holds a
        seat; with ``my_turn``, only those where it is that user's turn;
        ``public_only``: no unlisted nor private match."""

    async def list_match_keys(self, *, game_id: str | None, status: str | None, limit: int,
                              before: tuple[float, str] | None, player: str | None = None,
                              my_turn: bool = False, public_only: bool = False) -> list[tuple[str, int, float]]:
        """(id, version, create_time) of the matches ``list_matches`` would
        return: a poll's etag without decoding every row."""

    async def player_turns(self, subject: str, match_ids: Sequence[str]) -> dict[str, float]:
        """Of ``match_ids``, those where it is ``subject``'s turn, each with
        the time (epoch s) it became their turn."""

    async def delete_match(self, match_id: str) -> bool:
        """Delete a match that is over, with its events and snapshot; False if there is none."""

    async def stale_open_matches(self, created_before: float, limit: int) -> list[str]:
        """Ids of open matches created before ``created_before`` (epoch seconds)."""

    async def idle_active_matches(self, updated_before: float, limit: int) -> list[str]:
        """Ids of active matches whose last change (a move, a join) is before
        ``updated_before`` (epoch seconds), the longest idle first."""

    async def prune_over_matches(self, updated_before: float, limit: int) -> list[str]:
        """Delete up to ``limit`` matches over since before ``updated_before``;
        their ids. With replicas, one prunes at a time; the others get []."""

    async def unfinished_matches(self) -> list[MatchRecord]: ...

    async def events(self, match_id: str, after_version: int = 0, limit: int | None = None) -> list[dict]:
        """The match's events after ``after_version``, oldest first; at most
        ``limit`` of them (None: all, for callers whose logs are bounded)."""

    async def events_before(self, match_id: str, before_version: int, limit: int) -> list[dict]:
        """The newest ``limit`` events before ``before_version``, oldest
        first: the log read from its end a page at a time."""

    async def latest_snapshot(self, match_id: str) -> Snapshot: ...

    async def request_versions(self, match_id: str) -> dict[tuple[int, str], int]: ...

    # Players' ratings.
    async def rate_match(self, match_id: str, subjects: list[str], game_id: str,
                         compute: Callable[[dict[str, PlayerRating]], list[PlayerRating]]) -> bool:
        """Count a finished match's result once: in one transaction, mark the
        match counted and write ``compute(current ratings by subject)``;
        False, writing nothing, when it was counted already."""

    async def leaderboard(self, game_id: str, limit: int,
                          after: tuple[float, str] | None = None) -> list[PlayerRating]:
        """Best rating first, then by subject; ``after``: the previous page's last (rating, subject)."""

    async def player_ratings(self, subject: str) -> list[PlayerRating]: ...

    # Turn notifications (webhooks.py): one row per key, whoever claims it
    # first; the pending ones are a queue that outlives the host.
    async def claim_notification(self, key: str, match_id: str, body: str, now: float) -> bool:
        """Queue a notification under its unique ``key``, pending and due
        now; False if it is already recorded (here or by a replica)."""

    async def claim_deliveries(self, now: float, hold: float, limit: int) -> list[PendingDelivery]:
        """Claim up to ``limit`` pending notifications whose next attempt is
        due and unclaimed (or whose claim expired: the replica or host that
        held it stopped), each for ``hold`` seconds, in one transaction:
        exactly one replica makes a given attempt."""

    async def record_delivery_attempt(self, key: str, attempt: int, now: float, status: int, error: str,
                                      retry_in: float | None = None) -> None:
        """Record one delivery attempt of a notification (``status``: the
        HTTP status, 0 when no answer came; ``error``: why it failed, or "")
        and release its claim: delivered on a 2xx, else due again in
        ``retry_in`` seconds, or failed for good when that is None. An
        attempt older than the one recorded changes nothing."""

    async def delivery_attempts(self, key: str) -> list[tuple[int, float, int, str]]:
        """(attempt, time, status, error) of a notification, in order."""

    async def list_deliveries(self, state: str | None, match_id: str | None, after: tuple[float, str] | None,
                              limit: int) -> list[DeliveryRecord]:
        """Notifications newest first (create_time, then key, descending),
        only in ``state`` / of ``match_id`` when given, after the (time,
        key) ``after`` names, at most ``limit``, each with its attempts."""

    async def delivery(self, key: str) -> DeliveryRecord | None: ...

    async def retry_delivery(self, key: str, now: float) -> str | None:
        """Make a failed notification pending and due now, with a new round
        of attempts (``round_start`` = the attempts made). Returns its state
        before (only "failed" changes anything), None if there is no such key."""

    # Rules strikes (engine_rules_failures.py): counted in the store, so a
    # restart does not forgive them and replicas add up to one count.
    # Browsers' Web Push subscriptions (push_rows.py), per signed-in user.
    async def add_push_subscription(self, subscription: PushSubscriptionRecord, keep: int) -> None:
        """Keep the browser's subscription (an endpoint kept already is
        replaced: it may have moved to another user), then forget the
        subject's subscriptions past its newest ``keep``."""

    async def push_subscriptions(self, subjects: Sequence[str]) -> list[PushSubscriptionRecord]:
        """Every subscription held for one of ``subjects``."""

    async def remove_push_subscription(self, endpoint: str, subject: str | None = None) -> bool:
        """Forget the subscription at ``endpoint`` (only if ``subject`` holds
        it, when given); False when there was none."""

    # Private matches' invitations: only a hash of each code is kept.
    async def set_invitation(self, match_id: str, code_hash: str) -> None:
        """Give the match the invitation whose code hashes to ``code_hash``
        (replacing any it had)."""
        ...

    async def invitation_admits(self, match_id: str, code_hash: str) -> bool:
        """Whether the match has an invitation whose code hashes to ``code_hash``."""
        ...

    async def revoke_invitation(self, match_id: str) -> bool:
        """End the match's invitation; False when it had none."""
        ...

    async def add_strike(self, match_id: str) -> int:
        """Count one more rules failure of a match; returns its strikes now."""

    async def clear_strikes(self, match_id: str) -> None:
        """Forget a match's strikes (an admin resumed it)."""

    async def strikes(self, match_id: str) -> int:
        """A match's rules failures counted so far."""

    # Matchmaking: the tickets queued for a match.
    async def add_ticket(self, ticket: TicketRecord, max_open: int) -> bool:
        """Queue ``ticket``; False, writing nothing, when its player already
        has ``max_open`` queued tickets (counted in the same transaction).
        Raises ``PartyFull``, writing nothing, when the ticket's party has
        ``party_size`` queued tickets already (counted in the same
        transaction: two friends joining at once cannot both take the last
        place)."""

    async def party_tickets(self, party: str) -> list[TicketRecord]:
        """The party's queued tickets, oldest first."""

    async def get_ticket(self, ticket_id: str) -> TicketRecord | None: ...

    async def cancel_ticket(self, ticket_id: str, now: float) -> bool:
        """Cancel a queued ticket; False when it is not queued (any more)."""

    async def expire_tickets(self, now: float, forget_before: float) -> list[TicketRecord]:
        """Expire the queued tickets whose expire_time has come and return
        them; delete the tickets over since before ``forget_before``. A
        shared store tells every replica of the expired tickets and of the
        queued tickets of their parties (whose friends' count fell)."""

    async def pools_to_match(self, now: float, queued_since: float) -> list[str]:
        """The pools with a queued ticket queued since ``queued_since``,
        whose bot wait is over at ``now``, or whose rating range was still
        widening at ``queued_since``: where a match may have become possible
        (nothing else makes one possible)."""

    # A player's tickets, and the queue's size for the metrics.
    async def player_tickets(self, subject: str) -> list[TicketRecord]:
        """Every ticket of the player the store holds: queued, and over
        but not forgotten yet (ListTickets orders and pages them)."""

    async def queued_ticket_counts(self) -> dict[str, int]:
        """{game id: queued tickets} over the whole store (every replica's), for the metrics."""

    async def queued_pools(self) -> list[QueuedPool]:
        """Every pool with a queued ticket (every replica's), by game, seats and pool key."""

    async def form_match(self, pool: str, now: float, form: FormMatch) -> dict[str, tuple[str, int]]:
        """With the pool's queued, unexpired tickets held against every other
        former (another replica), cancel and expiry: ``form(tickets)``, then
        those it placed marked matched, in one transaction. {} when another
        replica is forming in this pool now (it will see these tickets)."""


def describe_store(spec: str | None) -> str:
    """The store spec with any password masked, for logs and messages."""
    spec = spec or "sqlite"
    parts = urlsplit(spec)
    if parts.password:
        return parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@")).geturl()
    return spec
