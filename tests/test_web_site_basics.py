"""The site's basics in the web client, in headless Chromium against a real
host: play again (the protocol's Rematch) between two signed-in browser
pages, one click to play a bot level, the leaderboard and a player's page
read signed out after a rated match, "My matches" and "Open matches to
join" in the lobby, the player counts a game really accepts in the create
form, the header's theme button readable in every theme, and the address
`gamehost serve` says to open. Words are checked in English and, where the
page shows new ones, in French (no English word on the French page).

Each test runs one scenario of clients/web/e2e/site.mjs (playwright-core
driving /usr/bin/chromium) and checks what the page did against the host.
"""

from __future__ import annotations

import json
import secrets
import shutil
import subprocess
from pathlib import Path

import pytest
from gamehost.testing.english_leaks import EnglishLeaks
from gamehost.v1 import gamehost_pb2 as pb

from hosts import HostProcess

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "clients" / "web"
SITE = WEB / "e2e" / "site.mjs"
SCENARIO_TIMEOUT = 240
# Seat 0 wins on the top row; seat 1 answers on the middle row.
SEAT_0_WINS = ["a3", "a2", "b3", "b2", "c3"]


@pytest.fixture(scope="module")
def web_host(signed_in_web_host):
    """The module's pages also sign people in with the identity provider's tokens."""
    return signed_in_web_host


@pytest.fixture(scope="module")
def french_leaks():
    table = json.loads((WEB / "src" / "locales" / "fr.json").read_text(encoding="utf-8"))
    return EnglishLeaks.of_tables("fr", [table])


def site(name: str, target: str, **options) -> dict:
    command = [shutil.which("node") or "node", str(SITE), name, "--target", target]
    for key, value in options.items():
        command += [f"--{key.replace('_', '-')}", str(value)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=SCENARIO_TIMEOUT, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, f"{name} failed:\n{done.stderr[-4000:]}"
    return json.loads(done.stdout.strip().splitlines()[-1])


def signed_in_pair(idp, label: str) -> tuple[str, str]:
    return tuple(idp.token(f"{label}-{name.lower()}-{secrets.token_hex(3)}", name=name)  # type: ignore[return-value]
                 for name in ("Ann", "Bob"))


def match_between(host: HostProcess, ann: str, bob: str) -> tuple[str, dict[str, str]]:
    """A tictactoe match with Ann in seat 0 and Bob in seat 1; their seat tokens."""
    with host.client(ann) as ann_client, host.client(bob) as bob_client:
        match = ann_client.create_match("tictactoe", seats=2)
        tokens = {"ann": ann_client.join(match.name, seat=0).player_token,
                  "bob": bob_client.join(match.name, seat=1).player_token}
    return match.name, tokens


@pytest.mark.parametrize("language", ["en", "fr"])
def test_play_again_moves_both_players_into_the_rematch(web_host, idp, language, french_leaks):
    ann, bob = signed_in_pair(idp, f"again-{language}")
    name, _ = match_between(web_host, ann, bob)
    shown = site("playAgain", web_host.web_url, token=ann, other_token=bob, match=name.removeprefix("matches/"),
                 moves=",".join(SEAT_0_WINS), language=language)

    # Both pages are in the one rematch the host made, each player in their seat moved one on.
    assert shown["annMatch"] == shown["bobMatch"] == shown["offeredMatch"] != name.removeprefix("matches/")
    with web_host.client(ann) as client:
        rematch = client.match(f"matches/{shown['annMatch']}")
        assert rematch.status == pb.MATCH_STATUS_ACTIVE
        assert [seat.player_name for seat in rematch.seats] == ["Bob", "Ann"]
        assert client.rematch(name).name == rematch.name  # the same rematch, asked again
    assert (shown["annSeat"], shown["bobSeat"]) == (1, 0)
    if language == "en":
        assert "Play again" in shown["asked"]
        assert "Ann wants a rematch." in shown["offered"] and "Accept the rematch" in shown["offered"]
    else:
        assert shown["lang"] == "fr"
        assert "Rejouer" in shown["asked"] and "Ann veut une revanche." in shown["offered"]
        assert not french_leaks.words_in(shown["asked"] + "\n" + shown["offered"].replace("Ann", ""))


def test_one_click_plays_against_each_bot_level(web_host):
    with web_host.client() as client:
        bots = client.game("tictactoe").bots
    shown = site("botClick", web_host.web_url, game="tictactoe", bot="mcts-medium")

    # A button per bot of the catalog, named by its title.
    assert [button["bot"] for button in shown["buttons"]] == [bot.name for bot in bots]
    assert [button["text"] for button in shown["buttons"]] == [f"Play against {bot.title or bot.name}" for bot in bots]
    with web_host.client() as client:
        match = client.match(f"matches/{shown['match']}")
    assert match.status == pb.MATCH_STATUS_ACTIVE
    assert [seat.kind for seat in match.seats] == [pb.SEAT_KIND_HUMAN, pb.SEAT_KIND_BOT]
    assert match.seats[1].bot == "mcts-medium"
    assert shown["state"]["seat"] == 0


def test_the_leaderboard_and_a_player_page_after_a_rated_match_read_signed_out(web_host, idp):
    ann, bob = signed_in_pair(idp, "rated")
    name, tokens = match_between(web_host, ann, bob)
    with web_host.client(ann) as client:
        for index, move in enumerate(SEAT_0_WINS):
            client.move(name, tokens["ann" if index % 2 == 0 else "bob"], move_id=move)
        assert client.match(name).status == pb.MATCH_STATUS_FINISHED
        ann_subject = client.identity().subject
    with web_host.client() as anonymous:
        leaders = anonymous.leaderboard("tictactoe", page_size=500).ratings
    ann_player = f"players/{ann_subject}"
    assert ann_player in [rating.player for rating in leaders]

    shown = site("ratings", web_host.web_url, game="tictactoe", player=ann_player)

    # The whole first page of the leaderboard, best first, as the host ranks it.
    assert [row["player"] for row in shown["board"]] == [rating.player for rating in leaders[:50]]
    ann_row = next(row for row in shown["board"] if row["player"] == ann_player)
    assert ann_row["cells"][1] == "Ann" and ann_row["cells"][3:] == ["1", "1", "0", "0"]
    # Her page, reached from her name: her rating in the game; her history is hers alone to see.
    assert shown["hash"] == f"#/players/{ann_subject}"
    assert [row["game"] for row in shown["profile"]] == ["games/tictactoe"]
    assert shown["profile"][0]["cells"][2:] == ["1", "1", "0", "0"]
    assert "Player Ann" in shown["profileText"] and "Only the player sees their match history." in shown["profileText"]


def test_my_matches_and_open_matches_are_apart_in_the_lobby(web_host):
    with web_host.client() as client:
        name = client.create_match("tictactoe", seats=2).name
    match_id = name.removeprefix("matches/")
    shown = site("lobbyLists", web_host.web_url, match=match_id)

    assert match_id in shown["openBefore"]
    # Once this browser took a seat, the match is its own, and still open to the other player elsewhere.
    assert match_id in shown["mine"] and match_id not in shown["openAfter"]
    assert "My matches" in shown["lobby"] and "Open matches to join" in shown["lobby"]


@pytest.mark.parametrize("game, counts", [("scalino", [2, 4]), ("scalino-pyramid", [2, 3, 4, 5, 6]),
                                          ("tictactoe", [2])])
def test_the_create_form_offers_only_the_player_counts_the_game_accepts(web_host, game, counts):
    with web_host.client() as client:
        assert list(client.game(game).player_counts) == counts
    shown = site("seatChoices", web_host.web_url, game=game)

    assert shown["counts"] == counts
    if game == "scalino":
        assert "2 or 4 players" in shown["summary"]


def test_the_create_form_says_the_counts_in_french(web_host, french_leaks):
    shown = site("seatChoices", web_host.web_url, game="scalino", language="fr")

    assert shown["counts"] == [2, 4] and "2 ou 4 joueurs" in shown["summary"]


def test_the_theme_button_is_readable_in_every_theme(web_host):
    shown = site("themeButton", web_host.web_url)

    assert set(shown) == {"auto", "dark", "light"}
    for theme, measured in shown.items():
        assert measured["contrast"] >= 4.5, (theme, measured)


def test_serve_says_the_address_to_open_in_a_browser():
    host = HostProcess("--web-root", str(WEB / "dist")).start(timeout=120)
    try:
        url = f"http://127.0.0.1:{host.web_port}/"
        # Said before "host serving", which start() waited for.
        assert [line["url"] for line in host.log_lines(f"Open {url} in a browser")] == [url]
    finally:
        host.stop()


def test_serve_says_no_address_when_the_web_port_serves_no_page(tmp_path):
    host = HostProcess("--web-root", str(tmp_path)).start(timeout=120)  # an empty web root: the port serves only the API
    try:
        assert host.web_port
        assert not [line for line in host.logs if "url" in line]
    finally:
        host.stop()
