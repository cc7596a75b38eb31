"""The web client (clients/web) in headless Chromium against a real host: the
browser talks Connect to the host's web port, exactly as a person's would.

Each test runs one scenario of clients/web/e2e/run.mjs (playwright-core
driving /usr/bin/chromium) and checks what the page did against the host,
through the Python client. `make test` builds the client and installs
chromium first (`make web`, Debian's chromium package).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import xml.etree.ElementTree as ElementTree
from collections import Counter
from pathlib import Path

import pytest
from gamehost.client import canonical_json, from_struct
from gamehost.v1 import gamehost_pb2 as pb

from hosts import FIXTURE_SITE, HostProcess

ROOT = Path(__file__).resolve().parents[1]
HOSTILE_PLUGIN_SITE = Path(__file__).parent / "fixtures" / "web_site"
WEB = ROOT / "clients" / "web"
E2E = WEB / "e2e"
SCREENSHOTS = ROOT / "ci-artifacts" / "screenshots"
SCENARIO_TIMEOUT = 240


@pytest.fixture(scope="module")
def web_host(signed_in_web_host):
    """One host for the module; it also accepts the test identity provider's
    JWTs (anonymous callers stay welcome, as on any host without
    --auth-required)."""
    return signed_in_web_host


@pytest.fixture()
def web_client(web_host):
    with web_host.client() as connected:
        yield connected


def scenario(name: str, target: str, **options) -> dict:
    """Runs one browser scenario and returns the JSON it printed last."""
    command = [shutil.which("node") or "node", str(E2E / "run.mjs"), name, "--target", target]
    for key, value in options.items():
        command += [f"--{key.replace('_', '-')}", str(value)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=SCENARIO_TIMEOUT, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, f"{name} failed:\n{done.stderr[-4000:]}"
    return json.loads(done.stdout.strip().splitlines()[-1])


def moves_of(log: pb.MatchLog, seat: int) -> list[str]:
    return [event.label for event in log.events if event.kind == pb.EVENT_KIND_MOVED and event.seat == seat]


def svg_texts(svg: str) -> list[str]:
    return ["".join(element.itertext()) for element in ElementTree.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]


@pytest.mark.parametrize("game", ["tictactoe"])
def test_a_match_against_a_bot_is_played_to_the_end_by_clicking(web_host, web_client, game):
    played = scenario("play", web_host.web_url, game=game, reload_after=2)

    name = f"matches/{played['match']}"
    match = web_client.match(name)
    assert match.status == pb.MATCH_STATUS_FINISHED and played["status"] == "finished"
    # Every click reached the host as the move it was labelled with, in order.
    assert moves_of(web_client.log(name), 0) == [move["label"] for move in played["moves"]]
    assert any(move["via"] == "svg" for move in played["moves"])
    # Reloaded after two moves, the page went on as the same seat.
    assert played["seat"] == played["seatAfterReload"] == 0
    assert match.result.summary in played["turn"] and match.result.summary in played["result"]
    assert len(played["log"]) == match.version


@pytest.mark.long_running
@pytest.mark.parametrize("game, seed", [("callisto", 16), ("kensington", 16)])
def test_a_match_is_played_to_the_end_by_clicks_on_the_board_only(web_host, web_client, game, seed):
    """Moves offered in parts (a piece, how it lies, its cell; a
    tile, its cell) are composed by clicks on the picture, on a 720 px page
    whose text reads at 10 px or more."""
    played = scenario("compose", web_host.web_url, game=game, seed=seed, choices=seed)

    name = f"matches/{played['match']}"
    match = web_client.match(name)
    assert match.status == pb.MATCH_STATUS_FINISHED and played["status"] == "finished"
    # Every move reached the host as the one composed, in order, and was made on the board (the scenario
    # fails on a move it cannot make there).
    assert moves_of(web_client.log(name), played["seat"]) == [move["label"] for move in played["moves"]]
    composed = [move for move in played["moves"] if move["parts"]]
    assert composed and all(move["clicks"] for move in played["moves"])
    # Clicked parts are the move's own, in order; the others were taken because they were the only choice.
    assert all(move["clicks"] == [part for part in move["parts"] if part in move["clicks"]] for move in composed)
    assert any(len(move["clicks"]) >= 2 for move in composed)
    assert played["sizes"]["minTextPx"] >= 10, played["sizes"]
    assert played["sizes"]["minTargetPx"] >= 10, played["sizes"]


def test_a_spectator_sees_moves_live_with_no_controls_and_no_secrets(web_host, web_client):
    watched = scenario("spectate", web_host.web_url, game="campanile", moves=4, seed=4242)

    name = f"matches/{watched['match']}"
    spectator, player = watched["spectator"], watched["player"]
    assert spectator["seat"] == -1 and "spectator" in spectator["identity"]
    assert spectator["controls"] == 0 and player["legal"] > 0
    # The creator chose the seed (test hosts let anyone): everybody is told chance is not hidden from them.
    assert web_client.match(name).seed_chosen and "chosen by its creator" in spectator["seedNotice"]
    assert watched["seenBySpectator"] == sorted(set(watched["seenBySpectator"])) and len(watched["seenBySpectator"]) >= 3
    assert len(spectator["log"]) == watched["version"]

    public = web_client.view(name, svg=True)
    own = web_client.view(name, watched["token"], svg=True)
    assert public.version == own.version == watched["version"]
    # The spectator's board shows what the host's spectator view shows, and the seat's board more.
    assert Counter(spectator["texts"]) == Counter(svg_texts(public.svg))
    assert Counter(player["texts"]) == Counter(svg_texts(own.svg))
    assert Counter(player["texts"]) - Counter(spectator["texts"])
    for card in from_struct(own.state)["hand"]:
        assert card not in spectator["html"]
    # Tokens stay out of the page, even the holder's.
    assert watched["token"] not in spectator["html"] and watched["token"] not in player["html"]


def test_errors_are_shown_with_code_reason_details_and_advice(web_host, web_client):
    missing = secrets.token_hex(8)
    shown = scenario("errors", web_host.web_url, missing=missing, options_game="burgbaumeister",
                     bad_option="stall_turns_per_face_down_card", bad_value=0)

    not_found = shown["notFound"]
    assert (not_found["code"], not_found["reason"]) == ("NOT_FOUND", "MATCH_NOT_FOUND")
    assert f"matches/{missing}" in not_found["text"] and "lobby" in not_found["text"]
    # Written for players: the advice shows; the code, the reason and the host's words wait behind "Details".
    assert not_found["detailsOpen"] is False and "lobby" in not_found["shown"]
    assert "NOT_FOUND" not in not_found["shown"] and "MATCH_NOT_FOUND" in not_found["text"]

    stale = shown["stale"]
    assert (stale["code"], stale["reason"]) == ("ABORTED", "STALE_VERSION")
    assert "moved on" in stale["text"] and f"version {stale['currentVersion']}" in stale["text"]
    # The page refreshed to the match as it is; the stale move changed nothing.
    assert stale["versionAfter"] == stale["currentVersion"] > stale["staleVersion"]

    late = shown["lateJoin"]
    assert late["earlySeat"] == 1
    assert (late["code"], late["reason"]) == ("FAILED_PRECONDITION", "MATCH_NOT_OPEN")
    assert "watch" in late["text"]

    forgotten = shown["unknownToken"]
    assert (forgotten["code"], forgotten["reason"]) == ("UNAUTHENTICATED", "INVALID_TOKEN")
    assert forgotten["seat"] == -1 and forgotten["kept"] is None and "spectator" in forgotten["text"]

    refused = shown["invalidOptions"]
    assert (refused["code"], refused["reason"]) == ("INVALID_ARGUMENT", "INVALID_OPTIONS")
    assert "options.stall_turns_per_face_down_card" in refused["text"]
    assert refused["marked"] == ["option:stall_turns_per_face_down_card"]
    # An option with no title in its schema is labelled with its key in words, not the raw key.
    assert refused["markedLabels"] == ["Stall turns per face down card"]


def test_a_turn_timeout_set_in_the_lobby_runs_down_on_the_page(web_host, web_client):
    timed = scenario("timeout", web_host.web_url, seconds=2)

    assert re.fullmatch(r"time left 0:0[0-2]", timed["clock"])
    log = web_client.log(f"matches/{timed['match']}")
    first_move = next(event for event in log.events if event.kind == pb.EVENT_KIND_MOVED)
    assert first_move.seat == 0 and first_move.timed_out
    assert f"Player 1: {first_move.label} (timed out: the host moved for them)" in timed["log"]


def test_a_signed_in_player_gets_their_seat_back_in_another_browser(web_host, web_client, idp):
    token = idp.token("web-ann", name="Ann on the web")
    shown = scenario("signIn", web_host.web_url, token=token, admin_token=idp.token("web-ops", roles=["admin"]))

    name = f"matches/{shown['match']}"
    # The first browser took the token from the address and removed it at once.
    assert shown["firstBar"]["state"] == "signed-in" and shown["firstBar"]["subject"] == "web-ann"
    assert "Ann on the web" in shown["firstBar"]["text"] and token not in shown["address"]
    assert shown["firstState"]["seat"] == 0 and shown["seedNotice"] is None  # the host drew the seed
    # The second lists the match under "My matches", shows the identity's name, and gets seat 0 back.
    assert "Ann on the web (player 1) · signed in" in shown["mineText"]
    assert shown["lobbyName"] == {"value": "Ann on the web", "disabled": True}
    assert shown["reclaimedAs"] == "0" and shown["reclaimed"]["seat"] == 0
    # Kept for this tab only: the sign-in field's "stay signed in" was not ticked.
    assert shown["secondStorage"] == {"session": token, "local": None}
    log = web_client.log(name)
    moves = [event for event in log.events if event.kind == pb.EVENT_KIND_MOVED and event.seat == 0]
    assert [event.label for event in moves] == [move["label"] for move in shown["firstMoves"] + shown["secondMove"]]
    assert shown["secondState"]["version"] > shown["reclaimed"]["version"]
    seat = web_client.match(name).seats[0]
    assert (seat.player_name, seat.verified) == ("Ann on the web", True)
    with web_host.client(token) as signed_in:
        assert name in [match.name for match in signed_in.matches(mine=True)]

    # A token the host refuses is shown as such; signed out, the third browser only watches.
    refused = shown["refusedBar"]
    assert (refused["state"], refused["code"], refused["reason"]) == ("refused", "UNAUTHENTICATED",
                                                                       "INVALID_BEARER_TOKEN")
    assert [(event["type"], event["reason"]) for event in refused["refusals"]] == [("gamehost:sign-in-refused",
                                                                                    "INVALID_BEARER_TOKEN")]
    watching = shown["watching"]
    assert watching["seat"] == -1 and "spectator" in watching["identity"] and watching["controls"] == 0
    assert token not in watching["html"]
    # Its old token replaced, the first browser still follows the match as seat 0.
    assert shown["firstAfter"]["seat"] == 0 and shown["firstAfter"]["version"] >= shown["secondState"]["version"]
    # Aborted by an admin: the game pages and the lobby say so, and why.
    abort = shown["abort"]
    assert web_client.match(name).status == pb.MATCH_STATUS_ABORTED
    assert abort["turn"] == abort["firstTurn"] == "Aborted by the host: the test is over [ADMIN_ABORT]."
    assert abort["lastLogLine"] == "the host aborted the match (ADMIN_ABORT)"
    assert abort["lobby"].splitlines() == ["aborted", "the test is over [ADMIN_ABORT]"]
    # Signing out forgets the bearer token and the tokens of the seats taken while signed in.
    assert shown["afterSignOut"] == {"storage": None, "seatToken": None, "myMatchesHidden": True}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_page_reconnects_and_resumes_after_the_host_restarts(tmp_path):
    web_port = free_port()
    host_args = ("--web-port", str(web_port), "--web-root", str(WEB / "dist"))
    host = HostProcess(*host_args, data_dir=tmp_path).start()
    browser = subprocess.Popen([shutil.which("node") or "node", str(E2E / "run.mjs"), "reconnect",
                                "--target", host.web_url, "--game", "tictactoe", "--drop-after", "2"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert json.loads(browser.stdout.readline())["step"] == "drop-now", browser.stderr.read()
        host.kill()
        browser.stdin.write("go on\n")
        browser.stdin.flush()
        assert json.loads(browser.stdout.readline())["step"] == "reconnecting", browser.stderr.read()
        host = HostProcess(*host_args, data_dir=tmp_path).start()
        browser.stdin.write("go on\n")
        browser.stdin.flush()
        resumed = json.loads(browser.stdout.readline() or "{}")
        assert browser.wait(SCENARIO_TIMEOUT) == 0, browser.stderr.read()
        assert "reconnecting" in resumed["badge"]
        assert resumed["status"] == "finished" and resumed["movesAfter"]
        with host.client() as client:
            name = f"matches/{resumed['match']}"
            log = client.log(name)
            played = resumed["movesBeforeDrop"] + resumed["movesAfter"]
            assert moves_of(log, 0) == [move["label"] for move in played]
            # Every event is in the page's move log exactly once, across the restart.
            assert len(resumed["log"]) == len(log.events) == client.match(name).version
    finally:
        if browser.poll() is None:
            browser.kill()
        host.stop()


def test_plugin_svg_is_drawn_inert_and_its_move_target_still_works():
    host = HostProcess("--web-root", str(WEB / "dist"), env={"PYTHONPATH": str(HOSTILE_PLUGIN_SITE)}).start()
    try:
        drawn = scenario("hostile", host.web_url, game="hostile-svg")
    finally:
        host.stop()

    board = drawn["drawn"]
    assert board["svg"] == 1 and board["hostile"] is None
    assert board["forbiddenElements"] == [] and board["handlers"] == [] and board["links"] == []
    assert board["targets"] == ["go"]
    # Hovering, clicking the link and the target ran nothing; the target lies under a label and
    # the click on the label still played it.
    assert drawn["interactionError"] is None
    assert (drawn["viaBoard"], drawn["viaList"]) == ("svg", "list")
    assert drawn["after"]["hostile"] is None and drawn["after"]["handlers"] == []
    assert drawn["state"]["status"] == "finished" and "#/matches/" in drawn["url"]


def test_a_screenshot_of_every_game_page_at_desktop_and_phone_width(web_host, web_client):
    taken = scenario("screenshots", web_host.web_url, out=SCREENSHOTS)

    games = sorted(game.id for game in web_client.games())
    assert [(shot["game"], shot["width"]) for shot in taken["shots"]] == \
        [(game, width) for width in ("desktop", "phone") for game in games]
    for shot in taken["shots"]:
        picture = Path(shot["file"]).read_bytes()
        assert picture.startswith(b"\x89PNG") and len(picture) > 10_000, shot["game"]
        assert shot["svg"] == 1 and shot["status"] == "active" and shot["legal"], shot["game"]
        # Nothing is cut off: no page is wider than the screen, on a phone either.
        assert shot["overflow"] <= 0 and shot["lobbyOverflow"] <= 0, (shot["game"], shot["width"])
    for width in ("desktop", "phone"):
        assert (SCREENSHOTS / f"lobby-{width}.png").read_bytes().startswith(b"\x89PNG")


def test_a_finished_match_is_replayed_step_by_step_to_the_end(web_host, web_client):
    replayed = scenario("replay", web_host.web_url, game="tictactoe", bot="mcts-easy")

    name = f"matches/{replayed['match']}"
    match = web_client.match(name)
    log = web_client.log(name)
    assert match.status == pb.MATCH_STATUS_FINISHED and replayed["lastVersion"] == match.version
    # The lobby offered the catalog's bots with their levels; the one picked plays the bot seat.
    catalog = web_client.game("tictactoe").bots
    assert [choice["name"] for choice in replayed["botChoices"]] == [bot.name for bot in catalog]
    assert any(f"(level {bot.level})" in choice["text"] for bot, choice in zip(catalog, replayed["botChoices"])
               if bot.level > 0)
    assert match.seats[1].bot == "mcts-easy"
    # The tab said when it was the player's turn; the turn line said when the bot was thinking.
    assert replayed["titleOnTurn"].startswith("● Your turn")
    assert "Player 2 (bot) is thinking…" in replayed["turnTexts"]
    # The bot's first move is named above the board, and the mark it drew is the one part marked as changed.
    bot_first = next(event for event in log.events if event.kind == pb.EVENT_KIND_MOVED and event.seat == 1)
    assert replayed["afterBot"] == {"lastMove": f"Last move: Player 2 (bot): {bot_first.label}", "marked": ["text:O"]}
    # The page showed how it ended, for this player, with the scores; so did the tab's title.
    winners = list(match.result.winners)
    outcome = "You won!" if winners == [0] else "You lost" if winners == [1] else "Draw."
    assert replayed["ending"].startswith(outcome) and "Scores:" in replayed["ending"]
    assert replayed["title"].startswith(outcome.rstrip("!."))
    # Every version once, in order, each with the move that led to it and the host's picture of it.
    steps = replayed["steps"]
    assert [step["version"] for step in steps] == list(range(match.version + 1))
    assert steps[-1]["position"] == f"Step {match.version} of {match.version}"
    for event in log.events:
        step = steps[event.version]
        if event.kind == pb.EVENT_KIND_MOVED:
            # The move that led to the step, and the mark it drew marked as what changed.
            assert step["step"].endswith(event.label), event.version
            assert step["marked"] == [f"text:{'XO'[event.seat]}"], event.version
        else:
            assert step["marked"] == [], event.version  # a join, the start, the end: the picture did not change
    for step in steps:
        assert step["texts"] == svg_texts(web_client.view(name, at_version=step["version"], svg=True).svg)
    assert steps[0]["texts"] == [] and len(steps[-1]["texts"]) == len(moves_of(log, 0) + moves_of(log, 1))
    assert len(moves_of(log, 0)) == replayed["played"]
    assert replayed["atEnd"]["nextDisabled"] and replayed["atEnd"]["ending"]
    assert replayed["rawComplete"] == "true"


def test_the_lobby_a_game_page_and_a_replay_have_no_serious_accessibility_violation(web_host):
    checked = scenario("accessibility", web_host.web_url, game="tictactoe")

    pages = [(result["page"], result["colorScheme"]) for result in checked["results"]]
    # Every game's page and replay, in both themes: test_web_layout.py.
    assert pages == [(page, scheme) for scheme in ("light", "dark")
                     for page in ("lobby", "game", "finished game", "replay")]
    serious = [(result["page"], result["colorScheme"], violation) for result in checked["results"]
               for violation in result["violations"] if violation["impact"] in ("serious", "critical")]
    assert serious == []
    # Dark mode follows the system's scheme, and the header's toggle overrides it either way.
    light, dark = checked["toggled"]
    assert light["system"] != dark["system"]
    assert (light["theme"], light["toggled"]) == ("dark", dark["system"])
    assert (dark["theme"], dark["toggled"]) == ("light", light["system"])


def test_script_mode_plays_given_moves_and_prints_the_match_log(web_host, web_client):
    moves = ["b2", "a1", "c3", "a3", "a2", "c2", "b3", "b1", "c1"]
    done = subprocess.run([shutil.which("node") or "node", str(E2E / "script.mjs"), "--target", web_host.web_url,
                           "--game", "tictactoe", "--seed", "7", "--moves", ",".join(moves)],
                          capture_output=True, text=True, timeout=SCENARIO_TIMEOUT, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)

    # Byte for byte the canonical JSON of the log the Python client reads (docs/clients.md), but for
    # the language: the browser asks in its own (Accept-Language) and the log says which it got.
    log = web_client.log(printed["match"])
    assert printed["locale"] == "en"
    assert done.stdout.replace('"locale":"en",', "") == canonical_json(log) + "\n"
    assert printed["complete"] and printed["seed"] == "7" and printed["result"]["summary"] == "Draw."
    # Tic-tac-toe numbers its cells row by row from a3.
    assert [from_struct(event.move)["cell"] for event in log.events if event.kind == pb.EVENT_KIND_MOVED] == \
        [(3 - int(move[1])) * 3 + "abc".index(move[0]) for move in moves]


def test_script_mode_names_the_legal_moves_when_a_move_is_not_legal(web_host):
    done = subprocess.run([shutil.which("node") or "node", str(E2E / "script.mjs"), "--target", web_host.web_url,
                           "--game", "tictactoe", "--moves", "b2,b2"],
                          capture_output=True, text=True, timeout=SCENARIO_TIMEOUT, stdin=subprocess.DEVNULL)
    assert done.returncode == 1 and done.stdout == ""
    assert "move b2 is not legal for any seat" in done.stderr and "seat 1: a3 b3 c3 a2 c2 a1 b1 c1" in done.stderr


def test_your_turn_in_the_lobby_lists_a_match_until_the_player_moves(web_host, idp):
    ann, bob, cy = (idp.token(f"turn-{name.lower()}-{secrets.token_hex(3)}", name=name) for name in ("Ann", "Bob", "Cy"))
    with web_host.client(ann) as ann_client, web_host.client(bob) as bob_client:
        def between(first, second, **create) -> str:
            match = first.create_match("tictactoe", **create)
            first.join(match.name, seat=0)
            second.join(match.name, seat=1)
            return match.name.removeprefix("matches/")

        theirs = between(ann_client, bob_client)
        others = between(bob_client, ann_client)
        clocked = between(ann_client, bob_client, clock=900)
        title = ann_client.game("tictactoe").title
        shown = scenario("yourTurn", web_host.web_url, token=ann, other_token=bob, newcomer_token=cy,
                         matches=",".join([theirs, others, clocked]), out=SCREENSHOTS)

        before = shown["before"]
        assert [item["match"] for item in before["items"]] == [clocked, theirs]
        assert before["heading"] == "Your turn (2)" and before["title"].startswith("(2) Your turn")
        for item in before["items"]:
            assert item["text"].startswith(f"{title} vs Bob") and "you are player 1" in item["text"]
        # of 15 min, rounded up: "15:00 left" while less than a second has run
        assert re.search(r"· (15:00|14:[0-5]\d) left", before["items"][0]["text"])
        assert "left" not in before["items"][1]["text"]  # no clock there
        assert all(re.search(r"waiting [1-9]\d* s", item["text"]) for item in shown["ticked"])
        assert [item["match"] for item in shown["otherBefore"]] == [others]
        assert shown["otherBefore"][0]["text"].startswith(f"{title} vs Ann")
        assert [v for v in shown["accessibility"] if v["impact"] in ("serious", "critical")] == []
        empty = shown["empty"]
        assert empty["count"] == "0" and "No match is waiting for your move" in empty["note"]
        assert empty["title"] == "gamehost"

        # Ann opened the match from the list as her seat, moved, and it left her list for Bob's.
        assert shown["opened"]["seat"] == 0 and len(shown["moves"]) == 1
        assert moves_of(ann_client.log(theirs), 0) == [shown["moves"][0]["label"]]
        assert [item["match"] for item in shown["after"]] == [clocked]
        assert [item["match"] for item in shown["otherAfter"]["items"]] == [others, theirs]
        assert shown["otherAfter"]["sameDocument"] is True
        assert [m.name for m in bob_client.matches(my_turn=True)] == [f"matches/{others}", f"matches/{theirs}"]
        assert [m.name for m in ann_client.matches(my_turn=True)] == [f"matches/{clocked}"]


def test_two_players_take_a_move_back_by_agreement_and_refuse_the_next(web_host, web_client):
    """Undo by agreement (docs/protocol.md): the asker's prompt, the other player's Accept / Refuse, what a
    spectator sees; the board follows the UNDONE event's view."""
    shown = scenario("undo", web_host.web_url, game="tictactoe", out=SCREENSHOTS)

    name = f"matches/{shown['match']}"
    label = shown["move"]["label"]
    log = web_client.log(name)
    kinds = [pb.EventKind.Name(event.kind).removeprefix("EVENT_KIND_") for event in log.events
             if event.version > next(e.version for e in log.events if e.kind == pb.EVENT_KIND_STARTED)]
    assert kinds == ["MOVED", "UNDO_ASKED", "UNDO_ACCEPTED", "UNDONE", "MOVED", "UNDO_ASKED", "UNDO_REFUSED",
                     "UNDO_ASKED", "UNDO_WITHDRAWN"]
    first_move = next(event for event in log.events if event.kind == pb.EVENT_KIND_MOVED)
    undone = next(event for event in log.events if event.kind == pb.EVENT_KIND_UNDONE)
    assert undone.undoes == first_move.version and undone.seat == 0

    # Before any move nobody can ask; after X's move only X can, and O is told why not.
    assert shown["beforeAny"]["buttons"][0]["disabled"] and "No move" in shown["beforeAny"]["reason"]
    assert [b["id"] for b in shown["afterMove"]["first"]["buttons"]] == ["undo-ask"]
    assert not shown["afterMove"]["first"]["buttons"][0]["disabled"]
    assert shown["afterMove"]["second"]["buttons"][0]["disabled"]
    assert "Player 1's: only your own move can be taken back" in shown["afterMove"]["second"]["reason"]

    # The ask: O is prompted with labelled Accept / Refuse and the expiry; X waits and may withdraw; the spectator
    # sees the ask with no button. The prompt is announced as moves are (a polite live region).
    asked = shown["asked"]
    assert asked["second"]["message"] == f"Player 1 asks to take back their move ({label})."
    assert [(b["id"], b["text"]) for b in asked["second"]["buttons"]] == [("undo-accept", "Accept"),
                                                                        ("undo-refuse", "Refuse")]
    assert all(b["label"] and not b["disabled"] for b in asked["second"]["buttons"])
    assert re.search(r"lapses in [45]:\d\d", asked["second"]["expiry"]) and asked["second"]["live"] == "polite"
    assert "Waiting for Player 2" in asked["first"]["message"]
    assert [b["id"] for b in asked["first"]["buttons"]] == ["undo-withdraw"]
    assert asked["spectator"]["buttons"] == [] and "Player 1 asks to take back" in asked["spectator"]["message"]
    assert shown["spectatorButtons"] == 0
    assert [v for v in shown["accessibility"] if v["impact"] in ("serious", "critical")] == []
    # No layout jump: the panel keeps its height, and the board its place, when the prompt appears.
    for page in ("first", "second"):
        assert asked[page]["height"] == shown["afterMove"][page]["height"], page
        assert asked[page]["boardTop"] == shown["afterMove"][page]["boardTop"], page

    # Accepted: the move left every board, and the log greys it out.
    accepted = shown["undone"]
    assert accepted["texts"] == accepted["spectatorTexts"] == []
    assert shown["move"]["id"] in [move["id"] for move in accepted["state"]["legal"]]
    assert all(f"Taken back: Player 1's move ({label})." == accepted[page]["message"]
               for page in ("first", "second", "spectator"))
    assert accepted["takenBack"] == [f"Player 1: {label} (taken back)"]
    assert accepted["lastMove"] == ""  # no move stands any more

    # Refused: the move stays on the board, O is to move.
    refused = shown["refused"]
    assert refused["texts"] == ["X"] and shown["move"]["id"] not in [m["id"] for m in refused["state"]["legal"]]
    assert refused["first"]["message"] == f"Player 2 refused: Player 1's move ({label}) stands."
    assert refused["lastMove"] == f"Last move: Player 1: {label}"
    assert shown["withdrawn"]["second"]["message"] == f"Player 1 withdrew the ask: Player 1's move ({label}) stands."
    # A tab opened during the ask showed it open as it opened; its answer after the withdrawal is refused in the
    # problem panel, and the tab then shows the match as it is (no ask).
    late = shown["refusedAnswer"]
    assert late["asked"]["message"] == f"Player 1 asks to take back their move ({label})."
    assert late["reason"] == "NO_UNDO_ASKED" and "No ask to take back is open any more" in late["text"]
    assert late["panel"]["state"] == "none" and late["panel"]["buttons"][0]["id"] == "undo-ask"

    view = web_client.view(name, svg=True)
    assert svg_texts(view.svg) == ["X"] and not web_client.match(name).HasField("undo_ask")
    assert shown["log"][-9:] == [f"Player 1: {label} (taken back)", "Player 1 asked to take back their move",
                                 "Player 2 agreed to take the move back", "Player 1's move was taken back",
                                 f"Player 1: {label}", "Player 1 asked to take back their move",
                                 "Player 2 refused to take the move back", "Player 1 asked to take back their move",
                                 "Player 1 withdrew their ask to take back"]


def test_play_with_a_friend_by_link_to_a_resignation(web_host, web_client):
    """The lobby's "Play with a friend": a private match and its link; the link in a second browser takes the
    other seat; a draw offered and declined; the friend resigns and both pages show the result."""
    shown = scenario("friend", web_host.web_url, game="tictactoe", out=SCREENSHOTS)

    name = f"matches/{shown['match']}"
    code = shown["link"].rsplit("?invite=", 1)[1]
    assert shown["link"] == f"{web_host.web_url}/#/matches/{shown['match']}?invite={code}" and code.startswith("ghi_")
    assert "Send this link to your friend" in shown["invitationText"]
    assert "invite=" not in shown["addressAfterJoin"]  # the code leaves the address bar once kept
    assert shown["invitationHidden"]  # both seats taken: nothing left to invite to
    # A stranger without the link does not see the match; with it, it is there.
    assert name not in [match.name for match in web_client.matches(limit=500)]
    assert error_code(web_client.match, name) == "NOT_FOUND"
    match = web_client.match(name, invitation_code=code)
    assert match.visibility == pb.VISIBILITY_PRIVATE and match.seats[0].kind == pb.SEAT_KIND_HUMAN
    assert match.seats[1].resigned and not match.seats[0].resigned

    offered = shown["offered"]
    assert "You offered a draw. Waiting for Player 2." in offered["first"]
    assert "Player 1 offers a draw." in offered["second"] and offered["secondButtons"] == ["Resign", "Accept", "Decline"]
    first, second = shown["result"]["first"], shown["result"]["second"]
    assert first["ending"].startswith("You won!") and second["ending"].startswith("You lost")
    assert "You played Player 2 and resigned." in second["identity"]
    assert first["problem"] == second["problem"] == ""
    assert first["endingsHidden"] and second["endingsHidden"]
    assert "Player 2 resigned" in first["log"] and "Player 2 resigned" in second["log"]
    assert "Player 1 offered a draw" in first["log"] and "Player 2 declined the draw" in first["log"]

    log = web_client.log(name, invitation_code=code)
    kinds = [pb.EventKind.Name(event.kind).removeprefix("EVENT_KIND_") for event in log.events]
    assert kinds[-7:] == ["MOVED", "MOVED", "MOVED", "DRAW_OFFERED", "DRAW_DECLINED", "RESIGNED", "FINISHED"]
    assert list(log.result.winners) == [0]


def error_code(call, *args) -> str:
    from gamehost.client import GameHostError
    try:
        call(*args)
    except GameHostError as error:
        return error.code.name
    return "OK"


def test_two_signed_in_players_find_a_match_in_the_lobby_and_cancel_a_ticket(web_host, idp):
    """"Find a match" (docs/clients.md): an anonymous visitor is told to sign in and offered nothing else; two
    signed-in players queue for tic-tac-toe in two browsers, land on the same match seated by identity, and each
    moves. A ticket nobody matches expires ("queue again"); one queued again is picked up by the reloaded lobby,
    followed again after a network loss, and cancelled; one accepting bots at once is matched with a bot."""
    ann, bob = (idp.token(f"queue-{name.lower()}-{secrets.token_hex(3)}", name=name) for name in ("Ann", "Bob"))
    shown = scenario("queue", web_host.web_url, game="tictactoe", token=ann, other_token=bob, out=SCREENSHOTS)

    anonymous = shown["anonymous"]
    assert anonymous["state"] == "anonymous" and anonymous["controls"] == 0
    assert "Sign in to find a match" in anonymous["text"]
    with web_host.client(ann) as ann_client, web_host.client(bob) as bob_client:
        title = ann_client.game("tictactoe").title
        waiting = shown["waiting"]
        assert waiting["state"] == "queued" and f"Looking for a 2-player match of {title}." in waiting["text"]
        waited = re.search(r"Waiting (\d+):(\d\d); the host gives up at ", waiting["text"])
        assert waited and int(waited[1]) * 60 + int(waited[2]) >= 1 and "Cancel" in waiting["text"]  # counted live
        assert [v for v in shown["accessibility"] if v["impact"] in ("serious", "critical")] == []

        # Both landed on the match the host formed, each in the seat their ticket names, by identity.
        first = ann_client.ticket(shown["ticket"])
        [second] = [t for t in bob_client.tickets() if t.state == pb.TICKET_STATE_MATCHED]
        assert first.state == pb.TICKET_STATE_MATCHED and first.match == second.match
        assert shown["matches"] == [first.match.removeprefix("matches/")] * 2
        assert (shown["seated"]["first"]["seat"], shown["seated"]["second"]["seat"]) == (first.seat, second.seat)
        match = ann_client.match(first.match)
        assert sorted(seat.player_name for seat in match.seats) == ["Ann", "Bob"]
        assert all(seat.verified for seat in match.seats)
        log = ann_client.log(first.match)
        mover = shown["seated"]["first"]["toMove"][0]
        assert moves_of(log, mover) + moves_of(log, 1 - mover) == [move["label"] for move in shown["moves"]]

        expired = shown["expired"]
        assert expired["state"] == "expired" and expired["formShown"]
        assert f"Nobody was found in time for {title}; queue again." in expired["text"]
        assert ann_client.ticket(expired["ticket"]).state == pb.TICKET_STATE_EXPIRED

        # Cancelled: out of the queue, and the form is back.
        cancelled = shown["cancelled"]
        assert cancelled["formHiddenWhileQueued"] and cancelled["formShown"]
        # The stream dropped by the network was opened again (after GetTicket), and went on following the ticket.
        assert cancelled["dropped"] == 1 and cancelled["reconnected"] == 2
        assert cancelled["state"] == "cancelled" and f"You left the queue for {title}." in cancelled["text"]
        assert ann_client.ticket(cancelled["ticket"]).state == pb.TICKET_STATE_CANCELLED
        assert ann_client.tickets(states=[pb.TICKET_STATE_QUEUED]) == []

        bot_match = ann_client.match(f"matches/{shown['botMatch']}")
        kinds = {seat.index: seat.kind for seat in bot_match.seats}
        assert kinds[shown["botSeat"]] == pb.SEAT_KIND_HUMAN and kinds[1 - shown["botSeat"]] == pb.SEAT_KIND_BOT
        assert bot_match.seats[shown["botSeat"]].verified


def test_a_party_started_in_the_lobby_is_joined_through_its_link_and_matched_together(web_host, idp):
    """Parties (docs/clients.md): the starter's ticket shows the party's link and "1 of 2 queued"; the link
    opened anonymously says to sign in first; a player at the ticket limit is refused (TICKET_LIMIT) and
    queues nothing; a signed-in friend joins through the link, and both tickets show "2 of 2 queued" live; a
    player queuing alone completes the 3-player match, and all three are seated in it; the link opened after
    the match is refused with PARTY_NOT_FOUND and advice."""
    ann, bob, cy, dee = (idp.token(f"party-{name.lower()}-{secrets.token_hex(3)}", name=name)
                         for name in ("Ann", "Bob", "Cy", "Dee"))
    with web_host.client(cy) as cy_client:
        # Cy's four queued tickets (the most a player may hold) wait in a pool no other test queues in.
        held = [cy_client.create_ticket("campanile", seats=5, ttl=600).name for _ in range(4)]
        try:
            shown = scenario("party", web_host.web_url, game="campanile", seats=3, token=ann, other_token=bob,
                             newcomer_token=cy, filler_token=dee, out=SCREENSHOTS)
            # The refusals queued nothing.
            assert sorted(t.name for t in cy_client.tickets(states=[pb.TICKET_STATE_QUEUED])) == sorted(held)
            assert len(cy_client.tickets()) == 4
        finally:
            for ticket in held:
                cy_client.cancel_ticket(ticket)

    started = shown["started"]
    party = started["party"]
    assert re.fullmatch(r"parties/[A-Za-z0-9_-]{16}", party)
    assert started["link"] == f"{web_host.web_url}/#/?party={party}"
    assert started["queued"] == "1 of 2 queued" and started["partyQueued"] == "1"
    assert "Looking for a 3-player match of Campanile." in started["text"] and started["button"] == "Copy link"
    assert shown["anonymous"]["controls"] == 0 and "sign in first" in shown["anonymous"]["text"]
    assert party in shown["anonymous"]["text"]
    assert party in shown["invitation"] and "Join party" in shown["invitation"]
    gathered = shown["gathered"]
    assert gathered["starter"]["partyQueued"] == gathered["friend"]["partyQueued"] == "2"
    assert gathered["friend"]["party"] == party and "party=" not in gathered["friendAddress"]
    assert not gathered["invitationShown"]

    with web_host.client(ann) as ann_client, web_host.client(bob) as bob_client:
        first = ann_client.ticket(shown["ticket"])
        [second] = bob_client.tickets()
        assert first.state == second.state == pb.TICKET_STATE_MATCHED
        assert first.party == second.party == party and second.party_size == 2
        assert first.match == second.match and shown["matches"] == [first.match.removeprefix("matches/")] * 3
        assert sorted(state["seat"] for state in shown["seated"]) == [0, 1, 2]
        match = ann_client.match(first.match)
        assert sorted(seat.player_name for seat in match.seats) == ["Ann", "Bob", "Dee"]
        assert (shown["seated"][0]["seat"], shown["seated"][1]["seat"]) == (first.seat, second.seat)

    limited = shown["limited"]
    assert (limited["code"], limited["reason"]) == ("RESOURCE_EXHAUSTED", "TICKET_LIMIT")
    assert "You are queued 4 times already" in limited["advice"] and limited["ticketShown"] == "queued"
    refused = shown["refused"]
    assert (refused["code"], refused["reason"]) == ("NOT_FOUND", "PARTY_NOT_FOUND")
    assert "ask your friend for a new link" in refused["advice"]


PILE_RELEASES = Path(__file__).parent / "fixtures" / "pile_releases"


def test_a_match_whose_rules_version_the_host_lacks_is_labelled_and_explained(start_host, tmp_path, idp):
    """docs/plugin-guide.md, "Upgrading a game": the fixture plugin "pile" 1.0 plays rules "1", its release 3.0
    rules "2" only (tests/test_pinned_rules.py). A match begun under 1.0 is listed by a host of 3.0 with
    rules_unavailable, and every other call about it is refused."""
    def pile_host(release: str):
        path = os.pathsep.join([str(FIXTURE_SITE), str(PILE_RELEASES / release)])
        return start_host("--web-root", str(WEB / "dist"), *idp.host_args(), data_dir=tmp_path,
                          env={"PYTHONPATH": path, "GAMEHOST_WORKERS": "1"})

    ann = idp.token(f"pile-ann-{secrets.token_hex(3)}", name="Ann")
    host = pile_host("1.0")
    with host.client() as client, host.client(ann) as ann_client:
        orphan = client.create_match("pile").name
        first = client.join(orphan, seat=0).player_token
        ann_client.join(orphan, seat=1)
        client.move(orphan, first, move={"take": 2})
    host.stop()
    host = pile_host("3.0")
    with host.client() as client, host.client(ann) as ann_client:
        playable = client.create_match("pile").name
        assert client.match(orphan).rules_unavailable and not client.match(playable).rules_unavailable
        # The host still counts the orphan as waiting for Ann's move; her lobby does not offer it.
        assert [m.name for m in ann_client.matches(my_turn=True)] == [orphan]
        shown = scenario("rulesUnavailable", host.web_url, match=orphan.removeprefix("matches/"),
                         other=playable.removeprefix("matches/"), token=ann, out=SCREENSHOTS)

    # The lobby labels the match and offers nothing that would only fail; the playable one keeps its links.
    unavailable, other = shown["lobby"]["unavailable"], shown["lobby"]["playable"]
    assert unavailable["version"] == "1" and unavailable["links"] == [] and unavailable["buttons"] == []
    assert "Not playable here: created with Pile rules version 1, which this host does not have" in unavailable["text"]
    assert other["version"] is None and other["links"] and other["buttons"]
    assert shown["yourTurn"] == {"count": "0", "items": []}
    mine = shown["mine"]
    assert mine["version"] == "1" and mine["links"] == [] and "Not playable here" in mine["text"]
    # The page names the version and the ones this host serves (from the refusal's details), instead of a board.
    notice = shown["notice"]
    assert (notice["version"], notice["served"]) == ("1", "2")
    assert "created with Pile rules version 1; this host has Pile rules version 2 only" in notice["text"]
    assert "fixture-pile" in notice["text"]
    assert shown["shown"] == {"failed": "FAILED_PRECONDITION", "rulesUnavailable": "1", "boardShown": False,
                              "problems": 0, "connection": "not playable on this host", "replayLink": False}
    assert [v for v in shown["accessibility"] if v["impact"] in ("serious", "critical")] == []
