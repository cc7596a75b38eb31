"""The settings a new match is asked for, checked before anything is made:
each refusal names the request's field and says what it accepts."""

from __future__ import annotations

from typing import Sequence

from gamehost.host import errors
from gamehost.host.auth import Principal
from gamehost.host.engine.match_access import SPECTATOR_POLICIES, VISIBILITIES
from gamehost.sdk.rules import Game

MAX_TURN_TIMEOUT = 30 * 24 * 3600.0


def check_match_settings(game: Game, seats: int, bot_seats: Sequence[int], turn_timeout: float,
                         absent_grace: float | None, visibility: str, spectators: str) -> None:
    """Refuse a seat count the game is not played by, bot seats outside the
    table, timeouts beyond 30 days, and unknown access policies."""
    if seats not in game.allowed_player_counts():
        raise errors.invalid_field("seats", f"{game.title} is played by {game.player_counts_text()}, not {seats}.")
    if len(set(bot_seats)) != len(bot_seats) or any(not 0 <= s < seats for s in bot_seats):
        raise errors.invalid_field("bot_seats", f"bot seats must be distinct seat numbers from 0 to {seats - 1}.")
    if not 0 <= turn_timeout <= MAX_TURN_TIMEOUT:
        raise errors.invalid_field("turn_timeout", f"a turn timeout is 0 (no limit) to 30 days, not {turn_timeout} s.")
    if absent_grace is not None and not 0 <= absent_grace <= MAX_TURN_TIMEOUT:
        raise errors.invalid_field("absent_grace", f"an absent player's grace is 0 to 30 days, not {absent_grace} s.")
    if visibility not in VISIBILITIES:
        raise errors.invalid_field("visibility", f"a match is public, unlisted or private, not {visibility!r}.")
    if spectators not in SPECTATOR_POLICIES:
        raise errors.invalid_field("spectators", f"spectators are anyone, players or none, not {spectators!r}.")


def caller_request_id(caller: Principal, request_id: str) -> str:
    """The stored key of a caller's CreateMatch request id: request ids are
    the caller's own (AIP-155), so another caller's repeat of the same id
    makes its own match instead of answering with this one. The key's
    length prefix keeps every caller's keys apart, and apart from the host's
    own ids (rematches, matches made from tickets)."""
    if not request_id:
        return ""
    key = caller.quota_key
    return f"{len(key)}:{key}/{request_id}"
