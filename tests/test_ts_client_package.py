"""The npm package @gamehost/client (clients/ts) as a user gets it: `npm
pack`, the tarball installed in a fresh folder by the README's own `npm
install` command (with the versions npm resolves on the Node that runs the
tests: @connectrpc/connect-node 2.1 on Node 20, the newest on 22+), and a
Node program (tests/ts_client/play.mjs) that plays a whole tic-tac-toe match
on a real host over Connect (@connectrpc/connect-node), both players kept up
to date by the package's MatchFollower, one of them through a relay that
drops its stream mid-match."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

from gamehost.v1 import gamehost_pb2 as pb

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "clients" / "ts"
PROGRAM = Path(__file__).parent / "ts_client"
NODE, NPM = shutil.which("node"), shutil.which("npm")
pytestmark = pytest.mark.skipif((NODE is None or NPM is None) and not os.environ.get("CI"),
                                reason="Node.js is not installed (CI has it)")
NPM_QUIET = ["--no-audit", "--no-fund", "--loglevel=error"]


def test_the_packed_client_installs_in_a_fresh_folder_and_plays_from_node(tmp_path, host):
    """One test, so that the package is packed and installed once (seconds
    each); each check below names its rule."""
    tarball = pack(tmp_path / "pack")
    the_tarball_holds_the_compiled_package_its_licence_and_readme(tarball)
    folder = install(tarball, tmp_path / "program")
    the_installed_tree_is_whole_and_fits_this_node(folder)
    a_commonjs_program_requires_the_package(folder)
    a_node_program_plays_a_match_and_resumes_a_dropped_stream(folder, host)
    the_readmes_node_example_plays_against_a_bot_to_the_end(folder, host)


def pack(out: Path) -> Path:
    """`npm pack` of clients/ts (its prepack script compiles src/ into dist/)."""
    assert NODE and NPM, "node and npm must be on PATH in CI"
    with open(PACKAGE / "package-lock.json") as lock:
        # One npm ci, one build at a time (make packages, in tests/test_packages.py, packs under this lock too).
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (PACKAGE / "node_modules" / ".bin" / "tsc").exists():
            subprocess.run([NPM, "ci", *NPM_QUIET], cwd=PACKAGE, check=True, timeout=300)
        out.mkdir()
        packed = subprocess.run([NPM, "pack", "--json", "--pack-destination", str(out)], cwd=PACKAGE,
                                capture_output=True, text=True, timeout=300)
    assert packed.returncode == 0, packed.stderr
    [report] = json.loads(packed.stdout)
    return out / report["filename"]


def the_tarball_holds_the_compiled_package_its_licence_and_readme(tarball):
    with tarfile.open(tarball) as archive:
        names = {name.removeprefix("package/") for name in archive.getnames()}
        manifest = json.load(archive.extractfile("package/package.json"))
    sources = {path.relative_to(PACKAGE / "src").with_suffix("").as_posix()
               for path in (PACKAGE / "src").rglob("*.ts") if not path.name.endswith(".d.ts")}
    compiled = {f"dist/{source}{suffix}" for source in sources for suffix in (".js", ".d.ts")}
    assert names == {"package.json", "README.md", "LICENSE", *compiled}, "only dist/, no sources or tools"
    assert {"gamehost/v1/gamehost_pb", "google/rpc/error_details_pb"} <= {s.removeprefix("gen/") for s in sources}
    assert manifest["name"] == "@gamehost/client" and manifest["license"] == "Apache-2.0"
    assert manifest["type"] == "module"
    for entry in manifest["exports"].values():
        assert entry["types"].removeprefix("./") in names and entry["default"].removeprefix("./") in names
    # The caller brings @bufbuild/protobuf and @connectrpc/connect (one copy each) and the transport.
    assert set(manifest["peerDependencies"]) == {"@bufbuild/protobuf", "@connectrpc/connect"}
    # One dependency of its own: the follower applies views sent as changes (JSON Patch) with it.
    assert set(manifest["dependencies"]) == {"fast-json-patch"}
    assert manifest["engines"]["node"], "the Node versions it supports"


def readme_install_command() -> list[str]:
    """The `npm install` of the README's Install section, as a user copies it."""
    readme = (PACKAGE / "README.md").read_text()
    block = readme.split("## Install\n\n```sh\n", 1)[1].split("```", 1)[0]
    command = " ".join(line.split("#", 1)[0].strip().removesuffix("\\") for line in block.splitlines())
    words = command.split()
    assert words[:2] == ["npm", "install"] and "@gamehost/client" in words, command
    return words[2:]


def install(tarball: Path, folder: Path) -> Path:
    """A fresh folder with tests/ts_client's program (no dependencies of its own), where the README's
    install command runs with the tarball in place of @gamehost/client, as the README says."""
    assert NPM
    folder.mkdir()
    for name in ("package.json", "play.mjs"):
        shutil.copy(PROGRAM / name, folder / name)
    shutil.copy(tarball, folder / tarball.name)
    packages = [f"./{tarball.name}" if name == "@gamehost/client" else name for name in readme_install_command()]
    # --engine-strict: npm refuses, rather than warns about, any package whose engines exclude this Node,
    # ours included; npm picks the same versions either way (the newest whose engines admit this Node).
    # The npm cache answers when it can (it is warm in CI after `make test`'s set-up).
    installed = subprocess.run([NPM, "install", "--prefer-offline", "--engine-strict", *NPM_QUIET, *packages],
                               cwd=folder, timeout=300, capture_output=True, text=True)
    assert installed.returncode == 0, f"the README's install fails on Node {node_version()}:\n{installed.stderr}"
    return folder


def node_version() -> str:
    assert NODE
    return subprocess.run([NODE, "--version"], capture_output=True, text=True, check=True).stdout.strip()


def the_installed_tree_is_whole_and_fits_this_node(folder):
    """No missing or invalid peer (`npm ls` says so by its exit status), and one copy of each peer,
    the program's, which the transport shares."""
    assert NPM
    listed = subprocess.run([NPM, "ls", "--all", "--json"], cwd=folder, capture_output=True, text=True,
                            timeout=60)
    assert listed.returncode == 0, listed.stdout + listed.stderr
    tree = json.loads(listed.stdout)["dependencies"]
    ours = tree["@gamehost/client"]["dependencies"]
    for peer in ("@bufbuild/protobuf", "@connectrpc/connect"):
        assert ours[peer]["version"] == tree[peer]["version"], f"{peer}: the program's version"
    assert not (folder / "node_modules" / "@gamehost" / "client" / "node_modules").exists(), \
        "no copy of its own of a peer"
    transport = tree["@connectrpc/connect-node"]["dependencies"]
    assert transport["@connectrpc/connect"]["version"] == tree["@connectrpc/connect"]["version"]


def a_commonjs_program_requires_the_package(folder):
    """The engines floor (20.19, 22.12) is where Node lets `require()` load an ES module."""
    (folder / "require.cjs").write_text(
        'const client = require("@gamehost/client");\n'
        'console.log(typeof client.createGamehostClient, typeof client.MatchFollower);\n')
    run = subprocess.run([NODE, "require.cjs"], cwd=folder, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["function", "function"]


def a_node_program_plays_a_match_and_resumes_a_dropped_stream(folder, host):
    run = subprocess.run([NODE, "play.mjs", host.web_url], cwd=folder, capture_output=True, text=True,
                         timeout=90)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)

    assert report["status"] == pb.MATCH_STATUS_FINISHED and report["winners"] == [0], "X won on the top row"
    after = report["startedAt"]
    moves = ["X on a3", "O on a2", "X on b3", "O on b2", "X on c3"]
    for seat in ("x", "o"):
        seen = report[seat]
        assert [event["version"] for event in seen["events"]] == list(range(after + 1, after + 7)), \
            f"{seat}: every event after its first view once, in order"
        assert [event["label"] for event in seen["events"][:5]] == moves
        assert seen["events"][-1]["kind"] == "FINISHED" and seen["connections"][-1] == "ended"
        assert seen["refused"] == [], "a view seen twice (the resume's GetView, then the event) moved once"
    assert report["o"]["connections"] == ["live", "ended"], "O's stream never dropped"

    x = report["x"]
    failures = [state for state in x["connections"] if state.startswith("reconnecting")]
    assert len(failures) >= 2, "X's stream dropped, and a try while the relay was cut failed"
    assert x["connections"] == ["live", *failures, "live", "ended"]
    [o_moved_while_x_was_cut] = [event for event in x["events"] if event["label"] == "O on b2"]
    assert o_moved_while_x_was_cut["afterResumes"] == 1, "O's move reached X on the resumed stream"


def the_readmes_node_example_plays_against_a_bot_to_the_end(folder, host):
    readme = (PACKAGE / "README.md").read_text()
    example = readme.split("## Node\n\n```ts\n", 1)[1].split("```", 1)[0]
    assert '"http://127.0.0.1:8080"' in example
    (folder / "readme.mjs").write_text(example.replace('"http://127.0.0.1:8080"', "process.argv[2]"))
    run = subprocess.run([NODE, "readme.mjs", host.web_url], cwd=folder, capture_output=True, text=True,
                         timeout=90)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "live" and "ended" in lines
    assert "summary:" in run.stdout, "the result of a finished match"
