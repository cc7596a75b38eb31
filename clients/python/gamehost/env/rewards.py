"""Rewards from a finished match's ranking, the same at a host and locally."""

from __future__ import annotations

from typing import Sequence


def rank_rewards(ranking: Sequence[int]) -> list[float]:
    """Each seat's reward from its place (1 is best, ties share a place):
    the share of the other seats it placed above (a tie counting half),
    mapped onto [-1, 1]. Two seats: a win +1, a loss -1, a draw 0; more
    seats: a normalized rank, +1 above everyone, -1 below everyone."""
    others = max(1, len(ranking) - 1)
    return [2.0 * sum(1.0 if place < other else 0.5 if place == other else 0.0
                      for index, other in enumerate(ranking) if index != seat) / others - 1.0
            for seat, place in enumerate(ranking)]
