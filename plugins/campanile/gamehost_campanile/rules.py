"""Campanile (Hanno & Wilfried Kuhn, Blatz 1996), as docs/rules/campanile.md specifies.

Five towers, one per architectural style, stand in a row. On a turn a player
builds one tower 1, 2 or 3 storeys higher with a card of its style, may bet one
power chip on a tower whose style shows on a draw pile, and draws from the pile
whose number is the storeys just built. The game ends the moment a pile runs
out; the four highest towers carry flags, and the two biggest bettors on each
flagged tower score its flag's values.

Section numbers (1.2, 1.3, ...) in the docstrings refer to the spec.

State (plain JSON data):

- ``players``: number of seats; ``options``: the validated options.
- ``row``: the five style ids left to right; nearer the piles (left) wins ties.
- ``heights``: storeys built per style.
- ``bets``: per style, the bettors in the order of their first chip, each
  ``{"seat": s, "chips": [values in the order placed]}``.
- ``chips``: per seat, unplaced chips by value (``{"1": 5, "2": 3, "3": 1}``).
- ``hands``: per seat, card tokens (secret to the owner).
- ``piles``: piles 1, 2, 3 as card lists, bottom first; the last card is the
  face-up top, the others are face down (secret to everybody).
- ``surplus``: cards removed unseen at setup (secret to everybody).
- ``known``: per seat, the styles of cards it drew face up and may still
  hold, as everyone saw them (public; a build of a style uses one up).
  States saved before it existed lack it and know none.
- ``turn``: the seat whose turn it is (None once over); ``step``: "build",
  "bet" (built; may bet or draw), "draw" (has bet; must draw) or "over";
  ``built``: this turn's build, ``{"style": S, "storeys": n}``, else None.

A card token is ``"<style>#<nn>"`` (``"S3#07"``): unique, so the conformance
kit can tell whether a hidden card shows in a view it must not reach.
"""

from __future__ import annotations

import functools
import math
from typing import Any, Mapping

from gamehost.sdk import IllegalMove, MalformedMove, Move, Outcome, Reveal, Secret, Text, places, player_number

# --- components (1.1) and setup tables (1.2) ----------------------------------

STYLES = ("S1", "S2", "S3", "S4", "S5")
"""PROPOSED style ids (1.1): the 1996 style names are not sourced."""
CARDS_PER_STYLE = 14
"""INFERRED: 70 tower cards over 5 styles (1.1)."""
REMOVED_PER_STYLE = {2: 5, 3: 3, 4: 1, 5: 0}
"""Tower cards of each style put back in the box before the shuffle (1.2 step 2)."""
HAND_SIZE = 3
"""Cards in hand (1.2 step 3; A2: the rules' 3, not the reviews' 4)."""
PILE_NUMBERS = (1, 2, 3)
"""The Finito cards under the three draw piles (1.1)."""
STOREY_CHOICES = (1, 2, 3)
"""How many storeys a card may add: the three alignment marks (1.1)."""
CHIP_SET = {"1": 5, "2": 3, "3": 1}
"""Each player's nine power chips by value (1.1)."""
FLAGS = ((8, 4), (6, 3), (4, 2), (2, 1))
"""Flag values for the towers ranked 1 to 4; the fifth tower gets none (1.5)."""
START_HEIGHT = 0
"""All towers start equal (1.1); only relative height matters."""

BET_RULES = ("at_least", "exact")
"""A1: a chip must be worth at least (French rules) or exactly (German reviews)
the storeys built this turn."""


def card_style(card: str) -> str:
    """The style a card token belongs to."""
    return card.split("#", 1)[0]


def player_name(seat: int) -> Text:
    """"Player 1" for seat 0 (people count from 1, as gamehost.sdk.seats names
    seats), said as a message so that each language names its players."""
    return Text("Player {number}", number=player_number(seat))


def storeys_text(storeys: int) -> Text:
    return Text("1 storey") if storeys == 1 else Text("{count} storeys", count=storeys)


def players_text(seats: list[int]) -> Text:
    """Several players named in a list ("Player 1, Player 3"); the separator
    is a message too, since languages punctuate lists their own way."""
    names = player_name(seats[0])
    for seat in seats[1:]:
        names = Text("{names}, {name}", names=names, name=player_name(seat))
    return names


# --- setup (1.2) -------------------------------------------------------------

def tower_cards(players: int) -> list[str]:
    """The tower cards left after removing a fixed count of each style (1.2 step 2)."""
    kept = CARDS_PER_STYLE - REMOVED_PER_STYLE[players]
    return [f"{style}#{number:02d}" for style in STYLES for number in range(1, kept + 1)]


def deal(players: int, rng) -> tuple[list[list[str]], list[list[str]], list[str]]:
    """Shuffle, deal hands of three, then three equal piles; the surplus is
    removed unseen (1.2 steps 3-4). Returns (hands, piles, surplus)."""
    deck = tower_cards(players)
    rng.shuffle(deck)
    hands = [deck[seat * HAND_SIZE:(seat + 1) * HAND_SIZE] for seat in range(players)]
    rest = deck[players * HAND_SIZE:]
    pile_size = len(rest) // len(PILE_NUMBERS)
    piles = [rest[index * pile_size:(index + 1) * pile_size] for index in range(len(PILE_NUMBERS))]
    surplus = rest[len(PILE_NUMBERS) * pile_size:]
    return hands, piles, surplus


def tower_row(options: Mapping[str, Any], rng) -> list[str]:
    """The left-to-right order of the towers (1.2 step 1; A3, PROPOSED random)."""
    row = list(STYLES)
    if options["tower_order"] == "random":
        rng.shuffle(row)
    return row


def start_player(players: int, options: Mapping[str, Any], rng) -> int:
    """Who starts (1.2 step 8; PROPOSED: random, since the oldest player is not
    known to the host)."""
    return rng.randrange(players) if options["start_player"] == "random" else 0


# --- what is visible on the table ----------------------------------------------

def pile_top(state, pile: int) -> str | None:
    """The face-up top card of pile 1, 2 or 3 (1.2 step 5), None if empty."""
    cards = state["piles"][pile - 1]
    return cards[-1] if cards else None


def visible_styles(state) -> set[str]:
    """Styles shown on the face-up pile tops right now (1.3 step 2)."""
    return {card_style(top) for pile in PILE_NUMBERS if (top := pile_top(state, pile)) is not None}


def held_known(state, seat: int) -> list[str]:
    """The known styles of ``seat``'s hand that it holds, sorted (a view
    shows only what the hand can back)."""
    return sorted(card_style(card) for card in split_known(state["hands"][seat], known_styles(state)[seat])[0])


def split_known(hand: list[str], known: list[str]) -> tuple[list[str], list[str]]:
    """The hand's cards split into one card per known style (the lowest
    token of that style) and the others."""
    rest = sorted(hand)
    kept = []
    for style in sorted(known):
        card = next((card for card in rest if card_style(card) == style), None)
        if card is not None:
            rest.remove(card)
            kept.append(card)
    return kept, rest


def is_over(state) -> bool:
    return state["step"] == "over"


# --- the turn (1.3) --------------------------------------------------------------

def check_build(state, seat: int, style: str, storeys: int) -> None:
    """Build (1.3 step 1): once per turn, with a hand card of the tower's style,
    adding 1, 2 or 3 storeys."""
    if state["step"] != "build":
        raise IllegalMove(f"You have already built on tower {state['built']['style']} this turn; "
                          f"bet or draw from pile {state['built']['storeys']}.", "one-build-per-turn")
    if style not in STYLES:
        raise IllegalMove(f"There is no tower {style}: the towers are {', '.join(STYLES)}.", "unknown-tower")
    if storeys not in STOREY_CHOICES:
        raise IllegalMove(f"A card adds 1, 2 or 3 storeys, not {storeys}.", "storeys-1-to-3")
    if not any(card_style(card) == style for card in state["hands"][seat]):
        raise IllegalMove(f"You hold no {style} card, so you cannot build tower {style}.", "card-not-in-hand")


def known_styles(state) -> list[list[str]]:
    """Per seat, the styles everyone saw it draw face up and not build since."""
    return state.get("known") or [[] for _ in range(state["players"])]


def build(state, seat: int, style: str, storeys: int):
    """Play the first hand card of ``style`` onto its tower, ``storeys`` higher.
    Everyone knows one card fewer of that style in the hand, if they knew one."""
    hand = list(state["hands"][seat])
    hand.remove(next(card for card in hand if card_style(card) == style))
    hands = list(state["hands"])
    hands[seat] = hand
    heights = dict(state["heights"])
    heights[style] += storeys
    known = [list(styles) for styles in known_styles(state)]
    if style in known[seat]:
        known[seat].remove(style)
    return {**state, "hands": hands, "heights": heights, "step": "bet", "known": known,
            "built": {"style": style, "storeys": storeys}}


def chip_fits(chip: int, storeys: int, bet_rule: str) -> bool:
    """The chip value allowed after building ``storeys`` (1.3 step 2, A1)."""
    return chip >= storeys if bet_rule == "at_least" else chip == storeys


def betting_towers(state) -> set[str]:
    """Towers a bet may go under: styles on a pile top, checked after the build
    and before the draw, plus the tower just built in the official variant
    (1.3 step 2, A5)."""
    towers = visible_styles(state)
    if state["options"]["bet_on_built_tower"]:
        towers.add(state["built"]["style"])
    return towers


def check_bet(state, seat: int, tower: str, chip: int) -> None:
    """Bet (1.3 step 2): optional, after the build, one chip per turn, and all
    three conditions: the tower's style on a pile top, a chip value that fits
    the storeys built, and such a chip still in hand."""
    if state["step"] == "build":
        raise IllegalMove("Build first: a bet comes after this turn's build.", "build-before-bet")
    if state["step"] == "draw":
        raise IllegalMove(f"You have already bet this turn; draw from pile {state['built']['storeys']}.",
                          "one-bet-per-turn")
    if tower not in STYLES:
        raise IllegalMove(f"There is no tower {tower}: the towers are {', '.join(STYLES)}.", "unknown-tower")
    if chip not in STOREY_CHOICES:
        raise IllegalMove(f"Chips are worth 1, 2 or 3, not {chip}.", "unknown-chip")
    if tower not in betting_towers(state):
        shown = ", ".join(sorted(visible_styles(state))) or "none"
        also = (f" or the tower you just built ({state['built']['style']})"
                if state["options"]["bet_on_built_tower"] else "")
        raise IllegalMove(f"You may only bet on a style shown on a pile top ({shown}){also}; "
                          f"{tower} is not.", "bet-style-not-on-pile-top")
    storeys = state["built"]["storeys"]
    if not chip_fits(chip, storeys, state["options"]["bet_rule"]):
        if state["options"]["bet_rule"] == "at_least":
            allowed = " or ".join(str(value) for value in STOREY_CHOICES if value >= storeys)
            raise IllegalMove(f"You built {storeys_text(storeys)}, so your chip must be worth at least {storeys} "
                              f"({allowed}), not {chip}.", "bet-chip-below-storeys")
        raise IllegalMove(f"You built {storeys_text(storeys)}, so your chip must be worth exactly {storeys}, "
                          f"not {chip}.", "bet-chip-not-storeys")
    if state["chips"][seat][str(chip)] == 0:
        raise IllegalMove(f"You have no {chip}-chip left to bet.", "bet-chip-used-up")


def place_bet(state, seat: int, tower: str, chip: int):
    """Put the chip under the tower. A player already betting there keeps the
    position of their first chip (1.3 step 2)."""
    chips = list(state["chips"])
    chips[seat] = {**chips[seat], str(chip): chips[seat][str(chip)] - 1}
    bettors = [dict(entry) for entry in state["bets"][tower]]
    mine = next((entry for entry in bettors if entry["seat"] == seat), None)
    if mine is None:
        bettors.append({"seat": seat, "chips": [chip]})
    else:
        mine["chips"] = mine["chips"] + [chip]
    return {**state, "chips": chips, "bets": {**state["bets"], tower: bettors}, "step": "draw"}


def check_draw(state, pile: int) -> None:
    """Draw (1.3 step 3): after the build, from the pile numbered with the
    storeys just built."""
    if state["step"] == "build":
        raise IllegalMove("Build first: you draw at the end of your turn.", "build-before-draw")
    storeys = state["built"]["storeys"]
    if pile != storeys:
        raise IllegalMove(f"You built {storeys_text(storeys)}, so you must draw from pile {storeys}, not pile {pile}.",
                          "draw-from-pile-n")


def draw(state, seat: int, pile: int):
    """Take the top card of the pile; the next card is now its face-up top.
    Emptying a pile ends the game at once (1.4); otherwise play passes
    clockwise."""
    cards = list(state["piles"][pile - 1])
    drawn = cards.pop()
    piles = list(state["piles"])
    piles[pile - 1] = cards
    hands = list(state["hands"])
    hands[seat] = hands[seat] + [drawn]
    known = [list(styles) for styles in known_styles(state)]
    known[seat].append(card_style(drawn))  # it was the face-up top: everyone saw it taken
    if not cards:
        return {**state, "piles": piles, "hands": hands, "known": known, "turn": None, "step": "over", "built": None}
    return {**state, "piles": piles, "hands": hands, "known": known, "turn": (seat + 1) % state["players"],
            "step": "build", "built": None}


# --- scoring (1.5) ---------------------------------------------------------------

def tower_ranking(state) -> list[str]:
    """Towers from highest to lowest; among equal heights the one further left
    (nearer the piles) ranks higher (1.5 step 1)."""
    return sorted(state["row"], key=lambda style: (-state["heights"][style], state["row"].index(style)))


def stake(entry) -> int:
    return sum(entry["chips"])


def tower_awards(state, tower: str, flag: tuple[int, int]) -> list[dict]:
    """Who scores a flagged tower: the highest stake takes the larger value, the
    second-highest the smaller; equal stakes go to the earlier first chip
    (1.5 steps 3-4)."""
    bettors = state["bets"][tower]
    by_stake = sorted(range(len(bettors)), key=lambda place: (-stake(bettors[place]), place))
    return [{"seat": bettors[place]["seat"], "stake": stake(bettors[place]), "points": points}
            for place, points in zip(by_stake, flag)]


def final_scores(state) -> dict:
    """The flags on towers ranked 1 to 4 and the points they give (1.5); chips
    on the lowest tower and unplayed chips score nothing."""
    ranking = tower_ranking(state)
    scores = [0] * state["players"]
    flags = []
    for tower, flag in zip(ranking, FLAGS):
        awards = tower_awards(state, tower, flag)
        for award in awards:
            scores[award["seat"]] += award["points"]
        flags.append({"tower": tower, "flag": list(flag), "awards": awards})
    return {"tower_ranking": ranking, "flags": flags, "scores": scores}


# --- move parsing -------------------------------------------------------------------

MOVE_SHAPES = {
    "build": '{"action": "build", "style": "S1".."S5", "storeys": 1..3}',
    "bet": '{"action": "bet", "tower": "S1".."S5", "chip": 1..3}',
    "draw": '{"action": "draw", "pile": 1..3}',
}


def move_action(move) -> str:
    action = move.get("action") if isinstance(move, Mapping) else None
    if not isinstance(action, str) or action not in MOVE_SHAPES:  # a list or an object is not hashable
        raise MalformedMove("A move is one of: " + "; ".join(MOVE_SHAPES.values()) + ".")
    return action


def text_field(move, action: str, name: str) -> str:
    value = move.get(name)
    if not isinstance(value, str):
        raise MalformedMove(f"A {action} move is {MOVE_SHAPES[action]}: {name!r} is missing or not a string.")
    return value


def int_field(move, action: str, name: str) -> int:
    value = move.get(name)
    if (isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value)
            or value != int(value)):
        raise MalformedMove(f"A {action} move is {MOVE_SHAPES[action]}: {name!r} is missing or not a whole number.")
    return int(value)


# --- the game (setup, turns, end) ------------------------------------------------------

def setup(seats: int, options: Mapping[str, Any], rng):
    """1.2: the towers, the deal, the chips and the start player; `options` has every default filled in."""
    row = tower_row(options, rng)
    hands, piles, surplus = deal(seats, rng)
    return {
        "players": seats,
        "options": options,
        "row": row,
        "heights": {style: START_HEIGHT for style in STYLES},
        "bets": {style: [] for style in STYLES},
        "chips": [dict(CHIP_SET) for _ in range(seats)],
        "hands": hands,
        "piles": piles,
        "surplus": surplus,
        "known": [[] for _ in range(seats)],
        "turn": start_player(seats, options, rng),
        "step": "build",
        "built": None,
    }


def to_move(state):
    return () if is_over(state) else (state["turn"],)


# The labels are messages, each made once: there are only a few dozen, and
# search bots ask for the legal moves of many positions.

@functools.cache
def build_label(style: str, storeys: int) -> Text:
    return Text("Build tower {tower} up {storeys}, then draw from pile {pile}",
                tower=style, storeys=storeys_text(storeys), pile=storeys)


@functools.cache
def draw_label(pile: int) -> Text:
    return Text("Draw the top card of pile {pile}", pile=pile)


@functools.cache
def no_bet_label(pile: int) -> Text:
    return Text("Bet nothing; draw the top card of pile {pile}", pile=pile)


@functools.cache
def bet_label(tower: str, chip: int) -> Text:
    return Text("Bet a {chip}-chip on tower {tower}", chip=chip, tower=tower)


def legal_moves(state, seat: int):
    if is_over(state) or seat != state["turn"]:
        return []
    if state["step"] == "build":
        held = {card_style(card) for card in state["hands"][seat]}
        return [Move(f"build:{style}:{storeys}", build_label(style, storeys),
                     {"action": "build", "style": style, "storeys": storeys})
                for style in state["row"] if style in held for storeys in STOREY_CHOICES]
    # The label names the pile, not its face-up card: once drawn the card is in a hidden
    # hand, and the log must not keep what no view shows any more (docs/games/campanile.md).
    pile = state["built"]["storeys"]
    if state["step"] == "draw":
        return [Move(f"draw:{pile}", draw_label(pile), {"action": "draw", "pile": pile})]
    moves = [Move(f"draw:{pile}", no_bet_label(pile),
                  {"action": "draw", "pile": pile})]
    towers = betting_towers(state)
    for tower in state["row"]:
        if tower not in towers:
            continue
        for chip in STOREY_CHOICES:
            if chip_fits(chip, pile, state["options"]["bet_rule"]) and state["chips"][seat][str(chip)]:
                moves.append(Move(f"bet:{tower}:{chip}", bet_label(tower, chip),
                                  {"action": "bet", "tower": tower, "chip": chip}))
    return moves


def play(state, seat: int, move):
    if is_over(state):
        raise IllegalMove("The game is over.", "game-over")
    if seat != state["turn"]:
        raise IllegalMove(f"It is {player_name(state['turn'])}'s turn.", "not-your-turn")
    action = move_action(move)
    if action == "build":
        style, storeys = text_field(move, action, "style"), int_field(move, action, "storeys")
        check_build(state, seat, style, storeys)
        return build(state, seat, style, storeys)
    if action == "bet":
        tower, chip = text_field(move, action, "tower"), int_field(move, action, "chip")
        check_bet(state, seat, tower, chip)
        return place_bet(state, seat, tower, chip)
    pile = int_field(move, action, "pile")
    check_draw(state, pile)
    return draw(state, seat, pile)


def outcome(state):
    if not is_over(state):
        return None
    scores = final_scores(state)["scores"]
    ranking = places(scores)
    best = max(scores)
    winners = [seat for seat, place in enumerate(ranking) if place == 1]
    if len(winners) == 1:
        summary = Text("{player} wins with {points} points.", player=player_name(winners[0]), points=best)
    else:
        summary = Text("{players} share the win with {points} points.", players=players_text(winners), points=best)
    return Outcome(scores=[float(score) for score in scores], ranking=ranking, summary=summary)


# --- hidden information (1.6) ------------------------------------------------------------

def revealed(before, seat: int, move, after) -> list[Reveal]:
    """What a draw shows (1.3 step 3): the face-up card taken, which everyone
    saw, the card it uncovers on the pile, and to the drawer alone the card
    now in its hand. Builds and bets show nothing the move does not name."""
    if move.get("action") != "draw":
        return []
    pile = move["pile"]
    taken = pile_top(before, pile)
    if taken is None:
        return []
    reveals = [Reveal(Text("Took a {style} card from pile {pile}", style=card_style(taken), pile=pile),
                      {"pile": pile, "style": card_style(taken)})]
    uncovered = pile_top(after, pile)
    if uncovered is not None:
        reveals.append(Reveal(Text("Pile {pile} now shows {style}", pile=pile, style=card_style(uncovered)),
                              {"pile": pile, "top": card_style(uncovered)}))
    reveals.append(Reveal(Text("{card} is now in your hand", card=taken), {"card": taken}, seen_by=seat))
    return reveals


def player_view(state, seat: int | None):
    """Everything public, plus the viewer's own hand. Pile tops show as
    styles; face-down pile cards and the surplus are only counted."""
    view = {
        "viewer": seat,
        "players": state["players"],
        "options": state["options"],
        "row": state["row"],
        "heights": state["heights"],
        "bets": state["bets"],
        "chips": state["chips"],
        "hand_sizes": [len(hand) for hand in state["hands"]],
        "known_in_hands": [held_known(state, seat) for seat in range(state["players"])],
        "piles": [{"number": pile, "size": len(state["piles"][pile - 1]),
                   "top": card_style(top) if (top := pile_top(state, pile)) else None}
                  for pile in PILE_NUMBERS],
        "removed_per_style": REMOVED_PER_STYLE[state["players"]],
        "surplus_size": len(state["surplus"]),
        "turn": state["turn"],
        "step": state["step"],
        "built": state["built"],
        "result": final_scores(state) if is_over(state) else None,
    }
    if seat is not None:
        view["hand"] = state["hands"][seat]
    return view


def secrets(state):
    for seat, hand in enumerate(state["hands"]):
        for card in hand:
            yield Secret(seat, card)
    for cards in state["piles"]:
        for card in cards[:-1]:  # the top card lies face up
            yield Secret(None, card)
    for card in state["surplus"]:
        yield Secret(None, card)


def sample_state(state, seat: int | None, rng):
    """The viewer's own hand, the face-up pile tops and the cards each
    opponent drew face up and still holds (everyone saw them taken)
    stay; the rest of the other hands, the face-down pile cards and the
    surplus are dealt afresh from the cards among them, each place
    keeping its count."""
    hands = [list(hand) if owner == seat else [] for owner, hand in enumerate(state["hands"])]
    unknown = []
    for owner, hand in enumerate(state["hands"]):
        if owner != seat:
            hands[owner], rest = split_known(hand, known_styles(state)[owner])
            unknown += rest
    unknown += [card for cards in state["piles"] for card in cards[:-1]] + list(state["surplus"])
    unknown.sort()  # the order must not tell where the cards lay
    rng.shuffle(unknown)
    deal_from = iter(unknown)
    for owner, hand in enumerate(state["hands"]):
        if owner != seat:
            hands[owner] += [next(deal_from) for _ in range(len(hand) - len(hands[owner]))]
    piles = [[next(deal_from) for _ in cards[:-1]] + cards[-1:] for cards in state["piles"]]
    surplus = [next(deal_from) for _ in state["surplus"]]
    return {**state, "hands": hands, "piles": piles, "surplus": surplus}
