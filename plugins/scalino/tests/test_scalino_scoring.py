"""Scalino scoring (spec docs/rules/scalino.md 3.6) and the French worked example."""

from __future__ import annotations

import itertools
import random

import pytest

from gamehost.sdk import places

from gamehost_scalino.pyramid import (
    best_staircases,
    counted_cells,
    pyramid,
    staircase_graph,
    triangular,
)
from gamehost_scalino.game import Scalino
from gamehost_scalino.rules import colour_scores

GAME = Scalino()

# The French rules' example, rebuilt as levels 1 and 2 of the complete_pyramid
# fixture (conftest.py); level 3 was never started. Green (G) has placed all 12 pieces:
#   a 6-step staircase  a4-a3-a2 (level 1 bar) - b2-c2-d2 (level 2 bar),
#   the branch cell (a) b1 on level 1, touching b2: counted alone,
#   a 2-step staircase  g5 (level 1) - f5 (level 2),
#   single steps        g2, a7 (level 1) and d6 (level 2),
#   c4-d4-e4 (c, b, c): a level 2 bar in the middle, below its cells' final
#   heights 3, 4, 3, so not counted; the three green 2-bars lie under level 2.


def test_staircase_points_are_triangular_numbers():
    assert [triangular(n) for n in range(1, 8)] == [1, 3, 6, 10, 15, 21, 28]


def test_french_example_scores_28_for_green(scalino_position, complete_pyramid):
    state = scalino_position(*complete_pyramid[:2])
    green = colour_scores(state)["green"]
    assert green["points"] == 28
    assert green["penalty"] == 0
    assert sorted(map(len, green["staircases"]), reverse=True) == [6, 2, 1, 1, 1, 1]
    six = next(path for path in green["staircases"] if len(path) == 6)
    assert six in (["a4", "a3", "a2", "b2", "c2", "d2"], ["d2", "c2", "b2", "a2", "a3", "a4"])
    assert ["b1"] in green["staircases"]  # the branch (a) counts as a single step
    assert sorted(["f5", "g5"]) in [sorted(path) for path in green["staircases"]]


def test_cells_below_their_highest_possible_level_are_not_counted(scalino_position, complete_pyramid):
    state = scalino_position(*complete_pyramid[:2])
    counted = counted_cells(pyramid("squares"), state["grid"], state["pieces"])
    names = {pyramid("squares").names[cell] for cell, colour in counted.items() if colour == "green"}
    assert not names & {"c4", "d4", "e4"}  # the French example's c, b, c
    assert not names & {"b6", "c6", "e2", "e3", "e6", "f6"}  # covered green cells
    assert len(names) == 12


def test_staircase_needing_a_level_change_per_step_scores_16_in_the_french_example(scalino_position, complete_pyramid):
    state = scalino_position(*complete_pyramid[:2], staircase_steps="level-change")
    assert colour_scores(state)["green"]["points"] == 16


def test_unplaced_pieces_cost_their_size_when_the_pyramid_is_incomplete(scalino_position, complete_pyramid):
    state = {**scalino_position(*complete_pyramid[:2]), "over": True}  # nobody could place any more
    # Left in hand: what levels 3 and 4 of the complete pyramid in test_scalino_rules.py
    # use: red 2 singles, blue a 3-bar, yellow a 3-bar and 2 singles.
    penalties = {colour: score["penalty"] for colour, score in colour_scores(state).items()}
    assert penalties == {"red": 2, "blue": 3, "yellow": 5, "green": 0}


def test_unplaced_pieces_cost_nothing_while_the_game_runs(scalino_position, complete_pyramid):
    """Spec 3.6: the penalty is only for a pyramid left incomplete; mid-game the pieces may still be placed."""
    state = scalino_position(*complete_pyramid[:2])
    assert not state["over"]
    assert all(score["penalty"] == 0 for score in colour_scores(state).values())
    text, svg = GAME.render_text(state), GAME.render_svg(state, [])
    assert "unplaced" not in text and "−" not in svg
    over = {**state, "over": True}
    assert "- 2 unplaced" in GAME.render_text(over) and "− 2" in GAME.render_svg(over, [])


def test_two_player_score_adds_both_colours(scalino_position, complete_pyramid):
    state = {**scalino_position(*complete_pyramid[:2], seats=2), "over": True}
    scores = colour_scores(state)
    outcome = GAME.outcome(state)
    for seat, colours in enumerate(state["colours"]):
        assert outcome.scores[seat] == sum(scores[c]["points"] - scores[c]["penalty"] for c in colours)


def test_highest_total_wins_and_equal_totals_share_the_place():
    assert places([5, 7, 7, 1]) == [3, 1, 1, 4]
    assert places([-3, -3]) == [1, 1]


# --- the staircase split is optimal: property test against brute force ---------------

def brute_force_points(graph: dict[int, list[int]]) -> int:
    """Best total over every way to keep a subset of the edges such that every
    cell has at most two kept edges and no cycle forms (a set of paths)."""
    edges = sorted({tuple(sorted((a, b))) for a in graph for b in graph[a]})
    best = 0
    for keep in itertools.product((False, True), repeat=len(edges)):
        parent = {cell: cell for cell in graph}
        degree = dict.fromkeys(graph, 0)

        def root(cell):
            while parent[cell] != cell:
                cell = parent[cell]
            return cell

        ok = True
        for (a, b), kept in zip(edges, keep):
            if not kept:
                continue
            degree[a] += 1
            degree[b] += 1
            ra, rb = root(a), root(b)
            if degree[a] > 2 or degree[b] > 2 or ra == rb:
                ok = False
                break
            parent[ra] = rb
        if ok:
            sizes = {}
            for cell in graph:
                sizes[root(cell)] = sizes.get(root(cell), 0) + 1
            best = max(best, sum(triangular(n) for n in sizes.values()))
    return best


def random_counted(rng: random.Random) -> dict[int, str]:
    """A random top view of a corner of the square pyramid: green or another colour per cell."""
    window = [y * 7 + x for y in range(3) for x in range(4)]
    return {cell: rng.choice(["green", "green", "green", "red"]) for cell in window if rng.random() < 0.8}


@pytest.mark.parametrize("steps", ["adjacent", "level-change"])
def test_staircase_split_is_optimal_against_brute_force(steps):
    rng = random.Random(5)
    pyr = pyramid("squares")
    for _ in range(150):
        graph = staircase_graph(pyr, random_counted(rng), "green", steps)
        staircases = best_staircases(graph)
        # A partition of the green cells into staircases of neighbouring cells ...
        assert sorted(cell for path in staircases for cell in path) == sorted(graph)
        for path in staircases:
            assert all(b in graph[a] for a, b in zip(path, path[1:]))
        # ... scoring as much as the best of every possible split.
        assert sum(triangular(len(path)) for path in staircases) == brute_force_points(graph)
