"""``gamehost render``: the picture of a position, without a host.

The position is reached the way a host reaches it: a match engine in this
process, over the in-memory store, creates the match with the seed, seats
every player and submits the move ids in order. So the versions, hence the
chance each move draws, the views and the renderings are exactly those a
host serving the same plugin gives for the same seed and moves.
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from gamehost.host import errors
from gamehost.host.engine.match_engine import MatchEngine
from gamehost.host.engine.live import LiveMatch
from gamehost.host.plugins import load_catalog
from gamehost.host.store.memory import MemoryStore


class PreviewError(Exception):
    """Why a preview cannot be made, for a person."""


@dataclass(frozen=True)
class Preview:
    viewer: int | None
    version: int
    text: str
    svg: str
    legal_move_ids: tuple[str, ...]


async def render_position(game_id: str, *, seed: int, moves: list[str], seats: int = 0,
                          options: Mapping[str, Any] | None = None, variant: str = "",
                          viewer: int | None | str = "to-move") -> Preview:
    """The view of ``viewer`` (a seat, None for a spectator, or "to-move":
    the first seat to move, a spectator once the game is over) after
    ``moves`` from ``seed``."""
    catalog = load_catalog()
    if catalog.get(game_id) is None:
        installed = ", ".join(sorted(catalog.games)) or "none"
        raise PreviewError(f"no game {game_id!r} is installed here (installed: {installed})")
    engine = MatchEngine(catalog, MemoryStore(), chosen_seeds="anyone")
    await engine.start()
    try:
        live = await engine.create_match(game_id, seats=seats, options=options, seed=seed, variant=variant)
        tokens = [(await engine.join(live.id, seat, f"seat {seat}"))[2] for seat in range(len(live.record.seats))]
        for number, move_id in enumerate(moves, 1):
            seat = await _mover(engine, live, move_id, number)
            await engine.submit(live.id, tokens[seat], move_id=move_id)
        if viewer == "to-move":
            to_move = await engine.to_move(live)
            viewer = to_move[0] if to_move else None
        elif viewer is not None and not 0 <= int(viewer) < len(tokens):
            raise PreviewError(f"--seat {viewer}: this match has seats 0 to {len(tokens) - 1}")
        view = await engine.view(live, viewer if viewer is None else int(viewer))
        return Preview(view.seat, view.version, await engine.render(live, view, "text"),
                       await engine.render(live, view, "svg"), tuple(move.id for move in view.moves))
    except errors.HostError as error:
        raise PreviewError(str(error)) from None
    finally:
        await engine.close()
        await engine.close_rules()


async def _mover(engine: MatchEngine, live: LiveMatch, move_id: str, number: int) -> int:
    """The seat whose legal moves list ``move_id``, or PreviewError naming
    the legal moves."""
    to_move = await engine.to_move(live)
    if not to_move:
        raise PreviewError(f"move {number}, {move_id!r}: the game is over at version {live.version} "
                           f"({(live.record.result or {}).get('summary', 'no moves are left')})")
    legal: dict[int, list[str]] = {}
    for seat in to_move:
        legal[seat] = [move.id for move in await engine.legal_moves(live, seat)]
        if move_id in legal[seat]:
            return seat
    listed = "; ".join(f"seat {seat}: {', '.join(ids) or 'none'}" for seat, ids in legal.items())
    raise PreviewError(f"move {number}, {move_id!r}, is not legal at version {live.version}; legal moves: {listed}")


def run(args) -> int:
    from gamehost.cli.commands import _options

    moves = [move.strip() for move in args.moves.split(",") if move.strip()]
    viewer: int | None | str = None if args.spectator else ("to-move" if args.seat is None else args.seat)
    try:
        preview = asyncio.run(render_position(args.game, seed=args.seed, moves=moves, seats=args.seats,
                                              options=_options(args.option), variant=args.variant, viewer=viewer))
    except PreviewError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    if args.out:
        Path(args.out).write_text(preview.svg + "\n", encoding="utf-8")
    if args.text:
        Path(args.text).write_text(preview.text + "\n", encoding="utf-8")
    else:
        print(preview.text)
    who = "spectator" if preview.viewer is None else f"seat {preview.viewer}"
    print(f"{args.game} at version {preview.version}, as {who}; legal moves: "
          f"{', '.join(preview.legal_move_ids) or 'none'}", file=sys.stderr)
    return 0
