"""Der Wettkampf der Burgbaumeister (Dominique Ehrhard, moses. 2016): the rampart card game.

45 wall cards numbered 2 to 46 lie face down at fixed places on the table.
On a turn a player turns one card face up in place for everyone to see, then
either takes it onto the right end of their wall (only if it is higher than
the highest card there) or turns it back face down at the same place. The
first wall of 10 cards (the start card "1" included) ends the game. The points
variant adds special cards: king, queen, princes and princesses, ravens,
cannons, towers and the magician.

Section numbers (§2.x) refer to the spec, docs/rules/burgbaumeister.md; [FR]
is the French rules text it was written from. Choices the spec marks
PROPOSED are data tables or named options where a real alternative exists,
and say "PROPOSED" in their docstrings otherwise.

State (plain JSON data):
    options          the validated options
    table            45 places, each a card token ("card-17") or None once the card is gone
    seen             45 booleans: the card at this place has been face up at least once
    walls            one list of numbers per seat, left to right, starting with the start card 1
    discard          numbers removed by cannons, out of the game
    spent_magicians  magician cards whose power has been used
    seat             the seat whose turn it is
    phase            "reveal", "decide" (a card is face up), "fire" (a cannon must fire) or "over"
    revealed         the place of the face-up card, or None
    turn             turns completed so far
    idle_turns       consecutive completed turns in which nobody took a card
    end              why the game ended, or None
"""

from __future__ import annotations

from bisect import insort
from functools import cache
from typing import Any, Mapping

from gamehost.sdk import IllegalMove, MalformedMove, Move, Outcome, Reveal, Secret, Text, names_joined, places, seat_name


# --- Components (§2.1) ---------------------------------------------------

WALL_CARD_NUMBERS = range(2, 47)
START_CARD = 1
WALL_TO_WIN = 10
GRID_ROWS = "ABCDE"
GRID_COLUMNS = 9
PLACES = len(GRID_ROWS) * GRID_COLUMNS  # one fixed place per wall card
assert PLACES == len(WALL_CARD_NUMBERS)

SPECIAL_CARDS: Mapping[int, str] = {
    # PROPOSED (§2.1): no source gives which numbers carry which special; this
    # is the spec's suggested default, one special per card, spread out.
    40: "king", 37: "queen",
    8: "prince", 21: "prince", 34: "prince",
    11: "princess", 24: "princess", 43: "princess",
    5: "raven", 19: "raven", 33: "raven", 45: "raven",
    17: "double-raven", 39: "double-raven",
    18: "cannon", 26: "cannon", 38: "cannon",
    6: "tower", 16: "tower", 31: "tower", 42: "tower",
    27: "magician",
}
ROYAL_BONUS: dict[str | None, int] = {"king": 3, "queen": 3}  # keyed by special_of(), None for a plain card
RAVEN_POINTS: dict[str | None, int] = {"raven": 1, "double-raven": 2}
RAVEN_CAP = 5

REVEAL, DECIDE, FIRE, OVER = "reveal", "decide", "fire", "over"
END_WALL_COMPLETE = "wall-complete"
END_NO_CARD_TAKEABLE = "no-card-takeable"
END_STALLED = "stalled"


# --- Places and cards ----------------------------------------------------

def place_name(place: int) -> str:
    """The grid name of a place: rows A-E, columns 1-9 ("C4")."""
    return f"{GRID_ROWS[place // GRID_COLUMNS]}{place % GRID_COLUMNS + 1}"


def card_token(number: int) -> str:
    """The secret token of a card lying on the table (its number is hidden while face down)."""
    return f"card-{number}"


def card_number(token: str) -> int:
    return int(token.removeprefix("card-"))


def special_of(number: int, options: Mapping[str, Any]) -> str | None:
    """The special a card carries, or None: specials count only in the points variant (§2.5)."""
    return SPECIAL_CARDS.get(number) if options["special_cards"] else None


def highest(wall: list[int]) -> int:
    """The highest card of a wall (0 for a wall a cannon has emptied)."""
    return max(wall, default=0)


def player_name(seat: int) -> str:
    return seat_name(seat)


# --- Setup (§2.2) --------------------------------------------------------

def setup_state(seats: int, options: Mapping[str, Any], rng) -> dict:
    """Each player starts a wall with a start card 1; the 45 cards are shuffled
    onto fixed face-down places; the first player is drawn at random
    (PROPOSED digitally: [FR] has the youngest start)."""
    numbers = list(WALL_CARD_NUMBERS)
    rng.shuffle(numbers)
    return {
        "options": dict(options),
        "table": [card_token(number) for number in numbers],
        "seen": [False] * PLACES,
        "walls": [[START_CARD] for _ in range(seats)],
        "discard": [],
        "spent_magicians": [],
        "seat": rng.randrange(seats),
        "phase": REVEAL,
        "revealed": None,
        "turn": 0,
        "idle_turns": 0,
        "end": None,
    }


# --- Taking a card (§2.3, §2.5 magician) ---------------------------------

def may_take(wall: list[int], number: int) -> bool:
    """§2.3: a card may be taken only if it is higher than the highest card of your wall."""
    return number > highest(wall)


def ready_magician(state: dict, seat: int) -> int | None:
    """§2.5: a magician card in the seat's wall whose once-only power is unused, if any.

    The power comes with the card: a magician removed by a cannon before use
    takes its power with it (PROPOSED). It cannot serve on the turn it is
    taken, because taking it ends the turn (PROPOSED: "on a later turn").
    """
    options = state["options"]
    for number in state["walls"][seat]:
        if special_of(number, options) == "magician" and number not in state["spent_magicians"]:
            return number
    return None


def may_use_magician(state: dict, seat: int, number: int) -> bool:
    """§2.5: the magician places a card lower than your highest into your wall.

    A higher card would go to the right end anyway, so the magician is only
    offered for a card that an ordinary take refuses.
    """
    return ready_magician(state, seat) is not None and number < highest(state["walls"][seat])


def insert_in_order(wall: list[int], number: int) -> list[int]:
    """PROPOSED (§2.5): the magician inserts the card at its numerical place, so the wall stays ascending."""
    new_wall = list(wall)
    insort(new_wall, number)
    return new_wall


# --- Cannons and towers (§2.5) -------------------------------------------

def protected(wall: list[int], options: Mapping[str, Any]) -> list[bool]:
    """§2.5: which cards of a wall a cannon may not remove.

    Towers, and every card between two towers of the wall, are immune. The
    start card is immune unless `start_card_removable` (PROPOSED), and counts
    as a tower only with `start_card_is_tower` (ambiguity B1).
    """
    towers = [index for index, number in enumerate(wall)
              if special_of(number, options) == "tower"
              or (number == START_CARD and options["start_card_is_tower"])]
    immune = [False] * len(wall)
    if towers:
        for index in range(towers[0], towers[-1] + 1):
            immune[index] = True
    for index, number in enumerate(wall):
        if number == START_CARD and not options["start_card_removable"]:
            immune[index] = True
    return immune


def cannon_targets(state: dict, shooter: int) -> list[tuple[int, int]]:
    """§2.5: every (seat, card) a cannon fired by `shooter` may remove.

    PROPOSED: opponents' walls only, unless `cannon_hits_own_wall`.
    """
    options = state["options"]
    targets: list[tuple[int, int]] = []
    for seat, wall in enumerate(state["walls"]):
        if seat == shooter and not options["cannon_hits_own_wall"]:
            continue
        immune = protected(wall, options)
        targets.extend((seat, number) for number, safe in zip(wall, immune) if not safe)
    return targets


# --- End of game (§2.4) --------------------------------------------------

def face_down_numbers(state: dict) -> list[int]:
    """Numbers of the cards still on the table (none is face up between turns)."""
    return [card_number(token) for token in state["table"] if token is not None]


def anyone_can_take(state: dict) -> bool:
    """§2.4 special case: some player can take some face-down card.

    A card is takeable if it is higher than that player's highest card; a
    player with a ready magician can take any card (PROPOSED).
    """
    numbers = face_down_numbers(state)
    if not numbers:
        return False
    top = max(numbers)
    return any(top > highest(wall) or ready_magician(state, seat) is not None
               for seat, wall in enumerate(state["walls"]))


def stall_limit(state: dict) -> int:
    """PROPOSED termination guard (§2.4): turns in a row without a take that end the game."""
    return state["options"]["stall_turns_per_face_down_card"] * len(face_down_numbers(state))


def end_turn(state: dict, wall_completed: bool) -> dict:
    """Close the turn of `state["seat"]` (state is a fresh copy the caller owns).

    The game ends at once when the turn completed a 10-card wall (§2.4), when
    nobody can take any face-down card (§2.4 special case), or by the
    termination guard. Otherwise play passes clockwise.
    """
    state["phase"], state["revealed"] = REVEAL, None
    state["turn"] += 1
    if wall_completed:
        state["end"] = END_WALL_COMPLETE
    elif not anyone_can_take(state):
        state["end"] = END_NO_CARD_TAKEABLE
    elif state["idle_turns"] >= stall_limit(state):
        state["end"] = END_STALLED
    if state["end"] is not None:
        state["phase"] = OVER
    else:
        state["seat"] = (state["seat"] + 1) % len(state["walls"])
    return state


# --- Scoring (§2.4, §2.5) ------------------------------------------------

def wall_points(wall: list[int], options: Mapping[str, Any]) -> int:
    """§2.5: 1 point per card (the start card too unless `start_card_scores`
    is off, PROPOSED) plus bonuses.

    King +3, queen +3; princes and princesses +1 each plus +1 per
    prince-princess pair; ravens +1 (double raven +2), capped at 5.
    """
    specials = [special_of(number, options) for number in wall]
    cards = sum(1 for number in wall if number != START_CARD or options["start_card_scores"])
    royals = sum(ROYAL_BONUS.get(special, 0) for special in specials)
    princes, princesses = specials.count("prince"), specials.count("princess")
    ravens = min(RAVEN_CAP, sum(RAVEN_POINTS.get(special, 0) for special in specials))
    return cards + royals + princes + princesses + min(princes, princesses) + ravens


def score(wall: list[int], options: Mapping[str, Any]) -> int:
    """The basic game ranks by wall length (§2.4); the points variant by points (§2.5)."""
    return wall_points(wall, options) if options["special_cards"] else len(wall)


# --- Move arguments --------------------------------------------------------

def int_arg(move: Mapping[str, Any], key: str, example: str) -> int:
    value = move.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedMove(f"This move needs an integer {key!r}, e.g. {example}.")
    return value


MOVE_KEYS = {
    "reveal": {"action", "place"},
    "take": {"action"},
    "decline": {"action"},
    "magician": {"action"},
    "fire": {"action", "seat", "card"},
}


def action_of(move: Any) -> str:
    """The action a structured move names; a move with unknown or extra keys is refused."""
    action = move.get("action") if isinstance(move, Mapping) else None
    if not isinstance(action, str) or action not in MOVE_KEYS or set(move) != MOVE_KEYS[action]:  # lists: unhashable
        raise MalformedMove('A move is {"action": "reveal", "place": 0..44}, {"action": "take"}, {"action": "decline"}, '
                            '{"action": "magician"} or {"action": "fire", "seat": s, "card": n}.')
    return action


# --- The turn (§2.3) -------------------------------------------------------

def reveal(state: dict, place: int) -> dict:
    """§2.3 step 1: turn any face-down card face up in place; everyone sees it."""
    if not 0 <= place < PLACES:
        raise IllegalMove(f"Place {place} is off the table: places are 0 to {PLACES - 1}.", "off-table")
    if state["table"][place] is None:
        raise IllegalMove(f"There is no card at {place_name(place)} any more; pick a face-down card.", "no-card-there")
    seen = list(state["seen"])
    seen[place] = True
    return {**state, "phase": DECIDE, "revealed": place, "seen": seen}


def decline(state: dict, seat: int) -> dict:
    """§2.3 step 2: turn the card back face down at the same place; the turn ends."""
    return end_turn({**state, "idle_turns": state["idle_turns"] + 1}, wall_completed=False)


def take(state: dict, seat: int) -> dict:
    """§2.3 step 2: take the card onto the right end of your wall, if it is higher than your highest."""
    number = card_number(state["table"][state["revealed"]])
    wall = state["walls"][seat]
    if not may_take(wall, number):
        raise IllegalMove(f"You can only take a card higher than {highest(wall)}, the highest in your wall: "
                          f"turn {number} back{' or use your magician' if may_use_magician(state, seat, number) else ''}.",
                          "take-must-be-higher")
    return add_to_wall(state, seat, number, wall + [number])


def use_magician(state: dict, seat: int) -> dict:
    """§2.5 magician: once, insert the revealed card, even a lower one, at its place in your wall."""
    number = card_number(state["table"][state["revealed"]])
    wall = state["walls"][seat]
    magician = ready_magician(state, seat)
    if magician is None:
        raise IllegalMove("You have no magician with an unused power in your wall.", "no-magician")
    if not may_use_magician(state, seat, number):
        raise IllegalMove(f"{number} is higher than your highest card: take it normally and keep the magician.",
                          "magician-not-needed")
    state = {**state, "spent_magicians": state["spent_magicians"] + [magician]}
    return add_to_wall(state, seat, number, insert_in_order(wall, number))


def add_to_wall(state: dict, seat: int, number: int, new_wall: list[int]) -> dict:
    """A card joins a wall: it leaves the table, the idle count resets, and a
    cannon must fire at once (§2.5) or is lost when it has no target; also a
    cannon the magician placed (PROPOSED)."""
    walls = list(state["walls"])
    walls[seat] = new_wall
    table = list(state["table"])
    table[state["revealed"]] = None
    state = {**state, "walls": walls, "table": table, "revealed": None, "idle_turns": 0}
    if special_of(number, state["options"]) == "cannon" and cannon_targets(state, seat):
        return {**state, "phase": FIRE}
    return end_turn(state, wall_completed=len(new_wall) >= WALL_TO_WIN)


def fire(state: dict, seat: int, target: int, number: int) -> dict:
    """§2.5 cannon: remove one unprotected card from a wall; it is discarded out of the game.

    A cannon that completed the shooter's wall fires before the game ends,
    and the game ends even if the shot hits that wall (`cannon_hits_own_wall`).
    """
    if (target, number) not in cannon_targets(state, seat):
        own_wall = "" if state["options"]["cannon_hits_own_wall"] else ", and your own wall is not a target"
        raise IllegalMove(f"{player_name(target)} has no card {number} your cannon may remove; towers, cards between "
                          f"towers and start cards are immune{own_wall}.", "cannon-target")
    wall_completed = len(state["walls"][seat]) >= WALL_TO_WIN
    walls = list(state["walls"])
    walls[target] = [card for card in walls[target] if card != number]
    return end_turn({**state, "walls": walls, "discard": state["discard"] + [number]}, wall_completed)


def public_view(state: dict, seat: int | None) -> dict:
    """§2.6: what any viewer sees; every seat sees the same (no hands).

    Face-down cards show as "down" at their places, never their numbers;
    the face-up card shows its number. With `memory_aid` the view also
    lists the number of each face-down card that has been face up before;
    without it the view carries no trace of past reveals.
    """
    options = state["options"]
    revealed = state["revealed"]
    table = [None if token is None else card_number(token) if place == revealed else "down"
             for place, token in enumerate(state["table"])]
    view = {
        "you": seat,
        "players": len(state["walls"]),
        "special_cards": options["special_cards"],
        "grid": {"rows": GRID_ROWS, "columns": GRID_COLUMNS},
        "phase": state["phase"],
        "to_move": None if state["phase"] == OVER else state["seat"],
        "turn": state["turn"],
        "table": table,
        "revealed": None if revealed is None else card_view(card_number(state["table"][revealed]), options)
        | {"place": place_name(revealed)},
        "walls": [wall_view(state, owner) for owner in range(len(state["walls"]))],
        "discard": [card_view(number, options) for number in state["discard"]],
        "face_down": sum(1 for token in state["table"] if token is not None) - (revealed is not None),
        "idle_turns": state["idle_turns"],
        "stall_limit": stall_limit(state),
        "end": state["end"],
    }
    if options["memory_aid"]:
        view["remembered"] = [card_number(token) if token is not None and place != revealed and state["seen"][place]
                              else None for place, token in enumerate(state["table"])]
    return view


def card_view(number: int, options: Mapping[str, Any]) -> dict:
    return {"number": number, "special": special_of(number, options)}


def wall_view(state: dict, owner: int) -> dict:
    """One wall as everyone sees it: its cards with their specials, score, and
    (points variant) which cards a cannon cannot touch and whether a magician is ready."""
    options = state["options"]
    wall = state["walls"][owner]
    cards = [card_view(number, options) for number in wall]
    if options["special_cards"]:
        for card, immune in zip(cards, protected(wall, options)):
            card["protected"] = immune
    return {
        "cards": cards,
        "highest": highest(wall),
        "score": score(wall, options),
        "magician_ready": ready_magician(state, owner) is not None,
    }


VERDICTS = {
    # (points variant, one winner, best score is 1): the sentence naming the winners
    (False, True, True): "{winners} wins with {count} card.",
    (False, True, False): "{winners} wins with {count} cards.",
    (True, True, True): "{winners} wins with {count} point.",
    (True, True, False): "{winners} wins with {count} points.",
    (False, False, True): "{winners} share the win with {count} card.",
    (False, False, False): "{winners} share the win with {count} cards.",
    (True, False, True): "{winners} share the win with {count} point.",
    (True, False, False): "{winners} share the win with {count} points.",
}


def summary(state: dict, scores: list[int], ranking: list[int]) -> Text:
    """One sentence on why the game ended and who won."""
    if state["end"] == END_WALL_COMPLETE:
        reason = Text("{player} completed a wall of {count} cards.", player=seat_name(state["seat"]), count=WALL_TO_WIN)
    elif state["end"] == END_NO_CARD_TAKEABLE:
        reason = Text("No one can take any of the remaining face-down cards.")
    else:
        reason = Text("{turns} turns in a row without a take: the game stops.", turns=state["idle_turns"])
    winners = [seat for seat, place in enumerate(ranking) if place == 1]
    best = scores[winners[0]]
    verdict = Text(VERDICTS[state["options"]["special_cards"], len(winners) == 1, best == 1],
                   winners=names_joined([seat_name(seat) for seat in winners]), count=best)
    return Text("{reason} {verdict}", reason=reason, verdict=verdict)


# --- The game as the host asks for it -------------------------------------

def to_move(state: dict) -> tuple[int, ...]:
    return () if state["phase"] == OVER else (state["seat"],)


def legal_moves(state: dict, seat: int) -> list[Move]:
    """The moves of the phase: turn a card up, fire the cannon, or take, insert or decline the face-up card."""
    if state["phase"] == OVER or seat != state["seat"]:
        return []
    if state["phase"] == REVEAL:
        return [reveal_move(place) for place, token in enumerate(state["table"]) if token is not None]
    if state["phase"] == FIRE:
        return [fire_move(target, number) for target, number in cannon_targets(state, seat)]
    number = card_number(state["table"][state["revealed"]])
    moves = []
    if may_take(state["walls"][seat], number):
        moves.append(take_move(state["revealed"]))
    if may_use_magician(state, seat, number):
        moves.append(magician_move(state["revealed"]))
    moves.append(decline_move(state["revealed"]))
    return moves


# Each move is made once and shared (a Move is immutable): search bots list
# the moves at every step of every playout, and a label costs more to format
# than the rest of the listing.

@cache
def reveal_move(place: int) -> Move:
    return Move(f"reveal:{place_name(place)}", Text("Turn up the card at {place}", place=place_name(place)),
                {"action": "reveal", "place": place})


@cache
def fire_move(target: int, number: int) -> Move:
    return Move(f"fire:{target}:{number}",
                Text("Cannon: remove {number} from {player}'s wall", number=number, player=seat_name(target)),
                {"action": "fire", "seat": target, "card": number})


# Labels name the place, never the number: a label goes to the log,
# and the log must not keep a card that goes back face down (§2.6).

@cache
def take_move(place: int) -> Move:
    return Move("take", Text("Take the card at {place} onto the right end of the wall", place=place_name(place)),
                {"action": "take"})


@cache
def magician_move(place: int) -> Move:
    return Move("magician",
                Text("Magician: insert the card at {place} at its place in the wall", place=place_name(place)),
                {"action": "magician"})


@cache
def decline_move(place: int) -> Move:
    return Move("decline", Text("Turn the card at {place} back face down", place=place_name(place)),
                {"action": "decline"})


def play(state: dict, seat: int, move: Any) -> dict:
    """One step of the turn (§2.3), refused unless the phase allows it."""
    if state["phase"] == OVER:
        raise IllegalMove("The game is over.", "game-over")
    if seat != state["seat"]:
        raise IllegalMove(f"It is {player_name(state['seat'])}'s turn.", "not-your-turn")
    action = action_of(move)
    phase = state["phase"]
    if phase == REVEAL:
        if action != "reveal":
            raise IllegalMove("First turn a face-down card face up.", "reveal-first")
        return reveal(state, int_arg(move, "place", '{"action": "reveal", "place": 0}'))
    if phase == FIRE:
        if action != "fire":
            raise IllegalMove("Your cannon must fire first: remove a card from an opponent's wall.", "cannon-must-fire")
        return fire(state, seat, int_arg(move, "seat", '{"action": "fire", "seat": 1, "card": 7}'),
                    int_arg(move, "card", '{"action": "fire", "seat": 1, "card": 7}'))
    if action == "reveal":
        raise IllegalMove("You have already turned a card this turn: take it or turn it back.", "one-card-per-turn")
    if action == "fire":
        raise IllegalMove("Only a cannon you have just added to your wall fires.", "no-cannon-to-fire")
    return {"take": take, "magician": use_magician, "decline": decline}[action](state, seat)


def outcome(state: dict) -> Outcome | None:
    """Once the game has ended (§2.4): ranked by score, ties going to the higher top card."""
    if state["end"] is None:
        return None
    options = state["options"]
    walls = state["walls"]
    scores = [score(wall, options) for wall in walls]
    ranking = places([(points, highest(wall)) for points, wall in zip(scores, walls)])
    return Outcome(scores=scores, ranking=ranking, summary=summary(state, scores, ranking))


def revealed(before: dict, seat: int, move: Any, after: dict) -> list[Reveal]:
    """§2.3 step 1: the number of the card turned up, which everyone sees
    (the move's label names only its place: the log keeps the number here,
    as the step that showed it)."""
    if action_of(move) != "reveal" or after["revealed"] is None:
        return []
    number = card_number(after["table"][after["revealed"]])
    special = special_of(number, after["options"])
    value: dict[str, Any] = {"place": place_name(after["revealed"]), "number": number}
    if special is not None:
        value["special"] = special
    return [Reveal(Text("The card at {place} shows {number}", place=place_name(after["revealed"]), number=number),
                   value)]


def secrets(state: dict) -> list[Secret]:
    """Every face-down card's token is a secret of nobody; the face-up card is public."""
    return [Secret(None, token) for place, token in enumerate(state["table"])
            if token is not None and place != state["revealed"]]


def sample_state(state: dict, rng) -> dict:
    """Every seat knows the same: the face-up card, the walls, and each
    card that has been face up before (players remember what they saw,
    `memory_aid` or not). The cards never turned up are dealt afresh
    among their places."""
    unseen = [place for place, token in enumerate(state["table"])
              if token is not None and not state["seen"][place] and place != state["revealed"]]
    tokens = sorted(state["table"][place] for place in unseen)  # the order must not tell where they lay
    rng.shuffle(tokens)
    table = list(state["table"])
    for place, token in zip(unseen, tokens):
        table[place] = token
    return {**state, "table": table}
