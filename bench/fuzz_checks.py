"""What must hold after the fuzz run, read back from the host: every
match's versions are gapless, every finished match's log replays with the
local plugin to exactly the recorded result, and no view read with a
seat's token holds another seat's token."""

from __future__ import annotations

from gamehost.client.structs import from_struct
from gamehost.host.plugins import load_catalog
from gamehost.sdk.replay import RecordedMove, initial_state
from gamehost.sdk.replay import replay as replay_moves
from gamehost.v1 import gamehost_pb2 as pb

CALL_TIMEOUT = 30.0


async def every_match(stub) -> list[str]:
    names, token = [], ""
    while True:
        page = await stub.ListMatches(pb.ListMatchesRequest(page_size=100, page_token=token), timeout=CALL_TIMEOUT)
        names += [match.name for match in page.matches]
        token = page.next_page_token
        if not token:
            return names


def gap_in(log: pb.MatchLog, version: int) -> str:
    """Why the log's versions are not 1, 2, ... up to the match's; "" when they are."""
    versions = [event.version for event in log.events]
    if versions != list(range(1, len(versions) + 1)):
        return f"versions {versions[:5]}...{versions[-5:]} are not 1..{len(versions)}"
    if versions and versions[-1] != version:
        return f"the log ends at v{versions[-1]}, the match is at v{version}"
    return ""


def replay_mismatch(log: pb.MatchLog, catalog) -> str | None:
    """None when the log has no result to check; "" when it replays to it exactly."""
    if not log.complete or not log.result.ranking:
        return None
    entry = catalog.get(log.game.removeprefix("games/"))
    game = (entry.at_version(log.rules_version) or entry).game
    first = state = initial_state(game, log.seats, from_struct(log.options), log.seed)
    standing: list[RecordedMove] = []
    for event in log.events:
        if event.kind == pb.EVENT_KIND_MOVED:
            standing.append(RecordedMove(event.version, event.seat, from_struct(event.move)))
            state = replay_moves(game, state, log.seed, standing[-1:])
        elif event.kind == pb.EVENT_KIND_UNDONE:
            standing = [move for move in standing if move.version != event.undoes]
            state = replay_moves(game, first, log.seed, standing)
    outcome = game.outcome(state)
    expected = list(log.result.ranking), list(log.result.scores)
    if outcome is None or (list(outcome.ranking), [float(s) for s in outcome.scores]) != expected:
        return f"{log.match}: replays to {outcome}, recorded {list(log.result.ranking)}"
    return ""


async def check_matches(stub) -> dict:
    catalog = load_catalog()
    names = await every_match(stub)
    gaps, mismatches, replayed = [], [], 0
    for name in names:
        match = await stub.GetMatch(pb.GetMatchRequest(name=name), timeout=CALL_TIMEOUT)
        log = await stub.GetMatchLog(pb.GetMatchLogRequest(name=name), timeout=CALL_TIMEOUT)
        if why := gap_in(log, match.version):
            gaps.append(f"{name}: {why}")
        mismatch = replay_mismatch(log, catalog)
        if mismatch is not None:
            replayed += 1
            if mismatch:
                mismatches.append(mismatch)
    return {"matches": len(names), "version_gaps": gaps[:20], "finished_replayed": replayed,
            "replay_mismatches": mismatches[:20]}


def leaked_tokens(view_bytes: bytes, own: str, tokens: list[str]) -> list[str]:
    """Other seats' tokens found in a view read with ``own``."""
    return [token for token in tokens if token != own and token.encode() in view_bytes]
