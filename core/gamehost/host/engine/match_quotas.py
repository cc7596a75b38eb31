"""Per-principal match quotas: how many open matches, unfinished matches
and host-played matches one caller may have created at once, and how many
unfinished matches one player may sit in.

Counted from the matches this host holds in memory, where every unfinished
match is on a single host, through an index kept with them (``HeldMatches``):
a check looks at the caller's own matches only, never at every match held.
With replicas on a shared store each replica counts what it holds, so a
caller spread over n replicas may reach up to n times a limit
(docs/security.md).
"""

from __future__ import annotations

import time
from typing import Iterable

from gamehost.host import errors
from gamehost.host.auth import Principal
from gamehost.host.engine.live import LiveMatch

BOT_MATCH_RETRY = 30.0  # seconds suggested before trying again for a host-played match
ABSENT_AFTER_TIMEOUTS = 3  # a seat's moves timed out in a row after which its player counts as absent
UNFINISHED = ("open", "active")


def kept_timing_out(live: LiveMatch, seat: int) -> bool:
    """The seat's last ABSENT_AFTER_TIMEOUTS moves all timed out (from the
    recent log, so a restart counts on from the stored events)."""
    moves = [e for e in live.recent if e["kind"] == "moved" and e["seat"] == seat][-ABSENT_AFTER_TIMEOUTS:]
    return len(moves) == ABSENT_AFTER_TIMEOUTS and all(e.get("timed_out") for e in moves)


def host_played(live: LiveMatch) -> bool:
    """The host plays every seat of this running match: bots (an absent
    player's included), or players whose turns keep timing out."""
    record = live.record
    if record.status != "active":
        return False
    return all(seat.kind == "bot" or (seat.kind == "human" and kept_timing_out(live, seat.index))
               for seat in record.seats)


def player_keys(live: LiveMatch) -> list[str]:
    """The quota keys of the signed-in players seated (or a seat held for them)."""
    return [f"user:{seat.subject}" for seat in live.record.seats if seat.subject]


class HeldMatches(dict[str, LiveMatch]):
    """The engine's directory of matches in memory, indexed by creator and by
    player as matches come and go. Entries go stale when a match ends or a
    player leaves; a count drops those it meets, so an index never holds
    more than the matches once held for its key."""

    def __init__(self) -> None:
        super().__init__()
        self._by_creator: dict[str, set[str]] = {}
        self._by_player: dict[str, set[str]] = {}

    def __setitem__(self, match_id: str, live: LiveMatch) -> None:
        super().__setitem__(match_id, live)
        if live.over:
            return
        if live.record.creator:
            self._by_creator.setdefault(live.record.creator, set()).add(match_id)
        for key in player_keys(live):
            self._by_player.setdefault(key, set()).add(match_id)

    def seated(self, live: LiveMatch, key: str) -> None:
        """``key`` (a caller's quota key) took a seat in ``live``."""
        if live.id in self:
            self._by_player.setdefault(key, set()).add(live.id)

    def created_by(self, key: str) -> list[LiveMatch]:
        """The unfinished matches held that ``key`` created."""
        return self._unfinished(self._by_creator, key, lambda live: True)

    def played_by(self, key: str) -> list[LiveMatch]:
        """The unfinished matches held where ``key`` holds a seat (or one is held for it)."""
        subject = key.removeprefix("user:") if key.startswith("user:") else None
        # An anonymous player's seat names no one: it counts while the match is unfinished.
        return self._unfinished(self._by_player, key,
                                lambda live: subject is None or live.seat_of_subject(subject) is not None)

    def _unfinished(self, index: dict[str, set[str]], key: str, holds) -> list[LiveMatch]:
        ids = index.get(key)
        if not ids:
            return []
        found = []
        for match_id in list(ids):
            live = self.get(match_id)
            if live is None or live.over or not holds(live):
                ids.discard(match_id)
            elif live.record.status in UNFINISHED:
                found.append(live)
        if not ids:
            del index[key]
        return found


# What each quota counts, as its QuotaFailure describes it.
COUNTED = {"open_matches": "open matches", "unfinished_matches": "unfinished matches",
           "bot_matches": "matches the host plays alone", "player_matches": "unfinished matches played in"}


def _refused(what: str, message: str, key: str, limit: int, retry: float | None = None) -> errors.ResourceExhausted:
    return errors.ResourceExhausted(message, "MATCH_QUOTA_EXCEEDED", metadata=errors.metadata_of(quota=what, limit=limit),
                                    quota_violations=[(key, f"at most {limit} {COUNTED[what]}")],
                                    retry_after=retry)


class MatchQuotas:
    def __init__(self, max_open: int = 20, max_bot: int = 2, open_match_ttl: float = 0.0, *,
                 max_unfinished: int = 0, max_playing: int = 0) -> None:
        self.max_open = max_open  # 0: no limit
        self.max_bot = max_bot  # host-played matches however they came to be
        self.open_match_ttl = open_match_ttl  # when the oldest open match expires, a slot frees
        self.max_unfinished = max_unfinished  # open and active matches one caller created
        self.max_playing = max_playing  # open and active matches one player sits in

    @staticmethod
    def _exempt(caller: Principal | None) -> bool:
        return caller is None or caller.admin

    def check(self, caller: Principal | None, all_bots: bool, held: HeldMatches) -> None:
        """Refuse a new match over ``caller``'s quota (RESOURCE_EXHAUSTED
        with a QuotaFailure). The host itself (None) and admins have none."""
        if caller is None or self._exempt(caller):
            return
        key = caller.quota_key
        mine = held.created_by(key)
        if self.max_unfinished and len(mine) >= self.max_unfinished:
            raise _refused("unfinished_matches",
                           f"You already have {len(mine)} unfinished matches you created, the most this host "
                           "allows; finish, leave or let one expire first.", key, self.max_unfinished,
                           BOT_MATCH_RETRY)
        if all_bots:
            running = sum(1 for live in mine if host_played(live))
            if self.max_bot and running >= self.max_bot:
                raise _refused("bot_matches",
                               f"You already run {running} matches the host plays alone, the most this host "
                               "allows at once; wait for one to finish.", key, self.max_bot, BOT_MATCH_RETRY)
            return
        opened = [live.record for live in mine if live.record.status == "open"]
        if self.max_open and len(opened) >= self.max_open:
            retry = None
            if self.open_match_ttl:
                oldest = min(r.create_time for r in opened)
                retry = max(1.0, oldest + self.open_match_ttl - time.time())
            raise _refused("open_matches",
                           f"You already have {len(opened)} open matches, the most this host allows; start or "
                           "leave one first.", key, self.max_open, retry)

    def check_player(self, caller: Principal | None, held: HeldMatches) -> None:
        """Refuse a seat (JoinMatch, a ticket) to a player already sitting in
        the most unfinished matches this host allows."""
        if caller is None or self._exempt(caller) or not self.max_playing:
            return
        key = caller.quota_key
        playing = len(held.played_by(key))
        if playing >= self.max_playing:
            raise _refused("player_matches",
                           f"You already play in {playing} unfinished matches, the most this host allows; finish "
                           "or leave one first.", key, self.max_playing, BOT_MATCH_RETRY)

    def host_plays_too_many(self, creator: str, live: LiveMatch, held: Iterable[LiveMatch]) -> bool:
        """Whether ``live``, about to be played by the host alone, would put
        its creator over the host-played limit (counting the others held)."""
        if not self.max_bot or not creator:
            return False
        others = sum(1 for other in held if other is not live and host_played(other))
        return others >= self.max_bot
