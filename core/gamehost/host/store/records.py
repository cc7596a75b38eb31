"""Rows and JSON shared by the database backends, so both store exactly the
same bytes in the same columns."""

from __future__ import annotations

import json
from typing import Any, Sequence

from gamehost.host.store.base import MatchRecord, SeatRecord

_compact = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode


def dumps(value: Any) -> str:
    return _compact(value)


loads = json.loads


def seats_json(seats: list[SeatRecord]) -> str:
    return dumps([seat.to_json() for seat in seats])


def seats_from_json(text: str) -> list[SeatRecord]:
    return [SeatRecord.from_json(seat) for seat in loads(text)]


def copy_record(record: MatchRecord) -> MatchRecord:
    """A detached copy of the row. The engine replaces records, seat lists and
    seats rather than changing them, so copying the containers is enough."""
    return record.replace(seats=list(record.seats), options=dict(record.options))


# The matches columns in the order of match_values and row_to_record.
MATCH_COLUMNS = ("id, game_id, rules_version, options, seed, seats, status, version, "
                 "create_time, update_time, result, create_request_id, turn_timeout, creator, seed_chosen, "
                 "status_detail, clock, absent_grace, visibility, spectators, rated, seed_salt, seed_commitment")
MATCH_COLUMN_COUNT = MATCH_COLUMNS.count(",") + 1


# What names a listed match's state for an etag, without decoding its row.
PAGE_KEY_COLUMNS = "id, version, create_time"


def row_to_record(row) -> MatchRecord:
    return MatchRecord(
        id=row[0], game_id=row[1], rules_version=row[2], options=loads(row[3]), seed=int(row[4]),
        seats=seats_from_json(row[5]), status=row[6], version=row[7], create_time=row[8],
        update_time=row[9], result=None if row[10] is None else loads(row[10]),
        create_request_id=row[11] or "", turn_timeout=row[12], creator=row[13] or "", seed_chosen=bool(row[14]),
        status_detail=None if row[15] is None else loads(row[15]),
        clock=None if row[16] is None else loads(row[16]),
        absent_grace=row[17], visibility=row[18], spectators=row[19],
        rated=None if row[20] is None else bool(row[20]),
        seed_salt=from_hex(row[21]), seed_commitment=from_hex(row[22]),
    )


def match_values(record: MatchRecord) -> tuple:
    return (record.id, record.game_id, record.rules_version, dumps(record.options), str(record.seed),
            seats_json(record.seats), record.status, record.version, record.create_time,
            record.update_time, None if record.result is None else dumps(record.result),
            record.create_request_id or None, record.turn_timeout, record.creator, bool(record.seed_chosen),
            detail_json(record), clock_json(record), record.absent_grace, record.visibility, record.spectators,
            record.rated, to_hex(record.seed_salt), to_hex(record.seed_commitment))


def to_hex(value: bytes | None) -> str | None:
    """Bytes as the hex text both databases keep (readable in a dump, same in each)."""
    return None if value is None else value.hex()


def from_hex(text: str | None) -> bytes | None:
    return None if text is None else bytes.fromhex(text)


def detail_json(record: MatchRecord) -> str | None:
    return None if record.status_detail is None else dumps(record.status_detail)


def clock_json(record: MatchRecord) -> str | None:
    return None if record.clock is None else dumps(record.clock)


def player_rows(record: MatchRecord) -> list[tuple[str, str]]:
    """(match id, subject) for every signed-in user holding a seat: the
    match_players index behind ListMatches' ``mine`` and ``player``."""
    return sorted({(record.id, seat.subject) for seat in record.seats if seat.subject})


def player_subjects(record: MatchRecord) -> list[str]:
    return sorted({seat.subject for seat in record.seats if seat.subject})


def tracks_turns(record: MatchRecord) -> bool:
    """A match with signed-in players keeps whose turn it is in the store
    (match_players.turn_since), for ListMatches' my_turn."""
    return any(seat.subject for seat in record.seats)


def users_to_move(record: MatchRecord, to_move: Sequence[int]) -> set[str]:
    """The signed-in users whose turn it is: a seat they hold, a person's
    and not away (a bot plays for an absent player), is to move."""
    if record.status != "active":
        return set()
    seats = record.seats
    return {seats[s].subject for s in to_move
            if seats[s].subject and seats[s].kind == "human" and not seats[s].away_until}


def turn_rows(record: MatchRecord, to_move: Sequence[int] | None) -> list[tuple]:
    """The parameters of turn_update_sql for each signed-in player after a
    step: (to move, since, match id, subject). None for an active match
    whose seats to move are not known: the index is left as it was."""
    subjects = player_subjects(record)
    if not subjects or (record.status == "active" and to_move is None):
        return []
    movers = users_to_move(record, to_move or ())
    return [(subject in movers, record.update_time, record.id, subject) for subject in subjects]


def turn_update_sql(mark: str) -> str:
    """A user's turn goes on since it began (its first step), or ends."""
    return (f"UPDATE match_players SET turn_since = CASE WHEN {mark} THEN COALESCE(turn_since, {mark}) "
            f"ELSE NULL END WHERE match_id = {mark} AND subject = {mark}")


def event_rows(match_id: str, events: Sequence[dict]) -> list[tuple]:
    return [(match_id, e["version"], e.get("seat", -1), e.get("request_id") or None, dumps(e)) for e in events]


def list_matches_query(*, game_id: str | None, status: str | None, limit: int,
                       before: tuple[float, str] | None, mark: str, player: str | None = None,
                       my_turn: bool = False, columns: str = MATCH_COLUMNS,
                       public_only: bool = False) -> tuple[str, tuple]:
    """The ListMatches page query, newest first, and its parameters, with
    ``mark`` the driver's placeholder (``?`` or ``%s``). ``before`` is the
    (create_time, id) of the last match of the previous page; ``player``
    keeps the matches where that user holds a seat (match_players' index),
    ``my_turn`` those where it is also their turn; ``columns``: the
    matches columns selected (MATCH_COLUMNS, or PAGE_KEY_COLUMNS);
    ``public_only`` leaves unlisted and private matches out."""
    clauses: list[str] = []
    params: list[Any] = []
    if public_only:
        clauses.append("visibility = 'public'")
    if player:
        turn = " AND turn_since IS NOT NULL" if my_turn else ""
        clauses.append(f"id IN (SELECT match_id FROM match_players WHERE subject = {mark}{turn})")
        params.append(player)
    if game_id:
        clauses.append(f"game_id = {mark}")
        params.append(game_id)
    if status:
        clauses.append(f"status = {mark}")
        params.append(status)
    if before is not None:
        clauses.append(f"(create_time, id) < ({mark}, {mark})")
        params += [before[0], before[1]]
    where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
    return (f"SELECT {columns} FROM matches {where} ORDER BY create_time DESC, id DESC LIMIT {mark}",
            (*params, limit))
