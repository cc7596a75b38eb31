"""A user's data in the databases: everything a store holds about one
signed-in user (``subject``), read as one document and erased.

Erasure replaces the user's identity by a pseudonym wherever a record must
stay for others (matches, their logs and chat, ratings, reports, webhook
deliveries) and deletes what was only theirs (push subscriptions, tickets,
mutes and blocks, a ban). It is one transaction: all of it or nothing.
Moves, seeds and results are left exactly as they were, so every match
still replays and verifies against its seed commitment, and no other
player's rating moves.

The SQL is the same for SQLite and PostgreSQL but for the placeholder;
each backend hands ``collect`` and ``erase`` a ``Rows`` inside one of its
transactions. ``IDENTITY_COLUMNS`` and ``OTHER_COLUMNS`` classify every
column of every table: a test checks the schemas against them, so a new
column that may hold a user's identity cannot be left out by accident.
"""

from __future__ import annotations

import secrets
from typing import Any, Protocol, Sequence

from gamehost.host.store.base import OVER_STATUSES, SeatRecord
from gamehost.host.store.records import dumps, loads, seats_from_json, seats_json
from gamehost.host.store.user_data import Erasure, LiveMatchesHeld

# The columns that may hold a user's identity (their subject, or the name
# they played under), and what erasure does with them.
IDENTITY_COLUMNS: dict[str, dict[str, str]] = {
    "matches": {"seats": "the seats' subject, reserved_for and player_name become the pseudonym",
                "creator": "user:<subject> becomes user:<pseudonym>"},
    "match_players": {"subject": "becomes the pseudonym"},
    "events": {"body": "player_name (a join) and subject fields of the user's become the pseudonym"},
    "ratings": {"subject": "becomes the pseudonym", "player_name": "becomes the pseudonym"},
    "tickets": {"subject": "deleted", "player_name": "deleted"},
    "notifications": {"body": "a turn notification's subject and player_name become the pseudonym"},
    "push_subscriptions": {"subject": "deleted with the row"},
    "chat_messages": {"sender": "becomes the pseudonym", "sender_name": "becomes the pseudonym",
                      "hidden_by": "an admin's subject becomes their pseudonym"},
    "chat_reports": {"reporter": "becomes the pseudonym", "reported": "becomes the pseudonym"},
    "chat_relations": {"subject": "deleted with the row", "other": "deleted with the row"},
    "bans": {"subject": "deleted with the row", "banned_by": "an admin's subject becomes their pseudonym"},
}

# Every other column, with why it holds no one's identity.
_MATCH_ROW = "the match's rules, options, times, status and result: seats are numbers, never names"
OTHER_COLUMNS: dict[str, dict[str, str]] = {
    "matches": dict.fromkeys(
        ("id", "game_id", "rules_version", "options", "seed", "status", "version", "create_time", "update_time",
         "result", "create_request_id", "turn_timeout", "seed_chosen", "status_detail", "clock", "absent_grace",
         "visibility", "spectators", "rated", "seed_salt", "seed_commitment", "due_time", "claimed_by",
         "claim_until"), _MATCH_ROW),
    "match_players": {"match_id": "a match id", "turn_since": "a time"},
    "events": dict.fromkeys(("match_id", "version", "seat", "request_id"), "a step's place and its client's "
                                                                           "request id"),
    "snapshots": dict.fromkeys(("match_id", "version", "state"), "the game's state: the rules never see names"),
    "rated_matches": {"match_id": "a match id"},
    "ratings": dict.fromkeys(("game_id", "mu", "sigma", "games", "wins", "losses", "draws", "rating"),
                             "the standing, kept under the pseudonym"),
    "tickets": dict.fromkeys(
        ("id", "game_id", "seats", "options", "pool", "rating", "min_rating", "max_rating", "bot", "bot_wait",
         "create_time", "expire_time", "state", "match_id", "seat", "update_time", "widen_per_second",
         "max_widening", "party", "party_size"), "deleted with the user's tickets"),
    "notifications": dict.fromkeys(
        ("key", "match_id", "create_time", "state", "attempts", "next_attempt", "claimed_by", "claim_until",
         "round_start"), "a delivery's bookkeeping: match, seat and version"),
    "notification_attempts": dict.fromkeys(("key", "attempt", "time", "status", "error"),
                                           "an HTTP answer of the webhook"),
    "rules_strikes": dict.fromkeys(("match_id", "strikes"), "a plugin's failures"),
    "match_invitations": dict.fromkeys(("match_id", "code_hash"), "a hash of an invitation code"),
    "push_subscriptions": dict.fromkeys(("endpoint", "p256dh", "auth", "locale", "created"),
                                        "deleted with the user's subscriptions"),
    "chat_messages": dict.fromkeys(("match_id", "sequence", "channel", "seat", "time"), "a message's place"),
    "chat_reports": dict.fromkeys(("id", "match_id", "sequence", "create_time"), "a report's place"),
    "chat_relations": {"kind": "mute or block"},
    "bans": dict.fromkeys(("reason", "create_time"), "the ban, deleted with the user's"),
    "schema_migrations": dict.fromkeys(("version", "applied_at"), "the schema's version"),
}

# Free text the user wrote, kept under the pseudonym: what the other players
# saw and replay. Deletion cannot know which words in it are personal.
KEPT_TEXT = {"chat_messages": "text", "chat_reports": "reason"}
for _table, _column in KEPT_TEXT.items():
    OTHER_COLUMNS[_table][_column] = "words the user wrote, kept for the replay and moderation"

PSEUDONYM_PREFIX = "deleted-"
PERSONAL_KEYS = ("subject", "player_name", "reserved_for")  # the fields of events and bodies that name a user


def new_pseudonym() -> str:
    return PSEUDONYM_PREFIX + secrets.token_hex(6)


class Rows(Protocol):
    """One transaction of a database, as ``collect`` and ``erase`` use it."""

    mark: str  # the driver's placeholder: "?" or "%s"
    # What makes a read hold its rows until the transaction ends ("FOR UPDATE"; "" where one writer holds the file).
    row_lock: str

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]: ...

    async def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Execute a statement; the rows it changed."""


def _like(text: str) -> str:
    """A LIKE pattern finding ``text`` anywhere (with ``ESCAPE '\\'``)."""
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def _held_by(seat: SeatRecord, subject: str) -> bool:
    return seat.subject == subject or seat.reserved_for == subject


async def _matches_of(rows: Rows, subject: str, lock: bool = False) -> list[Sequence[Any]]:
    """(id, game_id, status, seats, creator, result, create_time, update_time, rated) of every match
    where the user holds or is promised a seat, or that they created; ``lock``: held until the end of the
    transaction, so that none changes between the check of live matches and the rewrite."""
    m = rows.mark
    found = await rows.all(
        "SELECT id, game_id, status, seats, creator, result, create_time, update_time, "
        "id IN (SELECT match_id FROM rated_matches) FROM matches "
        f"WHERE id IN (SELECT match_id FROM match_players WHERE subject = {m}) OR creator = {m} "
        f"OR seats LIKE {m} ESCAPE '\\' ORDER BY create_time, id{' ' + rows.row_lock if lock else ''}",
        (subject, f"user:{subject}", _like(dumps(subject))))
    return [row for row in found
            if row[4] == f"user:{subject}" or any(_held_by(seat, subject) for seat in seats_from_json(row[3]))]


def _scrub(value: Any, identities: set[str], pseudonym: str) -> Any:
    """``value`` with every personal field naming one of ``identities`` replaced by the pseudonym."""
    if isinstance(value, dict):
        return {key: pseudonym if key in PERSONAL_KEYS and item in identities else _scrub(item, identities, pseudonym)
                for key, item in value.items()}
    if isinstance(value, list):
        return [_scrub(item, identities, pseudonym) for item in value]
    return value


def _about(body_text: str, subject: str) -> bool:
    """Whether a notification's body is about the user (a turn of theirs)."""
    try:
        body = loads(body_text)
    except ValueError:
        return False
    return isinstance(body, dict) and body.get("subject") == subject


async def _notifications_of(rows: Rows, subject: str) -> list[Sequence[Any]]:
    m = rows.mark
    found = await rows.all(f"SELECT key, match_id, body, create_time, state FROM notifications "
                           f"WHERE body LIKE {m} ESCAPE '\\' ORDER BY create_time, key", (_like(dumps(subject)),))
    return [row for row in found if _about(row[2], subject)]


async def collect(rows: Rows, subject: str) -> dict[str, Any]:
    """Everything the store holds about ``subject``, as a JSON-ready dict of
    sections (each empty, or None, when it holds nothing of the kind)."""
    m = rows.mark
    document: dict[str, Any] = {}
    bans = await rows.all(f"SELECT reason, banned_by, create_time FROM bans WHERE subject = {m}", (subject,))
    document["ban"] = ({"reason": bans[0][0], "banned_by": bans[0][1], "create_time": bans[0][2]}
                       if bans else None)
    document["bans_made"] = [{"subject": row[0], "create_time": row[1]} for row in await rows.all(
        f"SELECT subject, create_time FROM bans WHERE banned_by = {m} ORDER BY create_time", (subject,))]
    matches = []
    for match_id, game_id, status, seats_text, creator, result, created, updated, rated in \
            await _matches_of(rows, subject):
        seats = [seat for seat in seats_from_json(seats_text) if _held_by(seat, subject)]
        indexes = {seat.index for seat in seats}
        events = [loads(row[0]) for row in await rows.all(
            f"SELECT body FROM events WHERE match_id = {m} ORDER BY version", (match_id,))]
        matches.append({
            "match": f"matches/{match_id}", "game": f"games/{game_id}", "status": status,
            "created_by_user": creator == f"user:{subject}", "create_time": created, "update_time": updated,
            "rated": bool(rated), "result": None if result is None else loads(result),
            "seats": [{"seat": seat.index, "player_name": seat.player_name, "kind": seat.kind,
                       "reserved_for_user": seat.reserved_for == subject, "resigned": bool(seat.resigned)}
                      for seat in seats],
            "events": [event for event in events if event.get("seat") in indexes],
        })
    document["matches"] = matches
    document["ratings"] = [
        {"game": f"games/{row[0]}", "player_name": row[1], "mu": row[2], "sigma": row[3], "games": row[4],
         "wins": row[5], "losses": row[6], "draws": row[7], "rating": row[8]}
        for row in await rows.all(f"SELECT game_id, player_name, mu, sigma, games, wins, losses, draws, rating "
                                  f"FROM ratings WHERE subject = {m} ORDER BY game_id", (subject,))]
    document["rating_history"] = [
        {"match": match["match"], "game": match["game"], "update_time": match["update_time"],
         "result": match["result"], "seats": [seat["seat"] for seat in match["seats"]]}
        for match in matches if match["rated"]]
    document["tickets"] = [
        {"ticket": f"tickets/{row[0]}", "player_name": row[1], "game": f"games/{row[2]}", "seats": row[3],
         "options": loads(row[4]), "state": row[5], "match": f"matches/{row[6]}" if row[6] else "",
         "create_time": row[7], "party": row[8]}
        for row in await rows.all(f"SELECT id, player_name, game_id, seats, options, state, match_id, create_time, "
                                  f"party FROM tickets WHERE subject = {m} ORDER BY create_time, id", (subject,))]
    document["chat_messages"] = [
        {"match": f"matches/{row[0]}", "sequence": row[1], "channel": row[2], "sender_name": row[3],
         "seat": row[4], "text": row[5], "time": row[6], "hidden": bool(row[7])}
        for row in await rows.all(f"SELECT match_id, sequence, channel, sender_name, seat, text, time, hidden_by "
                                  f"FROM chat_messages WHERE sender = {m} ORDER BY time, match_id, sequence",
                                  (subject,))]
    document["messages_hidden"] = [
        {"match": f"matches/{row[0]}", "sequence": row[1]}
        for row in await rows.all(f"SELECT match_id, sequence FROM chat_messages WHERE hidden_by = {m} "
                                  "ORDER BY match_id, sequence", (subject,))]
    reports = await rows.all(f"SELECT id, reporter, reported, match_id, sequence, reason, create_time "
                             f"FROM chat_reports WHERE reporter = {m} OR reported = {m} ORDER BY create_time, id",
                             (subject, subject))
    document["reports_made"] = [_report(row) for row in reports if row[1] == subject]
    # Reports about the user name the reported, never the reporter: that is the other user's data.
    document["reports_about"] = [{key: value for key, value in _report(row).items() if key != "player"}
                                 for row in reports if row[2] == subject]
    relations = await rows.all(f"SELECT subject, other, kind FROM chat_relations WHERE subject = {m} OR other = {m} "
                               "ORDER BY kind, subject, other", (subject, subject))
    document["mutes_and_blocks"] = [{"player": f"players/{other}", "kind": kind}
                                    for holder, other, kind in relations if holder == subject]
    document["blocked_by_count"] = sum(1 for holder, other, kind in relations if other == subject and kind == "block")
    deliveries = []
    for key, match_id, body, created, state in await _notifications_of(rows, subject):
        attempts = await rows.all(f"SELECT attempt, time, status, error FROM notification_attempts WHERE key = {m} "
                                  "ORDER BY attempt", (key,))
        deliveries.append({"key": key, "match": f"matches/{match_id}", "body": loads(body), "create_time": created,
                           "state": state, "attempts": [{"attempt": a, "time": t, "http_status": s, "error": e}
                                                        for a, t, s, e in attempts]})
    document["webhook_deliveries"] = deliveries
    # The browser's auth secret is left out: it lets whoever holds it push to that browser.
    document["push_subscriptions"] = [
        {"endpoint": row[0], "p256dh": row[1], "locale": row[2], "create_time": row[3]}
        for row in await rows.all(f"SELECT endpoint, p256dh, locale, created FROM push_subscriptions "
                                  f"WHERE subject = {m} ORDER BY created, endpoint", (subject,))]
    return document


def _report(row: Sequence[Any]) -> dict[str, Any]:
    return {"report": row[0], "player": f"players/{row[2]}", "match": f"matches/{row[3]}" if row[3] else "",
            "sequence": row[4], "reason": row[5], "create_time": row[6]}


async def erase(rows: Rows, subject: str, pseudonym: str) -> Erasure:
    """Replace ``subject`` by ``pseudonym`` where records stay, delete the
    rest. Raises ``LiveMatchesHeld`` (the caller rolls back) when the user
    holds a seat in a match not over: its players are still playing with them."""
    m = rows.mark
    done = Erasure(pseudonym)
    matches = await _matches_of(rows, subject, lock=True)
    live = [row[0] for row in matches
            if row[2] not in OVER_STATUSES and any(_held_by(seat, subject) for seat in seats_from_json(row[3]))]
    if live:
        raise LiveMatchesHeld(live)
    for match_id, _, _, seats_text, creator, *_ in matches:
        seats = seats_from_json(seats_text)
        names = {seat.player_name for seat in seats if seat.subject == subject} | {subject}
        mine = {seat.index for seat in seats if _held_by(seat, subject)}
        for seat in seats:
            if seat.subject == subject:
                seat.subject, seat.player_name = pseudonym, pseudonym
            if seat.reserved_for == subject:
                seat.reserved_for = pseudonym
        # Only what changes is written: a live match the user merely created keeps the seats its replica
        # may be changing meanwhile (the creator column is never written after the match's creation).
        if mine:
            done.count("matches", await rows.run(f"UPDATE matches SET seats = {m} WHERE id = {m}",
                                                 (seats_json(seats), match_id)))
        if creator == f"user:{subject}":
            done.count("matches", await rows.run(f"UPDATE matches SET creator = {m} WHERE id = {m}",
                                                 (f"user:{pseudonym}", match_id)))
        for version, body_text in await rows.all(f"SELECT version, body FROM events WHERE match_id = {m}",
                                                 (match_id,)):
            body = loads(body_text)
            scrubbed = _scrub(body, names if body.get("seat") in mine else {subject}, pseudonym)
            if scrubbed != body:
                done.count("events", await rows.run(
                    f"UPDATE events SET body = {m} WHERE match_id = {m} AND version = {m}",
                    (dumps(scrubbed), match_id, version)))
        done.match_ids.append(match_id)
    done.count("match_players", await rows.run(f"UPDATE match_players SET subject = {m} WHERE subject = {m}",
                                               (pseudonym, subject)))
    done.count("ratings", await rows.run(f"UPDATE ratings SET subject = {m}, player_name = {m} WHERE subject = {m}",
                                         (pseudonym, pseudonym, subject)))
    done.ticket_ids = [row[0] for row in await rows.all(f"SELECT id FROM tickets WHERE subject = {m}", (subject,))]
    done.count("tickets", await rows.run(f"DELETE FROM tickets WHERE subject = {m}", (subject,)))
    for key, _, body_text, *_ in await _notifications_of(rows, subject):
        done.count("notifications", await rows.run(
            f"UPDATE notifications SET body = {m} WHERE key = {m}",
            (dumps(_scrub(loads(body_text), {subject, loads(body_text).get("player_name")}, pseudonym)), key)))
    done.count("push_subscriptions", await rows.run(f"DELETE FROM push_subscriptions WHERE subject = {m}",
                                                    (subject,)))
    done.chat_match_ids = sorted({row[0] for row in await rows.all(
        f"SELECT DISTINCT match_id FROM chat_messages WHERE sender = {m} OR hidden_by = {m}", (subject, subject))})
    done.count("chat_messages", await rows.run(
        f"UPDATE chat_messages SET sender = {m}, sender_name = {m} WHERE sender = {m}", (pseudonym, pseudonym, subject)))
    done.count("chat_messages", await rows.run(f"UPDATE chat_messages SET hidden_by = {m} WHERE hidden_by = {m}",
                                               (pseudonym, subject)))
    done.count("chat_reports", await rows.run(f"UPDATE chat_reports SET reporter = {m} WHERE reporter = {m}",
                                              (pseudonym, subject)))
    done.count("chat_reports", await rows.run(f"UPDATE chat_reports SET reported = {m} WHERE reported = {m}",
                                              (pseudonym, subject)))
    done.related = sorted({holder if other == subject else other for holder, other in await rows.all(
        f"SELECT subject, other FROM chat_relations WHERE subject = {m} OR other = {m}", (subject, subject))})
    done.count("chat_relations", await rows.run(f"DELETE FROM chat_relations WHERE subject = {m} OR other = {m}",
                                                (subject, subject)))
    done.count("bans", await rows.run(f"DELETE FROM bans WHERE subject = {m}", (subject,)))
    done.count("bans", await rows.run(f"UPDATE bans SET banned_by = {m} WHERE banned_by = {m}", (pseudonym, subject)))
    return done

