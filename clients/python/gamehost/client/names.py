"""Resource names as the host spells them, from the short forms callers may pass."""

from __future__ import annotations


def game_name(game: str) -> str:
    """Accept "tictactoe" or "games/tictactoe"."""
    return game if game.startswith("games/") else f"games/{game}"


def match_name(match: str) -> str:
    """Accept "abc123" or "matches/abc123"."""
    return match if match.startswith("matches/") else f"matches/{match}"


def ticket_name(ticket: str) -> str:
    return ticket if ticket.startswith("tickets/") else f"tickets/{ticket}"
