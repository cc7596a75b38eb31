"""One scripted match (a fixed seed, fixed moves) played from Python (the
`gamehost script` command), Go (`gamehost-go script`) and the browser (the web
client, driven by clicks in headless Chromium): the three final logs are the
same, byte for byte, but for each match's own name, seed salt and commitment,
and the events' times."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gamehost.client import GameHostClient
from hosts import HostProcess

WEB = Path(__file__).parent.parent / "clients" / "web"
CHROMIUM = Path(os.environ.get("GAMEHOST_CHROMIUM", "/usr/bin/chromium"))


@pytest.fixture(scope="module")
def host():
    if not (WEB / "dist" / "index.html").is_file():
        pytest.fail("the web client is not built: run `make web`")
    if not CHROMIUM.exists():
        pytest.fail(f"no {CHROMIUM}: `apt-get install chromium` (make test does it) or set GAMEHOST_CHROMIUM")
    process = HostProcess("--web-root", str(WEB / "dist"), env={"PYTHONPATH": os.environ.get("PYTHONPATH", "")})
    yield process.start()
    process.stop()


def moves_of_a_seeded_match(client: GameHostClient, game: str, seats: int, seed: int, count: int) -> list[str]:
    """The first ``count`` move ids of a match played with random legal moves
    (every seat held by this client): the script the three clients replay."""
    chooser = random.Random(seed)
    match = client.create_match(game, seats=seats, seed=seed).name
    tokens = [client.join(match, seat=seat).player_token for seat in range(seats)]
    played = []
    while len(played) < count:
        to_move = client.match(match).to_move
        if not to_move:
            break
        view = client.view(match, tokens[to_move[0]])
        move = chooser.choice(view.legal_moves).id
        client.move(match, tokens[to_move[0]], move_id=move)
        played.append(move)
    return played


def comparable(canonical: str) -> dict:
    """A printed log without what differs between two matches by design."""
    log = json.loads(canonical)
    del log["match"]
    log.pop("seedCommitment", None), log.pop("seedSalt", None)  # each match draws its own salt
    log.pop("locale", None)  # the browser asks in its language (Accept-Language), and the log says which
    for event in log["events"]:
        del event["time"]
    return log


def without_names_and_times(canonical: str) -> str:
    canonical = re.sub(r'"locale":"[^"]*",', "", canonical)
    canonical = re.sub(r',"seed(Commitment|Salt)":"[^"]*"', "", canonical)
    return re.sub(r'"time":"[^"]*"', '"time":""', re.sub(r'"match":"matches/[^"]*"', '"match":""', canonical))


def run(command: list[str]) -> str:
    done = subprocess.run(command, capture_output=True, text=True, timeout=240, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, f"{command[0]} failed:\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.mark.parametrize(("game", "seats", "seed", "count"), [
    ("tictactoe", 2, 7, 9),
    ("campanile", 3, 11, 15),  # hidden hands, shuffled piles: the log hides the draws
])
def test_python_go_and_the_browser_play_one_script_to_the_same_log(host, gamehost_go, game, seats, seed, count):
    with host.client() as client:
        moves = moves_of_a_seeded_match(client, game, seats, seed, count)
    assert len(moves) == count
    script = ["--seed", str(seed), "--seats", str(seats)]
    python = run([sys.executable, "-m", "gamehost.cli.main", "script", game, *script, "--moves", ",".join(moves),
                  "--host", host.target])
    go = run([str(gamehost_go), "script", game, *script, *moves, "--host", host.target])
    browser = run([shutil.which("node") or "node", str(WEB / "e2e" / "script.mjs"), "--target", host.web_url,
                   "--game", game, *script, "--moves", ",".join(moves)])
    assert python.count("\n") == go.count("\n") == browser.count("\n") == 1  # one canonical line each
    assert comparable(python) == comparable(go) == comparable(browser)
    logged = comparable(python)
    assert len([e for e in logged["events"] if e["kind"] == "EVENT_KIND_MOVED"]) == count
    # Byte for byte too, once the match name and the times are put aside.
    assert without_names_and_times(python) == without_names_and_times(go) == without_names_and_times(browser)
