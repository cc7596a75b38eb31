"""The host's records as protobuf messages: plain conversions, no engine
call (what needs one is built by ``match_messages.MatchMessages``)."""

from __future__ import annotations

import json
import struct
import time
from typing import Any, Mapping, Sequence

from google.protobuf import duration_pb2, timestamp_pb2
from google.protobuf.message import DecodeError

from gamehost.client.structs import to_struct
from gamehost.host.codec import struct_encoding
from gamehost.host.codec.length_delimited import field_tag
from gamehost.host.rpc.turn_messages import reveals_pb
from gamehost.host.engine import clocks
from gamehost.host.engine.live import LiveMatch
from gamehost.host.engine.rating_rules import may_become_rated
from gamehost.host.engine.ticket_matching import rating_range
from gamehost.host.engine.undo_asks import UndoAsk
from gamehost.host.engine.draw_offers import DrawOffer
from gamehost.host.engine.views import EncodedView
from gamehost.host.store.base import MatchRecord, PlayerRating, SeatRecord, TicketRecord
from gamehost.sdk.rules import Move
from gamehost.v1 import gamehost_pb2 as pb

STATUS_TO_PB = {"open": pb.MATCH_STATUS_OPEN, "active": pb.MATCH_STATUS_ACTIVE,
                "finished": pb.MATCH_STATUS_FINISHED, "abandoned": pb.MATCH_STATUS_ABANDONED,
                "aborted": pb.MATCH_STATUS_ABORTED, "suspended": pb.MATCH_STATUS_SUSPENDED}
STATUS_FROM_PB = {value: key for key, value in STATUS_TO_PB.items()}
SEAT_KIND_TO_PB = {"open": pb.SEAT_KIND_OPEN, "human": pb.SEAT_KIND_HUMAN, "bot": pb.SEAT_KIND_BOT}
EVENT_KIND_TO_PB = {"joined": pb.EVENT_KIND_JOINED, "left": pb.EVENT_KIND_LEFT, "started": pb.EVENT_KIND_STARTED,
                    "moved": pb.EVENT_KIND_MOVED, "finished": pb.EVENT_KIND_FINISHED,
                    "abandoned": pb.EVENT_KIND_ABANDONED, "aborted": pb.EVENT_KIND_ABORTED,
                    "suspended": pb.EVENT_KIND_SUSPENDED, "resumed": pb.EVENT_KIND_RESUMED,
                    "bot_assigned": pb.EVENT_KIND_BOT_ASSIGNED, "clock_ran_out": pb.EVENT_KIND_CLOCK_RAN_OUT,
                    "undo_asked": pb.EVENT_KIND_UNDO_ASKED, "undo_accepted": pb.EVENT_KIND_UNDO_ACCEPTED,
                    "undo_refused": pb.EVENT_KIND_UNDO_REFUSED, "undo_withdrawn": pb.EVENT_KIND_UNDO_WITHDRAWN,
                    "undone": pb.EVENT_KIND_UNDONE, "undo_lapsed": pb.EVENT_KIND_UNDO_LAPSED,
                    "resigned": pb.EVENT_KIND_RESIGNED, "draw_offered": pb.EVENT_KIND_DRAW_OFFERED,
                    "draw_accepted": pb.EVENT_KIND_DRAW_ACCEPTED, "draw_declined": pb.EVENT_KIND_DRAW_DECLINED,
                    "draw_withdrawn": pb.EVENT_KIND_DRAW_WITHDRAWN, "draw_lapsed": pb.EVENT_KIND_DRAW_LAPSED,
                    "draw_agreed": pb.EVENT_KIND_DRAW_AGREED, "victory_claimed": pb.EVENT_KIND_VICTORY_CLAIMED}
TICKET_STATE_TO_PB = {"queued": pb.TICKET_STATE_QUEUED, "matched": pb.TICKET_STATE_MATCHED,
                      "cancelled": pb.TICKET_STATE_CANCELLED, "expired": pb.TICKET_STATE_EXPIRED}
TICKET_STATE_FROM_PB = {value: key for key, value in TICKET_STATE_TO_PB.items()}
VISIBILITY_TO_PB = {"public": pb.VISIBILITY_PUBLIC, "unlisted": pb.VISIBILITY_UNLISTED,
                    "private": pb.VISIBILITY_PRIVATE}
VISIBILITY_FROM_PB = {pb.VISIBILITY_UNSPECIFIED: "public", **{v: k for k, v in VISIBILITY_TO_PB.items()}}
SPECTATORS_TO_PB = {"anyone": pb.SPECTATORS_ANYONE, "players": pb.SPECTATORS_PLAYERS, "none": pb.SPECTATORS_NONE}
SPECTATORS_FROM_PB = {pb.SPECTATORS_UNSPECIFIED: "anyone", **{v: k for k, v in SPECTATORS_TO_PB.items()}}
VIEW_STATE_TAG = field_tag(pb.View.DESCRIPTOR.fields_by_name["state"])
_state_text = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False).encode


def timestamp(seconds: float) -> timestamp_pb2.Timestamp:
    stamp = timestamp_pb2.Timestamp()
    stamp.FromNanoseconds(int(seconds * 1e9))
    return stamp


def duration(seconds: float) -> duration_pb2.Duration:
    span = duration_pb2.Duration()
    span.FromNanoseconds(int(seconds * 1e9))
    return span


def result_pb(result: Mapping[str, Any] | None) -> pb.Result | None:
    if result is None:
        return None
    return pb.Result(scores=result["scores"], ranking=result["ranking"], winners=result["winners"],
                     summary=result["summary"])


def clock_pb(record: MatchRecord, to_move: Sequence[int]) -> pb.ChessClock | None:
    clock = record.clock
    if clock is None:
        return None
    running = [s for s in to_move if record.seats[s].kind == "human"] if record.status == "active" else []
    due = clocks.deadline(clock, record.update_time, running)
    return pb.ChessClock(initial=duration(clock["initial"]), increment=duration(clock["increment"]),
                         remaining=[duration(max(0.0, left)) for left in clock["remaining"]],
                         since=timestamp(clocks.since(clock, record.update_time)), running=running,
                         deadline=None if due is None else timestamp(due),
                         per_move=duration(clock["per_move"]) if clock.get("per_move") else None)


def match_pb(record: MatchRecord, to_move: Sequence[int], rules_available: bool) -> pb.Match:
    """The Match of ``record`` with ``to_move`` the seats to move (none when
    they are not known); ``rules_available``: whether this host has the
    rules it was created with."""
    timed = record.turn_timeout > 0
    player_to_move = timed and any(record.seats[seat].kind == "human" for seat in to_move)
    return pb.Match(
        name=f"matches/{record.id}", game=f"games/{record.game_id}", rules_version=record.rules_version,
        status=STATUS_TO_PB[record.status], version=record.version,
        seats=[pb.Seat(index=s.index, kind=SEAT_KIND_TO_PB[s.kind], player_name=s.player_name, bot=s.bot,
                       verified=bool(s.subject), away_until=timestamp(s.away_until) if s.away_until else None,
                       reserved_for=s.reserved_for, resigned=bool(s.resigned))
               for s in record.seats],
        options=to_struct(record.options), to_move=to_move, result=result_pb(record.result),
        create_time=timestamp(record.create_time), update_time=timestamp(record.update_time),
        turn_timeout=duration(record.turn_timeout) if timed else None,
        turn_deadline=timestamp(record.update_time + record.turn_timeout) if player_to_move else None,
        seed_chosen=record.seed_chosen,
        status_detail=pb.StatusDetail(**record.status_detail) if record.status_detail else None,
        rules_unavailable=not rules_available,
        clock=clock_pb(record, to_move),
        absent_grace=None if record.absent_grace is None else duration(record.absent_grace),
        visibility=VISIBILITY_TO_PB[record.visibility], spectators=SPECTATORS_TO_PB[record.spectators],
        rated=may_become_rated(record), seed_commitment=record.seed_commitment or b"")


def user_match_pb(shared: pb.Match, record: MatchRecord, user: str, turn_since: float | None) -> pb.Match:
    """A listed match marked for the user whose matches are listed: their
    seats, and since when it is their turn (a copy: ``shared`` is cached)."""
    message = pb.Match()
    message.CopyFrom(shared)
    message.user_seats.extend(seat.index for seat in record.seats if seat.subject == user)
    if turn_since is not None:
        message.user_turn_since.CopyFrom(timestamp(turn_since))
    return message


def undo_ask_pb(seats: Sequence[SeatRecord], ask: UndoAsk) -> pb.UndoAsk:
    """An undo asked for in a match seated as ``seats``."""
    return pb.UndoAsk(seat=ask.seat, undoes=ask.undoes, ask_version=ask.version,
                      expire_time=timestamp(ask.expire_time), accepted=ask.accepted,
                      waiting=ask.waiting(seats))


def draw_offer_pb(seats: Sequence[SeatRecord], offer: DrawOffer) -> pb.DrawOffer:
    """A draw offered in a match seated as ``seats``."""
    return pb.DrawOffer(seat=offer.seat, offer_version=offer.version, expire_time=timestamp(offer.expire_time),
                        accepted=offer.accepted, waiting=offer.waiting(seats))


def player_rating_pb(rating: PlayerRating) -> pb.PlayerRating:
    return pb.PlayerRating(player=f"players/{rating.subject}", player_name=rating.player_name,
                           game=f"games/{rating.game_id}", rating=rating.rating, mu=rating.mu, sigma=rating.sigma,
                           games=rating.games, wins=rating.wins, losses=rating.losses, draws=rating.draws)


def ticket_pb(ticket: TicketRecord) -> pb.Ticket:
    matched = ticket.state == "matched"
    return pb.Ticket(
        name=f"tickets/{ticket.id}", game=f"games/{ticket.game_id}", seats=ticket.seats,
        options=to_struct(ticket.options), state=TICKET_STATE_TO_PB[ticket.state], rating=ticket.rating,
        min_rating=ticket.min_rating, max_rating=ticket.max_rating,
        bot_wait=None if ticket.bot_wait is None else duration(ticket.bot_wait), bot=ticket.bot,
        create_time=timestamp(ticket.create_time), expire_time=timestamp(ticket.expire_time),
        match=f"matches/{ticket.match_id}" if matched else "", seat=ticket.seat if matched else -1,
        update_time=timestamp(ticket.update_time), **widening_fields(ticket),
        party=f"parties/{ticket.party}" if ticket.party else "", party_size=ticket.party_size,
        party_queued=ticket.party_queued)


def widening_fields(ticket: TicketRecord) -> dict[str, float | None]:
    """A ticket's widening and its range as widened by now (queued) or by
    when it left the queue."""
    low, high = rating_range(ticket, time.time() if ticket.state == "queued" else ticket.update_time)
    return {"rating_widen_per_second": ticket.widen_per_second, "rating_max_widening": ticket.max_widening,
            "current_min_rating": low, "current_max_rating": high}


def legal_move(move: Move) -> pb.LegalMove:
    """A legal move on the wire, with its parts when the plugin offers it in parts."""
    return pb.LegalMove(id=move.id, label=move.label, move=to_struct(dict(move.args)),
                        parts=[pb.MovePart(id=part.id, label=part.label) for part in move.parts])


def view_state(message: pb.View, state: Mapping[str, Any], live: LiveMatch | None = None) -> None:
    """Set the View's state: encoded in one pass (struct_encoding.py), or by
    protobuf's ``Struct.update`` for what that pass does not take (a value
    of another type, nesting beyond protobuf's parse depth). With ``live``,
    viewers whose states have the same JSON text (every viewer, in a game
    without secrets) share one encoding in its per-version cache: the text,
    not ``==``, decides, since ``True == 1`` but a Struct tells them apart."""
    try:
        if live is None:
            field = struct_encoding.struct_field(VIEW_STATE_TAG, state)
        else:
            field = live.cache.view_state_field(_state_text(state),
                                               lambda: struct_encoding.struct_field(VIEW_STATE_TAG, state))
        message.MergeFromString(field)
    except (ValueError, TypeError, OverflowError, RecursionError, DecodeError, struct.error):
        # NotPlainJson is a ValueError; an int beyond a double is a struct.error
        message.ClearField("state")  # a merge that failed half-way
        message.MergeFrom(pb.View(state=to_struct(dict(state))))  # as before: it raises where it raised


def view_header(live: LiveMatch, encoded: EncodedView) -> pb.View:
    """The View's fields the rules worker does not encode (all but state and legal moves)."""
    return pb.View(match=f"matches/{live.id}", version=encoded.version, status=STATUS_TO_PB[encoded.status],
                   seat=-1 if encoded.seat is None else encoded.seat, to_move=encoded.to_move,
                   result=result_pb(encoded.result))


def shown_event_message(shown: Mapping[str, Any]) -> pb.MatchEvent:
    """The MatchEvent of an event as a viewer may see it (``public_event``), without the view."""
    message = pb.MatchEvent(version=shown["version"], kind=EVENT_KIND_TO_PB[shown["kind"]],
                            time=timestamp(shown["time"]), seat=shown["seat"],
                            label=shown.get("label", ""), timed_out=shown.get("timed_out", False),
                            reason=shown.get("reason", ""))
    if shown.get("move") is not None:
        message.move.CopyFrom(to_struct(shown["move"]))
    if "undoes" in shown:
        message.undoes = shown["undoes"]
    if "expire_time" in shown:
        expire = message.draw_expire_time if shown["kind"] == "draw_offered" else message.undo_expire_time
        expire.CopyFrom(timestamp(shown["expire_time"]))
    if "absent" in shown:
        message.absent_seats.extend(shown["absent"])
    if shown.get("left"):
        message.left = True
    if shown.get("revealed"):
        message.revealed.extend(reveals_pb(shown["revealed"], None))
    return message
