"""The rules interface a game plugin implements.

A game is a set of pure functions over plain state. State is JSON-shaped data
(dicts with string keys, lists, str, int, float, bool, None): the engine caches
it per match, snapshots it to the store and replays it from the log, so it must
survive ``json.dumps``/``json.loads`` unchanged.

Rules never mutate the state they are given: ``apply`` returns a new state.
That lets the engine keep the committed state while a move is being checked,
and the conformance kit verifies it on every move.

All chance comes from the ``random.Random`` the engine passes in. The engine
derives it from the match seed and the match version, so a match replays
exactly from (game, rules version, options, seed, moves).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

State = Any
"""JSON-shaped game state: whatever a game's ``setup`` returns."""

SPECTATOR = None
"""The ``seat`` passed to ``view`` for someone who holds no seat."""


@dataclass(frozen=True, slots=True)
class Part:
    """One choice on the way to a move: a piece, an orientation, a cell.

    ``id`` names the choice (``"piece:X5"``) and is what an SVG target marks
    with ``data-part``; within one list of moves the same id is the same
    choice with the same ``label`` (what a person reads)."""

    id: str
    label: str


@dataclass(frozen=True, slots=True)
class Move:
    """One legal move as a client sees it.

    ``id`` is stable for the same move in the same position (clients submit it
    back), ``label`` is what a person reads, ``args`` the structured form that
    ``apply`` receives. ``parts``, optional, offers the move as a path of
    choices a client composes by clicks (see ``render_svg``); no move's parts
    may be a prefix of another's.
    """

    id: str
    label: str
    args: Mapping[str, Any]
    parts: tuple[Part, ...] = ()


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended.

    ``ranking[i]`` is seat i's place (1 is best; tied seats share a place).
    ``scores[i]`` is seat i's score in the game's own unit.
    """

    scores: Sequence[float]
    ranking: Sequence[int]
    summary: str = ""

    @property
    def winners(self) -> list[int]:
        return [seat for seat, place in enumerate(self.ranking) if place == 1]


def places(keys: Sequence[Any]) -> list[int]:
    """Each seat's place from comparable keys, higher is better (1 is best):
    seats with equal keys share a place, the next place is skipped.
    ``places([5, 7, 7, 1]) == [3, 1, 1, 4]``; use tuples for tie-breaks and
    negate keys where lower is better."""
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def rank_shares(ranking: Sequence[int]) -> list[float]:
    """Each seat's share of the other seats it placed above, a tie counting
    half: 1 for a sole winner, 0 for a sole loser, 0.5 each in a 2-seat draw.
    A search bot's reward, and a handy ``Game.evaluate`` from ``places``."""
    others = max(1, len(ranking) - 1)
    return [sum(1.0 if place < other else 0.5 if place == other else 0.0
                for index, other in enumerate(ranking) if index != seat) / others
            for seat, place in enumerate(ranking)]


@dataclass(frozen=True, slots=True)
class Secret:
    """A value only ``owner`` may see (``owner=None``: nobody may see it).

    Games with hidden information list their secrets so the conformance kit
    can check that no view for another seat, and no spectator view, carries
    the value anywhere. Make secret values unique tokens (``"card-17"``, not
    ``17``) so the check is exact.
    """

    owner: int | None
    value: Any


@dataclass(frozen=True, slots=True)
class Reveal:
    """A value one step made known: the number on a card turned up, the tile
    drawn, the card taken from a pile.

    ``label`` is what a person reads (a ``Text``, translated like every
    label: "The card at C4 shows 17"), ``value`` the JSON value for
    programs (17). ``seen_by`` None: every seat and every spectator learns
    it; a seat: only that seat does (the card it drew into its hidden hand),
    and the host shows it to no one else. A public reveal must carry no
    secret of the position after the step, and a private one none of
    another seat's: the conformance kit checks both against ``secrets``.
    """

    label: str
    value: Any = None
    seen_by: int | None = None


@dataclass(frozen=True, slots=True)
class Variant:
    """A named preset of options, shown in the catalog."""

    id: str
    title: str
    options: Mapping[str, Any] = field(default_factory=dict)
    description: str = ""


class IllegalMove(Exception):
    """Raised by ``apply`` for a move the rules refuse.

    ``reason`` is a sentence a player can act on, a ``Text`` to have it said
    in the player's language (the status message stays English); ``rule``
    names the rule (kebab-case, e.g. ``"cell-occupied"``) for programs and tests.
    """

    def __init__(self, reason: str, rule: str = "illegal-move"):
        super().__init__(reason)
        self.reason = reason
        self.rule = rule


class MalformedMove(IllegalMove):
    """Raised by ``apply`` for a move that does not have the game's move shape
    (a missing or mistyped field): the host answers INVALID_ARGUMENT instead of
    FAILED_PRECONDITION."""

    def __init__(self, reason: str, rule: str = "malformed-move"):
        super().__init__(reason, rule)


class InvalidOptions(ValueError):
    """Raised by ``setup`` for options the schema accepts but this seat count
    does not (say a start seat beyond the last player): the host answers
    INVALID_ARGUMENT naming ``options.<field>``."""

    def __init__(self, field: str, reason: str):
        super().__init__(reason)
        self.field = field
        self.reason = reason


class Game:
    """Base class of every ruleset. Override the attributes and methods."""

    id: str = ""
    title: str = ""
    version: str = "1"
    """The rules version: change it whenever the rules change (not for a
    release that leaves them as they were). A match is pinned to the rules
    version it was created with."""
    earlier_versions: Sequence["Game"] = ()
    """Older rules of this game the plugin still ships, each a ``Game`` with
    the same ``id`` and its own ``version``, so matches created under them
    play on after an upgrade (docs/plugin-guide.md, "Upgrading a game").
    New matches always take this game's own ``version``."""
    summary: str = ""
    how_to_play: Sequence[str] = ()
    """The rules for a player who has never seen the game, as Markdown
    paragraphs, each a ``Text`` so it is translated like every other word:
    what you do on a turn, how the game ends and who wins, the special cases
    a newcomer trips on, and one tip. About 120 to 250 words in all.

    One message per paragraph (not one long message): a translator works on
    a paragraph at a time, and a change to one paragraph leaves the others'
    translations valid. A paragraph may be a Markdown list, a heading, a
    ``code`` block holding a small text diagram, or emphasis; raw HTML is
    not shown (frontends render the Markdown without it).

    The catalog (``GetGame``, ``ListGames``) serves the paragraphs joined by
    blank lines in the player's language as ``Game.how_to_play``; a frontend
    shows it on request before and during a match ("How to play"). The
    conformance kit fails a game without it, or one whose paragraphs a
    declared language does not translate."""
    min_players: int = 2
    max_players: int = 2
    player_counts: Sequence[int] = ()
    """The seat counts the game is played with when not every count from
    ``min_players`` to ``max_players`` is (Scalino: 2 or 4); empty: all of them.
    ``CreateMatch`` refuses the others with INVALID_ARGUMENT."""
    options_schema: Mapping[str, Any] = {"type": "object", "properties": {}}
    """JSON Schema of the options; each property should carry a ``default``."""
    variants: Sequence[Variant] = ()
    hidden_information: bool = False
    chance: bool = False
    languages: Sequence[str] = ()
    """The languages the plugin's words come in besides English (BCP 47,
    e.g. ``("en", "fr")``), each with a catalogue in the package's
    ``locale/<lang>/LC_MESSAGES/<message_domain>.po`` (gamehost.sdk.i18n).
    Left unset, the catalogues found there count. The conformance kit checks
    that each has every word the game shows."""
    message_domain: str = "messages"
    playout_horizon: int | None = None
    """Search bots' hint: the most moves a playout of this game lasts before
    ``evaluate`` scores it, where that says as much as playing on and a
    shorter playout buys more iterations (Kensington); None: each level's
    own cap."""
    can_draw_by_agreement: bool = False
    """Whether the players may end a match drawn by agreement (OfferDraw,
    then every other person seated accepts): all seats share first place.
    Declare it only for a game whose own results include a draw."""

    def allowed_player_counts(self) -> list[int]:
        """Every seat count a match of this game may have."""
        return [count for count in range(self.min_players, self.max_players + 1)
                if not self.player_counts or count in self.player_counts]

    def player_counts_text(self) -> str:
        """The allowed counts for a person: "2 players", "2 or 4 players", "2 to 5 players"."""
        counts = self.allowed_player_counts()
        if len(counts) == 1:
            return f"{counts[0]} players"
        if counts == list(range(counts[0], counts[-1] + 1)):
            return f"{counts[0]} to {counts[-1]} players"
        return f"{', '.join(map(str, counts[:-1]))} or {counts[-1]} players"

    def default_options(self) -> dict[str, Any]:
        properties = self.options_schema.get("properties", {})
        return {name: spec["default"] for name, spec in properties.items() if "default" in spec}

    # --- rules -----------------------------------------------------------

    def setup(self, seats: int, options: Mapping[str, Any], rng: random.Random) -> State:
        """The initial state for ``seats`` players with validated ``options``.

        Raise ``InvalidOptions`` for options that do not fit ``seats``."""
        raise NotImplementedError

    def to_move(self, state: State) -> Sequence[int]:
        """Seats that may move now: usually one, several for simultaneous
        choices, none once the game is over."""
        raise NotImplementedError

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Every move ``seat`` may make now, each once."""
        raise NotImplementedError

    def apply(self, state: State, seat: int, move: Mapping[str, Any], rng: random.Random) -> State:
        """The state after ``seat`` plays ``move`` (structured args).

        Raise ``IllegalMove`` with a readable reason for a move the rules
        refuse. Never mutate ``state``.
        """
        raise NotImplementedError

    def outcome(self, state: State) -> Outcome | None:
        """The result once the game is over, else None."""
        raise NotImplementedError

    def can_undo(self, state: State, seat: int, move: Mapping[str, Any]) -> bool:
        """Whether ``seat``'s ``move``, the last one played (``state`` is the
        position it led to), may be taken back when the other players agree.

        The default: no move may. Say yes only for a move that drew no
        chance (played again, it would draw anew) and showed nothing the
        game hides (taking it back cannot hide it again). Overriding this
        is what offers undo to players (``Game.undo`` in the catalog).
        """
        return False

    def timeout_ranking(self, state: State, ran_out: Sequence[int]) -> Sequence[int] | None:
        """The game's timeout rule: the ranking (one place per seat, 1 is
        best) when the chess clocks of the seats ``ran_out`` run out in
        ``state``, e.g. a win on time only with material left to win with.

        The default, None, leaves it to a ``gamehost_clock_ran_out`` hook or
        the host's rule: the seats that ran out share the last place, the
        others the first. Runs in the rules worker, under its budget.
        """
        return None

    # --- information -------------------------------------------------------

    def view(self, state: State, seat: int | None) -> Mapping[str, Any]:
        """What ``seat`` (or a spectator, ``None``) may see: a JSON object.

        The default shows everything, right for games without hidden
        information only.
        """
        return state

    def secrets(self, state: State) -> Iterable[Secret]:
        """Values in ``state`` that some seats must not see."""
        return ()

    def revealed(self, before: State, seat: int, move: Mapping[str, Any], after: State) -> Sequence[Reveal]:
        """What ``seat`` playing ``move`` in ``before`` made known, ``after``
        being the position it led to: the values that became public (the
        card turned up, the tile drawn) and, as ``Reveal(seen_by=seat)``,
        those only the mover learned (the card it drew face down).

        The host asks once per step, where the rules run, and keeps the
        answer in the match log beside the move: every turn summary
        (``TurnSummary`` in views, events and the log) shows it, and a
        replay reads it back from the log. Compute it from ``before``,
        ``move`` and ``after`` alone (no chance, no clock), so the same step
        always reveals the same. The default: nothing beyond the move
        itself, right for games without hidden information.
        """
        return ()

    def public_move(self, seat: int, move: Mapping[str, Any], viewer: int | None) -> Mapping[str, Any] | None:
        """How a move appears in the log to ``viewer`` while the game runs.

        Moves are public by default; return a redacted dict, or None to show
        only that ``seat`` moved.
        """
        return move

    def sample_state(self, state: State, seat: int | None, rng: random.Random) -> State:
        """A full state ``seat`` (or a spectator, ``None``) cannot tell from
        ``state``: what it knows stays (its own secrets, everything public,
        what it has been shown and may remember), everything else is drawn
        afresh with ``rng``. Search bots plan on such states, and the
        conformance kit checks that the seat's view, legal moves and log
        entries come out the same on them.

        Draw from a canonical order (sort the hidden pieces before
        shuffling them): then the result depends only on what the seat knows
        and on ``rng``, so a bot cannot tell two such states apart either.

        The default returns ``state``: right for games without hidden
        information, and for games whose hidden part follows from public
        facts. Never mutate ``state``.
        """
        return state

    # --- bot hints (optional) ----------------------------------------------

    def order_moves(self, state: State, seat: int, moves: Sequence[Move],
                    rng: random.Random) -> Sequence[Move] | None:
        """``moves`` (the legal moves of ``seat``) best first, or None for no
        order. A search bot adds a node's moves one at a time (progressive
        widening) in this order, so its iterations go to the moves the game
        thinks likely; the search still judges them. Called once per node of
        the tree: it may look at every move, but cheaply. Use only ``rng``
        for chance."""
        return None

    def rollout_move(self, state: State, seat: int, moves: Sequence[Move], rng: random.Random) -> Move | None:
        """A search bot's move in a playout, or None for a uniformly random
        one. Override where random playouts say little about a position."""
        return None

    def playout_move(self, state: State, seat: int, rng: random.Random) -> Move | None:
        """A search bot's move in a playout chosen without the list of legal
        moves, or None to have them listed and ask ``rollout_move``. For
        games whose playout policy needs only a few of many moves (Callisto:
        a biggest piece), where listing them all is most of a playout's
        cost. It must be a legal move of ``seat``, and should be the move
        ``rollout_move`` would pick among all legal moves with the same
        ``rng``. Use only ``rng`` for chance."""
        return None

    def evaluate(self, state: State) -> Sequence[float] | None:
        """A guess of each seat's result from 0 (last) to 1 (first) in an
        unfinished ``state``, or None. With it, search bots cut playouts of
        long games short and score the position instead."""
        return None

    # --- renderers ---------------------------------------------------------

    def render_text(self, view: Mapping[str, Any]) -> str:
        """A plain-text picture of a view, for terminals."""
        raise NotImplementedError

    def render_svg(self, view: Mapping[str, Any], moves: Sequence[Move]) -> str:
        """An SVG picture of a view. Mark each clickable target of a legal
        move with ``data-move="<move id>"``; moves without a natural target
        are listed beside the picture by the client. A move offered in
        ``parts`` has a target per part instead, ``data-part="<part id>"``
        (the client narrows the moves click by click); a sub-choice drawn
        only once a part is chosen (a piece's orientations) sits inside an
        element marked ``data-after-part="<that part id>"``."""
        raise NotImplementedError


def offers_undo(game: Game) -> bool:
    """Whether the game lets players take any move back (it overrides ``can_undo``)."""
    return type(game).can_undo is not Game.can_undo
