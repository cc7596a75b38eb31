"""The hooks a gamehost plugin may implement.

A plugin is a module (or object) registered under the entry-point group
``gamehost.games``. It marks its implementations with ``gamehost.sdk.hookimpl``.

The hooks of one game's rules are methods of its ``Game`` (gamehost.sdk.rules),
run where the match's rules run, beside its state: ``apply``, ``view``,
``secrets``, ``public_move`` and, for the turn summaries every frontend shows,
``revealed(before, seat, move, after) -> Sequence[Reveal]``: what a step made
known beyond its move (the number on a card turned up, the tile drawn), to
everybody or, with ``Reveal.seen_by``, to one seat only. The host keeps the
answer in the match log beside the move, so replays show the same turns; the
conformance kit checks that it is deterministic and carries no secret a viewer
may not see.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

import pluggy

if TYPE_CHECKING:
    from gamehost.sdk.rules import Game

hookspec = pluggy.HookspecMarker("gamehost")
hookimpl = pluggy.HookimplMarker("gamehost")


@hookspec
def gamehost_games() -> Sequence[Game]:
    """Return the games this plugin provides, as a list of ``Game`` instances.

    The host validates each game (metadata, options schema) before listing
    it; an invalid game is skipped and reported by ``gamehost plugins``.
    """
    raise NotImplementedError  # a specification: pluggy calls the plugins' implementations


@hookspec
def gamehost_bots() -> Mapping[str, Any]:
    """Return extra bot strategies as a mapping of name to ``Bot``.

    A bot is any object with ``choose(game, state, seat, moves, rng) -> Move``.
    The host always provides ``"random"``. A rules worker runs ``choose`` in
    a thread of its own, and two matches' choices may run at once: read the
    state, keep no state on the bot (plugin-guide.md, "Where to think").
    """
    raise NotImplementedError  # a specification: pluggy calls the plugins' implementations


@hookspec
def gamehost_match_event(match_id: str, game_id: str, event: Mapping[str, Any]) -> None:
    """Observe a committed match event (a dict as written to the log).

    Called once the event is committed, one plugin at a time. An exception
    here is logged and ignored: observers cannot break a match. Do not
    change ``event``.
    """


@hookspec
def gamehost_authenticate(metadata: Mapping[str, str], peer: str) -> Any:
    """Identify the caller of an RPC by a scheme of the plugin's own.

    ``metadata`` is a mapping of the call's metadata keys (lower case) to
    their values (e.g. ``metadata.get("authorization")``); ``peer`` is the
    caller's address. Return a ``gamehost.host.auth.Principal`` to admit
    the caller as that identity, or None to let the next plugin, then the
    host's own schemes (API keys, JWTs, anonymous), decide. Raise a
    ``gamehost.host.errors.HostError`` (e.g. ``Unauthenticated``) to refuse
    the call. The hook may return an awaitable; keep it quick, it runs
    before every call. An exception of another kind is logged and the
    plugin is passed over.
    """


@hookspec(firstresult=True)
def gamehost_clock_ran_out(game_id: str, seats: int, ran_out: Sequence[int]) -> Sequence[int] | None:
    """The game's timeout rule: the ranking (one place per seat, 1 is best)
    of a match of ``game_id`` with ``seats`` seats that ends because the
    chess clock of the seats ``ran_out`` ran out. It sees no position;
    ``Game.timeout_ranking``, which does, is asked first. Both run in the
    game's rules worker, under the rules budget.

    Return None for a game this plugin does not provide (the first answer
    that is not None is taken). When no plugin answers, the host's rule
    applies: the seats that ran out share the last place, the others the
    first. An exception, a time-out or an answer that is not one place (1
    to ``seats``) per seat is logged and the host's rule applies.
    """


@hookspec(firstresult=True)
def gamehost_seat_resigned(game_id: str, seats: int, resigned: Sequence[int]) -> Sequence[int] | None:
    """The game's resignation rule: the ranking (one place per seat, 1 is
    best) of a match of ``game_id`` with ``seats`` seats that ends now
    because the seats ``resigned`` have resigned (in the order they did,
    the latest last). It sees no position and runs in the game's rules
    worker, under the rules budget.

    Return None for a game this plugin does not provide, or to let the
    host's rule apply (the first answer that is not None is taken): when
    one seat is left in play it wins and the resigned seats rank below it,
    the earliest to resign last; with more left the match goes on, the
    random bot plays the resigned seats, and they rank last when it ends.
    An exception, a time-out or an answer that is not one place (1 to
    ``seats``) per seat is logged and the host's rule applies.
    """


@hookspec
def gamehost_chat_filter(text: str, game_id: str, match_id: str, sender: str) -> str | None:
    """Filter the words of a chat message before it is stored: ``text`` as
    the sender wrote it (or as the previous plugin's filter left it),
    written in a match of ``game_id`` by the signed-in user ``sender``.

    Return None to keep the text as it is, a string to keep that instead
    (e.g. with words masked), or ``""`` to refuse the message: the sender
    gets INVALID_ARGUMENT (reason ``CHAT_REFUSED``) and nothing is stored.
    The host calls every plugin's filter in turn, each on what the one
    before it left, in the host's own process before every message: keep
    it quick and keep no state. An exception is logged and that plugin is
    passed over. A filter sees chat only: never a player's hidden
    information.
    """
