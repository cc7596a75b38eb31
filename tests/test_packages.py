"""The Python distributions as users get them: `make packages` builds each
sdist and the wheel from it (host, client, every plugin); their contents are
checked here, then a fresh venv with only those wheels (and their PyPI
dependencies) serves, lists every game and plays tic-tac-toe with the
installed client. `make packages` also packs the npm package of
clients/ts into build/dist."""

from __future__ import annotations

import fcntl
import json
import subprocess
import sys
import tarfile
import textwrap
import zipfile
from pathlib import Path

import pytest

from hosts import HostProcess

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "build" / "dist"
PLUGINS = sorted(path.parent for path in ROOT.glob("plugins/*/pyproject.toml"))
# distribution file stem -> the folder its importable code comes from
SOURCES = {"gamehost": ROOT / "core", "gamehost_client": ROOT / "clients" / "python",
           **{f"gamehost_{plugin.name}": plugin for plugin in PLUGINS}}
TEMPLATES = ROOT / "core" / "gamehost" / "cli" / "plugin_template"


def make_packages() -> str:
    done = subprocess.run(["make", "packages"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout + done.stderr


@pytest.fixture(scope="session")
def build_output(tmp_path_factory, worker_id) -> str:
    """What `make packages` printed, built once for the whole run (it builds
    from a copy: the hosts of other tests read entry points from the source
    folders' egg-info). Under pytest-xdist each worker is its own session:
    the first one to ask builds while another waits on the lock, then reads
    the output it left."""
    base = tmp_path_factory.getbasetemp()
    shared = base if worker_id == "master" else base.parent
    output = shared / "make-packages.out"
    with open(shared / "make-packages.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not output.exists():
            output.write_text(make_packages())
    return output.read_text()


# Two tests on one build: the checks of the files, and a venv made of them (as
# long again: pip installs the wheels and their dependencies), so that
# pytest-xdist's workers share the work.
@pytest.mark.long_running
def test_make_packages_builds_checked_distributions(build_output):
    """Each check below names its rule."""
    every_distribution_has_an_sdist_and_a_wheel_built_without_warnings(build_output)
    every_wheel_declares_apache_2_and_carries_the_licence()
    each_wheel_holds_exactly_the_python_files_of_its_source()
    the_sdk_and_every_plugin_wheel_ship_py_typed()
    the_host_wheel_ships_the_templates_of_gamehost_new()
    no_tests_bytecode_or_build_leftovers_in_any_distribution()
    the_typescript_clients_npm_tarball_is_built_beside_them()


def wheel(stem: str) -> zipfile.ZipFile:
    [path] = DIST.glob(f"{stem}-*.whl")
    return zipfile.ZipFile(path)


def sdist_names(stem: str) -> list[str]:
    [path] = DIST.glob(f"{stem}-*.tar.gz")
    with tarfile.open(path) as archive:
        return [name.split("/", 1)[1] for name in archive.getnames() if "/" in name]


def every_distribution_has_an_sdist_and_a_wheel_built_without_warnings(build_output):
    assert sorted(p.name.split("-")[0] for p in DIST.glob("*.whl")) == sorted(SOURCES)
    assert sorted(p.name.split("-")[0] for p in DIST.glob("*.tar.gz")) == sorted(SOURCES)
    # distutils' note that PYTHONDONTWRITEBYTECODE is set is not a setuptools warning.
    warnings = [line for line in build_output.splitlines()
                if "warning" in line.lower() and "byte-compiling is disabled" not in line]
    assert warnings == []
    assert build_output.count("PASSED") == 2 * len(SOURCES)  # twine check --strict, each file


def every_wheel_declares_apache_2_and_carries_the_licence():
    licence = (ROOT / "LICENSE").read_text()
    for stem in SOURCES:
        with wheel(stem) as archive:
            [metadata] = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
            assert "License-Expression: Apache-2.0" in archive.read(metadata).decode().splitlines(), stem
            [carried] = [n for n in archive.namelist() if n.endswith(".dist-info/licenses/LICENSE")]
            assert archive.read(carried).decode() == licence, stem
        assert "LICENSE" in sdist_names(stem), stem


def each_wheel_holds_exactly_the_python_files_of_its_source():
    for stem, source in SOURCES.items():
        tracked = subprocess.run(["git", "ls-files", "*.py"], cwd=source, capture_output=True, text=True,
                                 check=True).stdout.split()
        expected = {name for name in tracked if not name.startswith("tests/") and "/tests/" not in name}
        with wheel(stem) as archive:
            shipped = {name for name in archive.namelist() if name.endswith(".py")}
        assert shipped == expected, stem


def the_sdk_and_every_plugin_wheel_ship_py_typed():
    with wheel("gamehost") as archive:
        assert "gamehost/sdk/py.typed" in archive.namelist()
    for plugin in PLUGINS:
        with wheel(f"gamehost_{plugin.name}") as archive:
            assert f"gamehost_{plugin.name}/py.typed" in archive.namelist()


def the_host_wheel_ships_the_templates_of_gamehost_new():
    templates = {f"gamehost/cli/plugin_template/{path.relative_to(TEMPLATES).as_posix()}"
                 for path in TEMPLATES.rglob("*.tmpl")}
    assert templates
    with wheel("gamehost") as archive:
        assert templates <= set(archive.namelist())


def no_tests_bytecode_or_build_leftovers_in_any_distribution():
    for stem in SOURCES:
        with wheel(stem) as archive:
            names = archive.namelist()
        junk = [n for n in names if "__pycache__" in n or n.endswith(".pyc") or ".egg-info" in n
                or n.startswith("tests/") or ("/tests/" in n and "plugin_template" not in n)]
        assert junk == [], stem
        junk = [n for n in sdist_names(stem) if "__pycache__" in n or n.endswith(".pyc") or n.startswith("tests/")
                or n.startswith("build/")]
        assert junk == [], stem


PLAY = textwrap.dedent("""
    import sys
    from gamehost.client import GameHostClient
    with GameHostClient(sys.argv[1]) as host:
        print(" ".join(sorted(game.id for game in host.games())))
        match = host.create_match("tictactoe")
        x = host.join(match.name, player_name="ann")
        host.join(match.name, player_name="bob")
        answer = host.move(match.name, x.player_token, move_id="b2", view=True)
        print(answer.view.version)
""")


def the_typescript_clients_npm_tarball_is_built_beside_them():
    # Its contents and a Node program using it: tests/test_ts_client_package.py.
    version = json.loads((ROOT / "clients" / "ts" / "package.json").read_text())["version"]
    assert [path.name for path in DIST.glob("*.tgz")] == [f"gamehost-client-{version}.tgz"]


@pytest.mark.long_running
def test_a_fresh_venv_of_the_wheels_serves_every_game_and_plays_tictactoe(build_output, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    wheels = sorted(str(path) for path in DIST.glob("*.whl"))
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                    "--find-links", str(DIST), *wheels], check=True, timeout=600, cwd=tmp_path)
    # Only the venv: no repo folder on the path, no test fixture plugins.
    host = HostProcess(command=[str(venv / "bin" / "gamehost"), "serve", "--port", "0", "--store", "memory"],
                       env={"PYTHONPATH": ""}, cwd=tmp_path).start(timeout=120)
    try:
        played = subprocess.run([str(venv / "bin" / "python"), "-c", PLAY, f"127.0.0.1:{host.port}"],
                                capture_output=True, text=True, timeout=120, cwd=tmp_path)
    finally:
        host.stop()
    assert played.returncode == 0, played.stderr
    games, version = played.stdout.split("\n")[:2]
    # Every plugin's game, and nothing but the plugins' games (scalino also ships its variant scalino-pyramid).
    plugin_names = {plugin.name for plugin in PLUGINS}
    assert plugin_names <= set(games.split())
    assert {game.split("-")[0] for game in games.split()} == plugin_names
    assert int(version) > 0
