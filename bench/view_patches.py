"""What views as changes cost and save, per game: the whole View's bytes
against its JSON Patch from the version before, and the serving process's
CPU to make a patch (the View's bytes parsed and turned into JSON, the
patch made and encoded), against its CPU to send the whole view's bytes.

A host (memory store) plays one random match per game (two seats, a fixed
seed); GetView gives each version's whole view for seat 0 and a spectator;
the patching is then timed in this process (best of 5 repeats over every
version): the View's JSON as ``host/rpc/view_json.py`` makes it (a part at a
time, each distinct state value and legal move converted once) against the
whole message converted at every version (``MessageToDict``, as the host did
before), and the patch as ``host/rpc/view_patches.py`` makes it against
pyjsonpatch's and jsonpatch's ``make_patch``. Every version checks that the
two JSON forms are equal and that the host's patch, applied with jsonpatch,
gives the next view. CPU only: the bytes a patch
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
import pyjsonpatch
from google.protobuf import json_format

from gamehost.client import GameHostClient
from gamehost.host.rpc.view_json import ViewJson
from gamehost.host.rpc.view_patches import ViewPatches, json_patch
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


def _us(started: float, count: int) -> float:
    return 1e6 * (time.process_time() - started) / max(1, count)


def timed(views: list[bytes]) -> dict:
    """µs per version: the View's JSON (by parts, and the whole message), the patch (the host's,
    pyjsonpatch's, jsonpatch's make_patch); bytes: whole and patch; the share of versions sent as
    a patch."""
    json_us, whole_json_us, patch_us, pyjsonpatch_us, jsonpatch_us = [], [], [], [], []
    sizes: list[int] = []
    for _ in range(5):
        parts = ViewJson()
        started = time.process_time()
        forms = [parts.of(whole) for whole in views]
        json_us.append(_us(started, len(views)))
        started = time.process_time()
        reference = [json_format.MessageToDict(pb.View.FromString(whole)) for whole in views]
        whole_json_us.append(_us(started, len(views)))
        assert forms == reference, "the View's JSON by parts differs from the whole message's"
        pairs = list(zip(forms, forms[1:]))
        started = time.process_time()
        encoded = [ViewPatches.patch_bytes(before, after, version, 1 << 30)
                   for version, (before, after) in enumerate(pairs)]
        patch_us.append(_us(started, len(pairs)))
        started = time.process_time()
        for before, after in zip(reference, reference[1:]):
            json.dumps(pyjsonpatch.generate_patch(before, after), separators=(",", ":"))
        pyjsonpatch_us.append(_us(started, len(pairs)))
        started = time.process_time()
        for before, after in zip(reference, reference[1:]):
            json.dumps(jsonpatch.make_patch(before, after).patch, separators=(",", ":"))
        jsonpatch_us.append(_us(started, len(pairs)))
        sizes = [len(patch or b"") for patch in encoded]
    for (before, after) in zip(reference, reference[1:]):
        assert jsonpatch.apply_patch(before, json_patch(before, after)) == after, "a patch that misses the view"
    whole = [len(view) for view in views[1:]]
    sent = [min(patch, size) for patch, size in zip(sizes, whole)]  # a patch no smaller goes whole
    return {"versions": len(views), "whole_bytes": statistics.mean(whole), "patch_bytes": statistics.mean(sizes),
            "sent_bytes": statistics.mean(sent),
            "sent_as_patch": sum(patch < size for patch, size in zip(sizes, whole)) / len(whole),
            "view_json_us": min(json_us), "whole_message_json_us": min(whole_json_us),
            "patch_us": min(patch_us), "pyjsonpatch_us": min(pyjsonpatch_us), "jsonpatch_us": min(jsonpatch_us)}


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
          "view JSON µs: by parts / whole message | patch µs: the host's / pyjsonpatch / jsonpatch |")
    print("|---|---|---|---|---|---|---|")
    for game, viewers in results["games"].items():
        for viewer, row in viewers.items():
            print(f"| {game}, {viewer} | {row['versions']} | {row['whole_bytes']:.0f} | {row['patch_bytes']:.0f} | "
                  f"{row['sent_bytes']:.0f} ({100 * row['sent_as_patch']:.0f}%) | {row['view_json_us']:.0f} / "
                  f"{row['whole_message_json_us']:.0f} | {row['patch_us']:.0f} / {row['pyjsonpatch_us']:.0f} / "
                  f"{row['jsonpatch_us']:.0f} |")
    print(json.dumps(results["machine"]))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
