"""Hints for search bots: which Scalino placements to try first, cheaply.

No rule of the game lives here (``rules.py`` decides what is legal and who
wins); this is a bot's guess. Points come from staircases of counted cells
(spec 3.6): a cell counts once a piece lies on it at the cell's highest
level, seen from above, and a staircase of n steps scores 1 + 2 + ... + n.
So a placement is worth, first, the **staircase points its colour gains
now** (its cells that become counted, joined to that colour's staircases),
then its **size** (an unplaced piece costs its size if the pyramid stays
incomplete, and a long bar is the first that no longer fits).

The search adds a position's moves in that order (``ordered``) and judges
them by playing on; ``staircase_shares`` (the staircases as they stand)
scores playouts cut short.
"""

from __future__ import annotations

from typing import Any, Sequence

from gamehost.sdk import Move, places, rank_shares

from gamehost_scalino.pyramid import best_staircases, counted_cells, pyramid, staircase_graph, triangular
from gamehost_scalino.rules import colour_scores


def staircase_points(pyr, counted: dict[int, str], colour: str, steps: str) -> int:
    """The points of ``colour``'s staircases over these counted cells (spec 3.6)."""
    return sum(triangular(len(path)) for path in best_staircases(staircase_graph(pyr, counted, colour, steps)))


class PlacementScore:
    """Scores placements in one position: (staircase points gained, size)."""

    def __init__(self, state: Any):
        self.pyr = pyramid(state["options"]["geometry"])
        self.steps = state["options"]["staircase_steps"]
        self.counted = counted_cells(self.pyr, state["grid"], state["pieces"])
        self.points: dict[str, int] = {}  # per colour, now: computed when first needed

    def __call__(self, move: Move) -> tuple[int, int]:
        colour, level, cells = move.args["colour"], move.args["level"], move.args["cells"]
        bar = [self.pyr.index[name] for name in cells]
        newly_counted = [cell for cell in bar if self.pyr.top_height[cell] == level]
        if not newly_counted:
            return 0, len(bar)
        if colour not in self.points:
            self.points[colour] = staircase_points(self.pyr, self.counted, colour, self.steps)
        after = {**self.counted, **{cell: colour for cell in newly_counted}}
        return staircase_points(self.pyr, after, colour, self.steps) - self.points[colour], len(bar)


def ordered(state: Any, moves: Sequence[Move]) -> list[Move]:
    """``moves`` best scored first (ties keep their order)."""
    return sorted(moves, key=PlacementScore(state), reverse=True)


def staircase_shares(state: Any) -> list[float]:
    """For search bots cutting a playout short: the seats ranked by the
    staircase points their colours hold now (unplaced pieces are not
    charged mid-game: every seat still has some)."""
    scores = colour_scores(state)
    return rank_shares(places([sum(scores[c]["points"] for c in colours) for colours in state["colours"]]))
