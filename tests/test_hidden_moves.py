"""Moves hidden from the other seats until the match ends (``public_move``),
over a real host: GetMatchLog and WatchMatch show a seat its own moves,
others' only as a sealed note, spectators nothing more, and everything once
the match is over. The fixture game ``sealed-notes`` hides its moves (no
shipped game does); GetMatchLog asks the rules for a whole log in one call."""

from __future__ import annotations

import pytest

from gamehost.v1 import gamehost_pb2 as pb

SEALED = {"sealed": True}


@pytest.fixture(scope="module")
def played(host):
    """A 3-seat match after 5 notes (seats 0, 1, 2, 0, 1), and one played to the end."""
    with host.client() as client:
        match = client.create_match("sealed-notes", seats=3).name
        tokens = [client.join(match).player_token for _ in range(3)]
        numbers = [3, 1, 2, 2, 3, 1, 1, 2, 3]
        for index, number in enumerate(numbers[:5]):
            client.move(match, tokens[index % 3], move_id=f"write{number}")
        over = client.create_match("sealed-notes", seats=3).name
        over_tokens = [client.join(over).player_token for _ in range(3)]
        for index, number in enumerate(numbers):
            client.move(over, over_tokens[index % 3], move_id=f"write{number}")
    return match, tokens, numbers, over


def moves_of(log: pb.MatchLog) -> list[tuple[int, dict, str]]:
    return [(e.seat, dict(e.move), e.label) for e in log.events if e.kind == pb.EVENT_KIND_MOVED]


def test_the_log_shows_a_seat_its_own_moves_and_only_sealed_notes_of_the_others(host, played):
    match, tokens, numbers, _ = played
    with host.client() as client:
        for seat in range(3):
            moves = moves_of(client.log(match, tokens[seat]))
            assert [mover for mover, *_ in moves] == [0, 1, 2, 0, 1]
            for index, (mover, move, label) in enumerate(moves):
                if mover == seat:
                    assert (move, label) == ({"write": numbers[index]}, f"write {numbers[index]}")
                else:
                    assert (move, label) == (SEALED, "a hidden move")


def test_spectators_see_every_note_sealed_and_watchers_get_the_same_as_the_log(host, played):
    match, tokens, _, _ = played
    with host.client() as client:
        spectator = moves_of(client.log(match))
        assert [(move, label) for _, move, label in spectator] == [(SEALED, "a hidden move")] * 5
        for seat in (None, 1):
            token = "" if seat is None else tokens[seat]
            watched = []
            for event in client.watch(match, token=token):
                if event.kind == pb.EVENT_KIND_MOVED:
                    watched.append((event.seat, dict(event.move), event.label))
                if event.version == client.match(match).version:
                    break
            assert watched == moves_of(client.log(match, token))


def test_once_the_match_is_over_every_move_is_shown_to_everyone(host, played):
    _, _, numbers, over = played
    with host.client() as client:
        assert client.match(over).status == pb.MATCH_STATUS_FINISHED
        shown = moves_of(client.log(over))
        assert [(mover, move) for mover, move, _ in shown] == [(i % 3, {"write": n}) for i, n in enumerate(numbers)]
