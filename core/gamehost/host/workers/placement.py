"""Where a host's rules run, decided by whoever assembles the host: the
engine builds its rules runner from it, handing the runner what that calls
back (loading a match, hearing of a failure) in the same step."""

from __future__ import annotations

from dataclasses import dataclass, field

from gamehost.host.workers.budgets import RulesBudgets
from gamehost.host.workers.pool import WorkerPool


@dataclass(frozen=True)
class RulesPlacement:
    """``pool``: the worker processes the rules run in (None: every game's
    rules run in the host); ``trusted``: plugin names whose rules run in the
    host all the same; ``budgets``: how long each call may take."""

    pool: WorkerPool | None = None
    trusted: frozenset[str] = frozenset()
    budgets: RulesBudgets = field(default_factory=RulesBudgets)
