"""The match engine: lifecycle, creating matches, and the parts a match's
life goes through.

The core of a move is ``EngineCore`` (core.py), whose parts ``MatchEngine``
is made of, one job each:

- ``directory``: the live matches this host holds, restore, the finished
  cache, catching up with and following other replicas;
- ``seats``: join, rejoin, leave, the seat a token acts for;
- ``moves``: a seat's move, checked and applied by the rules;
- ``steps``: the step commit every change goes through;
- ``host_moves``: bots, turn deadlines, the sweep of due turns;
- ``agent_turns``: the turns of seats remote agents play (``agents``: who
  is connected, on this replica and the others);
- ``rules_failures``: strikes and suspension;
- ``views``: to move, legal moves, views, renders, watching;
- ``match_clocks``: chess-style clocks;
- ``undo``: taking a move back by agreement (ask, answer, withdraw);
- ``endings``: endings the players decide (resign, draw by agreement,
  claiming victory over absent opponents).

The parts that need little of the core are objects the engine holds, built
with what they use: ``renderings`` (made in the rules workers),
``administration`` (operators' changes: abort, delete, bot, resume),
``rematches``, ``ratings`` (a rated result counted once, leaderboards),
``replay`` (a finished match's past views), ``matchmaking`` (players'
tickets, matched into matches) and ``chat`` (a match's chat and its
moderation). The engine's public methods that callers
use (the servicer, operations, tests) hand over to them.

It knows games only through the rules interface and storage only through the
store interface. Every change is one committed step (events + match row +
sometimes a snapshot); the in-memory match takes the change only after the
commit, so a failed step leaves state and log exactly as they were.

With a shared store (PostgreSQL, several replicas) the in-memory match is a
cache that other replicas' commits make stale. The store's version check
refuses a step built on a stale copy; the engine then catches up from the log
and tries again, so the answer is the one a single host would have given.
Watched matches follow the store's notifications; bot moves and turn
deadlines are claimed in the store so that exactly one replica acts on them.
"""

from __future__ import annotations

import asyncio
import secrets
import time
import uuid
from typing import Any, AsyncIterator, Mapping, Sequence, cast

import structlog

from gamehost.client import seed_commitment
from gamehost.host import errors
from gamehost.host.auth import Principal
from gamehost.host.auth.bans import BannedSubjects
from gamehost.host.bots import BUILTIN_BOTS, Bot
from gamehost.host.engine import clocks
from gamehost.host.engine.administration import UNFINISHED, MatchAdministration
from gamehost.host.engine.agent_turns import AgentTurns
from gamehost.host.engine.agents import AgentDirectory, AgentRelay, HostBots, agent_name
from gamehost.host.engine.chat import MatchChat
from gamehost.host.engine.match_clocks import MatchClocks
from gamehost.host.engine.directory import FINISHED_CACHE, STALE_RETRIES, MatchDirectory
from gamehost.host.engine.host_moves import HOST_MOVE_RETRY_MAX, HostMoves
from gamehost.host.engine.matchmaking import ListingKey, Matchmaking
from gamehost.host.engine.moves import MAX_IDS_SHOWN, MAX_TEXT_SHOWN, MatchMoves, MoveResult
from gamehost.host.engine.rating_rules import check_rated_bots
from gamehost.host.engine.ratings import MatchRatings
from gamehost.host.engine.rematches import Rematches
from gamehost.host.engine.renderings import MatchRenderings
from gamehost.host.engine.replay import MatchReplay
from gamehost.host.engine.replay_cache import DEFAULT_BUDGET as REPLAY_CACHE_BUDGET, ReplayCache
from gamehost.host.engine.rules_failures import MAX_STRIKES, RulesFailures
from gamehost.host.engine.seats import MatchSeats
from gamehost.host.engine.steps import MatchSteps
from gamehost.host.engine.turns import MatchTurns
from gamehost.host.engine.undo import MatchUndo
from gamehost.host.engine.endings import MatchEndings
from gamehost.host.engine.view_data import RenderedView, ViewData
from gamehost.host.engine.views import MatchViews
from gamehost.host.engine.fair_seed import check_chosen_seed
from gamehost.host.workers.moves_on_wire import summary_fields
from gamehost.host.errors import shown
from gamehost.host.engine.live import LiveMatch
from gamehost.host.engine.match_access import Access, invitation_hash, new_invitation_code, reserved_seats
from gamehost.host.engine.match_settings import MAX_TURN_TIMEOUT, caller_request_id, check_match_settings
from gamehost.host.engine.match_quotas import HeldMatches, MatchQuotas
from gamehost.host.plugins import Catalog, GameEntry
from gamehost.host.store.base import MatchRecord, PlayerRating, SeatRecord, Snapshot, Store, TicketRecord, VersionConflict
from gamehost.host.engine.ticket_stats import TicketStats
from gamehost.host.engine.undo_asks import ASK_LIFETIME, MAX_ASKS_PER_MOVE, MAX_MATCH_EVENTS
from gamehost.host.workers.runner import RulesPlacement, RulesRunner
from gamehost.sdk.rules import InvalidOptions, Outcome
from gamehost.host.engine.match_events import match_event
from gamehost.host.engine.user_data import PlayersData

__all__ = ["FINISHED_CACHE", "caller_request_id", "HOST_MOVE_RETRY_MAX", "MAX_STRIKES", "MAX_TURN_TIMEOUT", "STALE_RETRIES",
           "MatchEngine", "MoveResult", "ViewData", "outcome_to_result"]

log = structlog.get_logger("gamehost.engine")

def outcome_to_result(outcome: Outcome) -> dict:
    return {"scores": [float(s) for s in outcome.scores], "ranking": [int(r) for r in outcome.ranking],
            "winners": outcome.winners, **summary_fields(outcome.summary)}


class MatchEngine(MatchDirectory, MatchSeats, MatchMoves, MatchSteps, HostMoves, AgentTurns, RulesFailures,
                  MatchViews, MatchClocks, MatchUndo, MatchEndings):
    """One host's matches. The core's parts (see the module's docstring)
    share the state this class sets (``EngineCore`` declares it); the
    loosely tied parts are the objects it holds. It keeps the lifecycle
    and creating matches."""

    def __init__(self, catalog: Catalog, store: Store, *, snapshot_every: int = 32,
                 bot_delay: float = 0.0, max_watchers_per_match: int = 256,
                 bot_delay_with_humans: float | None = None,
                 bots: Mapping[str, Bot] | None = None, sweep_interval: float = 1.0,
                 host_move_retry: float = 0.5, quotas: MatchQuotas | None = None,
                 chosen_seeds: str = "admins", placement: RulesPlacement | None = None,
                 max_strikes: int = MAX_STRIKES, undo_ask_lifetime: float = ASK_LIFETIME,
                 max_asks_per_move: int = MAX_ASKS_PER_MOVE, max_match_events: int = MAX_MATCH_EVENTS,
                 replay_cache_bytes: int = REPLAY_CACHE_BUDGET, agent_timeout: float = 5.0,
                 bans: BannedSubjects | None = None) -> None:
        self.catalog = catalog
        self.quotas = quotas or MatchQuotas(0, 0)
        self.chosen_seeds = chosen_seeds
        self.store = store
        self.shared = store.shared
        self.sweep_interval = sweep_interval
        self.snapshot_every = snapshot_every
        self.bot_delay = bot_delay
        self.bot_delay_with_humans = bot_delay if bot_delay_with_humans is None else bot_delay_with_humans
        self.host_move_retry = host_move_retry
        self.max_watchers_per_match = max_watchers_per_match
        self._live = HeldMatches()
        self._finished_order: list[str] = []
        self._tasks: set[asyncio.Task] = set()
        self.agents = AgentDirectory(uuid.uuid4().hex, self._spawn)
        self.agent_timeout = agent_timeout
        self.bots: dict[str, Bot] = HostBots({**(bots or {}), **BUILTIN_BOTS}, self.agents)
        self._closing = False
        self.closed = asyncio.Event()  # set by close(): Session streams end (session.py)
        self.ticket_stats = TicketStats()  # matchmaking's figures, for the metrics
        hook = catalog.plugin_manager.hook if catalog.plugin_manager else None
        self._observers = hook.gamehost_match_event.get_hookimpls() if hook else []
        self._clock_rule = catalog.clock_rule()  # games' timeout rules, asked in their workers
        self._resign_hook = catalog.resign_rule()  # games' resignation rules, asked in their workers
        for impl in hook.gamehost_bots.get_hookimpls() if hook else []:
            self._add_plugin_bots(impl)
        # Rules run where ``placement`` puts them (workers, or this process
        # when none is given): every rules call below awaits the runner,
        # which loads matches and reports failures through the two it is given.
        self.rules = RulesRunner(catalog, placement or RulesPlacement(), bots=self.bots, loader=self._rules_source,
                                 on_failure=self._rules_failed)
        self.max_strikes = max_strikes
        self.undo_ask_lifetime = undo_ask_lifetime
        self.max_asks_per_move = max_asks_per_move
        self.max_match_events = max_match_events
        self.ratings = MatchRatings(store, self.game_entry)
        self.renderings = MatchRenderings(self.rules, self)
        self.replay = MatchReplay(self.rules, store, ReplayCache(replay_cache_bytes))
        self.rematches = Rematches(self)
        self.turns = MatchTurns(store, self.public_events)
        self.administration = MatchAdministration(self, store, self.bots)
        self.matchmaking = Matchmaking(self, store, self.bots, self.ticket_stats, bot_ratings=self.ratings.bots,
                                       sweep_interval=sweep_interval,
                                       closing=lambda: self._closing, spawn=self._spawn)
        # ``bans`` is the gate's too: a ban heard here refuses the user's next call.
        self.chat = MatchChat(self, store, bans or BannedSubjects(),
                              hook.gamehost_chat_filter.get_hookimpls() if hook else [], self._spawn,
                              lambda: self._closing)
        self.user_data = PlayersData(store, self._forget_rewritten, self.chat.reread_after_erasure,
                                     self.matchmaking.tickets_changed)

    def _add_plugin_bots(self, impl) -> None:
        try:
            offered = dict(impl.function() or {})
        except Exception as error:  # a plugin's bots must not stop the host
            log.error("plugin bots skipped", plugin=impl.plugin_name, error=f"{type(error).__name__}: {error}")
            return
        for name, bot in offered.items():
            if name in self.bots:
                log.error("plugin bot skipped: the name is taken", plugin=impl.plugin_name, bot=name)
            else:
                self.bots[name] = bot

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Restore every open and active match from the store; with a shared
        store, follow other replicas' commits and sweep for due bot moves
        and deadlines."""
        await self.rules.start()
        await self.chat.start()
        self._spawn(self.matchmaking.sweep())
        if self.shared:
            self.agents.start(cast(AgentRelay, self.store))
            self.replicas.subscribe_tickets(self.matchmaking.tickets_changed)
            self.replicas.subscribe_erasures(self._forget_rewritten)
            self.replicas.subscribe(self._on_store_change)
            self._spawn(self._sweep_due_turns())
            log.info("sharing the store with other replicas", sweep_interval=self.sweep_interval)
            return
        restored = 0
        for record in await self.store.unfinished_matches():
            try:
                live = await self._restore(record)
            except Exception as error:  # one unreadable match must not stop the host
                log.error("match not restored", match_id=record.id, game=record.game_id, error=str(error))
                continue
            self._live[record.id] = live
            # In the background: a match whose rules hang must not hold the start.
            self._spawn(self._schedule_turns(live))
            restored += 1
        log.info("matches restored", count=restored)

    def _forget_rewritten(self, match_ids: list[str]) -> None:
        """Drop what this host keeps of matches a user's erasure rewrote (here
        or on another replica): the next read takes them from the store."""
        self.forget(match_ids)
        for match_id in match_ids:
            self.replay.cache.forget(match_id)

    def background(self, work) -> None:
        """Run ``work`` (a coroutine) until it ends or the engine closes."""
        self._spawn(work)

    async def close(self) -> None:
        """Stop bots and end every watch stream; in-flight moves finish first."""
        self._closing = True
        self.closed.set()
        for live in self._live.values():
            live.disarm_deadline()
            live.disarm_undo_lapse()
            live.disarm_draw_lapse()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for live in self._live.values():
            async with live.lock:
                live.wake_watchers()

    async def close_rules(self, grace: float = 0.5) -> None:
        """Stop the rules workers, killing those still busy after ``grace``
        seconds: last, once no call needs them."""
        await self.rules.close(grace)

    # ------------------------------------------------------------ matches

    async def create_match(self, game_id: str, **settings: Any) -> LiveMatch:
        """A new match (or the one ``request_id`` created before): ``open_match``'s settings."""
        live, _ = await self.open_match(game_id, **settings)
        return live

    async def open_match(self, game_id: str, *, seats: int = 0, options: Mapping[str, Any] | None = None,
                         seed: int | None = None, bot_seats: tuple[int, ...] = (), request_id: str = "",
                         variant: str = "", bot: str = "", turn_timeout: float = 0.0,
                         clock_initial: float = 0.0, clock_increment: float = 0.0, clock_per_move: float = 0.0,
                         absent_grace: float | None = None, visibility: str = "public", spectators: str = "anyone",
                         rated: bool | None = None, reservations: Sequence[tuple[int, str]] = (),
                         caller: Principal | None = None,
                         seat_holders: Sequence[SeatRecord] | None = None,
                         seat_bots: Sequence[str] = ()) -> tuple[LiveMatch, str]:
        """A new match and, for a private or unlisted one created by this
        call, its invitation code (the store keeps only its hash; "" for a
        public match, or one an earlier call with ``request_id`` created).
        ``caller``: who creates it (None: the host itself), for the seed
        rule, the quotas and the reservations, and as the match's creator.
        ``seat_holders``: the seats as they start (a rematch's players),
        instead of open and bot seats; the match starts at once when none is
        open. ``reservations``: (seat, subject) held for signed-in users."""
        entry = self.game_entry(game_id)
        game = entry.game
        if request_id:
            existing = await self.store.find_match_by_request(request_id)
            if existing is not None:
                return await self.live_match(existing.id), ""
        seats = seats or game.min_players
        check_match_settings(game, seats, bot_seats, turn_timeout, absent_grace, visibility, spectators)
        merged = self.merged_options(entry, variant, options or {})
        clock = clocks.new_clock(clock_initial, clock_increment, seats, turn_timeout, clock_per_move)
        bot = bot or "random"
        seat_bot = self._seat_bots(game.id, bot_seats, bot, seat_bots) if seat_holders is None else {}
        if rated:
            check_rated_bots(seat_bot, seats, caller)
        held = reserved_seats(reservations, seats, bot_seats, caller)
        seed_chosen = seed is not None
        if seed_chosen:
            check_chosen_seed(game, caller, self.chosen_seeds)
        if seat_holders is not None:
            bot_seats = tuple(s.index for s in seat_holders if s.kind == "bot")
        self.quotas.check(caller, len(bot_seats) == seats, self._live)
        seed = secrets.randbits(63) if seed is None else seed
        salt = seed_commitment.new_salt()
        committed = seed_commitment.commitment(seed, salt)  # published from the first answer on
        now = time.time()
        record = MatchRecord(
            id=uuid.uuid4().hex[:16], game_id=game.id, rules_version=game.version, options=merged, seed=seed,
            seats=list(seat_holders) if seat_holders is not None else
            [SeatRecord(i, "bot", f"bot {i}", bot=seat_bot[i]) if i in bot_seats else
             SeatRecord(i, reserved_for=held.get(i, "")) for i in range(seats)],
            create_time=now, update_time=now, create_request_id=request_id, turn_timeout=turn_timeout,
            creator=caller.quota_key if caller else "", seed_chosen=seed_chosen, clock=clock,
            absent_grace=absent_grace, visibility=visibility, spectators=spectators, rated=rated,
            seed_salt=salt, seed_commitment=committed)
        bound = log.bind(match_id=record.id, game=game.id)
        live = LiveMatch(record, entry, None, 0, bound)
        try:
            state, to_move = await self.rules.setup(live, seats, merged)
        except InvalidOptions as refusal:
            raise errors.invalid_field(f"options.{refusal.field}", refusal.reason, "INVALID_OPTIONS") from None
        events = []
        if all(seat.kind != "open" for seat in record.seats):
            record.status, record.version = "active", 1
            events.append(match_event(1, "started", -1, now))
        try:
            await self.store.create_match(record, Snapshot(0, state), events,
                                          due_in=self.bot_delay if self.shared and events else None,
                                          to_move=to_move if events else None)
        except VersionConflict:
            self.rules.forget(record.id)
            # Same request id raced with another call: answer with that match.
            existing = await self.store.find_match_by_request(request_id)
            if existing is None:
                raise
            return await self.live_match(existing.id), ""
        except BaseException:
            self.rules.forget(record.id)
            raise
        invitation = new_invitation_code() if visibility != "public" else ""
        if invitation:
            await self.store.set_invitation(record.id, invitation_hash(invitation))
        live.recent.extend(events)
        if record.status == "active":
            live.cache.settle_to_move(to_move)
        self._live[record.id] = live
        bound.info("match created", seats=seats, bots=list(bot_seats), bot=bot, options=merged,
                   seed_commitment=committed.hex())
        self._notify_observers(live, events)
        await self._schedule_turns(live)
        return live, invitation

    def _seat_bots(self, game_id: str, bot_seats: Sequence[int], bot: str, seat_bots: Sequence[str]) -> dict[int, str]:
        """The bot of each bot seat: ``seat_bots`` in ``bot_seats``' order, else ``bot`` for each, checked."""
        if seat_bots and len(seat_bots) != len(bot_seats):
            raise errors.invalid_field("seat_bots", f"name one bot for each of the {len(bot_seats)} bot seats "
                                                    f"(in bot_seats' order), not {len(seat_bots)}; or leave it "
                                                    "empty to seat `bot` in every one.")
        chosen = {seat: seat_bots[n] if seat_bots else bot for n, seat in enumerate(bot_seats)}
        field = "seat_bots" if seat_bots else "bot"
        for name in dict.fromkeys([bot, *chosen.values()]):
            if name in chosen.values():  # an agent not connected now is named as such, not as unknown
                self.check_agent_plays(name, game_id)
            if name not in self.bots:
                raise errors.invalid_field(field, f"no bot {shown(name)} on this host (bots: "
                                                  f"{', '.join(sorted(self.bots))}).")
        return chosen

    def check_agent_plays(self, bot: str, game_id: str) -> None:
        """Refuse a remote agent's bot name (``agent:{name}``) unless that agent is connected for the game now."""
        if agent_name(bot) is not None and not self.agents.plays(bot, game_id):
            raise errors.invalid_field("bot", f"no agent {shown(bot)} is connected for {game_id} now (agents playing "
                                              f"it: {', '.join(self.agents.for_game(game_id)) or 'none'}); start it "
                                              f"first, or seat one of the host's bots.", "AGENT_NOT_CONNECTED")

    def check_player_quota(self, caller: Principal) -> None:
        """Refuse ``caller`` one more seat (a ticket) over the per-player limit."""
        self.quotas.check_player(caller, self._live)

    def merged_options(self, entry: GameEntry, variant: str, options: Mapping[str, Any]) -> dict:
        game = entry.game
        merged = game.default_options()
        if variant:
            chosen = next((v for v in game.variants if v.id == variant), None)
            if chosen is None:
                names = ", ".join(v.id for v in game.variants) or "none"
                raise errors.invalid_field("variant",
                                           f"{game.title} has no variant {shown(variant)} (variants: {names}).")
            merged.update(chosen.options)
        merged.update(options)
        problems = sorted(entry.validator.iter_errors(merged), key=lambda e: [str(p) for p in e.path])
        if problems:
            # jsonschema's messages quote the offending value: only a prefix of it goes back.
            violations = [(".".join(["options", *map(str, p.path)])[:MAX_TEXT_SHOWN],
                           p.message if len(p.message) <= MAX_TEXT_SHOWN else p.message[:MAX_TEXT_SHOWN] + "...")
                          for p in problems[:MAX_IDS_SHOWN]]
            raise errors.InvalidArgument(
                "Invalid options: " + "; ".join(f"{field}: {text}" for field, text in violations)
                + ". See the game's options_schema (GetGame).", "INVALID_OPTIONS", field_violations=violations)
        return merged

    async def list_matches(self, *, game_id: str | None, status: str | None, limit: int,
                           before: tuple[float, str] | None, player: str | None = None,
                           my_turn: bool = False, public_only: bool = False) -> list[MatchRecord]:
        """``public_only``: leave out unlisted and private matches (a listing
        of every match, for a caller other than an admin)."""
        if game_id:
            self.game_entry(game_id)
        return await self.store.list_matches(game_id=game_id, status=status, limit=limit, before=before,
                                             player=player, my_turn=my_turn, public_only=public_only)

    async def list_match_keys(self, *, game_id: str | None, status: str | None, limit: int,
                              before: tuple[float, str] | None, player: str | None = None,
                              my_turn: bool = False, public_only: bool = False) -> list[tuple[str, int, float]]:
        """(id, version, create_time) of what list_matches would return."""
        if game_id:
            self.game_entry(game_id)
        return await self.store.list_match_keys(game_id=game_id, status=status, limit=limit, before=before,
                                                player=player, my_turn=my_turn, public_only=public_only)

    async def revoke_invitation(self, match_id: str, caller: Principal) -> LiveMatch:
        """End the match's invitation: its signed-in creator or an admin.
        Anyone who may not see the match gets NOT_FOUND, as for a missing one."""
        live = await self.live_match(match_id, Access(caller))
        if not (caller.admin or (caller.subject and live.record.creator == caller.quota_key)):
            raise (errors.Unauthenticated if caller.anonymous else errors.PermissionDenied)(
                f"Only the signed-in creator of matches/{match_id} or an admin may revoke its invitation.",
                "NOT_THE_CREATOR", metadata=errors.metadata_of(match=f"matches/{match_id}"))
        revoked = await self.store.revoke_invitation(match_id)
        live.log.info("invitation revoked", by=caller.subject, had_one=revoked)
        return live

    async def player_turns(self, subject: str, match_ids: list[str]) -> dict[str, float]:
        """Of ``match_ids``, those where it is ``subject``'s turn, with the
        time it became so: read from the store's turn index, no rules asked."""
        return await self.store.player_turns(subject, match_ids)

    # ------------------------------------------------------------ the parts the engine holds, by their old names

    def renders_in_workers(self, live: LiveMatch) -> bool:
        return self.renderings.renders_in_workers(live)

    async def rendered_view(self, live: LiveMatch, seat: int | None, kinds: tuple[str, ...]) -> RenderedView | None:
        return await self.renderings.rendered_view(live, seat, kinds)

    async def view_at(self, live: LiveMatch, seat: int | None, version: int) -> ViewData:
        return await self.replay.view_at(live, seat, version)

    async def render_at(self, live: LiveMatch, view: ViewData, kind: str, locale: str | None = None) -> str:
        return await self.replay.render_at(live, view, kind, locale)

    async def rematch(self, match_id: str, caller: Principal) -> LiveMatch:
        return await self.rematches.rematch(match_id, caller)

    async def leaderboard(self, game_id: str, limit: int, after: tuple[float, str] | None) -> list[PlayerRating]:
        return await self.ratings.leaderboard(game_id, limit, after)

    async def player_ratings(self, subject: str) -> list[PlayerRating]:
        return await self.ratings.player_ratings(subject)

    async def abort_match(self, match_id: str, reason: str, message: str = "",
                          only: tuple[str, ...] = UNFINISHED) -> LiveMatch | MatchRecord:
        return await self.administration.abort_match(match_id, reason, message, only)

    async def delete_match(self, match_id: str) -> None:
        await self.administration.delete_match(match_id)

    async def assign_bot(self, match_id: str, seat: int, bot: str = "") -> LiveMatch:
        return await self.administration.assign_bot(match_id, seat, bot)

    async def resume_match(self, match_id: str) -> LiveMatch:
        return await self.administration.resume_match(match_id)

    async def create_ticket(self, caller: Principal, game_id: str, *, seats: int = 0, variant: str = "",
                            options: Mapping[str, Any] | None = None, min_rating: float | None = None,
                            max_rating: float | None = None, ttl: float | None = None,
                            bot_wait: float | None = None, bot: str = "", widen_per_second: float | None = None,
                            max_widening: float | None = None, party_size: int = 0, party: str = "") -> TicketRecord:
        return await self.matchmaking.create_ticket(
            caller, game_id, seats=seats, variant=variant, options=options, min_rating=min_rating,
            max_rating=max_rating, ttl=ttl, bot_wait=bot_wait, bot=bot, widen_per_second=widen_per_second,
            max_widening=max_widening, party_size=party_size, party=party)

    async def ticket(self, ticket_id: str, caller: Principal, method: str = "GetTicket") -> TicketRecord:
        return await self.matchmaking.ticket(ticket_id, caller, method)

    async def cancel_ticket(self, ticket_id: str, caller: Principal) -> TicketRecord:
        return await self.matchmaking.cancel_ticket(ticket_id, caller)

    async def list_tickets(self, caller: Principal, states: frozenset[str], after: ListingKey | None,
                           size: int) -> tuple[list[TicketRecord], ListingKey | None]:
        return await self.matchmaking.list_tickets(caller, states, after, size)

    def watch_ticket(self, ticket_id: str, caller: Principal) -> AsyncIterator[TicketRecord]:
        return self.matchmaking.watch_ticket(ticket_id, caller)
