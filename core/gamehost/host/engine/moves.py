"""Moves a seat makes: a client's move (``submit``) checked against the
turn and the legal moves, applied by the rules, and committed as one step.

A part of ``MatchEngine`` (an ``EngineCore``); the host's own moves (bots, deadlines) come
here through ``_play`` too.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any, Mapping, NoReturn

from gamehost.host import errors, traces
from gamehost.host.auth import Principal
from gamehost.host.errors import shown
from gamehost.host.engine.core import EngineCore
from gamehost.host.engine.live import LiveMatch
from gamehost.host.workers.runner import Applied, UnknownMoveId
from gamehost.sdk.i18n import Text
from gamehost.sdk.rules import IllegalMove, MalformedMove, Move
from gamehost.host.engine.match_events import match_event
from gamehost.host.engine.endings import resigned_last

MAX_IDS_SHOWN = 12  # legal move ids listed in an error message
MAX_TEXT_SHOWN = 120  # characters of a schema message (which quotes the client's value) in an error


def _cut(text: str, limit: int = 2 * MAX_TEXT_SHOWN) -> str:
    """Rules' reasons may quote the client's move: keep a prefix."""
    text = str(text)
    return text if len(text) <= limit else text[:limit] + "..."


@dataclasses.dataclass(frozen=True)
class MoveResult:
    version: int
    seat: int
    replayed: bool


class MatchMoves(EngineCore):
    async def submit(self, match_id: str, token: str, *, move_id: str = "", move: Mapping[str, Any] | None = None,
                     expected_version: int | None = None, request_id: str = "",
                     caller: Principal | None = None) -> MoveResult:
        if not traces.on():
            return await self._submit(match_id, token, move_id, move, expected_version, request_id, caller)
        with traces.span("engine submit move", {"gamehost.match_id": match_id}):
            return await self._submit(match_id, token, move_id, move, expected_version, request_id, caller)

    async def _submit(self, match_id: str, token: str, move_id: str, move: Mapping[str, Any] | None,
                      expected_version: int | None, request_id: str, caller: Principal | None) -> MoveResult:
        if not move_id and move is None:
            raise errors.invalid_field("move", "send a legal move id (move_id) or a structured move (structured).",
                                       "MOVE_MISSING")
        live = await self.live_match(match_id)
        if traces.on():
            traces.annotate({"gamehost.game": live.record.game_id, "gamehost.version": live.version})

        async def attempt() -> MoveResult:
            seat = self._seat_of(live, token, action="move", caller=caller)
            if request_id and (seat, request_id) in live.requests:
                return MoveResult(live.requests[(seat, request_id)], seat, True)
            if expected_version is not None and expected_version != live.version:
                raise errors.Aborted(
                    f"matches/{match_id} is at version {live.version}, not {expected_version}: "
                    "someone moved first. Fetch the view again and choose a move from it.", "STALE_VERSION",
                    metadata=errors.metadata_of(current_version=live.version, expected_version=expected_version))
            version = await self._play(live, seat, move_id, move, request_id)
            return MoveResult(version, seat, False)

        return await self.locked(live, attempt)

    async def _play(self, live: LiveMatch, seat: int, move_id: str, move: Mapping[str, Any] | None,
                    request_id: str, timed_out: bool = False) -> int:
        record = live.record
        if record.status != "active":
            raise errors.FailedPrecondition(
                f"matches/{live.id} is {record.status}: moves are accepted only while it is active.",
                "MATCH_NOT_ACTIVE", metadata=errors.metadata_of(status=record.status))
        to_move = await self.to_move(live)
        if seat not in to_move:
            raise errors.FailedPrecondition(
                f"It is not your turn: seat {', '.join(map(str, to_move))} is to move.", "NOT_YOUR_TURN",
                metadata=errors.metadata_of(seat=seat, to_move=",".join(map(str, to_move))))
        if not move_id:
            assert move is not None  # submit asks for a move id or a move
            listed = await self._listed_move(live, seat, move)
            move_id = listed.id
        version = record.version + 1
        # The move id is resolved where the rules hold the seat's listing (no
        # listing crosses to the host per move). The new state stays there
        # too; it comes back only when a snapshot is due (or the match ends).
        try:
            applied = await self._apply(live, seat, None, version, move_id=move_id,
                                        want_state=version - live.snapshot_version >= self.snapshot_every,
                                        viewers=self._viewers(live))
        except UnknownMoveId:
            await self._unknown_move(live, seat, move_id)
        assert applied.played is not None  # the rules name the listed move a move id played
        args, label = applied.played.args, applied.played.label
        result = applied.result
        now = time.time()
        event = match_event(version, "moved", seat, now, move=dict(args), move_id=move_id,
                            label=label or "a move")  # labels address nobody; clients name the mover
        if isinstance(label, Text):  # kept to show the log in other languages
            event["label_text"] = label.message()
        if applied.revealed:
            event["revealed"] = list(applied.revealed)
        if result is not None or seat not in applied.to_move:  # another seat is to move: the turn is whole
            event["ends_turn"] = True
        if request_id:
            event["request_id"] = request_id
        if timed_out:
            event["timed_out"] = True
        events = [event]
        changes: dict[str, Any] = {"version": version, "update_time": now}
        if record.clock is not None:
            changes["clock"] = self._clock_after_move(record, to_move, seat, now)
            event["clock"] = changes["clock"]["remaining"]  # each seat's time left once this move is made
        if result is not None:
            result = resigned_last(result, record.seats)
            changes.update(status="finished", result=result, version=version + 1)
            events.append(match_event(version + 1, "finished", -1, now, result=result))
        await self.commit(live, record.replace(**changes), events, applied=applied)
        live.log.debug("move applied", seat=seat, move=move_id or args, version=version)
        if result is not None:
            live.log.info("match finished", result=changes["result"])
            self.remember_finished(live.id)
        return version

    async def _unknown_move(self, live: LiveMatch, seat: int, move_id: str) -> NoReturn:
        ids = [m.id for m in await self.legal_moves(live, seat)]  # listed here only for the error
        listed = ", ".join(ids[:MAX_IDS_SHOWN]) + (" ..." if len(ids) > MAX_IDS_SHOWN else "")
        raise errors.FailedPrecondition(
            f"No legal move has id {shown(move_id)} now. Legal moves: {listed}.", "UNKNOWN_MOVE",
            metadata=errors.metadata_of(move_id=move_id[:MAX_TEXT_SHOWN], rule="unknown-move"))

    async def _listed_move(self, live: LiveMatch, seat: int, move: Mapping[str, Any]) -> Move:
        """The legal move a structured move names: what is recorded, applied
        and broadcast is the listed move, never the client's dictionary (an
        extra key, however large, goes no further). A move the listing lacks
        goes to the rules for their refusal and its reason."""
        listed = next((m for m in await self.legal_moves(live, seat) if m.args == move), None)
        if listed is not None:
            return listed
        await self._apply(live, seat, move, live.version + 1, want_state=False)  # raises the rules' refusal
        raise errors.InvalidArgument(
            "The structured move is not one of the seat's legal moves as listed (no unlisted keys or values): "
            "send one of the view's legal_moves exactly, or its id.", "UNLISTED_MOVE",
            field_violations=[("structured", "must equal the move of one of the seat's legal moves.")])

    async def _apply(self, live: LiveMatch, seat: int, args: Mapping[str, Any] | None, version: int, *,
                     want_state: bool, viewers: tuple[int | None, ...] = (), move_id: str = "") -> Applied:
        """What the rules make of ``seat`` playing ``args`` (or its legal
        move ``move_id``); held by the rules until the step is committed, so
        a refusal leaves the match as it was."""
        try:
            return await self.rules.apply(live, seat, args, version, want_state=want_state, viewers=viewers,
                                          move_id=move_id)
        except MalformedMove as refusal:
            reason = _cut(refusal.reason)
            raise errors.InvalidArgument(f"Malformed move: {reason}", "MALFORMED_MOVE",
                                         metadata=errors.metadata_of(rule=refusal.rule),
                                         field_violations=[("structured", reason)],
                                         player_text=refusal.reason) from None
        except IllegalMove as refusal:
            raise errors.FailedPrecondition(f"Illegal move: {_cut(refusal.reason)}", "ILLEGAL_MOVE",
                                            metadata=errors.metadata_of(rule=refusal.rule),
                                            player_text=refusal.reason) from None

    async def final_state(self, live: LiveMatch) -> Any:
        """The state to snapshot when a match ends without a result, or None
        when its rules are failing (the log still holds every move)."""
        try:
            return await self.rules.state(live)
        except errors.HostError:
            return None
