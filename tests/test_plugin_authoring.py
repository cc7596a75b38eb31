"""Plugin authors' tools: `gamehost new` makes a package that installs and
passes its own tests, `gamehost render` draws what a host shows, and the
pytest plugin keeps an author's test run quiet."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from gamehost.cli.main import main

GAMEHOST = [sys.executable, "-m", "gamehost.cli.main"]


def _env() -> dict[str, str]:
    """This environment without the test fixtures' PYTHONPATH."""
    return {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}


def _fresh_venv(where: Path) -> Path:
    """A new virtual environment that sees the checkout's installed host (the
    repository's .venv, editable) and nothing of its own yet: its python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True, timeout=120)
    own = Path(sysconfig.get_path("purelib", vars={"base": str(where), "platbase": str(where)}))
    # addsitedir, not a plain path line: the host's editable installs are .pth files there too.
    (own / "gamehost-checkout.pth").write_text(f"import site; site.addsitedir({sysconfig.get_path('purelib')!r})\n")
    return where / "bin" / "python"


def test_a_new_plugin_installs_in_a_fresh_venv_and_passes_its_own_tests(tmp_path):
    package = tmp_path / "take-away"
    made = subprocess.run([*GAMEHOST, "new", "take-away", "--dir", str(package), "--title", "Take Away"],
                          capture_output=True, text=True, timeout=60, env=_env())
    assert made.returncode == 0, made.stderr
    assert {path.relative_to(package).as_posix() for path in package.rglob("*") if path.is_file()} == {
        "pyproject.toml", "README.md", "gamehost_take_away/__init__.py", "gamehost_take_away/game.py",
        "gamehost_take_away/rules.py", "gamehost_take_away/render.py", "gamehost_take_away/py.typed",
        "gamehost_take_away/locale/fr/LC_MESSAGES/messages.po", "tests/test_rules.py", "tests/test_conformance.py"}
    python = _fresh_venv(tmp_path / "venv")
    # A real build of the package (a wheel through its pyproject), offline.
    installed = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-index",
                                "--no-build-isolation", str(package)], capture_output=True, text=True, timeout=120,
                               env=_env())
    assert installed.returncode == 0, installed.stderr
    where = subprocess.run([str(python), "-c", "import gamehost_take_away as m; print(m.__file__)"],
                           capture_output=True, text=True, timeout=60, env=_env(), cwd=tmp_path)
    assert where.stdout.startswith(str(tmp_path / "venv")), where  # the installed copy, not the sources
    listed = subprocess.run([str(python), "-m", "gamehost.cli.main", "plugins"], capture_output=True, text=True,
                            timeout=60, env=_env(), cwd=tmp_path)
    assert "take-away" in listed.stdout and "games: take-away" in listed.stdout, listed.stdout
    # The installed copy declares French and ships its catalogue: the kit's language check runs and passes.
    checked = subprocess.run([str(python), "-c", "from gamehost.testing.conformance import run_conformance; "
                              "from gamehost_take_away.game import TakeAway; "
                              "words = run_conformance(TakeAway(), seats=2, playouts=3).words; "
                              "print('words:', words.languages, words.problems)"],
                             capture_output=True, text=True, timeout=120, env=_env(), cwd=tmp_path)
    assert "words: ['fr'] []" in checked.stdout.splitlines(), checked.stdout[-2000:] + checked.stderr[-2000:]

    # -s: what the tests print reaches stdout; -W error: any warning fails the run.
    tested = subprocess.run([str(python), "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", "-W", "error"],
                            capture_output=True, text=True, timeout=300, env=_env(), cwd=package)
    assert tested.returncode == 0, tested.stdout[-3000:] + tested.stderr[-2000:]
    summary = tested.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "warning" not in summary and "skipped" not in summary, summary
    # 10 rules tests, the conformance test at 2, 3 and 4 seats and the short variant.
    assert summary.startswith("14 passed"), summary
    assert "move applied" not in tested.stdout + tested.stderr  # the engine's debug line per move stays quiet
    loud = subprocess.run([str(python), "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", "-k", "variant-short",
                           "--gamehost-log-level", "debug"], capture_output=True, text=True, timeout=300, env=_env(),
                          cwd=package)
    assert loud.returncode == 0 and "move applied" in loud.stdout + loud.stderr  # unless asked for


def test_new_refuses_a_bad_id_and_a_directory_in_use(tmp_path, capsys):
    assert main(["new", "Connect Four", "--dir", str(tmp_path / "a")]) == 1
    assert "'Connect Four' is not a game id" in capsys.readouterr().err
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "keep.txt").write_text("mine")
    assert main(["new", "connect-four", "--dir", str(tmp_path / "b")]) == 1
    assert "already exists and is not an empty directory" in capsys.readouterr().err
    assert [path.name for path in (tmp_path / "b").iterdir()] == ["keep.txt"]


def test_render_draws_what_a_host_shows_for_the_same_seed_and_moves(tmp_path, client):
    """Campanile deals from the seed: the same cards, views and pictures
    come out only if render reaches the position as a host does."""
    match = client.create_match("campanile", seats=2, seed=7).name
    tokens = [client.join(match, seat=seat).player_token for seat in range(2)]
    played = []
    for _ in range(3):
        seat = client.match(match).to_move[0]
        move = client.view(match, tokens[seat]).legal_moves[0].id
        client.move(match, tokens[seat], move_id=move)
        played.append(move)
    seat = client.match(match).to_move[0]
    shown = client.view(match, tokens[seat], text=True, svg=True)

    svg_file, text_file = tmp_path / "preview.svg", tmp_path / "preview.txt"
    drawn = subprocess.run([*GAMEHOST, "render", "campanile", "--seed", "7", "--moves", ",".join(played),
                            "--seat", str(seat), "--out", str(svg_file), "--text", str(text_file)],
                           capture_output=True, text=True, timeout=120, env=_env())
    assert drawn.returncode == 0, drawn.stderr
    svg = svg_file.read_text()
    root = ElementTree.fromstring(svg)  # well-formed
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    targets = {element.get("data-move") for element in root.iter() if element.get("data-move")}
    legal = {move.id for move in shown.legal_moves}
    assert targets and targets <= legal  # it marks the seat's legal moves, and only those
    assert svg.strip() == shown.svg.strip()
    assert text_file.read_text().rstrip("\n") == shown.text
    assert f"as seat {seat}" in drawn.stderr and f"version {shown.version}" in drawn.stderr


def test_render_prints_the_text_picture_of_a_spectator(capsys):
    assert main(["render", "tictactoe", "--moves", "b2,a3", "--spectator"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == ["3 O . .", "2 . X .", "1 . . .", "  a b c"]


def test_render_names_the_legal_moves_when_a_move_is_not_one(capsys):
    assert main(["render", "tictactoe", "--moves", "b2,b2", "--out", os.devnull]) == 1
    err = capsys.readouterr().err
    assert "move 2, 'b2', is not legal at version 4; legal moves: seat 1: a3, b3, c3, a2, c2, a1, b1, c1" in err


def test_render_of_an_unknown_game_lists_the_installed_ones(capsys):
    assert main(["render", "chess"]) == 1
    err = capsys.readouterr().err
    assert "no game 'chess' is installed here (installed: " in err and "tictactoe" in err
