"""Hints for the search bots: a playout player that keeps room in its wall,
and a score for positions a playout stops short of the end.

Neither changes what is legal; they only make the bots' playouts less random.
"""

from __future__ import annotations

from typing import Any, Sequence

from gamehost.sdk import Move, places, rank_shares

from gamehost_burgbaumeister.rules import DECIDE, WALL_CARD_NUMBERS, WALL_TO_WIN, card_number, highest, score


def room_keeping_move(state: Any, seat: int, moves: Sequence[Move]) -> Move | None:
    """For search bots' playouts, a player who keeps room in the wall:
    take a card only if it leaves, on average, enough higher cards for
    the cards still to come (a random player takes 40 on its second
    turn, and its playouts say little)."""
    if state["phase"] != DECIDE:
        return None
    by_action = {move.args["action"]: move for move in moves}
    if "take" not in by_action:
        return by_action.get("decline")
    if "decline" not in by_action:
        return None  # a search bot may offer only the moves it has not tried yet
    wall = state["walls"][seat]
    number = card_number(state["table"][state["revealed"]])
    step = (max(WALL_CARD_NUMBERS) - highest(wall)) / max(1, WALL_TO_WIN - len(wall))
    return by_action["take"] if number <= highest(wall) + 1.5 * step else by_action["decline"]


def wall_shares(state: Any) -> list[float]:
    """For search bots cutting a playout short: the seats ranked as the
    walls would score now; a lower top card, leaving more cards
    takeable, breaks ties."""
    options = state["options"]
    return rank_shares(places([(score(wall, options), -highest(wall)) for wall in state["walls"]]))
