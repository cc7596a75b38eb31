"""The pytest plugin for game plugin authors (entry point ``pytest11``).

Installed with gamehost, so any project with gamehost on its path gets:

- ``conformance_test(game)``: a one-line conformance test, parametrized over
  every player count and every variant of ``game`` (and, with ``batch=``,
  over batches of each sweep's seeds)::

      from gamehost.testing.pytest_plugin import conformance_test
      test_conformance = conformance_test(MyGame())

- the ``conformance`` fixture: ``conformance(game, seats=2, ...)`` runs the
  kit with the sweep sampled as ``GAMEHOST_CONFORMANCE_SHARE`` says;
- quiet logs: the engine's debug line per move is not printed unless
  ``--gamehost-log-level debug`` asks for it (structlog configured by the
  project itself is left alone);
- no pytest-asyncio warning about an unset
  ``asyncio_default_fixture_loop_scope``: a project that has not chosen a
  scope gets ``function``, pytest-asyncio's own coming default.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any, Callable, Mapping

import pytest

from gamehost.testing.sweeps import SeedBatch, sampled, seed_batches

if TYPE_CHECKING:  # the kit imports the engine: loaded only when a test uses it
    from gamehost.sdk.rules import Game
    from gamehost.testing.conformance import ConformanceReport

LOG_LEVELS = ("debug", "info", "warning", "error")
_UNSET_LOOP_SCOPE = 'The configuration option "asyncio_default_fixture_loop_scope" is unset'


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("gamehost", "gamehost plugin authors' kit")
    group.addoption("--gamehost-log-level", choices=LOG_LEVELS, default="warning",
                    help="level of the host's log lines printed during tests (default: warning)")


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    # Before pytest-asyncio's own pytest_configure, which warns: that
    # project did not choose a loop scope, and its fixtures are not ours.
    warnings.filterwarnings("ignore", message=_UNSET_LOOP_SCOPE)
    import structlog

    if not structlog.is_configured():
        from gamehost.host.ops.logs import configure

        configure("console", config.getoption("--gamehost-log-level"))


Conformance = Callable[..., "ConformanceReport"]


@pytest.fixture
def conformance() -> Conformance:
    """``conformance(game, seats=..., options=..., playouts=100, seed=0,
    max_moves=10_000)``: the kit's ``run_conformance`` with ``playouts``
    sampled by GAMEHOST_CONFORMANCE_SHARE."""
    from gamehost.testing.conformance import run_conformance

    def check(game: Game, *, seats: int, options: Mapping[str, Any] | None = None, playouts: int = 100,
              seed: int = 0, max_moves: int = 10_000) -> ConformanceReport:
        return run_conformance(game, seats=seats, options=options, playouts=sampled(playouts), seed=seed,
                               max_moves=max_moves)

    return check


def conformance_cases(game: Game) -> list[Any]:
    """One case per player count with the default options, and one per
    variant at the least player count, each a ``pytest.param`` of (rules,
    seats, options); the same again for each of ``game.earlier_versions``
    (ids prefixed ``rules-<version>-``): old rules still play matches."""
    cases = []
    for rules in (game, *game.earlier_versions):
        prefix = "" if rules is game else f"rules-{rules.version}-"
        cases += [pytest.param(rules, seats, {}, id=f"{prefix}{seats}-seats")
                  for seats in range(rules.min_players, rules.max_players + 1)]
        cases += [pytest.param(rules, rules.min_players, dict(variant.options), id=f"{prefix}variant-{variant.id}")
                  for variant in rules.variants]
    return cases


def conformance_test(game: Game, *, playouts: int = 100, max_moves: int = 10_000,
                     batch: int | None = None) -> Callable[..., None]:
    """A test function that runs the kit over every player count and every
    variant of ``game`` and of its earlier rules versions; assign it to a
    ``test_`` name in a test module. Each case plays ``playouts`` games
    (sampled by GAMEHOST_CONFORMANCE_SHARE) from seed 1000 * seats on; with
    ``batch``, at most that many per test (ids ending ``-seeds2000-2009``),
    so that pytest-xdist's workers share a slow game's sweep."""
    games = sampled(playouts)
    cases = [pytest.param(*case.values, seeds, id=case.id if batch is None else f"{case.id}-{seeds.id}")
             for case in conformance_cases(game)
             for seeds in seed_batches(games, seed=1000 * case.values[1], size=batch or games)]

    @pytest.mark.parametrize(("rules", "seats", "options", "seeds"), cases)
    def test_conformance(rules: Game, seats: int, options: dict[str, Any], seeds: SeedBatch) -> None:
        from gamehost.testing.conformance import run_conformance

        report = run_conformance(rules, seats=seats, options=options, playouts=seeds.playouts, seed=seeds.seed,
                                 max_moves=max_moves)
        assert report.playouts == seeds.playouts and report.moves >= report.playouts

    test_conformance.__doc__ = f"{game.title or game.id} passes the conformance kit."
    return test_conformance
