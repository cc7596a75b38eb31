"""The rules workers' protocol: every request the host sends and every
answer it gets back, one declaration each, used by both sides (the runner
builds them, the resident table answers them, in a worker or in the host).

Each message is a TypedDict: the frames are JSON objects (wire.py), so a
message is the very dict that crosses the wire, with no conversion on
either side, and in the host's own table the same dict is handed over as
it is. A request's ``op`` is a Literal: its class names the operation, and
``handlers`` turns a table from request classes to handlers into the
table by op that dispatches them. The frame adds the ``id`` its answer
names; that is the pool's business, not the message's.

A request about a held match (``AtHeld``) names it and the tag of the
state it is about; the runner fills both in when it knows where the
match is held.
"""

from __future__ import annotations

import typing
from typing import Any, Callable, Literal, Mapping, NotRequired, TypedDict, TypeVar

MoveData = list[Any]  # a move on the wire: [id, label, args] and, if it has parts, [[id, label], ...]
Outcome = dict[str, Any]  # {"scores", "ranking", "winners", "summary"}


class AtHeld(TypedDict, total=False):
    match: str
    tag: int
    # The trace context of the host's span that sends the request, when it
    # is sampled: the worker answers with its own span of it (``span``).
    traceparent: str


class WorkerSpan(TypedDict):
    """A worker's span of one request (worker_spans.py), in any answer to a
    request that carried a ``traceparent``: ids in hex as in the header,
    times in Unix nanoseconds."""
    name: str
    trace_id: str
    parent_id: str
    span_id: str
    start: int
    end: int
    attributes: dict[str, str | int]


# ------------------------------------------------------------ requests


class Hello(TypedDict):
    """Which rules and bots the worker loaded: answered by ``Catalogue``."""
    op: Literal["hello"]


class Setup(TypedDict):
    """A new match's first state, held from now on under ``new_tag``: ``SetUp``."""
    op: Literal["setup"]
    game: str  # rules key, "game@version"
    match: str
    seats: int
    options: dict[str, Any]
    seed: int
    new_tag: int
    traceparent: NotRequired[str]


class Load(TypedDict):
    """A match from the store (a snapshot and the moves after it), held
    under ``new_tag``: ``Loaded`` (its seats to move when ``active``)."""
    op: Literal["load"]
    game: str
    match: str
    seed: int
    state: Any
    moves: list[list[Any]]  # [version, seat, move]
    new_tag: int
    active: NotRequired[bool]
    traceparent: NotRequired[str]


class Advance(AtHeld):
    """The held state caught up with steps committed elsewhere: ``Done``."""
    op: Literal["advance"]
    moves: list[list[Any]]
    new_tag: int


class Apply(AtHeld):
    """A move, by its args (``move``) or by the id of a listed move
    (``move_id``); the new state pending under ``new_tag``: ``Stepped``."""
    op: Literal["apply"]
    seat: int
    version: int
    want_state: bool
    new_tag: int
    move_id: NotRequired[str]
    move: NotRequired[dict[str, Any]]
    encode: NotRequired[bool]  # the viewers' views as View fields, no legal-move listing
    views: NotRequired[list[int | None]]


class Rewind(AtHeld):
    """The position with the last move taken back, pending under ``new_tag``: ``Stepped``."""
    op: Literal["rewind"]
    seats: int
    options: dict[str, Any]
    moves: list[list[Any]]
    new_tag: int


class CanUndo(AtHeld):
    op: Literal["can_undo"]
    seat: int
    move: dict[str, Any]


class TimeoutRanking(AtHeld):
    op: Literal["timeout_ranking"]
    ran_out: list[int]
    seats: int


class ResignRanking(AtHeld):
    op: Literal["resign_ranking"]
    resigned: list[int]
    seats: int


class ViewFields(AtHeld):
    """One viewer's View fields: ``EncodedViews``."""
    op: Literal["view_fields"]
    seat: int | None
    listed: bool


class ViewsFields(AtHeld):
    """Several viewers' View fields: ``EncodedViews``."""
    op: Literal["views_fields"]
    viewers: list[int | None]
    listed: list[int]


class ToMove(AtHeld):
    op: Literal["to_move"]


class LegalMoves(AtHeld):
    op: Literal["legal_moves"]
    seat: int


class View(AtHeld):
    op: Literal["view"]
    seat: int | None


class State(AtHeld):
    op: Literal["state"]


class Render(AtHeld):
    """Renderings of the held state: ``Renderings``. ``renders``: [viewer,
    kind ("text" or "svg"), listed]; ``budget``: seconds each may take.
    ``budgets`` and ``hook`` are the host's: the call's deadline is that
    many budgets, and its failure is named after the hooks it calls."""
    op: Literal["render"]
    renders: list[list[Any]]
    budget: float
    budgets: int
    hook: str


class Choose(AtHeld):
    op: Literal["choose"]
    seat: int
    bot: str
    version: int
    stream: str


class RenderText(TypedDict):
    op: Literal["render_text"]
    game: NotRequired[str]  # filled in by the runner, as the match's rules key
    view: dict[str, Any]
    locale: NotRequired[str]  # the language of the picture's words (gamehost.sdk.i18n); English without


class RenderSvg(TypedDict):
    op: Literal["render_svg"]
    game: NotRequired[str]
    view: dict[str, Any]
    moves: list[MoveData]
    locale: NotRequired[str]


class PublicMove(TypedDict):
    op: Literal["public_move"]
    game: NotRequired[str]
    seat: int
    move: Mapping[str, Any]
    viewer: int | None


class PublicMoves(TypedDict):
    op: Literal["public_moves"]
    game: NotRequired[str]
    moves: list[list[Any]]  # [seat, move]
    viewer: int | None


class ReplayViews(TypedDict):
    """A finished match's views at past versions, nothing held: ``PastViews``."""
    op: Literal["replay_views"]
    game: NotRequired[str]
    seats: int
    options: dict[str, Any]
    seed: int
    moves: list[list[Any]]
    versions: list[int]
    seat: int | None
    undos: list[list[int]]  # [undo version, version of the move it took back]


class Drop(TypedDict):
    op: Literal["drop"]
    match: str


HeldRequest = Advance | Apply | Rewind | CanUndo | TimeoutRanking | ResignRanking | ViewFields | ViewsFields | ToMove \
    | LegalMoves | View | State | Render | Choose
GameRequest = RenderText | RenderSvg | PublicMove | PublicMoves | ReplayViews  # the game's, not a match's
Request = Hello | Setup | Load | Drop | HeldRequest | GameRequest

# ------------------------------------------------------------ answers


class Catalogue(TypedDict):
    games: list[str]
    bots: list[str]


class SetUp(TypedDict):
    state: Any
    to_move: list[int]


class Loaded(TypedDict):
    to_move: list[int]


class Done(TypedDict):
    pass


class Stepped(TypedDict):
    """A step's new state: its outcome, else its seats to move and their
    legal moves (by seat, as a string; left out when views come encoded)."""
    outcome: Outcome | None
    to_move: NotRequired[list[int]]
    moves: NotRequired[dict[str, list[Any]]]
    played: NotRequired[Any]  # the listed move a move id named
    revealed: NotRequired[list[dict[str, Any]]]  # what the step made known (workers/reveals.py)
    state: NotRequired[Any]
    views: NotRequired[list[list[Any]]]  # [viewer, view]
    encoded: NotRequired[EncodedViews]
    attached: NotRequired[list[bytes]]  # the frame's attachments (wire.ATTACHED)


class EncodedViews(TypedDict):
    """Viewers' View fields, each distinct encoding once: ``fields`` (bytes,
    or their index in the frame's attachments once across the wire) and
    ``of``: [viewer, index in fields]."""
    fields: list[Any]
    of: list[list[Any]]
    attached: NotRequired[list[bytes]]


class UndoAllowed(TypedDict):
    allowed: bool


class Ranking(TypedDict):
    ranking: list[int] | None


class SeatsToMove(TypedDict):
    to_move: list[int]


class Listing(TypedDict):
    moves: list[Any]  # MoveData across the wire, the plugin's Move objects in the host's own table


class ViewOf(TypedDict):
    view: dict[str, Any]


class HeldState(TypedDict):
    state: Any


class Text(TypedDict):
    text: str


class Svg(TypedDict):
    svg: str


class Renderings(TypedDict):
    """``texts``: each distinct text once; ``of``: [viewer, kind, index in
    texts]; ``failed``: [viewer, kind, hook, message]; ``overran``:
    [viewer, kind, hook, seconds]."""
    texts: list[str]
    of: list[list[Any]]
    failed: list[list[Any]]
    overran: list[list[Any]]


class ShownMove(TypedDict):
    move: dict[str, Any] | None


class ShownMoves(TypedDict):
    moves: list[dict[str, Any] | None]


class Chosen(TypedDict):
    move: Any  # MoveData, or None when the seat has no legal move
    bot_failed: NotRequired[str | None]  # why the random bot chose instead
    iterations: NotRequired[int | None]  # a search bot's


class PastView(TypedDict):
    version: int
    view: dict[str, Any]
    to_move: list[int]


class PastViews(TypedDict):
    views: list[PastView]


# Refusals and failures: an answer with ``error`` instead of the one asked for.

class NotHeld(TypedDict):
    """The match is not held there, or not at the tag asked for: load it again."""
    error: Literal["unloaded"]


class OptionsRefused(TypedDict):
    error: Literal["options"]
    field: str
    reason: str


class MoveRefused(TypedDict):
    error: Literal["malformed", "illegal"]
    reason: str
    rule: str | None
    reason_text: dict[str, Any] | None  # the reason's message when the rules said it as a Text


class UnknownMove(TypedDict):
    """No legal move of the seat has the id given."""
    error: Literal["unknown_move"]


class PluginError(TypedDict):
    error: Literal["plugin"]
    hook: str
    message: str


class OutOfMemory(TypedDict):
    """The worker ran out of memory and exits (the pool replaces it)."""
    error: Literal["memory"]


Refusal = NotHeld | OptionsRefused | MoveRefused | UnknownMove | PluginError | OutOfMemory

Answer = Catalogue | SetUp | Loaded | Done | Stepped | EncodedViews | UndoAllowed | Ranking | SeatsToMove \
    | Listing | ViewOf | HeldState | Text | Svg | Renderings | ShownMove | ShownMoves | Chosen | PastViews | Refusal


# Between the worker's answers, while it holds bots' thinks (pool.py tells why).

class Started(TypedDict):
    """The worker starts on a call now, between slices of its thinks."""
    started: Literal[True]


class Thinking(TypedDict):
    """A think acknowledged in order: its answer comes when it ends."""
    thinking: Literal[True]


def op_of(request: type) -> str:
    """The op a request class declares (its ``op`` Literal)."""
    (op,) = typing.get_args(typing.get_type_hints(request)["op"])
    return str(op)


Handler = TypeVar("Handler", bound=Callable[..., Any])


def handlers(table: Mapping[type, Handler]) -> dict[str, Handler]:
    """A dispatch table by request class, keyed by op for the wire."""
    return {op_of(request): handler for request, handler in table.items()}
