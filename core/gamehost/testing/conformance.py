"""The ruleset conformance kit: random playouts through the real engine.

Plugins' tests use it; plugins themselves depend on the SDK only. The kit sits
above the host and drives its ``MatchEngine`` through public methods.

Every plugin's tests call ``run_conformance`` for each player count and
variant. Each playout creates a match on a real ``MatchEngine`` over the
in-memory store (which keeps JSON text, as the databases do), joins every
seat and plays random legal moves, checking at every step:

(a) determinism: replaying seed, options and the logged moves reproduces
    every view of every seat and of a spectator exactly;
(b) legality: listed moves are accepted (a sample of them each step, applied
    without committing), moves not listed (moves of earlier positions, a
    malformed move, a move by a seat not to move) are refused through the
    engine with the match version, log and state unchanged; ``apply`` never
    mutates its input; every few steps a listed move is mistyped (each field
    missing, or of another type, or NaN or infinite; an empty move) and
    ``apply`` must refuse each with IllegalMove or MalformedMove, nothing else;
(c) hidden information: no secret appears in a view, a legal move or a log
    event shown to another seat or to a spectator;
(c') information sets, a check that holds by construction: every few
    steps, the state is resampled for each seat and for a spectator with the
    game's ``sample_state``; what that viewer is shown (its view, its legal
    moves, and the log entries of every move listed now) must come out the
    same on the resample as on the real state. A view that carries a hidden
    fact in any form changes when the fact is drawn afresh;
(c'') the log against the view, over time: each state resampled for (c')
    is kept as a twin and driven by the same moves (with the same chance) for
    the next few moves, and whenever the twin shows that viewer the same view
    and legal moves as the real game again, every log entry the viewer could
    read since the fork must read the same in both. A label written while a
    card lay face up that still names the card after it went back face down
    reads differently on a twin dealt another card there;
(d) persistence: the state survives a JSON round trip, and a match evicted
    from memory mid-game and at the end is restored from the store equal;
(e) termination: every game ends within ``max_moves`` with a well-formed
    outcome;
(f) undo, for a game that offers it (overrides ``can_undo``): once a
    playout, after its fourth move (fifth for an odd seed),
    ``can_undo`` answers a bool without changing the state; if it allows
    taking that move back, the move must draw no chance (``apply`` with
    other rngs gives the same state), and the move asked back through the
    engine and accepted by every other seat gives exactly the position
    before it (then the replay of (a) and the final restore of (d) run over the
    undo too).
(g) bot hints, for a game that gives them: every few steps ``order_moves``
    lists exactly the legal moves (or None) and ``playout_move`` returns a
    legal move of the seat (or None), neither changing the state;
(r) compiled rules, for a game run with a ``reference`` (the same game's
    Python rules): at every position the same legal moves, next states and
    bot hints as the reference (``gamehost.testing.same_rules``).
(h) reveals: after each move, ``revealed`` gives ``Reveal`` objects, each
    for everybody or one seat of the match, the same when asked again, and
    the host's log keeps them beside the move; (c) checks every viewer's
    events, reveals included, for secrets it must not see, and a private
    reveal reaches only its seat.
It also renders text and SVG every few steps and at the end, and checks that
the SVG's ``data-move`` targets are legal move ids and, for moves offered in
parts, that every path is well formed and every part has a ``data-part``
target (shown once the move's earlier parts are chosen); less often, and at the
end, that the SVG is well-formed XML (browsers parse it as such) and that its
shapes lie on its canvas (a web page shows the SVG at its size: anything
beyond is cut off). Then too it measures the picture drawn 720 px wide
(``gamehost.testing.legibility``): text under 10 px and move targets under 24 px
are listed in the report's ``legibility``, and fail the run for a game that
opts in (``legible_text=True``, ``tappable_targets=True``).
"""

from __future__ import annotations

import asyncio
import functools
import json
import random
import re
from dataclasses import dataclass, field
from xml.etree import ElementTree
from typing import Any, Mapping, Sequence

from gamehost.host import errors
from gamehost.host.engine.match_engine import MatchEngine
from gamehost.host.engine.views import ViewData
from gamehost.host.engine.live import LiveMatch
from gamehost.host.plugins import load_catalog
from gamehost.host.store.memory import MemoryStore
from gamehost.sdk.chance import rng_for
from gamehost.sdk.hookspecs import hookimpl
from gamehost.sdk import part_targets
from gamehost.sdk.replay import initial_state, recorded_moves, replay
from gamehost.sdk.rules import Game, IllegalMove, Move, Reveal, State, offers_undo
from gamehost.testing.languages import LanguageCheck
from gamehost.testing import legibility
from gamehost.testing.same_rules import check_same_rules

MOVES_CHECKED_PER_STEP = 3
BOT_HINTS_EVERY = 5  # (g): a search bot calls them thousands of times a move, a sample shows they are sound
RENDER_EVERY = 10
INFORMATION_SETS_EVERY = 4  # a resample per viewer costs a few views and move lists: every step would double the kit's time
TWIN_SPAN = 8  # moves a twin follows the real game: enough for a card to go up and back down (or out of hand) again
SVG_SHAPES_EVERY = 50  # parsing every SVG would add a third to the kit's time; the final position is always checked
MISTYPED_WITHIN = 40  # one step of each playout gets mistyped-move checks (about 20 apply calls per field of one
# listed move): step (seed mod this), so successive playouts cover the opening and the middle game in turn
# Values of another type for a field: what a fuzzing client sends. NaN and
# infinity cannot reach a live host (its gate refuses them) but rules must not
# depend on that.
WRONG_VALUES: tuple[Any, ...] = (None, True, False, 0, -1, 2 ** 53, 1e300, 0.5, -0.0, float("nan"), float("inf"),
                                 float("-inf"), "", "x", "0", [], [0], [[]], {}, {"": None})
DATA_MOVE = re.compile(r'data-move="([^"]*)"')


@dataclass
class ConformanceReport:
    game: str
    seats: int
    playouts: int = 0
    moves: int = 0
    longest: int = 0
    wins: list[int] = field(default_factory=list)
    legibility: list[str] = field(default_factory=list)
    """Text under 10 px and targets under 24 px at 720 px wide, each once (the first few)."""
    strict: dict[str, bool] = field(default_factory=lambda: {"text": False, "target": False})
    """Which of those fail the run: the checks the game opted into."""
    words: LanguageCheck | None = None
    """Every word shown, in every language the game declares (testing/languages.py)."""
    compared: int = 0
    """Positions at which the game answered as its ``reference`` (r), the final ones included."""


def run_conformance(game: Game, *, seats: int, options: Mapping[str, Any] | None = None, playouts: int = 100,
                    seed: int = 0, max_moves: int = 10_000, legible_text: bool = False,
                    tappable_targets: bool = False, reference: Game | None = None) -> ConformanceReport:
    """Play ``playouts`` random games; raise AssertionError on the first violation.

    ``legible_text`` and ``tappable_targets`` make small text and small move
    targets violations too (opt-in per game for now); either way they are
    listed in the report's ``legibility``. ``reference``: the same game with
    its reference rules, which ``game`` (compiled) must answer like at every
    position (r)."""
    return asyncio.run(check_game(game, seats=seats, options=options, playouts=playouts, seed=seed,
                                  max_moves=max_moves, legible_text=legible_text, tappable_targets=tappable_targets,
                                  reference=reference))


async def check_game(game: Game, *, seats: int, options: Mapping[str, Any] | None = None, playouts: int = 100,
                     seed: int = 0, max_moves: int = 10_000, legible_text: bool = False,
                     tappable_targets: bool = False, reference: Game | None = None) -> ConformanceReport:
    catalog = load_catalog([(f"conformance:{game.id}", _SinglePlugin(game))], use_entry_points=False)
    problems = [error for report in catalog.reports for error in report.errors]
    assert not problems, f"{game.id} fails validation: {problems}"
    store = MemoryStore()
    engine = MatchEngine(catalog, store, snapshot_every=7)
    report = ConformanceReport(game.id, seats, wins=[0] * seats)
    report.strict = {"text": legible_text, "target": tappable_targets}
    report.words = LanguageCheck(game)
    report.words.catalog()
    for index in range(playouts):
        try:
            await _playout(engine, store, game, seats, dict(options or {}), seed + index, max_moves, report,
                           reference)
        except errors.HostError as error:
            raise AssertionError(f"{game.id}, {seats} seats, seed {seed + index}: {error}") from error
        report.playouts += 1
    await engine.close()
    missing_rules = _missing_how_to_play(game, report.words.problems)
    assert not missing_rules, missing_rules
    assert not report.words.problems, (f"{game.id} does not show its words in every language it declares:\n  "
                                       + "\n  ".join(report.words.problems))
    return report


def _missing_how_to_play(game: Game, word_problems: Sequence[str]) -> str:
    """Why ``game`` fails the kit for want of rules a newcomer can read before a first move ("" when it has them).
    Told after the playouts, with the language check's findings (``word_problems``), so one run names them all."""
    if any(str(paragraph).strip() for paragraph in game.how_to_play):
        return ""
    also = ("; and it does not show its words in every language it declares:\n  " + "\n  ".join(word_problems)
            if word_problems else "")
    return (f"{game.id} has no how-to-play text: set Game.how_to_play to its rules for a newcomer, Markdown "
            f"paragraphs each a Text(...) (what you do on a turn, how the game ends and who wins, a tip; "
            f"docs/plugin-guide.md, \"How to play\"){also}")


class _SinglePlugin:
    def __init__(self, game: Game) -> None:
        self._game = game

    @hookimpl
    def gamehost_games(self) -> list[Game]:
        return [self._game]


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


_SCALARS = frozenset({str, int, float, bool, type(None)})


def _tokens(value: Any, into: set) -> set:
    """Every key and scalar anywhere in a JSON-shaped value."""
    pending = [value]
    while pending:
        item = pending.pop()
        kind = type(item)
        if kind in _SCALARS:
            into.add(item)
        elif kind is dict:
            into.update(item)
            pending.extend(item.values())
        elif kind is list or kind is tuple:
            pending.extend(item)
        elif isinstance(item, Mapping):  # rare: the exact type checks above are the fast path
            into.update(item.keys())
            pending.extend(item.values())
        else:
            into.add(item)
    return into


async def _playout(engine: MatchEngine, store: MemoryStore, game: Game, seats: int, options: dict, seed: int,
                   max_moves: int, report: ConformanceReport, reference: Game | None = None) -> None:
    where = f"{game.id}, {seats} seats, options {options}, seed {seed}"
    chooser = random.Random(f"conformance/{seed}")
    live = await engine.create_match(game.id, seats=seats, options=options, seed=seed)
    tokens = [(await engine.join(live.id, seat, f"p{seat}"))[2] for seat in range(seats)]
    viewers: list[int | None] = [*range(seats), None]
    # Views are kept as objects, not JSON: rules never mutate a state, so a
    # view taken at one version still shows that version at the end.
    seen_views: dict[int, list] = {}
    seen_moves: list[dict] = []
    moves_made = 0
    mistyped_at = seed % MISTYPED_WITHIN
    events_checked = 0
    # The SDK's sample_state returns the state itself: nothing to compare.
    resamples = type(game).sample_state is not Game.sample_state
    twins: list[_Twin] = []
    undo_at = 4 + seed % 2 if offers_undo(game) else -1  # after the restore check of move 3

    while True:
        step = f"{where}, version {live.version}"
        state = await engine.state_of(live)
        real = _Position(game, state)
        # A JSON round trip of the state: the (d) check, and the copy that shows whether apply mutates it.
        frozen = json.loads(_dump(state))
        assert frozen == state, f"(d) state does not survive a JSON round trip at {step}"
        views = {viewer: await engine.view(live, viewer) for viewer in viewers}
        seen_views[live.version] = [views[viewer].state for viewer in viewers]
        await _check_secrets(engine, live, state, views, events_checked, step)
        if twins and not live.over:
            _check_twins(real, twins, step)
        if resamples and moves_made % INFORMATION_SETS_EVERY == 0 and not live.over:
            twins.extend(_check_information_sets(real, frozen, viewers, step))
        events_checked = live.version
        if moves_made % RENDER_EVERY == 0 or live.over:
            await _check_renderers(engine, live, views, step, shapes=moves_made % SVG_SHAPES_EVERY == 0 or live.over,
                                   report=report)
        if live.over:
            if reference is not None:
                check_same_rules(game, reference, state, seats, None, (), seed, live.version, step)
                report.compared += 1
            break
        to_move = await engine.to_move(live)
        assert to_move, f"(e) no seat is to move but the game has no outcome at {step}"
        assert moves_made < max_moves, f"(e) no end after {max_moves} moves at {step}"
        seat = to_move[chooser.randrange(len(to_move))]
        moves = await engine.legal_moves(live, seat)
        assert moves, f"(b) seat {seat} is to move but has no legal move at {step}"
        ids = [move.id for move in moves]
        assert len(set(ids)) == len(ids), f"(b) duplicate legal move ids at {step}: {ids}"
        _check_labels(moves, step)
        assert report.words is not None
        report.words.moves(moves, step)
        _check_listed_moves_accepted(game, state, frozen, seat, moves, chooser, step)
        if moves_made % BOT_HINTS_EVERY == 0:
            _check_bot_hints(game, state, frozen, seat, moves, random.Random(f"hints/{seed}/{moves_made}"), step)
        if moves_made == mistyped_at:
            _check_mistyped_moves(game, state, frozen, seat, moves, random.Random(seed), step)
        await _check_refusals(engine, store, live, frozen, seat, tokens, moves, seen_moves, chooser, step)
        chosen = moves[chooser.randrange(len(moves))]
        if reference is not None:
            # The move played, a few listed ones and the last moves made (mostly refused here), drawn with a
            # generator of their own: the playout's chooser draws the same as without this check.
            sample = random.Random(step).sample(moves, min(len(moves), MOVES_CHECKED_PER_STEP))
            tried = [chosen.args, *(move.args for move in sample), *seen_moves[-2:]]
            check_same_rules(game, reference, state, seats, seat, tried, seed, live.version + 1, step)
            report.compared += 1
        seen_moves.append(dict(chosen.args))
        twins = _advance_twins(real, twins, seat, chosen, seed, live.version + 1)
        result = await engine.submit(live.id, tokens[seat], move_id=chosen.id)
        assert result.version > 0 and not result.replayed
        for reveal in await _check_reveals(engine, game, live, frozen, seat, chosen, seats, result.version, step):
            report.words.word(reveal.label, f"label of a reveal of move {chosen.id!r}", step)
        moves_made += 1
        if moves_made == undo_at and not live.over and await _check_undo(engine, game, live, tokens, seat, chosen,
                                                                         state, frozen, step):
            twins = []  # they followed the move taken back
        if moves_made == 3:
            await _check_restore(engine, live.id, step)
            live = await engine.live_match(live.id)

    outcome = live.record.result
    assert outcome is not None, f"(e) match over without a result at {where}"
    assert len(outcome["scores"]) == seats and len(outcome["ranking"]) == seats, f"(e) malformed outcome at {where}"
    assert min(outcome["ranking"]) == 1, f"(e) nobody ranked first at {where}: {outcome}"
    assert report.words is not None
    report.words.result(outcome, where)
    for winner in outcome["winners"]:
        report.wins[winner] += 1
    report.moves += moves_made
    report.longest = max(report.longest, moves_made)
    await _check_restore(engine, live.id, f"{where}, at the end")
    await _check_replay(engine, store, game, live, seen_views, viewers, where)


async def _check_secrets(engine: MatchEngine, live: LiveMatch, state: State, views: Mapping[int | None, ViewData],
                         events_checked: int, step: str) -> None:
    """No secret in what each viewer is shown: the view, its legal moves, and
    the log events since the last check (earlier ones were checked then).

    Each viewer's share is encoded as JSON once; a string secret is found by
    its quoted form, anything else by walking the values."""
    if live.over:
        return  # the plugin may reveal everything at the end
    secrets = list(live.game.secrets(state))
    if not secrets:
        return
    new_events = [event for event in live.recent if event["version"] > events_checked]
    for viewer, view in views.items():
        shown = [view.state, [[move.id, move.label, move.args] for move in view.moves],
                 [await engine.public_event(live, event, viewer) for event in new_events]]
        text = json.dumps(shown, ensure_ascii=False, default=_plain)
        values: set | None = None
        for secret in secrets:
            if viewer is not None and secret.owner == viewer:
                continue
            if isinstance(secret.value, str):
                seen = _quoted(secret.value) in text
            else:
                values = values if values is not None else _tokens(json.loads(text), set())
                seen = secret.value in values
            who = "a spectator" if viewer is None else f"seat {viewer}"
            owner = "nobody" if secret.owner is None else f"seat {secret.owner}"
            assert not seen, f"(c) {who} can see {secret.value!r}, which only {owner} may see, at {step}"


async def _check_reveals(engine: MatchEngine, game: Game, live: LiveMatch, before: State, seat: int, chosen: Move,
                         seats: int, version: int, step: str) -> list[Reveal]:
    """(h) What a step revealed (``Game.revealed``): ``Reveal`` objects, each
    seen by everybody or by one seat of the match, the same answer when asked
    again (a replay shows the same turn), and kept in the log beside the move.
    That no viewer is shown a reveal it must not see is (c)'s check of the
    events, at the next step."""
    after = await engine.state_of(live)
    first = list(game.revealed(before, seat, chosen.args, after))
    again = list(game.revealed(json.loads(_dump(before)), seat, chosen.args, json.loads(_dump(after))))
    for reveal in first:
        assert isinstance(reveal, Reveal), f"(h) revealed() gave {reveal!r}, not a Reveal, at {step}"
        assert reveal.seen_by is None or reveal.seen_by in range(seats), \
            f"(h) a reveal is for seat {reveal.seen_by!r}, not one of the {seats} seats, at {step}"
    assert first == again, f"(h) revealed() answers differently for the same step at {step}: {first} != {again}"
    logged = next((event.get("revealed", []) for event in live.recent if event["version"] == version), None)
    assert logged is not None and [[r["label"], r["value"], r["seen_by"]] for r in logged] == \
        [[str(r.label), json.loads(_dump(r.value)), r.seen_by] for r in first], \
        f"(h) the log keeps other reveals than revealed() gives at {step}"
    return first


class _Position:
    """A state and the rules' legal moves of each seat in it, listed once:
    the checks of a step ask the same state for the same seat's moves once
    per viewer and per twin, and the rules' answer depends on the state and
    the seat only (the replay of (a) holds them to that)."""

    __slots__ = ("game", "state", "_moves")

    def __init__(self, game: Game, state: State) -> None:
        self.game = game
        self.state = state
        self._moves: dict[int, list[Move]] = {}

    def legal_moves(self, seat: int) -> list[Move]:
        if seat not in self._moves:
            self._moves[seat] = list(self.game.legal_moves(self.state, seat))
        return self._moves[seat]


def _shown_to(position: _Position, viewer: int | None) -> tuple[str, dict]:
    """What ``viewer`` is shown of the position's state: its view, the seats
    to move and its own legal moves as canonical JSON; and by move id, the
    log entry it would read of each move another seat to move may make (the
    move's id and label go to the log unless ``public_move`` redacts it)."""
    game, state = position.game, position.state
    to_move = sorted(int(seat) for seat in game.to_move(state))
    own = [[move.id, move.label, dict(move.args)] for move in position.legal_moves(viewer)] \
        if viewer is not None and viewer in to_move else []
    entries = {}
    for seat in to_move:
        if seat == viewer:
            continue
        for move in position.legal_moves(seat):
            public = game.public_move(seat, move.args, viewer)
            public = None if public is None else dict(public)
            entries[(seat, move.id)] = [move.label, public] if public == dict(move.args) else [public]
    shown = json.dumps({"view": game.view(state, viewer), "to_move": to_move, "moves": own},
                       sort_keys=True, separators=(",", ":"), default=_plain)
    return shown, entries


def _check_information_sets(real: _Position, frozen: State, viewers: Sequence[int | None],
                            step: str) -> list["_Twin"]:
    """(c') For each viewer, one state resampled with ``sample_state``: the
    viewer must be shown exactly what it is shown of the real state, and a
    move another seat may make in both states must read the same in the
    log (which moves that seat may make is its own knowledge). Returns the
    resamples that differ from the real state, as twins for (c'')."""
    game, state = real.game, real.state
    twins = []
    for viewer in viewers:
        expected, expected_entries = _shown_to(real, viewer)
        # A generator of its own: the playout's chooser draws the same as without this check.
        sample = game.sample_state(state, viewer, random.Random(f"{step}/{viewer}"))
        assert state == frozen, f"(c') sample_state mutated its input state at {step}"
        who = "a spectator" if viewer is None else f"seat {viewer}"
        assert json.loads(_dump(sample)) == sample, f"(c') the state sampled for {who} is not JSON data at {step}"
        shown, entries = _shown_to(_Position(game, sample), viewer)
        for key in expected_entries.keys() & entries.keys():
            assert entries[key] == expected_entries[key], (
                f"(c') {who} reads seat {key[0]}'s move {key[1]!r} in the log as {_dump(expected_entries[key])[:80]} "
                f"on the real state, {_dump(entries[key])[:80]} on a resample, at {step}")
        if shown != expected:
            raise AssertionError(f"(c') {who} can tell a resampled state from the real one at {step}: "
                                 f"{_first_difference(json.loads(expected), json.loads(shown))}")
        if sample is not state and sample != state:
            twins.append(_Twin(viewer, step, _Position(game, sample)))
    return twins


@dataclass
class _Twin:
    """A state resampled for ``viewer`` at ``forked``, following the real
    game's moves; the log entries ``viewer`` reads of those moves, on the
    real game and on the twin."""

    viewer: int | None
    forked: str
    position: _Position
    moves: int = 0
    real_entries: list = field(default_factory=list)
    twin_entries: list = field(default_factory=list)


def _entry(position: _Position, seat: int, args: Mapping[str, Any], viewer: int | None) -> list | None:
    """The log entry ``viewer`` reads of ``seat``'s move ``args`` made in the
    position (its id and label, or only the public part of its args when
    ``public_move`` redacts it), or None if the move is not listed there."""
    move = next((listed for listed in position.legal_moves(seat) if listed.args == args), None)
    if move is None:
        return None
    if viewer == seat:
        return [move.id, move.label, dict(args)]
    public = position.game.public_move(seat, args, viewer)
    public = None if public is None else dict(public)
    return [move.id, move.label, public] if public == dict(args) else [public]


def _advance_twins(real: _Position, twins: list[_Twin], seat: int, chosen: Move, seed: int,
                   version: int) -> list[_Twin]:
    """Each twin makes the real game's move with the same chance and notes
    both log entries; a twin where the move is not listed (the viewer learns
    from the move itself that the twin is not the game) or past its span
    is dropped."""
    game = real.game
    kept = []
    for twin in twins:
        if twin.moves >= TWIN_SPAN:
            continue
        twin_entry = _entry(twin.position, seat, chosen.args, twin.viewer)
        if twin_entry is None:
            continue
        twin.real_entries.append((version, _entry(real, seat, chosen.args, twin.viewer)))
        twin.twin_entries.append((version, twin_entry))
        try:
            twin.position = _Position(game, game.apply(twin.position.state, seat, chosen.args,
                                                       rng_for(seed, version)))  # the engine's chance
        except Exception as error:
            raise AssertionError(f"(c'') move {chosen.id!r}, listed on a state sampled at {twin.forked} and followed "
                                 f"since, is refused with {error!r}: is sample_state's state one the game "
                                 "can reach?") from None
        twin.moves += 1
        kept.append(twin)
    return kept


def _check_twins(real: _Position, twins: list[_Twin], step: str) -> None:
    """(c'') A twin that shows its viewer what the real game shows it now
    must have logged the same entries for that viewer since the fork: else
    the log keeps a fact the view no longer shows."""
    real_shown: dict = {}
    for twin in twins:
        if twin.real_entries == twin.twin_entries:
            continue
        if twin.viewer not in real_shown:
            real_shown[twin.viewer] = _shown_to(real, twin.viewer)[0]
        expected = real_shown[twin.viewer]
        shown, _ = _shown_to(twin.position, twin.viewer)
        if shown != expected:
            continue  # the viewer can tell the twin apart now: the log may differ
        (version, real), (_, other) = next((pair for pair in zip(twin.real_entries, twin.twin_entries)
                                            if pair[0] != pair[1]))
        who = "a spectator" if twin.viewer is None else f"seat {twin.viewer}"
        raise AssertionError(
            f"(c'') {who} reads the log entry of version {version} as {_dump(real)[:100]}, but "
            f"{_dump(other)[:100]} on a game that differs only in what {who} could not see at {twin.forked} and "
            f"shows {who} the same view now, at {step}: the log keeps a fact the view no longer shows")


def _first_difference(real: Any, sampled: Any, path: str = "") -> str:
    """Where two JSON values first differ, briefly (the whole view is long)."""
    if type(real) is dict and type(sampled) is dict:
        for key in sorted(set(real) | set(sampled)):
            if real.get(key, ...) != sampled.get(key, ...):
                return _first_difference(real.get(key), sampled.get(key), f"{path}.{key}")
    if type(real) is list and type(sampled) is list and len(real) == len(sampled):
        for index, (one, other) in enumerate(zip(real, sampled)):
            if one != other:
                return _first_difference(one, other, f"{path}[{index}]")
    return f"{path.lstrip('.') or 'the value'} is {_dump(real)[:80]} on the real state, {_dump(sampled)[:80]} on a resample"


@functools.lru_cache(maxsize=1 << 16)
def _quoted(text: str) -> str:
    """A string as it appears in JSON text (secrets recur at every step)."""
    return json.dumps(text, ensure_ascii=False)


def _plain(value: Any) -> Any:
    """JSON for the non-dict mappings and sequences a plugin may hand out."""
    return dict(value) if isinstance(value, Mapping) else list(value)


async def _check_renderers(engine: MatchEngine, live: LiveMatch, views: Mapping[int | None, ViewData], step: str,
                           shapes: bool, report: ConformanceReport) -> None:
    """Renderings of every view; with ``shapes``, the SVG is also parsed:
    well-formed, drawn on its canvas, and legible at 720 px wide."""
    for viewer, view in views.items():
        text = await engine.render(live, view, "text")
        assert isinstance(text, str) and text, f"render_text returned {text!r} at {step}"
        svg = await engine.render(live, view, "svg")
        assert isinstance(svg, str) and svg.lstrip().startswith("<svg"), f"render_svg is not an SVG at {step}"
        targets = set(DATA_MOVE.findall(svg))
        legal = {move.id for move in view.moves}
        assert targets <= legal, f"SVG targets {sorted(targets - legal)} are not legal move ids at {step}"
        _check_part_targets(svg, view.moves, step)
        if report.words is not None and report.words.active:
            report.words.pictures(view.state, list(view.moves), step, viewer=viewer, last=live.over)
        if not shapes:
            continue
        try:
            root = ElementTree.fromstring(svg)
        except ElementTree.ParseError as error:
            raise AssertionError(f"render_svg is not well-formed XML ({error}) at {step}") from None
        outside = _off_canvas(root)
        assert outside is None, f"render_svg draws outside its canvas: {outside} at {step}"
        _check_legibility(root, report, step)


LEGIBILITY_LISTED = 20  # a report lists the first few: one per distinct text or target is plenty to act on


def _check_legibility(root: ElementTree.Element, report: ConformanceReport, step: str) -> None:
    """Small text and small targets in a parsed SVG go to the report; they
    fail the run for the checks the game opted into."""
    for problem in [*legibility.text_problems(root), *legibility.target_problems(root)]:
        assert not report.strict[problem.kind], f"render_svg is hard to read or tap: {problem} at {step}"
        if len(report.legibility) < LEGIBILITY_LISTED and str(problem) not in report.legibility:
            report.legibility.append(str(problem))


def _check_part_targets(svg: str, moves: Sequence[Move], step: str) -> None:
    """Moves offered in parts (checked with the renderings, as the SVG's
    targets are: each step would add half to Callisto's kit time): every path
    well formed (ids without spaces, labelled, one label per id, no path a
    prefix of another); every part of every move has a data-part target in
    the SVG that shows once the move's earlier parts are chosen, and no
    target names a part of no legal move."""
    if "data-part" not in svg and not any(move.parts for move in moves):
        return
    problems = part_targets.path_problems(moves)
    assert not problems, f"(b) malformed move parts at {step}: {'; '.join(problems[:3])}"
    problems = part_targets.target_problems(svg, moves)
    assert not problems, f"SVG cannot compose the moves in parts at {step}: {'; '.join(problems[:3])}"


_GEOMETRY = {"x", "y", "width", "height", "cx", "cy", "r", "x1", "x2", "y1", "y2"}
_NUMBER = re.compile(r"-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")  # user units only: "50%" is not checked


def _far_corner(tag: str, at: dict[str, float]) -> tuple[float, float]:
    """Where a shape ends, right and down (0, 0 for other elements)."""
    if tag == "rect":
        return at.get("x", 0) + at.get("width", 0), at.get("y", 0) + at.get("height", 0)
    if tag == "circle":
        return at.get("cx", 0) + at.get("r", 0), at.get("cy", 0) + at.get("r", 0)
    if tag == "line":
        return max(at.get("x1", 0), at.get("x2", 0)), max(at.get("y1", 0), at.get("y2", 0))
    return 0.0, 0.0


def _off_canvas(root: ElementTree.Element) -> str | None:
    """The first rect, circle or line that reaches beyond the SVG's canvas
    (its viewBox, else its width and height), or None. Shapes under a
    transform are not checked."""
    box = root.get("viewBox")
    try:
        left, top, width, height = (map(float, box.replace(",", " ").split()) if box
                                    else (0.0, 0.0, float(root.get("width", "")), float(root.get("height", ""))))
    except (TypeError, ValueError):
        return None  # no size: the page scales it to fit
    right, bottom = left + width + 0.5, top + height + 0.5
    pending = [child for child in root if child.get("transform") is None]
    while pending:
        element = pending.pop()
        tag = element.tag.rpartition("}")[2]
        x, y = _far_corner(tag, {name: float(value) for name, value in element.attrib.items()
                                 if name in _GEOMETRY and _NUMBER.fullmatch(value)})
        if x > right or y > bottom:
            return f"a <{tag}> reaches ({x:g}, {y:g}) on a {width:g} x {height:g} canvas"
        pending.extend(child for child in element if child.get("transform") is None)
    return None


def mistyped_moves(move: Mapping[str, Any]) -> list[Any]:
    """Moves that are ``move`` with one thing wrong: a field missing, a field
    of another type (including NaN and infinity), one item of a list field
    of another type; and moves that are not objects or are empty."""
    mutants: list[Any] = [{}, [], None, "move", 0, [dict(move)], {**move, "extra": None}]
    for key, value in move.items():
        mutants.append({k: v for k, v in move.items() if k != key})
        mutants.extend({**move, key: wrong} for wrong in WRONG_VALUES if not _same(wrong, value))
        if isinstance(value, list) and value:
            mutants.extend({**move, key: [wrong, *value[1:]]} for wrong in WRONG_VALUES[:12])
        if isinstance(value, dict) and value:
            inner = next(iter(value))
            mutants.extend({**move, key: {**value, inner: wrong}} for wrong in WRONG_VALUES[:12])
    return mutants


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def _check_mistyped_moves(game: Game, state: State, frozen: State, seat: int, moves: Sequence[Move],
                          chooser: random.Random, step: str) -> None:
    move = moves[chooser.randrange(len(moves))]
    for mutant in mistyped_moves(move.args):
        try:
            game.apply(state, seat, mutant, random.Random(0))
        except IllegalMove:  # MalformedMove is one too
            pass
        except Exception as error:
            raise AssertionError(f"(b) mistyped move {_plain_repr(mutant)} crashed apply with {error!r} (it must "
                                 f"raise MalformedMove or IllegalMove) at {step}") from None
        assert state == frozen, f"(b) apply mutated its input state (mistyped move {_plain_repr(mutant)}) at {step}"


def _plain_repr(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 200 else text[:200] + "..."


ADDRESSES_THE_READER = re.compile(r"\byou(?:r|rs|rself)?\b", re.IGNORECASE)


def _check_labels(moves: Sequence[Move], step: str) -> None:
    """A label reads as a button and, after the mover's name, in everyone's
    log ("Player 2: End the turn"): it addresses nobody ("End your turn"
    would tell every reader of the log it was their turn)."""
    for move in moves:
        assert move.label.strip(), f"move {move.id!r} has no label at {step}"
        assert not ADDRESSES_THE_READER.search(move.label), (
            f"label {move.label!r} addresses the reader; labels go to everyone's log: name the thing, "
            f"not 'you' (\"End the turn\", not \"End your turn\") at {step}")


def _check_listed_moves_accepted(game: Game, state: State, frozen: State, seat: int, moves: Sequence[Move],
                                 chooser: random.Random, step: str) -> None:
    sample = moves if len(moves) <= MOVES_CHECKED_PER_STEP else chooser.sample(moves, MOVES_CHECKED_PER_STEP)
    for move in sample:
        try:
            game.apply(state, seat, move.args, random.Random(0))
        except Exception as error:
            raise AssertionError(f"(b) listed move {move.id!r} refused with {error!r} at {step}") from None
        assert state == frozen, f"(b) apply mutated its input state (move {move.id!r}) at {step}"


def _check_bot_hints(game: Game, state: State, frozen: State, seat: int, moves: Sequence[Move],
                     rng: random.Random, step: str) -> None:
    """(g) What search bots take from the game's optional hints is sound."""
    ids = sorted(move.id for move in moves)
    order = game.order_moves(state, seat, moves, rng)
    assert order is None or sorted(move.id for move in order) == ids, \
        f"(g) order_moves does not list exactly the legal moves at {step}"
    quick = game.playout_move(state, seat, rng)
    assert quick is None or quick.id in ids, f"(g) playout_move gave {quick.id!r}, not a legal move, at {step}"
    assert state == frozen, f"(g) a bot hint mutated the state at {step}"


async def _check_refusals(engine: MatchEngine, store: MemoryStore, live: LiveMatch, frozen: State, seat: int,
                          tokens: Sequence[str], moves: Sequence[Move], seen_moves: list[dict],
                          chooser: random.Random, step: str) -> None:
    attempts: list[tuple[int, dict]] = [(seat, {"__conformance__": "not a move"})]
    # A move of an earlier position that is not listed now (a few random tries
    # keep this linear in the number of legal moves).
    for candidate in (chooser.choice(seen_moves) for _ in range(3 if seen_moves else 0)):
        if all(candidate != move.args for move in moves):
            attempts.append((seat, candidate))
            break
    others = [s for s in range(len(tokens)) if s not in await engine.to_move(live)]
    if others:
        attempts.append((others[0], dict(moves[0].args)))
    before = (live.version, store.log_length(live.id))
    for mover, args in attempts:
        try:
            await engine.submit(live.id, tokens[mover], move=args)
        except (errors.FailedPrecondition, errors.InvalidArgument) as refusal:
            if refusal.reason == "UNLISTED_MOVE":  # the engine refused what the rules accepted
                raise AssertionError(f"(b) move {args} by seat {mover} is not listed but was accepted by apply "
                                     f"at {step}") from None
        except errors.Internal as error:
            raise AssertionError(f"(b) move {args} by seat {mover} crashed the rules: {error} at {step}") from None
        else:
            raise AssertionError(f"(b) move {args} by seat {mover} is not listed but was accepted at {step}")
        after = (live.version, store.log_length(live.id))
        assert after == before and await engine.state_of(live) == frozen, f"(b) refused move {args} changed the match at {step}"


async def _check_undo(engine: MatchEngine, game: Game, live: LiveMatch, tokens: Sequence[str], seat: int,
                      chosen: Move, before: State, frozen: State, step: str) -> bool:
    """(f) The move just made, taken back if the game allows it; True if it was."""
    after = await engine.state_of(live)
    after_copy = json.loads(_dump(after))
    allowed = game.can_undo(after, seat, chosen.args)
    assert isinstance(allowed, bool), f"(f) can_undo answered {allowed!r}, not True or False, at {step}"
    assert after == after_copy, f"(f) can_undo mutated its input state at {step}"
    if not allowed:
        return False
    drawn = [_dump(game.apply(before, seat, chosen.args, random.Random(f"conformance undo/{n}"))) for n in (1, 2)]
    assert drawn[0] == drawn[1], (
        f"(f) can_undo lets move {chosen.id!r} be taken back, but it draws chance (apply with other rngs gives "
        f"other states; played again it would draw anew) at {step}")
    version = live.version
    answer = await engine.ask_undo(live.id, tokens[seat])
    for other in range(len(tokens)):
        if other != seat and not answer.undone:
            answer = await engine.answer_undo(live.id, tokens[other], True)
    assert answer.undone and live.version > version, f"(f) the move was not taken back at {step}"
    assert _dump(await engine.state_of(live)) == _dump(frozen), (
        f"(f) taking move {chosen.id!r} back does not give the position before it at {step}")
    return True


async def _check_restore(engine: MatchEngine, match_id: str, step: str) -> None:
    held = await engine.live_match(match_id)
    held_state = await engine.state_of(held)
    restored = await engine.restored_copy(match_id)
    restored_state = await engine.state_of(restored)
    assert _dump(restored_state) == _dump(held_state), (
        f"(d) state restored from the store (snapshot plus replayed moves) differs at {step}: "
        "is every chance drawn from the rng the engine passes?")
    assert restored.version == held.version, f"(d) restored version differs at {step}"


async def _check_replay(engine: MatchEngine, store: MemoryStore, game: Game, live: LiveMatch,
                        seen_views: Mapping[int, list[Any]], viewers: Sequence[int | None], where: str) -> None:
    record = live.record
    first = state = initial_state(game, len(record.seats), record.options, record.seed)
    version = 0
    events = await store.events(live.id)
    for index, event in enumerate(events):
        if event["kind"] == "moved":
            state = replay(game, state, record.seed, recorded_moves([event]))
        elif event["kind"] == "undone":  # the moves that still stand, from the start
            state = replay(game, first, record.seed, recorded_moves(events[:index + 1]))
        version = event["version"]
        # Every third version and the last: a divergence persists, so sampling finds it.
        if version in seen_views and (version % 3 == 0 or version == record.version):
            replayed = [game.view(state, viewer) for viewer in viewers]
            assert replayed == seen_views[version], f"(a) replay gives other views at version {version}, {where}"
