"""The core of a move, as one typed base: the state the engine's parts
share and the methods they call across each other, declared once here.

``MatchEngine`` is made of the parts a move flows through (directory, seats,
moves, steps, host moves, rules failures, views, clocks, undo, endings), each a
subclass of ``EngineCore`` that implements its own methods and reaches the
others' only through what this class declares. Parts that need little of
the core (ratings, renderings, replay, rematches, administration,
matchmaking) are objects the engine holds instead, built with what they use.
"""

from __future__ import annotations

import abc
import asyncio
from typing import Any, Awaitable, Callable, Coroutine, Mapping, Protocol, Sequence, TypeVar, cast

import pluggy

from gamehost.host import errors, traces
from gamehost.host.auth import Principal
from gamehost.host.bots import Bot
from gamehost.host.engine.agents import AgentDirectory
from gamehost.host.engine.live import LiveMatch
from gamehost.host.engine.match_access import Access
from gamehost.host.engine.match_quotas import HeldMatches, MatchQuotas
from gamehost.host.engine.ratings import MatchRatings
from gamehost.host.engine.renderings import MatchRenderings
from gamehost.host.errors import shown
from gamehost.host.plugins import Catalog, GameEntry
from gamehost.host.store.base import MatchRecord, Store
from gamehost.host.workers.runner import Applied, RulesRunner
from gamehost.sdk.rules import Move

T = TypeVar("T")


class ReplicaFeed(Protocol):
    """What a store shared with other replicas offers besides ``Store``:
    their commits and ticket changes as they happen, and the due turns to
    claim."""

    def subscribe(self, on_change: Callable[[str | None, int], Awaitable[None] | None]) -> None: ...

    def subscribe_tickets(self, on_tickets: Callable[[list[str] | None], None]) -> None: ...

    def subscribe_erasures(self, on_erased: Callable[[list[str]], None]) -> None: ...

    async def claim_due(self, limit: int = 32) -> list[str]: ...


class EngineCore(abc.ABC):
    """What every part of the core may use: the shared state below (set by
    ``MatchEngine.__init__``) and the methods declared abstract, each
    implemented by the part named beside it."""

    # ------------------------------------------------------------ shared state

    catalog: Catalog
    store: Store
    shared: bool  # the store is shared with other replicas
    rules: RulesRunner  # where the rules run: every rules call awaits it
    bots: dict[str, Bot]
    agents: AgentDirectory  # remote agents: who is connected, the turns offered them
    agent_timeout: float  # seconds an agent has to answer a turn
    ratings: MatchRatings
    renderings: MatchRenderings
    snapshot_every: int
    sweep_interval: float
    bot_delay: float
    bot_delay_with_humans: float
    host_move_retry: float
    max_watchers_per_match: int
    max_strikes: int
    undo_ask_lifetime: float
    quotas: MatchQuotas
    max_asks_per_move: int  # asks to take one move back
    max_match_events: int  # a match's log length past which no undo is asked
    _live: HeldMatches  # the directory: the matches this host holds in memory, indexed for the quotas
    _finished_order: list[str]
    _tasks: set[asyncio.Task[Any]]
    _closing: bool
    _observers: list[pluggy.HookImpl]  # plugins' gamehost_match_event
    _clock_rule: Callable[..., Any] | None  # games' timeout rules, asked in their workers
    _resign_hook: Callable[..., Any] | None  # games' resignation rules, asked in their workers

    @property
    def replicas(self) -> ReplicaFeed:
        """The store as shared with other replicas: used only when ``shared``
        (the store says so), which ``Store`` itself cannot express."""
        return cast(ReplicaFeed, self.store)

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        """Run ``work`` in the background until it ends or the engine closes.
        It is no part of the current call's trace: it may run long after,
        and a bot's move it makes is a trace of its own."""
        task = asyncio.get_running_loop().create_task(work, context=traces.detached())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def game_entry(self, game_id: str) -> GameEntry:
        entry = self.catalog.get(game_id)
        if entry is None:
            known = ", ".join(sorted(self.catalog.games)) or "none"
            raise errors.NotFound(f"No game {shown('games/' + game_id)} on this host. Games served: {known}.",
                                  "GAME_NOT_FOUND", resource=("gamehost.dev/Game", f"games/{game_id}"))
        return entry

    # ------------------------------------------------------------ directory.py

    @abc.abstractmethod
    async def live_match(self, match_id: str, access: "Access | None" = None) -> LiveMatch: ...

    @abc.abstractmethod
    async def locked(self, live: LiveMatch, attempt: Callable[[], Awaitable[T]]) -> T: ...

    @abc.abstractmethod
    async def _catch_up(self, live: LiveMatch) -> bool: ...

    @abc.abstractmethod
    def remember_finished(self, match_id: str) -> None: ...

    # ------------------------------------------------------------ seats.py

    @abc.abstractmethod
    def _seat_of(self, live: LiveMatch, token: str, action: str, caller: Principal | None = None) -> int: ...

    @abc.abstractmethod
    def viewer_of(self, live: LiveMatch, token: str, caller: Principal | None = None) -> int | None: ...

    @abc.abstractmethod
    async def _leave_to_bot(self, live: LiveMatch, seat: int) -> LiveMatch: ...

    @abc.abstractmethod
    async def _abandon(self, live: LiveMatch, seat: int) -> LiveMatch: ...

    # ------------------------------------------------------------ moves.py

    @abc.abstractmethod
    async def _play(self, live: LiveMatch, seat: int, move_id: str, move: Mapping[str, Any] | None,
                    request_id: str, timed_out: bool = False) -> int: ...

    @abc.abstractmethod
    async def final_state(self, live: LiveMatch) -> Any: ...

    @staticmethod
    def _viewers(live: LiveMatch) -> tuple[int | None, ...]:
        """Whose views of the new state a move's answer should bring: a
        watched match's every seat and its spectators, so waking the watchers
        costs no further round trip to the rules; none unwatched."""
        if not live.watchers:
            return ()
        return (None, *range(len(live.record.seats)))

    # ------------------------------------------------------------ steps.py

    @abc.abstractmethod
    async def commit(self, live: LiveMatch, record: MatchRecord, events: list[dict], *,
                     applied: Applied | None = None, snapshot_state: Any = None) -> None: ...

    # ------------------------------------------------------------ host_moves.py

    @abc.abstractmethod
    async def _schedule_turns(self, live: LiveMatch) -> None: ...

    @abc.abstractmethod
    def _bot_delay(self, record: MatchRecord) -> float: ...

    @abc.abstractmethod
    async def _play_for(self, live: LiveMatch, seat: int, bot_name: str, *, timed_out: bool = False,
                        retry: int = 0) -> None: ...

    @abc.abstractmethod
    async def _host_move(self, live: LiveMatch, attempt: Callable[[int], Awaitable[None]],
                         failed: Callable[[Exception], None], **fields: Any) -> None: ...

    # ------------------------------------------------------------ agent_turns.py

    @abc.abstractmethod
    async def _agent_turn(self, live: LiveMatch, seat: int) -> None: ...

    # ------------------------------------------------------------ rules_failures.py

    @abc.abstractmethod
    def _rules_failed(self, live: LiveMatch, error: errors.HostError) -> None: ...

    # ------------------------------------------------------------ views.py

    @abc.abstractmethod
    async def to_move(self, live: LiveMatch) -> tuple[int, ...]: ...

    @abc.abstractmethod
    async def legal_moves(self, live: LiveMatch, seat: int | None) -> tuple[Move, ...]: ...

    # ------------------------------------------------------------ match_clocks.py

    @abc.abstractmethod
    def _clock_after_move(self, record: MatchRecord, to_move: Sequence[int], mover: int,
                          now: float) -> dict | None: ...

    @abc.abstractmethod
    def _arm_clock(self, live: LiveMatch, to_move: Sequence[int]) -> None: ...

    # ------------------------------------------------------------ undo.py

    @abc.abstractmethod
    def _arm_undo_lapse(self, live: LiveMatch) -> None: ...

    # ------------------------------------------------------------ endings.py

    @abc.abstractmethod
    async def _resign_seat(self, live: LiveMatch, seat: int, *, left: bool) -> None: ...

    @abc.abstractmethod
    def _arm_draw_lapse(self, live: LiveMatch) -> None: ...
