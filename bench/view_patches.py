"""What views as changes cost and save, per game: the whole View's bytes
against its JSON Patch from the version before, and the serving process's
CPU to make a patch (the View's bytes parsed and turned into JSON, the
patch made and encoded), against its CPU to send the whole view's bytes.

A host (memory store) plays one random match per game (two seats, a fixed
seed); GetView gives each version's whole view for seat 0 and a spectator;
the patching is then timed in this process, as ``host/rpc/view_patches.py``
does it with pyjsonpatch, and with jsonpatch's ``make_patch`` for comparison
(best of 5 repeats over every version). CPU only: the bytes a patch
saves are the socket writes, gRPC framing and the client's parsing it spares.

    python -m bench.view_patches [--games tictactoe,campanile] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

import jsonpatch

from gamehost.client import GameHostClient
from gamehost.host.rpc.view_patches import ViewPatches
from gamehost.v1 import gamehost_pb2 as pb

from bench.harness import PinnedHost, machine

GAMES = ["tictactoe", "campanile", "callisto", "kensington", "burgbaumeister", "scalino"]


def views_of_a_match(client: GameHostClient, game: str) -> dict[str, list[bytes]]:
    """Every version's whole view (serialized) for seat 0 and a spectator."""
    match = client.create_match(game, seats=2)
    tokens = [client.join(match.name).player_token for _ in range(2)]
    chooser = random.Random(game)
    seen: dict[str, list[bytes]] = {"seat 0": [], "spectator": []}
    while True:
        views = [client.view(match.name, token) for token in tokens]
        seen["seat 0"].append(views[0].SerializeToString())
        seen["spectator"].append(client.view(match.name).SerializeToString())
        if views[0].status != pb.MATCH_STATUS_ACTIVE:
            return seen
        seat = next(seat for seat in views[0].to_move if views[seat].legal_moves)
        legal = views[seat].legal_moves
        client.move(match.name, tokens[seat], move_id=legal[chooser.randrange(len(legal))].id,
                    expected_version=views[seat].version)


def timed(views: list[bytes]) -> dict:
    """µs per version: the View's JSON, the patch (pyjsonpatch, as the host makes it, and jsonpatch's
    make_patch for comparison); bytes: whole and patch; the share of versions sent as a patch."""
    json_us, patch_us, jsonpatch_us = [], [], []
    sizes: list[int] = []
    for _ in range(5):
        patches = ViewPatches()
        started = time.process_time()
        forms = [patches.view_json("viewer", version, whole) for version, whole in enumerate(views)]
        json_us.append(1e6 * (time.process_time() - started) / len(views))
        pairs = list(zip(forms, forms[1:]))
        started = time.process_time()
        encoded = [ViewPatches.patch_bytes(before, after, version, 1 << 30)
                   for version, (before, after) in enumerate(pairs)]
        patch_us.append(1e6 * (time.process_time() - started) / max(1, len(pairs)))
        started = time.process_time()
        for before, after in pairs:
            json.dumps(jsonpatch.make_patch(before, after).patch, separators=(",", ":"))
        jsonpatch_us.append(1e6 * (time.process_time() - started) / max(1, len(pairs)))
        sizes = [len(patch or b"") for patch in encoded]
    whole = [len(view) for view in views[1:]]
    sent = [min(patch, size) for patch, size in zip(sizes, whole)]  # a patch no smaller goes whole
    return {"versions": len(views), "whole_bytes": statistics.mean(whole), "patch_bytes": statistics.mean(sizes),
            "sent_bytes": statistics.mean(sent),
            "sent_as_patch": sum(patch < size for patch, size in zip(sizes, whole)) / len(whole),
            "view_json_us": min(json_us), "patch_us": min(patch_us), "jsonpatch_us": min(jsonpatch_us)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args()
    results: dict = {"machine": machine(), "games": {}}
    with tempfile.TemporaryDirectory() as data_dir:
        host = PinnedHost("memory", f"{data_dir}/data", pinned=False)
        try:
            with GameHostClient(host.target) as client:
                for game in args.games.split(","):
                    results["games"][game] = {viewer: timed(views)
                                              for viewer, views in views_of_a_match(client, game).items()}
        finally:
            host.stop()
    print("| game, viewer | versions | whole view bytes | patch bytes | bytes sent (share as patch) | "
          "view JSON µs | patch µs, pyjsonpatch / jsonpatch |")
    print("|---|---|---|---|---|---|---|")
    for game, viewers in results["games"].items():
        for viewer, row in viewers.items():
            print(f"| {game}, {viewer} | {row['versions']} | {row['whole_bytes']:.0f} | {row['patch_bytes']:.0f} | "
                  f"{row['sent_bytes']:.0f} ({100 * row['sent_as_patch']:.0f}%) | {row['view_json_us']:.0f} | "
                  f"{row['patch_us']:.0f} / {row['jsonpatch_us']:.0f} |")
    print(json.dumps(results["machine"]))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
