"""The web client in French, in headless Chromium against a real host: a whole
match against a bot, a spectator and the replay, with no English word on the
pages, in the boards' pictures or in the log (the English-leak detector over
the host's, the game's and the page's catalogues).

Every game whose plugin declares French is played: a game becomes part of
this test as soon as its plugin lists "fr" in ``Game.languages``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from gamehost.host.plugins import load_catalog
from gamehost.sdk.i18n import catalogues_of
from gamehost.testing.english_leaks import EnglishLeaks
from gamehost.v1 import gamehost_pb2 as pb


ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "clients" / "web"
PAGE_TABLES = WEB / "src" / "locales"
SCENARIO_TIMEOUT = 300
SEED = 5  # the match's seed and the player's random choices
# Kensington's match at seed 5 ran 169 moves of the player's (76 s idle, the suite's longest test);
# at seed 11 it is played to its end in 107.
SEEDS = {"kensington": 11}
LANGUAGE = "fr"

CATALOG = load_catalog()
FRENCH_GAMES = sorted(game_id for game_id, entry in CATALOG.games.items()
                      if LANGUAGE in catalogues_of(entry.game).languages)


def play_in(language: str, game: str, target: str) -> dict:
    command = [shutil.which("node") or "node", str(WEB / "e2e" / "languages.mjs"), "--target", target,
               "--game", game, "--language", language, "--seed", str(SEEDS.get(game, SEED)),
               "--translated-games", ",".join(FRENCH_GAMES)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=SCENARIO_TIMEOUT, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, f"languages.mjs failed:\n{done.stderr[-4000:]}"
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_tictactoe_is_among_the_french_games():
    # Guards the parametrization below against playing nothing.
    assert "tictactoe" in FRENCH_GAMES


# A whole match by clicks, a spectator and the replay (its first steps, then one in ten): the longest test module.
@pytest.mark.long_running
@pytest.mark.parametrize("game", FRENCH_GAMES)
def test_a_whole_match_its_spectator_and_its_replay_show_no_english(web_host, game):
    page_table = json.loads((PAGE_TABLES / f"{LANGUAGE}.json").read_text(encoding="utf-8"))
    leaks = EnglishLeaks.of_games([CATALOG.games[game].game], LANGUAGE, extra=[page_table])
    # The lobby shows every French game's title and summary: a word is English there only if none of them says it.
    lobby_leaks = EnglishLeaks.of_games([CATALOG.games[each].game for each in FRENCH_GAMES], LANGUAGE,
                                        extra=[page_table])
    played = play_in(LANGUAGE, game, web_host.web_url)

    assert played["before"] == "en"  # the player's browser is English: the switch made the page French
    assert played["reloaded"] == {"lang": LANGUAGE, "switch": LANGUAGE}  # and it is remembered
    # Switched to English and back mid-match: the page read the match again in each, without a reload, same seat.
    switched = played["switched"]
    for shown in (switched["english"], switched["back"]):
        assert shown["url"] == switched["url"] and shown["seatAfter"] == shown["seat"] >= 0
    assert switched["english"]["lastMove"].startswith("Last move: ")
    assert not leaks.words_in(switched["back"]["lastMove"] + " ".join(switched["back"]["legal"]))
    assert played["status"] == "finished" and played["moves"] > 0
    snapshots = played["snapshots"]
    assert {snapshot["where"] for snapshot in snapshots} == {"lobby", "player", "spectator", "replay"}
    last = played["lastVersion"]  # the replay's first 12 steps, one in ten after them, and the last
    assert [int(snapshot["version"]) for snapshot in snapshots if snapshot["where"] == "replay"] == [
        version for version in range(last + 1) if version <= 12 or version % 10 == 0 or version == last]
    found = []
    for snapshot in snapshots:
        assert snapshot["lang"] == LANGUAGE, snapshot["where"]
        for part in ("page", "attributes", "title", "board", "log"):
            english = (lobby_leaks if snapshot["where"] == "lobby" else leaks).words_in(snapshot[part])
            if english:
                found.append(f"{snapshot['where']} at version {snapshot.get('version')}, {part}: {english}\n"
                             f"{snapshot[part][:600]}")
    assert not found, "English on the French pages:\n" + "\n\n".join(found[:6])
    # The pictures did come from the host in French (not only the page's own words).
    assert any(snapshot["board"].strip() for snapshot in snapshots)

    with web_host.client() as client:
        log = client.stub.GetMatchLog(pb.GetMatchLogRequest(name=f"matches/{played['match']}", locale=LANGUAGE))
    moved = [event.label for event in log.events if event.kind == pb.EVENT_KIND_MOVED]
    last_log = next(s["log"] for s in reversed(snapshots) if s["where"] == "spectator")
    assert moved and all(label in last_log for label in moved)
