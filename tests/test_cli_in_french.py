"""The CLI in French against a real host: `gamehost play` through a whole
tic-tac-toe match against a bot, then `watch`, `replay` and `matches` of it,
with LANG=fr_FR.UTF-8 or --locale fr, show no English word (no English
message id of the CLI's, the host's or the game's catalogue whose French
differs); with LANG=C the same commands speak English, as before."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from gamehost.cli import words
from gamehost.cli.main import main
from gamehost.host.plugins import load_catalog
from gamehost.sdk.i18n import catalogues_of, read_catalogue
from gamehost.testing.english_leaks import EnglishLeaks

pytestmark = pytest.mark.timeout(60)

CATALOGUES = [
    Path(words.__file__).parent / "locale/fr/LC_MESSAGES/gamehost-cli.po",
    Path(words.__file__).parents[1] / "host/locale/fr/LC_MESSAGES/gamehost.po",
]
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
GAMES = load_catalog().games
FRENCH_GAMES = sorted(game_id for game_id, entry in GAMES.items() if "fr" in catalogues_of(entry.game).languages)
# Enough answers of "1" (the first move, or the first part of a move composed part by part) for the longest game.
FIRST_CHOICES = "1\n" * 20000
# What `play` shows that is the same in every language: the ids a player may type instead of a number
# ("[cell:x09y02]"), and a text picture's rows of one-letter cells whose legend says them in French.
TYPED_IDS = re.compile(r"\[[^\]\s]+\]$", re.MULTILINE)
PICTURE_ROWS = re.compile(r"^ *\d+ +\S+ *$", re.MULTILINE)


def french_catalogues() -> list[dict[str, str]]:
    from gamehost_tictactoe.game import TicTacToe
    from gamehost.sdk.i18n import catalogues_of

    game = catalogues_of(TicTacToe()).path("fr")
    assert game is not None
    return [dict(read_catalogue(path)) for path in [*CATALOGUES, game]]


def said(piece: str, text: str) -> bool:
    """Whether ``text`` says ``piece`` as words of its own (not inside a longer word)."""
    return re.search(rf"(?<![\w]){re.escape(piece)}(?![\w])", text) is not None


def english_fragments() -> set[str]:
    """The English pieces of the catalogues' messages (their text between placeholders) that their
    French does not say: finding one in French output is English leaking. Pieces a French
    translation also says ("options" in "options : ...") cannot tell the languages apart."""
    messages = {msgid: msgstr for catalogue in french_catalogues() for msgid, msgstr in catalogue.items()}
    french = "\n".join(messages.values())
    fragments = set()
    for msgid, msgstr in messages.items():
        if msgid == msgstr:
            continue
        for piece in PLACEHOLDER.split(msgid):
            piece = piece.strip()
            if re.search(r"[A-Za-z]{2}", piece) and not said(piece, french):
                fragments.add(piece)
    return fragments


def leaks(output: str) -> list[str]:
    return sorted(piece for piece in english_fragments() if said(piece, output))


@pytest.fixture()
def cli(capsys, host, monkeypatch):
    """``cli(*args, answers="")``: run a command against the host, its answers typed in; (code, output)."""
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)

    def run(*args: str, answers: str = "") -> tuple[int, str]:
        monkeypatch.setattr("sys.stdin", io.StringIO(answers))
        code = main([*args, "--host", host.target])
        out, err = capsys.readouterr()
        return code, out + err

    yield run
    words.use_language("")  # the next test's commands speak English unless they ask


def play_a_match(cli) -> tuple[str, str]:
    """`gamehost play tictactoe` against the random bot to the end, always picking the first move."""
    code, out = cli("play", "tictactoe", "--seed", "5", "--name", "Ada", answers="1\n" * 9)
    assert code == 0, out
    match = re.search(r"matches/\S+?(?=\s|:)", out)
    assert match is not None, out
    return match.group(0), out


def test_a_whole_match_played_watched_and_replayed_in_french_shows_no_english(cli, monkeypatch):
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    match, played = play_a_match(cli)
    assert "vous êtes Joueur 1" in played and "Partie terminée : " in played, played
    assert "votre coup (numéro ou id, r pour abandonner, d pour proposer la nulle, q pour quitter) : " in played
    assert re.search(r"(X|O) en [abc][123]", played) or "Joueur 2 (robot): " in played, played
    code, watched = cli("watch", match)
    assert code == 0 and " coup " in watched and "terminée" in watched, watched
    code, replayed = cli("replay", match)
    assert code == 0 and "vérifié : " in replayed, replayed
    code, listed = cli("matches", "--game", "tictactoe", "--limit", "100")
    assert code == 0 and "terminée" in listed and "Joueur 2 (robot)" in listed, listed
    for output in (played, watched, replayed, listed):
        assert leaks(output) == [], output


def test_locale_flag_wins_over_the_environment(cli, monkeypatch):
    monkeypatch.setenv("LC_ALL", "C")
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")  # LC_ALL set decides: C is English
    _, english = play_a_match(cli)
    assert "Game over: " in english and "you are Player 1" in english
    assert leaks(english), "the English output shows English: the comparison finds it"
    _, french = cli("play", "tictactoe", "--seed", "5", "--locale", "fr-CH", answers="1\n" * 9)
    assert "Partie terminée : " in french and leaks(french) == [], french


def test_a_malformed_locale_is_one_line_and_exit_2(cli, capsys):
    with pytest.raises(SystemExit) as exited:
        main(["games", "--locale", "fr_FR!"])
    assert exited.value.code == 2
    assert "--locale 'fr_FR!' is not a BCP 47 language tag" in capsys.readouterr().err


@pytest.mark.parametrize(("environ", "tag"), [
    ({"LANG": "fr_FR.UTF-8"}, "fr-FR"), ({"LC_MESSAGES": "fr_CA@euro", "LANG": "en_US.UTF-8"}, "fr-CA"),
    ({"LC_ALL": "POSIX", "LANG": "fr_FR.UTF-8"}, ""), ({"LANG": "C.UTF-8"}, ""), ({}, ""),
])
def test_the_environment_names_the_language_as_gettext_reads_it(environ, tag):
    assert words.wanted_locale("", environ) == tag
    assert words.use_language(tag) == ("fr" if tag.startswith("fr") else "en")
    words.use_language("")


def test_queueing_and_listing_tickets_in_french(signed_in_host, user, capsys, monkeypatch):
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    _, token = user("quinn")
    flags = ["--host", signed_in_host.target, "--bearer-token", token, "--locale", "fr"]
    try:
        assert main(["queue", "tictactoe", "--ttl", "30", "--bot-wait", "0", *flags]) == 0
        queued = capsys.readouterr().out
        assert main(["queue", "--list", *flags]) == 0
        listed = capsys.readouterr().out
    finally:
        words.use_language("")
    assert "en file pour games/tictactoe, 2 joueurs" in queued and "vous êtes Joueur " in queued, queued
    assert "apparié" in listed and "2 joueurs" in listed, listed
    assert leaks(queued) == [] and leaks(listed) == [], queued + listed


def test_quitting_a_match_asks_and_answers_in_french(cli, monkeypatch):
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    code, out = cli("play", "tictactoe", "--seed", "5", answers="q\nk\n")
    assert code == 0 and "l pour laisser la place" in out and "pour la reprendre : gamehost play --match" in out, out
    assert leaks(out) == [], out


@pytest.mark.long_running
@pytest.mark.timeout(240)
@pytest.mark.parametrize("game", FRENCH_GAMES)
def test_a_whole_match_of_each_french_game_in_the_cli_shows_no_english(cli, game):
    """Every game whose plugin declares French, played to its end against the random bot at the other seats
    (the seats and options `play` starts with, the smallest the game accepts)."""
    code, played = cli("play", game, "--locale", "fr", "--seed", "5", "--name", "Ada", answers=FIRST_CHOICES)
    assert code == 0, played[-2000:]
    assert "vous êtes Joueur 1" in played and "Partie terminée : " in played, played[-2000:]
    cli_table = dict(read_catalogue(CATALOGUES[0]))
    shown = PICTURE_ROWS.sub("", TYPED_IDS.sub("", played))
    english = EnglishLeaks.of_games([GAMES[game].game], "fr", extra=[cli_table]).words_in(shown)
    lines = [line for line in shown.splitlines() if any(re.search(rf"\b{word}\b", line) for word in english)]
    assert english == [], f"English in the French CLI: {english}\n" + "\n".join(lines[:12])
