"""The match engine: lifecycle, seats and tokens, turns, bots and fan-out.

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
import dataclasses
import secrets
import time
import uuid
from typing import Any, AsyncIterator, Mapping

import structlog

from gamehost.host import errors
from gamehost.host.auth import Principal
from gamehost.host.bots import BUILTIN_BOTS, Bot
from gamehost.host.engine_admin import MatchAdministration
from gamehost.host.fair_seed import check_chosen_seed
from gamehost.host.limits import shown
from gamehost.host.live import LiveMatch, token_hash
from gamehost.host.match_quotas import MatchQuotas
from gamehost.host.plugins import Catalog, GameEntry
from gamehost.host.store.base import Append, MatchRecord, SeatRecord, Snapshot, Store, VersionConflict
from gamehost.host.workers.runner import Applied, RulesRunner
from gamehost.sdk.rules import Game, IllegalMove, InvalidOptions, MalformedMove, Move, Outcome

log = structlog.get_logger("gamehost.engine")

FINISHED_CACHE = 256  # finished matches kept in memory after a read
MAX_IDS_SHOWN = 12  # legal move ids listed in an error message
MAX_TEXT_SHOWN = 120  # characters of a schema message (which quotes the client's value) in an error
STALE_RETRIES = 5  # catch-ups a call may need when other replicas keep moving the match
MAX_TURN_TIMEOUT = 30 * 24 * 3600.0
HOST_MOVE_RETRY_MAX = 30.0  # seconds between tries of a bot or timed-out move that keeps failing
MAX_STRIKES = 3  # rules failures (time-outs, crashes) before a match is suspended


def _cut(text: str, limit: int = 2 * MAX_TEXT_SHOWN) -> str:
    """Rules' reasons may quote the client's move: keep a prefix."""
    text = str(text)
    return text if len(text) <= limit else text[:limit] + "..."


@dataclasses.dataclass(frozen=True)
class ViewData:
    """A match as one viewer sees it at one version."""

    version: int
    status: str
    seat: int | None
    to_move: tuple[int, ...]
    state: Mapping[str, Any]
    moves: tuple[Move, ...]
    result: dict | None


@dataclasses.dataclass(frozen=True)
class MoveResult:
    version: int
    seat: int
    replayed: bool



def outcome_to_result(outcome: Outcome) -> dict:
    return {"scores": [float(s) for s in outcome.scores], "ranking": [int(r) for r in outcome.ranking],
            "winners": outcome.winners, "summary": outcome.summary}


class MatchEngine(MatchAdministration):
    def __init__(self, catalog: Catalog, store: Store, *, snapshot_every: int = 32,
                 bot_delay: float = 0.0, max_watchers_per_match: int = 256,
                 bot_delay_with_humans: float | None = None,
                 bots: Mapping[str, Bot] | None = None, sweep_interval: float = 1.0,
                 host_move_retry: float = 0.5, quotas: MatchQuotas | None = None,
                 chosen_seeds: str = "admins", rules: RulesRunner | None = None,
                 max_strikes: int = MAX_STRIKES) -> None:
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
        self.bots: dict[str, Bot] = {**(bots or {}), **BUILTIN_BOTS}
        self._live: dict[str, LiveMatch] = {}
        self._finished_order: list[str] = []
        self._tasks: set[asyncio.Task] = set()
        self._closing = False
        hook = catalog.plugin_manager.hook if catalog.plugin_manager else None
        self._observers = hook.gamehost_match_event.get_hookimpls() if hook else []
        for impl in hook.gamehost_bots.get_hookimpls() if hook else []:
            self._add_plugin_bots(impl)
        # Rules run where the runner puts them (workers, or this process
        # when none is given): every rules call below awaits it.
        self.rules = rules or RulesRunner(catalog)
        self.rules.use_bots(self.bots)
        self.rules.on_failure = self._rules_failed
        self.rules.loader = self._rules_source
        self.max_strikes = max_strikes

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
        if self.shared:
            self.store.subscribe(self._on_store_change)
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

    def background(self, work) -> None:
        """Run ``work`` (a coroutine) until it ends or the engine closes."""
        self._spawn(work)

    def _spawn(self, work) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        """Stop bots and end every watch stream; in-flight moves finish first."""
        self._closing = True
        for live in self._live.values():
            live.disarm_deadline()
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

    # ------------------------------------------------------------ catalog

    def game_entry(self, game_id: str) -> GameEntry:
        entry = self.catalog.get(game_id)
        if entry is None:
            known = ", ".join(sorted(self.catalog.games)) or "none"
            raise errors.NotFound(f"No game {shown('games/' + game_id)} on this host. Games served: {known}.",
                                  "GAME_NOT_FOUND", resource=("gamehost.dev/Game", f"games/{game_id}"))
        return entry

    # ------------------------------------------------------------ matches

    async def create_match(self, game_id: str, *, seats: int = 0, options: Mapping[str, Any] | None = None,
                           seed: int | None = None, bot_seats: tuple[int, ...] = (), request_id: str = "",
                           variant: str = "", bot: str = "", turn_timeout: float = 0.0,
                           caller: Principal | None = None) -> LiveMatch:
        """``caller``: who creates it (None: the host itself), for the seed
        rule and the quotas, and as the match's creator."""
        entry = self.game_entry(game_id)
        game = entry.game
        if request_id:
            existing = await self.store.find_match_by_request(request_id)
            if existing is not None:
                return await self.live_match(existing.id)
        seats = seats or game.min_players
        if not game.min_players <= seats <= game.max_players:
            raise errors.invalid_field("seats", f"{game.title} is played by {game.min_players} to "
                                                f"{game.max_players} players, not {seats}.")
        merged = self._options(entry, variant, options or {})
        if len(set(bot_seats)) != len(bot_seats) or any(not 0 <= s < seats for s in bot_seats):
            raise errors.invalid_field("bot_seats", f"bot seats must be distinct seat numbers from 0 to {seats - 1}.")
        if not 0 <= turn_timeout <= MAX_TURN_TIMEOUT:
            raise errors.invalid_field("turn_timeout",
                                       f"a turn timeout is 0 (no limit) to 30 days, not {turn_timeout} s.")
        bot = bot or "random"
        if bot not in self.bots:
            raise errors.invalid_field("bot",
                                       f"no bot {shown(bot)} on this host (bots: {', '.join(sorted(self.bots))}).")
        seed_chosen = seed is not None
        if seed_chosen:
            check_chosen_seed(game, caller, self.chosen_seeds)
        self.quotas.check(caller, len(bot_seats) == seats, self._live.values())
        seed = secrets.randbits(63) if seed is None else seed
        now = time.time()
        record = MatchRecord(
            id=uuid.uuid4().hex[:16], game_id=game.id, rules_version=game.version, options=merged, seed=seed,
            seats=[SeatRecord(i, "bot", f"bot {i}", bot=bot) if i in bot_seats else SeatRecord(i)
                   for i in range(seats)],
            create_time=now, update_time=now, create_request_id=request_id, turn_timeout=turn_timeout,
            creator=caller.quota_key if caller else "", seed_chosen=seed_chosen)
        bound = log.bind(match_id=record.id, game=game.id)
        live = LiveMatch(record, entry, None, 0, bound)
        try:
            state, to_move = await self.rules.setup(live, seats, merged)
        except InvalidOptions as refusal:
            raise errors.invalid_field(f"options.{refusal.field}", refusal.reason, "INVALID_OPTIONS") from None
        events = []
        if len(bot_seats) == seats:
            record.status, record.version = "active", 1
            events.append(self._event(1, "started", -1, now))
        try:
            await self.store.create_match(record, Snapshot(0, state), events,
                                          due_in=self.bot_delay if self.shared and events else None)
        except VersionConflict:
            self.rules.forget(record.id)
            # Same request id raced with another call: answer with that match.
            existing = await self.store.find_match_by_request(request_id)
            if existing is None:
                raise
            return await self.live_match(existing.id)
        except BaseException:
            self.rules.forget(record.id)
            raise
        live.recent.extend(events)
        if record.status == "active":
            live.settle("to_move", to_move)
        self._live[record.id] = live
        bound.info("match created", seats=seats, bots=list(bot_seats), bot=bot, options=merged)
        self._notify_observers(live, events)
        await self._schedule_turns(live)
        return live

    def _options(self, entry: GameEntry, variant: str, options: Mapping[str, Any]) -> dict:
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

    def held_matches(self) -> list[LiveMatch]:
        """Every match this host holds in memory now (for metrics)."""
        return list(self._live.values())

    def held(self, match_id: str) -> LiveMatch | None:
        """The match if this host holds it in memory now, without a store read."""
        return self._live.get(match_id)

    async def live_match(self, match_id: str) -> LiveMatch:
        live = self._live.get(match_id)
        if live is not None:
            return live
        record = await self.store.get_match(match_id) if match_id else None
        if record is None:
            raise errors.NotFound(
                f"No match {shown('matches/' + match_id)}. ListMatches shows the matches on this host.",
                "MATCH_NOT_FOUND", resource=("gamehost.dev/Match", f"matches/{match_id}"))
        live = self._live.get(match_id)  # restored by a concurrent call meanwhile
        if live is None:
            live = await self._restore(record)
            self._live[match_id] = live
            if live.over:
                self._remember_finished(match_id)
            elif not self.shared:  # shared: the host acts where the turn is claimed
                await self._schedule_turns(live)
        return live

    async def read_match(self, match_id: str) -> LiveMatch:
        """The match for a read: with a shared store, first brought up to
        what other replicas committed, so a client reads its own moves
        whichever replica it asks."""
        live = await self.live_match(match_id)
        if self.shared and not live.over:
            async with live.lock:
                await self._catch_up(live)
        return live

    async def _locked(self, live: LiveMatch, attempt):
        """Run ``attempt()`` under the match's lock. With a shared store a
        refusal may come from a stale copy (another replica moved): catch up
        and try again while the store has newer steps."""
        async with live.lock:
            for _ in range(STALE_RETRIES):
                try:
                    return await attempt()
                except errors.HostError:
                    if not self.shared or not await self._catch_up(live):
                        raise
            return await attempt()

    async def _catch_up(self, live: LiveMatch) -> bool:
        """Take the steps other replicas committed (the lock is held).
        True if there were any."""
        record = await self.store.get_match(live.id)
        if record is None or record.version <= live.version:
            return False
        events = [e for e in await self.store.events(live.id, live.version) if e["version"] <= record.version]
        await self.rules.advance(live, events)
        live.advance(record, events)
        live.log.debug("caught up", version=record.version, events=len(events))
        if live.over:
            self._remember_finished(live.id)
        return True

    def _on_store_change(self, match_id: str | None, version: int) -> None:
        """A replica committed ``version`` of ``match_id`` (None: some
        notifications were lost). Watched matches catch up at once; the
        others when they are next used."""
        if self._closing:
            return
        if match_id is None:
            followed = [live for live in self._live.values() if live.watchers and not live.over]
        else:
            live = self._live.get(match_id)
            followed = [live] if live is not None and live.watchers and version > live.version else []
        for live in followed:
            if not live.catching_up:
                live.catching_up = True
                self._spawn(self._follow(live))

    async def _follow(self, live: LiveMatch) -> None:
        try:
            async with live.lock:
                live.catching_up = False  # a notification from now on schedules another pass
                await self._catch_up(live)
        except Exception as error:
            live.log.error("catch-up failed", error=str(error))

    def _remember_finished(self, match_id: str) -> None:
        """Keep the latest finished matches in memory; forget the oldest
        ones nobody is watching."""
        self._finished_order.append(match_id)
        for _ in range(len(self._finished_order) - FINISHED_CACHE):
            old = self._finished_order.pop(0)
            live = self._live.get(old)
            if live is not None and live.watchers:
                self._finished_order.append(old)  # still watched: look again later
            elif live is not None and live.over:
                del self._live[old]
                self.rules.forget(old)

    async def _restore(self, record: MatchRecord) -> LiveMatch:
        entry = self.game_entry(record.game_id)
        bound = log.bind(match_id=record.id, game=record.game_id)
        if record.rules_version != entry.game.version:
            bound.warning("rules version changed since the match began",
                          match_rules=record.rules_version, plugin_rules=entry.game.version)
        # The rules load the state (snapshot and log) when the match is next
        # used, in a worker and under a deadline: a match whose rules hang
        # cannot hold the host here.
        snapshot_version = (await self.store.latest_snapshot(record.id)).version
        if snapshot_version > record.version:  # another replica moved on since the row was read
            record = await self.store.get_match(record.id)
        tail = [e for e in await self.store.events(record.id, snapshot_version) if e["version"] <= record.version]
        live = LiveMatch(record, entry, None, snapshot_version, bound)
        live.recent.extend(tail)
        live.requests = await self.store.request_versions(record.id)
        return live

    async def _rules_source(self, live: LiveMatch) -> tuple[Any, list[dict]]:
        """What the rules load a match from: the latest snapshot and the
        events after it, up to the live match's version."""
        snapshot = await self.store.latest_snapshot(live.id)
        if snapshot.version > live.version:  # shared store: other replicas moved on; take their steps first
            record = await self.store.get_match(live.id)
            events = [e for e in await self.store.events(live.id, live.version) if e["version"] <= record.version]
            live.advance(record, events)
        tail = [e for e in await self.store.events(live.id, snapshot.version) if e["version"] <= live.version]
        return snapshot.state, tail

    async def list_matches(self, *, game_id: str | None, status: str | None, limit: int,
                           before: tuple[float, str] | None, player: str | None = None) -> list[MatchRecord]:
        if game_id:
            self.game_entry(game_id)
        return await self.store.list_matches(game_id=game_id, status=status, limit=limit, before=before,
                                             player=player)

    async def join(self, match_id: str, seat: int | None, player_name: str,
                   caller: Principal | None = None) -> tuple[LiveMatch, int, str]:
        live = await self.live_match(match_id)
        return await self._locked(live, lambda: self._join(live, seat, player_name, caller))

    async def _join(self, live: LiveMatch, seat: int | None, player_name: str,
                    caller: Principal | None = None) -> tuple[LiveMatch, int, str]:
        match_id = live.id
        record = live.record
        held = live.seat_of_subject(caller.subject) if caller and caller.subject else None
        if held is not None and not live.over:
            return await self._rejoin(live, held)
        if record.status != "open":
            raise errors.FailedPrecondition(
                f"matches/{match_id} is {record.status}: seats can only be taken while it is open.",
                "MATCH_NOT_OPEN", metadata=errors.metadata_of(status=record.status))
        open_seats = [s.index for s in record.seats if s.kind == "open"]
        if seat is None:
            seat = open_seats[0]
        elif not 0 <= seat < len(record.seats):
            raise errors.invalid_field("seat", f"seat must be 0 to {len(record.seats) - 1}, not {seat}.")
        elif seat not in open_seats:
            raise errors.FailedPrecondition(
                f"Seat {seat} is taken. Open seats: {', '.join(map(str, open_seats))}.", "SEAT_TAKEN",
                metadata=errors.metadata_of(seat=seat, open_seats=",".join(map(str, open_seats))))
        token = secrets.token_urlsafe(24)
        seats = list(record.seats)
        if caller and caller.subject:  # the name comes from the identity, and the seat is bound to it
            seats[seat] = SeatRecord(seat, "human", caller.display_name or caller.subject, token_hash(token),
                                     subject=caller.subject)
        else:
            seats[seat] = SeatRecord(seat, "human", player_name or f"player {seat}", token_hash(token))
        now = time.time()
        events = [self._event(record.version + 1, "joined", seat, now, player_name=seats[seat].player_name)]
        status = record.status
        if all(s.kind != "open" for s in seats):
            status = "active"
            events.append(self._event(record.version + 2, "started", -1, now))
        new_record = record.replace(seats=seats, status=status, version=events[-1]["version"], update_time=now)
        await self._commit(live, new_record, events)
        live.log.info("seat taken", seat=seat, player=seats[seat].player_name)
        return live, seat, token

    async def _rejoin(self, live: LiveMatch, seat: int) -> tuple[LiveMatch, int, str]:
        """A signed-in user back for the seat they hold (another device):
        a fresh token replaces the old one, which stops working; the user
        may also act by identity alone, without any token."""
        record = live.record
        token = secrets.token_urlsafe(24)
        seats = list(record.seats)
        seats[seat] = dataclasses.replace(seats[seat], token_hash=token_hash(token))
        now = time.time()
        events = [self._event(record.version + 1, "joined", seat, now, player_name=seats[seat].player_name,
                              rejoined=True)]
        # update_time stays: it is the turn clock, which a rejoin must not restart
        await self._commit(live, record.replace(seats=seats, version=record.version + 1), events)
        live.log.info("seat taken again", seat=seat)
        return live, seat, token

    async def leave(self, match_id: str, token: str, caller: Principal | None = None) -> LiveMatch:
        live = await self.live_match(match_id)
        return await self._locked(live, lambda: self._leave(live, token, caller))

    async def _leave(self, live: LiveMatch, token: str, caller: Principal | None = None) -> LiveMatch:
        match_id = live.id
        seat = self._seat_of(live, token, action="leave", caller=caller)
        record = live.record
        now = time.time()
        if record.status == "open":
            seats = list(record.seats)
            seats[seat] = SeatRecord(seat)
            events = [self._event(record.version + 1, "left", seat, now)]
            new_record = record.replace(seats=seats, version=record.version + 1, update_time=now)
        elif record.status == "active":
            events = [self._event(record.version + 1, "left", seat, now),
                      self._event(record.version + 2, "abandoned", seat, now)]
            new_record = record.replace(status="abandoned", version=record.version + 2, update_time=now)
        else:
            raise errors.FailedPrecondition(f"matches/{match_id} is already {record.status}.",
                                            "MATCH_OVER", metadata=errors.metadata_of(status=record.status))
        snapshot_state = await self._final_state(live) if new_record.status == "abandoned" else None
        await self._commit(live, new_record, events, snapshot_state=snapshot_state)
        live.log.info("seat left", seat=seat, status=new_record.status)
        if live.over:
            self._remember_finished(live.id)
        return live

    # ------------------------------------------------------------ views

    def viewer_of(self, live: LiveMatch, token: str, caller: Principal | None = None) -> int | None:
        """The seat a token acts for; without a token, the seat the signed-in
        caller holds; None for a spectator."""
        if not token:
            return live.seat_of_subject(caller.subject) if caller and caller.subject else None
        seat = live.seat_of_token(token)
        if seat is None:
            raise errors.Unauthenticated(
                f"The player token does not belong to any seat of matches/{live.id}. Use the token "
                "JoinMatch returned for this match, or no token to watch as a spectator.", "INVALID_TOKEN")
        return seat

    def _seat_of(self, live: LiveMatch, token: str, action: str, caller: Principal | None = None) -> int:
        seat = self.viewer_of(live, token, caller)
        if seat is None:
            raise errors.PermissionDenied(
                f"Spectators cannot {action}: join the match (JoinMatch) and send its player token.",
                "SPECTATOR_FORBIDDEN", metadata=errors.metadata_of(action=action))
        return seat

    async def to_move(self, live: LiveMatch) -> tuple[int, ...]:
        if live.record.status != "active":
            return ()
        return await live.derived_async("to_move", lambda: self.rules.to_move(live))

    async def legal_moves(self, live: LiveMatch, seat: int | None) -> tuple[Move, ...]:
        if seat is None or seat not in await self.to_move(live):
            return ()
        return await live.derived_async(("moves", seat), lambda: self.rules.legal_moves(live, seat))

    async def _moves_by_id(self, live: LiveMatch, seat: int) -> dict[str, Move]:
        async def compute() -> dict[str, Move]:
            return {m.id: m for m in await self.legal_moves(live, seat)}

        return await live.derived_async(("moves_by_id", seat), compute)

    async def view(self, live: LiveMatch, seat: int | None) -> ViewData:
        async def compute() -> ViewData:
            while True:  # every part from one version: a step may land while the rules answer
                version, status, result = live.version, live.record.status, live.record.result
                state = await self.rules.view(live, seat)
                to_move, moves = await self.to_move(live), await self.legal_moves(live, seat)
                if live.version == version:
                    return ViewData(version, status, seat, to_move, state, moves, result)

        return await live.derived_async(("view", seat), compute)

    async def state_of(self, live: LiveMatch) -> Any:
        """The match's current rules state, wherever the rules hold it (a
        copy when a worker does)."""
        return await self.rules.state(live)

    async def render(self, live: LiveMatch, view: ViewData, kind: str) -> str:
        if kind == "text":
            return await live.derived_async(("text", view.seat, view.version),
                                            lambda: self.rules.render_text(live, view.state))
        return await live.derived_async(("svg", view.seat, view.version),
                                        lambda: self.rules.render_svg(live, view.state, view.moves))

    # ------------------------------------------------------------ moves

    async def submit(self, match_id: str, token: str, *, move_id: str = "", move: Mapping[str, Any] | None = None,
                     expected_version: int | None = None, request_id: str = "",
                     caller: Principal | None = None) -> MoveResult:
        if not move_id and move is None:
            raise errors.invalid_field("move", "send a legal move id (move_id) or a structured move (structured).",
                                       "MOVE_MISSING")
        live = await self.live_match(match_id)

        async def attempt() -> MoveResult:
            seat = self._seat_of(live, token, action="move", caller=caller)
            if request_id and (seat, request_id) in live.requests:
                return MoveResult(live.requests[(seat, request_id)], seat, True)
            if expected_version is not None and expected_version != live.version:
                raise errors.Aborted(
                    f"matches/{match_id} is at version {live.version}, not {expected_version}: "
                    "someone moved first. Fetch the view again and choose a move from it.", "STALE_VERSION",
                    metadata=errors.metadata_of(current_version=live.version, expected_version=expected_version))
            version = await self._play(live, seat, move_id, move, request_id)
            return MoveResult(version, seat, False)

        return await self._locked(live, attempt)

    async def _play(self, live: LiveMatch, seat: int, move_id: str, move: Mapping[str, Any] | None,
                    request_id: str, timed_out: bool = False) -> int:
        record = live.record
        if record.status != "active":
            raise errors.FailedPrecondition(
                f"matches/{live.id} is {record.status}: moves are accepted only while it is active.",
                "MATCH_NOT_ACTIVE", metadata=errors.metadata_of(status=record.status))
        to_move = await self.to_move(live)
        if seat not in to_move:
            raise errors.FailedPrecondition(
                f"It is not your turn: seat {', '.join(map(str, to_move))} is to move.", "NOT_YOUR_TURN",
                metadata=errors.metadata_of(seat=seat, to_move=",".join(map(str, to_move))))
        if move_id:
            chosen = (await self._moves_by_id(live, seat)).get(move_id)
            if chosen is None:
                ids = [m.id for m in await self.legal_moves(live, seat)]
                listed = ", ".join(ids[:MAX_IDS_SHOWN]) + (" ..." if len(ids) > MAX_IDS_SHOWN else "")
                raise errors.FailedPrecondition(
                    f"No legal move has id {shown(move_id)} now. Legal moves: {listed}.", "UNKNOWN_MOVE",
                    metadata=errors.metadata_of(move_id=move_id[:MAX_TEXT_SHOWN], rule="unknown-move"))
            args, label = chosen.args, chosen.label
        else:
            listed = await self._listed_move(live, seat, move)
            args, move_id, label = listed.args, listed.id, listed.label
        version = record.version + 1
        # The new state stays where the rules run; it comes back only when a
        # snapshot is due (or the match ends).
        applied = await self._apply(live, seat, args, version,
                                    want_state=version - live.snapshot_version >= self.snapshot_every)
        result = applied.result
        now = time.time()
        event = self._event(version, "moved", seat, now, move=dict(args), move_id=move_id,
                            label=label or f"seat {seat} moved")
        if request_id:
            event["request_id"] = request_id
        if timed_out:
            event["timed_out"] = True
        events = [event]
        changes: dict[str, Any] = {"version": version, "update_time": now}
        if result is not None:
            changes.update(status="finished", result=result, version=version + 1)
            events.append(self._event(version + 1, "finished", -1, now, result=result))
        await self._commit(live, record.replace(**changes), events, applied=applied)
        live.log.debug("move applied", seat=seat, move=move_id or args, version=version)
        if result is not None:
            live.log.info("match finished", result=changes["result"])
            self._remember_finished(live.id)
        return version

    async def _listed_move(self, live: LiveMatch, seat: int, move: Mapping[str, Any]) -> Move:
        """The legal move a structured move names: what is recorded, applied
        and broadcast is the listed move, never the client's dictionary (an
        extra key, however large, goes no further). A move the listing lacks
        goes to the rules for their refusal and its reason."""
        listed = next((m for m in await self.legal_moves(live, seat) if m.args == move), None)
        if listed is not None:
            return listed
        await self._apply(live, seat, move, live.version + 1, want_state=False)  # raises the rules' refusal
        raise errors.InvalidArgument(
            "The structured move is not one of the seat's legal moves as listed (no unlisted keys or values): "
            "send one of the view's legal_moves exactly, or its id.", "UNLISTED_MOVE",
            field_violations=[("structured", "must equal the move of one of the seat's legal moves.")])

    async def _apply(self, live: LiveMatch, seat: int, args: Mapping[str, Any], version: int, *,
                     want_state: bool) -> Applied:
        """What the rules make of ``seat`` playing ``args``; held by the rules
        until the step is committed, so a refusal leaves the match as it was."""
        try:
            return await self.rules.apply(live, seat, args, version, want_state=want_state)
        except MalformedMove as refusal:
            reason = _cut(refusal.reason)
            raise errors.InvalidArgument(f"Malformed move: {reason}", "MALFORMED_MOVE",
                                         metadata=errors.metadata_of(rule=refusal.rule),
                                         field_violations=[("structured", reason)]) from None
        except IllegalMove as refusal:
            raise errors.FailedPrecondition(f"Illegal move: {_cut(refusal.reason)}", "ILLEGAL_MOVE",
                                            metadata=errors.metadata_of(rule=refusal.rule)) from None

    async def _final_state(self, live: LiveMatch) -> Any:
        """The state to snapshot when a match ends without a result, or None
        when its rules are failing (the log still holds every move)."""
        try:
            return await self.rules.state(live)
        except errors.HostError:
            return None

    async def _commit(self, live: LiveMatch, record: MatchRecord, events: list[dict], *,
                      applied: Applied | None = None, snapshot_state: Any = None) -> None:
        """Write one step; only once it is committed does the live match take
        it (and the rules the state ``applied`` brought)."""
        if snapshot_state is None and applied is not None and applied.state is not None and (
                record.status == "finished" or record.version - live.snapshot_version >= self.snapshot_every):
            snapshot_state = applied.state
        snapshot = None if snapshot_state is None else Snapshot(record.version, snapshot_state)
        # A shared store records when the host must act next, so the seats to
        # move are known before the commit; they seed the new version's cache.
        to_move = None
        if self.shared and record.status == "active":
            to_move = applied.to_move if applied is not None else await self.rules.to_move(live)
        due_in = None if to_move is None else self._due_in(record, to_move)
        try:
            await self.store.append(Append(record, events, snapshot, record.seats is not live.record.seats, due_in,
                                           record.status_detail != live.record.status_detail))
        except VersionConflict:
            raise errors.Aborted(f"matches/{live.id} changed while this call was applied; fetch the view again.",
                                 "CONCURRENT_UPDATE") from None
        live.advance(record, events, None, None if snapshot is None else snapshot.version)
        if applied is not None:
            self.rules.committed(live, applied)
            to_move = applied.to_move
            for seat, moves in applied.moves.items():
                live.settle(("moves", seat), moves)
        if to_move is not None:
            live.settle("to_move", to_move)
        self._notify_observers(live, events)
        await self._schedule_turns(live)

    def _due_in(self, record: MatchRecord, to_move: tuple[int, ...]) -> float | None:
        """Seconds until the host must act after this step: a bot's move or
        a player's deadline (the committing replica claims it in the same
        transaction), or None."""
        kinds = {record.seats[s].kind for s in to_move}
        due = [self._bot_delay(record)] if "bot" in kinds else []
        if "human" in kinds and record.turn_timeout:
            due.append(record.turn_timeout)
        return min(due, default=None)

    @staticmethod
    def _event(version: int, kind: str, seat: int, now: float, **fields: Any) -> dict:
        return {"version": version, "kind": kind, "seat": seat, "time": now, **fields}

    def _notify_observers(self, live: LiveMatch, events: list[dict]) -> None:
        for impl in self._observers:
            for event in events:
                try:
                    impl.function(match_id=live.id, game_id=live.game.id, event=event)
                except Exception as error:  # observers cannot break a match
                    live.log.error("match observer failed", plugin=impl.plugin_name, error=str(error))

    # ------------------------------------------------------------ bots and deadlines

    async def _schedule_turns(self, live: LiveMatch) -> None:
        """Act where the host must: bot seats to move, and the deadline of a
        player to move in a match with a turn timeout."""
        live.disarm_deadline()
        if self._closing or live.record.status != "active":
            return
        try:
            to_move = await self.to_move(live)
        except errors.HostError as error:  # counted as a strike where it failed; nothing to schedule
            live.log.error("turns not scheduled", error=str(error))
            return
        live.disarm_deadline()  # a concurrent call may have armed it meanwhile
        record = live.record
        if self._closing or record.status != "active":
            return
        for seat in to_move:
            if record.seats[seat].kind == "bot" and seat not in live.bot_pending:
                live.bot_pending.add(seat)
                self._spawn(self._bot_turn(live, seat))
        if record.turn_timeout and any(record.seats[seat].kind == "human" for seat in to_move):
            delay = max(0.0, record.update_time + record.turn_timeout - time.time())
            live.deadline = asyncio.get_running_loop().call_later(
                delay, lambda: self._spawn(self._turn_timed_out(live)))

    async def _bot_turn(self, live: LiveMatch, seat: int) -> None:
        async def attempt(retry: int) -> None:
            live.bot_pending.discard(seat)
            if live.record.status != "active" or seat not in await self.to_move(live):
                return
            await self._play_for(live, seat, live.record.seats[seat].bot, retry=retry)

        def failed() -> None:
            live.bot_pending.add(seat)  # still this task's turn: no second bot task meanwhile

        if delay := self._bot_delay(live.record):
            await asyncio.sleep(delay)
        await self._host_move(live, attempt, failed, seat=seat)

    def _bot_delay(self, record: MatchRecord) -> float:
        """A person's pace where a human plays; all-bot matches keep ``bot_delay``."""
        humans = any(seat.kind != "bot" for seat in record.seats)
        return self.bot_delay_with_humans if humans else self.bot_delay

    async def _turn_timed_out(self, live: LiveMatch) -> None:
        """The deadline passed: a random legal move for the first player to
        move. Checked again under the lock, on a fresh copy: the player may
        have moved just now, here or on another replica."""
        async def attempt(retry: int) -> None:
            record = live.record
            if record.status != "active" or time.time() < record.update_time + record.turn_timeout:
                return
            late = [seat for seat in await self.to_move(live) if record.seats[seat].kind == "human"]
            if late:
                live.log.info("turn timed out", seat=late[0], timeout=record.turn_timeout)
                await self._play_for(live, late[0], "random", timed_out=True, retry=retry)

        await self._host_move(live, attempt, lambda: None, timed_out=True)

    async def _host_move(self, live: LiveMatch, attempt, failed, **fields: Any) -> None:
        """Run a move the host makes for a seat (``attempt(retry)``, under the
        lock). It must not stall the match when it fails (the store away, the
        rules crashing on the chosen move), so it is tried again with backoff
        while the host is open; each retry draws the choice afresh."""
        retry = 0
        while not self._closing and live.record.status == "active":
            try:
                await self._locked(live, lambda: attempt(retry))
                return
            except asyncio.CancelledError:
                raise
            except Exception as error:
                failed()
                delay = min(HOST_MOVE_RETRY_MAX, self.host_move_retry * 2 ** retry)
                retry += 1
                live.log.error("host move failed; trying again", error=str(error), retry=retry,
                               retry_in=delay, **fields)
                await asyncio.sleep(delay)

    async def _play_for(self, live: LiveMatch, seat: int, bot_name: str, *, timed_out: bool = False,
                        retry: int = 0) -> None:
        """The host moves for ``seat`` with the named bot (the lock is held).
        A bot that fails or offers a move that is not legal is replaced by
        the random bot for this move: a plugin's bot must not stall a match."""
        # A retry draws from its own stream, so a choice the rules crashed on is not bound to come again.
        choice, bot_failed = await self.rules.choose(live, seat, bot_name, live.version + 1,
                                                     f"bot retry {retry}" if retry else "bot")
        if choice is None:
            live.log.error("no legal move to play for the seat", seat=seat)
            return
        if bot_failed:
            live.log.error("bot failed; a random move is played instead", bot=bot_name, seat=seat, error=bot_failed)
        await self._play(live, seat, choice.id, None, "", timed_out)

    async def _sweep_due_turns(self) -> None:
        """Shared store: act on the bot moves and deadlines this replica
        claims, those whose replica died or failed before acting."""
        while not self._closing:
            try:
                claimed = await self.store.claim_due()
            except Exception as error:  # the database may be away: sweep again later
                log.warning("sweep for due turns failed", error=str(error))
                claimed = []
            for match_id in claimed:
                try:
                    live = await self.live_match(match_id)
                    async with live.lock:
                        await self._catch_up(live)
                except Exception as error:  # e.g. a game this replica lacks: the lease lets another try
                    log.error("claimed turn not taken", match_id=match_id, error=str(error))
                    continue
                live.log.info("turn claimed")
                await self._schedule_turns(live)
            await asyncio.sleep(self.sweep_interval)

    # ------------------------------------------------------------ watching

    async def watch(self, live: LiveMatch, after_version: int) -> AsyncIterator[list[dict]]:
        """Batches of events after ``after_version``, in order, with no gap
        and no repeat, until the match is over or the host closes."""
        if not 0 <= after_version <= live.version:
            raise errors.invalid_field("after_version", f"must be 0 to the match's version ({live.version}), "
                                                        f"not {after_version}.", "VERSION_OUT_OF_RANGE")
        if live.watchers >= self.max_watchers_per_match:
            raise errors.ResourceExhausted(
                f"matches/{live.id} already has {live.watchers} watchers, the most this host allows; retry later.",
                "TOO_MANY_WATCHERS", metadata=errors.metadata_of(limit=self.max_watchers_per_match))
        live.watchers += 1
        sent = after_version
        try:
            while True:
                if live.version > sent:
                    batch = live.recent_after(sent)
                    if batch is None:
                        batch = await self.store.events(live.id, sent)
                    batch = [e for e in batch if e["version"] > sent]
                    if batch:
                        sent = batch[-1]["version"]
                        yield batch
                        continue
                if (live.over and sent >= live.version) or self._closing:
                    return
                await live.changed.wait()
        finally:
            live.watchers -= 1

    async def log_events(self, live: LiveMatch) -> list[dict]:
        return await self.store.events(live.id, 0)

    async def public_event(self, live: LiveMatch, event: dict, viewer: int | None) -> dict:
        """An event as ``viewer`` may see it: a move hidden from others stays
        hidden until the match is over."""
        if event["kind"] != "moved" or live.over or viewer == event["seat"]:
            return event
        if type(live.game).public_move is Game.public_move:  # the SDK's shows every move: no call needed
            return event
        async def compute() -> dict:
            shown = await self.rules.public_move(live, event["seat"], event["move"], viewer)
            if shown == event["move"]:
                return event
            return {**event, "move": shown, "move_id": "", "label": f"seat {event['seat']} moved"}

        if event["version"] < live.version - 1:  # an old event (a log read): not worth keeping
            return await compute()
        # The newest step's events go to every watcher: one rules call per viewer.
        return await live.derived_async(("public_event", event["version"], viewer), compute)

    # ------------------------------------------------------------ rules calls

    def _rules_failed(self, live: LiveMatch, error: errors.HostError) -> None:
        """The rules of ``live`` timed out or crashed (the runner calls this):
        a strike; at ``max_strikes`` the match is suspended. Not while the
        host stops: its workers are stopped then, not the rules' fault."""
        if self._closing:
            return
        live.strikes += 1
        live.log.warning("rules strike", strikes=live.strikes, reason=error.reason, max_strikes=self.max_strikes)
        if live.strikes >= self.max_strikes and live.record.status in ("open", "active") and live.id in self._live:
            self._spawn(self._suspend(live, error))

    async def _suspend(self, live: LiveMatch, error: errors.HostError) -> None:
        """Persist the suspension: status, why and whose rules, in one step
        with a ``suspended`` event. Bots and deadlines stop with it."""
        async with live.lock:
            record = live.record
            if record.status not in ("open", "active") or live.strikes < self.max_strikes:
                return
            detail = {"reason": error.reason, "message": error.message, "plugin": live.entry.plugin}
            now = time.time()
            events = [self._event(record.version + 1, "suspended", -1, now, **detail)]
            new_record = record.replace(status="suspended", version=record.version + 1, update_time=now,
                                        status_detail=detail)
            try:
                await self._commit(live, new_record, events)
            except Exception as failure:  # the store is away: the next strike tries again
                live.log.error("match not suspended", error=str(failure))
                return
            live.bot_pending.clear()
            live.log.error("match suspended", reason=error.reason, plugin=live.entry.plugin,
                           strikes=live.strikes)

    async def reset_rules_for_resume(self, live: LiveMatch) -> None:
        """What resuming a suspended match must undo on the rules side,
        before the match goes back to ``active``: forget its strikes and load
        it afresh into a worker (snapshot and log, under the load deadline).
        Raises the rules' error if it cannot be loaded; the match stays
        suspended then. For the admin's ResumeMatch (``resume_match``)."""
        live.strikes = 0
        self.rules.forget(live.id)
        await self.rules.state(live)  # loads it; fails here, not on the first move
        live.strikes = 0  # the load itself may have struck
