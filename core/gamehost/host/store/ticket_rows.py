"""The tickets table's rows, shared by the database backends: matchmaking's
queue. One row per ticket; a match forms from a pool's queued rows
held in one transaction, so a ticket is placed in at most one match."""

from __future__ import annotations

from gamehost.host.store.base import TicketRecord
from gamehost.host.store.records import dumps, loads

TICKET_COLUMNS = ("id, subject, player_name, game_id, seats, options, pool, rating, min_rating, max_rating, bot, "
                  "bot_wait, create_time, expire_time, state, match_id, seat, update_time, "
                  "widen_per_second, max_widening, "  # a rating range that widens
                  "party, party_size")  # friends queued together
TICKET_COLUMN_COUNT = TICKET_COLUMNS.count(",") + 1

# Tickets over (matched, cancelled, expired) are kept this long for their
# players to read, then deleted.
FORGET_AFTER = 3600.0


def ticket_values(ticket: TicketRecord) -> tuple:
    return (ticket.id, ticket.subject, ticket.player_name, ticket.game_id, ticket.seats, dumps(ticket.options),
            ticket.pool, ticket.rating, ticket.min_rating, ticket.max_rating, ticket.bot, ticket.bot_wait,
            ticket.create_time, ticket.expire_time, ticket.state, ticket.match_id, ticket.seat, ticket.update_time,
            ticket.widen_per_second, ticket.max_widening, ticket.party, ticket.party_size)


def row_to_ticket(row) -> TicketRecord:
    values = list(row)
    values[5] = loads(values[5])
    return TicketRecord(*values)


def insert_sql(mark: str) -> str:
    return f"INSERT INTO tickets ({TICKET_COLUMNS}) VALUES ({','.join([mark] * TICKET_COLUMN_COUNT)})"


def open_count_sql(mark: str) -> str:
    return f"SELECT count(*) FROM tickets WHERE subject = {mark} AND state = 'queued'"


def queued_sql(mark: str) -> str:
    """A pool's queued, unexpired tickets, oldest first: who waited longest is matched first."""
    return (f"SELECT {TICKET_COLUMNS} FROM tickets WHERE pool = {mark} AND state = 'queued' "
            f"AND expire_time > {mark} ORDER BY create_time, id")


def matched_sql(mark: str) -> str:
    return (f"UPDATE tickets SET state = 'matched', match_id = {mark}, seat = {mark}, update_time = {mark} "
            f"WHERE id = {mark} AND state = 'queued'")


def cancel_sql(mark: str) -> str:
    return f"UPDATE tickets SET state = 'cancelled', update_time = {mark} WHERE id = {mark} AND state = 'queued'"


def expire_sql(mark: str) -> str:
    return (f"UPDATE tickets SET state = 'expired', update_time = {mark} "
            f"WHERE state = 'queued' AND expire_time <= {mark} RETURNING {TICKET_COLUMNS}")


def forget_sql(mark: str) -> str:
    return f"DELETE FROM tickets WHERE state <> 'queued' AND update_time < {mark}"


def pools_sql(mark: str) -> str:
    """Pools where a match may have become possible: a ticket queued lately
    (another replica's forming may not have seen it), one whose bot wait is
    over, or one whose rating range was still widening lately. Parameters:
    queued_since, now, queued_since."""
    return (f"SELECT DISTINCT pool FROM tickets WHERE state = 'queued' AND (create_time >= {mark} "
            f"OR (bot_wait IS NOT NULL AND create_time + bot_wait <= {mark}) "
            f"OR (widen_per_second IS NOT NULL AND create_time + max_widening / widen_per_second >= {mark}))")


def party_sql(mark: str) -> str:
    """A party's queued tickets, oldest first."""
    return (f"SELECT {TICKET_COLUMNS} FROM tickets WHERE party = {mark} AND state = 'queued' "
            f"ORDER BY create_time, id")


def party_friends_sql(mark: str) -> str:
    """The queued tickets of the party a ticket belongs to."""
    return ("SELECT id FROM tickets WHERE state = 'queued' AND party <> '' "
            f"AND party = (SELECT party FROM tickets WHERE id = {mark})")


QUEUED_IN_PARTIES_SQL = "SELECT id FROM tickets WHERE state = 'queued' AND party = ANY(%s)"  # PostgreSQL's arrays


def party_full(ticket: TicketRecord, queued: int) -> bool:
    """Whether ``ticket`` joins a party that has all its players queued."""
    return bool(ticket.party) and queued >= ticket.party_size


def player_tickets_sql(mark: str) -> str:
    return f"SELECT {TICKET_COLUMNS} FROM tickets WHERE subject = {mark}"


QUEUED_COUNTS_SQL = "SELECT game_id, count(*) FROM tickets WHERE state = 'queued' GROUP BY game_id"
QUEUED_POOLS_SQL = ("SELECT pool, game_id, seats, count(*), min(create_time) FROM tickets WHERE state = 'queued' "
                    "GROUP BY pool, game_id, seats ORDER BY game_id, seats, pool")
