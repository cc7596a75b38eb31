"""Benchmark: a rules worker's CPU per move, in one process.

Plays random two-player matches of each game through ``ResidentMatches``
(the table a worker process holds) with the requests a watched match's move
sends under the soak: ``apply`` by move id, the views of both seats and the
spectators encoded (``encode``), the state every 32 versions, each request
and answer through the wire's JSON frames. Per game, CPU per move (best of
``--repeat``, after a first run that warms the table as a long-lived
worker's is), split into the rules (the plugin's hooks), the View
encoding (view_bytes.py) and the wire (frames, base64), from a profile of
one run. A digest of every answer is printed: a speed-up must leave the
bytes the host receives unchanged. Usage:
    python -m bench.worker_cost [--matches 6] [--only GAME ...] [--json FILE]
"""

from __future__ import annotations

import argparse
import base64
import cProfile
import hashlib
import itertools
import json
import pstats
import random
import time
from pathlib import Path

from gamehost.host.plugins import load_catalog
from gamehost.host.workers import wire
from gamehost.host.workers.resident import ResidentMatches

SNAPSHOT_EVERY = 32
VIEWERS = [0, 1, None]  # both seats and the spectators watch, as in the soak
MAX_MOVES = 400  # per match: Kensington's and Scalino's long games are cut there


def round_trip(table: ResidentMatches, request: dict, sent: list) -> dict:
    """The worker's side of one request: the frame read, the answer, its frame written (kept in ``sent``)."""
    answer = table.handle(wire.decode(wire.frame(request)[wire.HEADER.size:]))
    sent.append(wire.frame(answer))
    return answer


def play(table: ResidentMatches, key: str, game, seed: int, sent: list, max_moves: int = MAX_MOVES) -> int:
    """One match by random moves (the first seat to move picks); the moves made."""
    rng = random.Random(seed)
    tags = itertools.count(1)
    match = f"m{seed}"
    tag = next(tags)
    answer = round_trip(table, {"op": "setup", "match": match, "game": key, "seats": 2,
                                "options": game.default_options(), "seed": seed, "new_tag": tag}, sent)
    to_move = answer["to_move"]
    ids = None  # the mover's legal move ids; the first position's asked for, the others read off the table
    version = 0
    while to_move and version < max_moves:
        seat = to_move[0]
        if ids is None:
            ids = [m[0] for m in round_trip(table, {"op": "legal_moves", "match": match, "tag": tag, "seat": seat},
                                            sent)["moves"]]
        version += 1
        new_tag = next(tags)
        answer = round_trip(table, {"op": "apply", "match": match, "tag": tag, "seat": seat, "version": version,
                                    "want_state": version % SNAPSHOT_EVERY == 0, "new_tag": new_tag,
                                    "move_id": rng.choice(ids), "encode": True, "views": VIEWERS}, sent)
        tag = new_tag
        if answer["outcome"] is not None:
            break
        to_move = answer["to_move"]
        listed = table.held[match].pending[2]  # what the client reads in its View's legal moves
        ids = [m.id for m in listed[to_move[0]]] if to_move and to_move[0] in listed else None
    table.handle({"op": "drop", "match": match})
    return version


def run(table: ResidentMatches, key: str, game, matches: int, max_moves: int = MAX_MOVES) -> tuple[int, list]:
    sent: list[bytes] = []
    made = sum(play(table, key, game, seed, sent, max_moves) for seed in range(matches))
    return made, sent


def digest_of(sent: list) -> str:
    """A digest of what the answers tell the host, whatever the frames' format
    (the View fields as base64 in the JSON before, attached beside it after)."""
    digest = hashlib.sha256()
    for data in sent:
        answer = wire.decode(data[wire.HEADER.size:])
        attached = answer.pop(getattr(wire, "ATTACHED", "attached"), [])  # the tree before has none
        encoded = answer.pop("encoded", None)
        digest.update(json.dumps(answer, sort_keys=True).encode())
        if encoded is not None:
            for item in encoded["fields"]:
                digest.update(attached[item] if isinstance(item, int) else base64.b64decode(item))
            digest.update(json.dumps(encoded["of"]).encode())
    return digest.hexdigest()[:16]


def split(profile: cProfile.Profile, plugin_dir: str) -> dict[str, float]:
    """Seconds in the plugin's own code, the encoding and the wire (with what each calls)."""
    stats = pstats.Stats(profile).stats  # (file, line, name) -> (cc, nc, tottime, cumtime, callers)
    parts = {"rules": 0.0, "encoding": 0.0, "wire": 0.0}
    for (file, _, name), (_, _, own, _, _) in stats.items():
        if plugin_dir in file or "/gamehost/sdk/" in file:
            parts["rules"] += own
        elif any(m in file for m in ("view_bytes", "struct_encoding", "legal_move_encodings", "length_delimited",
                                     "struct_writer")) or name in ("<built-in method marshal.dumps>",
                                                                   "<method 'pack' of '_struct.Struct' objects>"):
            parts["encoding"] += own
        elif "json" in file or "wire.py" in file or "base64" in file or name.startswith("<method 'encode'") \
                or "binascii" in name:
            parts["wire"] += own
    return parts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--max-moves", type=int, default=MAX_MOVES,
                        help="moves per match (the soak's 60 s play about 20: the openings)")
    parser.add_argument("--json")
    args = parser.parse_args()
    catalog = load_catalog()
    rows = []
    for game_id in sorted(args.only or catalog.games):
        entry = catalog.games[game_id]
        key = entry.rules_key
        # One table, as one long-lived worker: the first run only warms what it keeps.
        table = ResidentMatches({key: entry.game}, {})
        run(table, key, entry.game, args.matches, args.max_moves)
        spent = []
        for _ in range(args.repeat):
            started = time.process_time()
            made, sent = run(table, key, entry.game, args.matches, args.max_moves)
            spent.append(time.process_time() - started)
            digest = digest_of(sent)
        profile = cProfile.Profile()
        profile.enable()
        run(table, key, entry.game, args.matches, args.max_moves)
        profile.disable()
        plugin_dir = type(entry.game).__module__.split(".")[0]
        parts = split(profile, f"/{plugin_dir}/")
        total = sum(pstats.Stats(profile).stats[k][2] for k in pstats.Stats(profile).stats)
        row = {"game": game_id, "moves": made, "us_per_move": 1e6 * min(spent) / made, "digest": digest,
               "profile_share": {k: v / total for k, v in parts.items()}}
        rows.append(row)
        shares = " ".join(f"{k} {v:.0%}" for k, v in row["profile_share"].items())
        print(f"{game_id:<15} {made:5d} moves {row['us_per_move']:7.0f} us/move  ({shares}; rest: the table)"
              f"  digest {digest}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
