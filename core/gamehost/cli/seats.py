"""How the CLI names seats: as the plugins and the web page do (docs/protocol.md,
"Naming seats for people"), in the CLI's language. The API's seat numbers count
from 0; people read "Player 1", or the player's name where the seat has one; a
bot's seat is "Player N (bot)" (its generated name would count from 0)."""

from __future__ import annotations

from gamehost.cli.words import tr
from gamehost.sdk.seats import player_number
from gamehost.v1 import gamehost_pb2 as pb


def seat_name(seat: int, *, player: str = "") -> str:
    """"Player 2" in the CLI's language, or the player's own name when given."""
    return player or tr("Player {number}", number=player_number(seat))


def seat_label(seat: pb.Seat) -> str:
    """One seat of a match as a person reads it: "Ada", "Player 2 (bot)", "Player 3 (open)"."""
    if seat.kind == pb.SEAT_KIND_BOT:
        return tr("{seat} (bot)", seat=seat_name(seat.index))
    if seat.player_name:
        return seat_name(seat.index, player=seat.player_name)
    return tr("{seat} (open)", seat=seat_name(seat.index)) if seat.kind == pb.SEAT_KIND_OPEN else seat_name(seat.index)


def seat_with_number(seat: pb.Seat) -> str:
    """A seat as the other commands name it, with its number when a name hides it: "Ada (Player 1)"."""
    if seat.player_name and seat.kind == pb.SEAT_KIND_HUMAN:
        return tr("{name} ({seat})", name=seat.player_name, seat=seat_name(seat.index))
    return seat_label(seat)


class SeatNames:
    """The names of a match's seats, read from the host when asked (players
    join while a match runs), for lines that name a seat by its number."""

    def __init__(self, host, match_name: str) -> None:
        self._host, self._match_name = host, match_name
        self._seats: list[pb.Seat] = []

    def __call__(self, index: int) -> str:
        if index >= len(self._seats) or self._seats[index].kind == pb.SEAT_KIND_OPEN:
            self._seats = list(self._host.match(self._match_name).seats)
        if 0 <= index < len(self._seats):
            return seat_label(self._seats[index])
        return seat_name(index)
