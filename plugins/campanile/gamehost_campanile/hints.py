"""Hints for search bots: how good a Campanile move looks, cheaply.

No rule of the game lives here (``rules.py`` decides what is legal and who
wins); these are a bot's guesses. Points come only at the end (1.5): the
four highest towers carry flags, and the two biggest stakes under each
score its values. So a move is judged by the **points if the game ended
now** (``points_now``), which every seat can work out from the table:

- a bet: the points it adds to the bettor now (its stake makes it first or
  second under a flagged tower), plus its chip's value (unplayed chips score
  nothing, 1.5 step 5, and a game lasts only a few turns a player, so the
  big chips should go down first); a bet under the lowest tower, which
  carries no flag, scores nothing;
- a build: the points it adds to the builder now, less the most it adds to
  any other player (lifting a tower where the builder leads the stakes, not
  one where a rival does), plus the best bet it opens (the chip values the
  storeys allow, 1.3 step 2), plus one point when the card it draws (pile
  n's face-up top, 1.3 step 3) is of a tower the builder has a stake under;
- a draw with no bet: nothing.

The end is read too (1.4: the game ends the moment a pile runs out, and any
hand can build the storeys that draw from a pile, so whoever moves while a
pile holds one card may end it): a build whose draw empties its pile scores
the builder's final share of the other seats it beats (with its best bet),
from ``END_WEIGHT`` if it finishes first to ``-END_WEIGHT`` if last, instead
of the above; a build whose draw leaves its pile one card loses up to
``HAND_OVER_WEIGHT`` by the share the next player would hold now, who may then
end it.

A hint sees the position the search hands it (the seat's own hand and a
sample of what it cannot see) and uses only the public table and the
mover's own hand: the legal moves, heights, stakes and pile tops.

The search orders the moves it tries by this score (``ordered``); playouts
(``playout_choice``) stay about as cheap as random moves, since a search
bot's edge is its iterations: a random build, the best scored of a few bets
drawn at random (one tower each to score), and while a pile holds one card
the best scored of every move (builds without the bet they open), so a
playout ends the game when that wins;
a playout cut short is scored by the points now (``points_now_shares``).
"""

from __future__ import annotations

from typing import Any, Sequence

from gamehost.sdk import Move, places, rank_shares

import gamehost_campanile.rules as rules

DRAWN_STAKE_BONUS = 1
"""Score of drawing a card of a tower the builder has chips under: a later
build there lifts its own stake (a flag is worth 1 to 8 points)."""

PLAYOUT_DRAWS = 3
"""Bets a playout compares: enough to skip the bad ones, few enough to stay
cheap and to keep the playouts varied."""

END_WEIGHT = 40
"""Score of a build that ends the game (1.4) as its builder's final share:
``END_WEIGHT`` for finishing first, ``-END_WEIGHT`` for last. The result is
then sure, so it outweighs any points now (a move's other scores stay
under 20)."""

HAND_OVER_WEIGHT = END_WEIGHT // 2
"""Score taken from a build whose draw leaves its pile one card: the next
player may then end the game (1.4), which costs most when that player leads."""


def stakes(state: Any) -> dict[str, list[list[int]]]:
    """Per tower, ``[seat, stake]`` of each bettor in the order of their first chip."""
    return {tower: [[entry["seat"], rules.stake(entry)] for entry in bettors]
            for tower, bettors in state["bets"].items()}


def tower_points(bettors: list[list[int]], flag: tuple[int, int], players: int) -> list[int]:
    """Each seat's points from one flagged tower: the highest stake scores the
    larger value, the second-highest the smaller, equal stakes going to the
    earlier first chip (1.5 steps 3-4)."""
    scores = [0] * players
    # sorted() keeps the first chip's order among equal stakes
    for (seat, _), value in zip(sorted(bettors, key=lambda bettor: -bettor[1]), flag):
        scores[seat] += value
    return scores


def flag_of(row: Sequence[str], heights: dict[str, int], tower: str) -> tuple[int, int]:
    """The flag ``tower`` would carry with these heights: its rank counts the
    higher towers and the equal ones further left (1.5 steps 1-2); the
    fifth carries none."""
    height, place = heights[tower], row.index(tower)
    rank = sum(1 for index, other in enumerate(row)
               if heights[other] > height or (heights[other] == height and index < place))
    return rules.FLAGS[rank] if rank < len(rules.FLAGS) else (0, 0)


def points(row: Sequence[str], heights: dict[str, int], staked: dict[str, list[list[int]]],
           players: int) -> list[int]:
    """Each seat's points if the game ended with these heights and stakes
    (1.5, as ``rules.final_scores`` counts them, without its record)."""
    scores = [0] * players
    ranking = sorted(row, key=lambda style: -heights[style])  # a stable sort: equal heights stay left first
    for tower, flag in zip(ranking, rules.FLAGS):
        for seat, value in enumerate(tower_points(staked[tower], flag, players)):
            scores[seat] += value
    return scores


def points_now(state: Any) -> list[int]:
    """Each seat's points if the game ended in this position (1.5)."""
    return points(state["row"], state["heights"], stakes(state), state["players"])


def points_now_shares(state: Any) -> list[float]:
    """A guess at the result of an unfinished game: the seats ranked by
    their points now."""
    return rank_shares(places(points_now(state)))


def with_chip_placed(staked: dict[str, list[list[int]]], seat: int, tower: str, chip: int) -> dict[str, list[list[int]]]:
    """The stakes after ``seat`` puts ``chip`` under ``tower`` (1.3 step 2:
    a second chip keeps the place of the first)."""
    bettors = [list(bettor) for bettor in staked[tower]]
    mine = next((bettor for bettor in bettors if bettor[0] == seat), None)
    if mine is None:
        bettors.append([seat, chip])
    else:
        mine[1] += chip
    return {**staked, tower: bettors}


class MoveScore:
    """Scores the moves of ``seat`` in one position (see the module's list)."""

    def __init__(self, state: Any, seat: int, look_at_bets: bool = True):
        self.look_at_bets = look_at_bets
        self.state = state
        self.seat = seat
        self.row = state["row"]
        self.players = state["players"]
        self.heights = state["heights"]
        self.staked = stakes(state)
        self._before: list[int] | None = None

    @property
    def before(self) -> list[int]:
        """The points now (only a build needs them all: computed once, when first asked)."""
        if self._before is None:
            self._before = points(self.row, self.heights, self.staked, self.players)
        return self._before

    def __call__(self, move: Move) -> int:
        action = move.args["action"]
        if action == "build":
            return self.build(move.args["style"], move.args["storeys"])
        if action == "bet":
            return self.bet(self.heights, move.args["tower"], move.args["chip"])
        return 0  # a draw with no bet

    def bet(self, heights: dict[str, int], tower: str, chip: int, with_chip: bool = True) -> int:
        """Points the bet adds to the bettor now (with ``heights``), plus its
        chip's value if the tower carries a flag (``with_chip``)."""
        flag = flag_of(self.row, heights, tower)
        if not flag[0]:
            return 0  # the lowest tower: a chip there is spent for nothing, as things stand
        before = tower_points(self.staked[tower], flag, self.players)[self.seat]
        after = tower_points(with_chip_placed(self.staked, self.seat, tower, chip)[tower], flag,
                             self.players)[self.seat]
        return after - before + (chip if with_chip else 0)

    def build(self, style: str, storeys: int) -> int:
        """Points the build adds to the builder now less the most it adds to
        another seat, plus the best bet it opens and the card it draws."""
        heights = {**self.heights, style: self.heights[style] + storeys}
        after = points(self.row, heights, self.staked, self.players)
        gains = [now - then for now, then in zip(after, self.before)]
        rivals = max(gain for other, gain in enumerate(gains) if other != self.seat)
        left = len(self.state["piles"][storeys - 1])
        if left == 1:
            return self.end(heights, after, style, storeys)
        drawn = rules.pile_top(self.state, storeys)
        bonus = DRAWN_STAKE_BONUS if drawn is not None and any(
            seat == self.seat for seat, _ in self.staked[rules.card_style(drawn)]) else 0
        opened = self.best_bet(heights, style, storeys) if self.look_at_bets else 0
        hand_over = 0
        if left == 2:
            following = (self.seat + 1) % self.players
            hand_over = round(HAND_OVER_WEIGHT * rank_shares(places(after))[following])
        return gains[self.seat] - rivals + opened + bonus - hand_over

    def end(self, heights: dict[str, int], after: list[int], style: str, storeys: int) -> int:
        """A build whose draw ends the game (1.4): the builder's final share
        of the seats it beats, with the bet that adds it most, from
        ``-END_WEIGHT`` (last) to ``END_WEIGHT`` (first)."""
        final = list(after)
        final[self.seat] += max(0, self.best_bet(heights, style, storeys, with_chip=False))
        return round(END_WEIGHT * (2 * rank_shares(places(final))[self.seat] - 1))

    def best_bet(self, heights: dict[str, int], style: str, storeys: int, with_chip: bool = True) -> int:
        """The best bet score open after building ``storeys`` on ``style``, 0
        if none (``with_chip=False``: the points it adds alone)."""
        chips = self.state["chips"][self.seat]
        bet_rule = self.state["options"]["bet_rule"]
        # On one tower a bigger chip never scores less: only the biggest that fits is compared.
        chip = next((value for value in (3, 2, 1) if chips[str(value)] and rules.chip_fits(value, storeys, bet_rule)),
                    None)
        if chip is None:
            return 0
        towers = rules.visible_styles(self.state)
        if self.state["options"]["bet_on_built_tower"]:
            towers.add(style)
        return max((self.bet(heights, tower, chip, with_chip) for tower in towers), default=0)


def ordered(state: Any, seat: int, moves: Sequence[Move]) -> list[Move]:
    """``moves`` best scored first (ties keep their order)."""
    return sorted(moves, key=MoveScore(state, seat), reverse=True)


def playout_choice(state: Any, seat: int, moves: Sequence[Move], rng) -> Move:
    """A playout's move, about as cheap as a random one: while a pile holds
    one card (a build may end the game) the best scored of all ``moves``;
    else a bet or a draw the best scored of ``PLAYOUT_DRAWS`` drawn with
    ``rng`` (a bet is scored on its one tower), a build one at random."""
    if len(moves) == 1:
        return moves[0]  # the draw after a bet: nothing to score
    if any(len(cards) == 1 for cards in state["piles"]):
        return max(moves, key=MoveScore(state, seat, look_at_bets=False))
    if state["step"] == "build":
        return moves[rng.randrange(len(moves))]
    drawn = [moves[rng.randrange(len(moves))] for _ in range(PLAYOUT_DRAWS)]
    return max(drawn, key=MoveScore(state, seat))
