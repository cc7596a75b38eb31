"""Chance anyone can verify, over real sockets: a match shows a commitment to
its seed from its creation on, keeps the seed and salt secret from every
caller (spectators, its seats, an admin's ordinary reads) until it ends, and
reveals both at the end, whatever the ending. The Python replay
(`gamehost replay`), the Go client (`gamehost-go verify`, and its library
in `go test`) and the TypeScript package (`checkCommitment`, in a node
test) accept the honest matches and reject those whose seed or salt was changed in the store afterwards, or
whose commitment is not the one shown at creation; a match stored before
commitments (a SQLite file of the older schema, migrated) replays with a
note. Both stores keep the commitment; two PostgreSQL replicas show the
same one."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from gamehost.client import GameHostClient
from gamehost.client.seed_commitment import commitment
from gamehost.v1 import gamehost_pb2 as pb
from databases import create_database, drop_database
from go_client import GO, GO_MODULE
from hosts import HostProcess

pytestmark = pytest.mark.timeout(240)

TS_PACKAGE = Path(__file__).resolve().parent.parent / "clients" / "ts"
NODE_TEST = TS_PACKAGE / "test" / "seed-commitment.test.mjs"
NODE, NPM = shutil.which("node"), shutil.which("npm")
X_WINS_TOP_ROW = ["a3", "a2", "b3", "b2", "c3"]


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("sqlite")


@pytest.fixture(scope="module")
def admin_host(admin_key, data_dir):
    """A SQLite host with an admin key; tests that change its store stop it and start it again."""
    process = HostProcess("--api-keys", str(admin_key[0]), data_dir=data_dir).start()
    yield process
    process.stop()


def seated(client: GameHostClient, game: str, seats: int = 2) -> tuple[pb.Match, list[str]]:
    match = client.create_match(game, seats=seats)
    return match, [client.join(match.name, seat=seat).player_token for seat in range(seats)]


def tictactoe_won_by_x(client: GameHostClient) -> tuple[pb.Match, list[str]]:
    match, tokens = seated(client, "tictactoe")
    for index, move in enumerate(X_WINS_TOP_ROW):
        client.move(match.name, tokens[index % 2], move_id=move)
    return match, tokens


def revealed(log: pb.MatchLog) -> bool:
    return log.HasField("seed") or bool(log.seed_salt)


def replay(host: HostProcess, match: str, *flags: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gamehost.cli.main", "replay", match, "--quiet", "--host",
                           host.target, *flags], capture_output=True, text=True, timeout=120)


def test_commitment_shown_from_creation_and_secret_until_the_end(admin_host, admin_key):
    with admin_host.client() as spectator, admin_host.client(admin_key[1]) as admin:
        match, tokens = seated(spectator, "campanile")
        committed = match.seed_commitment
        assert len(committed) == 32, "CreateMatch's answer shows the commitment"
        [created] = admin_host.wait_for_log("match created", match.name)
        assert created["seed_commitment"] == committed.hex(), "operators find it in the log"
        assert spectator.match(match.name).seed_commitment == committed
        assert [m.seed_commitment for m in spectator.matches(game="campanile", limit=100)
                if m.name == match.name] == [committed], "listed matches show it too"
        for reader, token in [(spectator, ""), (spectator, tokens[0]), (spectator, tokens[1]), (admin, "")]:
            log = reader.log(match.name, token)
            assert log.seed_commitment == committed and not log.complete
            assert not revealed(log), "no seed nor salt while the match runs"

        spectator.resign(match.name, tokens[0])
        log = spectator.log(match.name)
        assert log.complete and log.seed_commitment == committed
        assert len(log.seed_salt) == 32
        assert commitment(log.seed, log.seed_salt) == committed
        # The documented layout, computed here without the client's module.
        layout = b"gamehost/seed-commitment/v1\x00" + log.seed.to_bytes(8, "big") + log.seed_salt
        assert hashlib.sha256(layout).digest() == committed

    done = replay(admin_host, match.name, "--commitment", committed.hex())
    assert done.returncode == 0, done.stderr
    assert f"commitment verified: seed {log.seed} was fixed when the match was created" in done.stdout
    assert "verified: " in done.stdout.splitlines()[-1]


@pytest.mark.parametrize("ending", ["finished", "aborted", "abandoned"])
def test_every_ending_reveals_the_seed(admin_host, admin_key, ending):
    with admin_host.client() as client, admin_host.client(admin_key[1]) as admin:
        if ending == "finished":
            match, _ = tictactoe_won_by_x(client)
        else:
            match, tokens = seated(client, "tictactoe")
            client.move(match.name, tokens[0], move_id="b2")
            assert not revealed(client.log(match.name))
            if ending == "aborted":
                admin.abort(match.name, "a test")
            else:
                client.leave(match.name, tokens[1])
        assert client.match(match.name).status == getattr(pb, f"MATCH_STATUS_{ending.upper()}")
        log = client.log(match.name)
    assert log.complete and commitment(log.seed, log.seed_salt) == match.seed_commitment
    done = replay(admin_host, match.name)
    assert done.returncode == 0 and "commitment verified" in done.stdout, done.stdout + done.stderr


def store_rows(data_dir: Path, statements: list[tuple[str, tuple]]) -> None:
    """Change the SQLite store as an operator could, the host stopped."""
    with sqlite3.connect(data_dir / "gamehost.db") as db:
        for statement, values in statements:
            assert db.execute(statement, values).rowcount == 1


@pytest.fixture(scope="module")
def tampered(admin_host, data_dir) -> dict[str, tuple[str, bytes]]:
    """Finished matches by what was done to their row after the end: (match
    name, the commitment shown at creation). The host is stopped while
    its store is changed, then started again on it."""
    with admin_host.client() as client:
        matches = {case: tictactoe_won_by_x(client)[0] for case in
                   ("honest", "seed", "salt", "recommitted", "before commitments")}
        seeds = {case: client.log(match.name).seed for case, match in matches.items()}
    ids = {case: match.name.removeprefix("matches/") for case, match in matches.items()}
    admin_host.stop()
    other_seed = seeds["recommitted"] + 1
    store_rows(admin_host.data_dir, [
        ("UPDATE matches SET seed = ? WHERE id = ?", (str(seeds["seed"] + 1), ids["seed"])),
        ("UPDATE matches SET seed_salt = ? WHERE id = ?", ("00" * 32, ids["salt"])),
        # A consistent new commitment for another seed: only the one kept from creation tells.
        ("UPDATE matches SET seed = ?, seed_commitment = ? WHERE id = ?",
         (str(other_seed), commitment(other_seed, bytes(32)).hex(), ids["recommitted"])),
        ("UPDATE matches SET seed_salt = ? WHERE id = ?", ("00" * 32, ids["recommitted"])),
        ("UPDATE matches SET seed_salt = NULL, seed_commitment = NULL WHERE id = ?", (ids["before commitments"],)),
    ])
    admin_host.start()
    return {case: (match.name, match.seed_commitment) for case, match in matches.items()}


# (case, with the commitment kept at creation) -> what each client must say
EXPECTED = {
    ("honest", True): "verified",
    ("seed", False): "rejected",
    ("salt", False): "rejected",
    ("recommitted", False): "verified",  # consistent on its own: why a player keeps the commitment
    ("recommitted", True): "rejected",
    ("before commitments", False): "none-recorded",
}


@pytest.mark.parametrize(("case", "kept"), list(EXPECTED))
def test_the_python_replay_checks_the_commitment(admin_host, tampered, case, kept):
    match, committed = tampered[case]
    done = replay(admin_host, match, *(["--commitment", committed.hex()] if kept else []))
    expected = EXPECTED[case, kept]
    if expected == "rejected":
        assert done.returncode == 1, done.stdout
        assert done.stderr.startswith("REJECTED: "), done.stderr
        assert ("is not the one the match showed at its creation" if kept else
                "do not hash to the commitment") in done.stderr
        assert "verified: " not in done.stdout, "nothing is replayed under a seed that was not committed to"
    else:
        assert done.returncode == 0, done.stderr
        assert ("note: no commitment recorded" if expected == "none-recorded" else "commitment verified") \
            in done.stdout
        assert "verified: 9 events replay to the recorded result" in done.stdout


@pytest.mark.skipif(GO is None and not os.environ.get("CI"), reason="go is not installed (CI has it)")
@pytest.mark.parametrize(("case", "kept"), list(EXPECTED))
def test_the_go_client_checks_the_commitment(gamehost_go, admin_host, tampered, case, kept):
    match, committed = tampered[case]
    done = subprocess.run([str(gamehost_go), "verify", match, "--host", admin_host.target,
                           *(["--commitment", committed.hex()] if kept else [])],
                          capture_output=True, text=True, timeout=60)
    expected = EXPECTED[case, kept]
    if expected == "rejected":
        assert done.returncode == 1, done.stdout
        assert f"{match}: rejected: " in done.stderr
        assert ("is not the one the match showed at its creation" if kept else
                "do not hash to the commitment") in done.stderr
    else:
        assert done.returncode == 0, done.stderr
        assert ("note: no commitment recorded" if expected == "none-recorded" else "commitment verified") \
            in done.stdout
        assert f"{match}: 9 events, every version once and in order" in done.stdout


@pytest.mark.skipif(GO is None and not os.environ.get("CI"), reason="go is not installed (CI has it)")
def test_the_go_client_checks_the_match_it_played(gamehost_go, admin_host):
    done = subprocess.run([str(gamehost_go), "play", "tictactoe", "--host", admin_host.target, "--seed", "3"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    match = lines[0].split(":")[0]
    with admin_host.client() as client:
        committed = client.match(match).seed_commitment
    [checked] = [line for line in lines if line.startswith(f"{match}: commitment verified: seed ")]
    assert checked.endswith(f"({committed.hex()})") and lines[-2].startswith("finished at version ")


def cases_of(tampered: dict[str, tuple[str, bytes]]) -> str:
    """EXPECTED as the Go and node tests read it (GAMEHOST_COMMITMENT_CASES)."""
    return json.dumps([{"name": f"{case}{' (commitment kept)' if kept else ''}", "match": tampered[case][0],
                        "seen": tampered[case][1].hex() if kept else "", "expect": expected}
                       for (case, kept), expected in EXPECTED.items()])


@pytest.mark.skipif(GO is None and not os.environ.get("CI"), reason="go is not installed (CI has it)")
def test_the_go_library_checks_the_commitment_in_go_test(gamehost_go, admin_host, tampered):
    """The library's own test (clients/go/gamehost/commitment_host_test.go) on this host's matches; asking for
    the binary first lets it reuse the compiled dependencies."""
    env = {**os.environ, "GAMEHOST_TEST_TARGET": admin_host.target, "GAMEHOST_COMMITMENT_CASES": cases_of(tampered)}
    done = subprocess.run([GO, "test", "-count=1", "-v", "-run", "TestMatchesOfARealHost", "./gamehost/"],
                          cwd=GO_MODULE, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("--- PASS: TestMatchesOfARealHost/") == len(EXPECTED), done.stdout
    assert "SKIP" not in done.stdout


@pytest.fixture(scope="module")
def ts_build(tmp_path_factory) -> Path:
    """clients/ts compiled into a folder of its own (its node_modules resolve the peers): the package test
    packs dist/ under the same lock, so this build does not touch it."""
    if NODE is None or NPM is None:
        if os.environ.get("CI"):
            pytest.fail("node and npm must be on PATH in CI")
        pytest.skip("Node.js is not installed (CI has it)")
    out = TS_PACKAGE / "build" / f"commitment-test-{os.getpid()}"
    with open(TS_PACKAGE / "package-lock.json") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (TS_PACKAGE / "node_modules" / ".bin" / "tsc").exists():
            subprocess.run([NPM, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=TS_PACKAGE, check=True,
                           timeout=300)
    built = subprocess.run([str(TS_PACKAGE / "node_modules" / ".bin" / "tsc"), "-p", "tsconfig.json", "--outDir",
                            str(out)], cwd=TS_PACKAGE, capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stdout + built.stderr
    yield out
    shutil.rmtree(out, ignore_errors=True)


@pytest.mark.long_running
def test_the_typescript_client_checks_the_commitment(ts_build, admin_host, tampered):
    env = {**os.environ, "GAMEHOST_TS_BUILD": str(ts_build), "GAMEHOST_WEB_URL": admin_host.web_url,
           "GAMEHOST_COMMITMENT_CASES": cases_of(tampered)}
    done = subprocess.run([NODE, "--test", str(NODE_TEST)], cwd=TS_PACKAGE, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "# fail 0" in done.stdout and "# skipped 0" in done.stdout and "# pass" in done.stdout, done.stdout


@pytest.fixture()
def replicas(tmp_path):
    url = create_database()
    started = []
    try:
        for name in "ab":
            started.append(HostProcess("--store", url, "--replica-id", name).start())
        yield started
    finally:
        for host in started:
            host.stop()
        drop_database(url)


@pytest.mark.long_running
def test_two_postgres_replicas_show_one_commitment_and_reveal_it_at_the_end(replicas):
    first, second = replicas
    with first.client() as one, second.client() as other:
        match, tokens = seated(one, "campanile")
        assert len(match.seed_commitment) == 32
        assert other.match(match.name).seed_commitment == match.seed_commitment
        log = other.log(match.name, tokens[1])
        assert log.seed_commitment == match.seed_commitment and not revealed(log)
        one.resign(match.name, tokens[0])
        log = other.log(match.name)
    assert log.complete and commitment(log.seed, log.seed_salt) == match.seed_commitment
    done = replay(first, match.name, "--commitment", match.seed_commitment.hex())
    assert done.returncode == 0 and "commitment verified" in done.stdout, done.stdout + done.stderr


def older_store(current: Path, older: Path) -> None:
    """``older``: a SQLite file at the schema before commitments, holding
    the rows of ``current`` (each table's columns of that schema), as a host
    of that time would have written them."""
    from gamehost.host.store.sqlite_schema import MIGRATIONS

    before = next(i for i, migration in enumerate(MIGRATIONS) if "seed_commitment" in migration)
    with sqlite3.connect(older, isolation_level=None) as db:
        for version, migration in enumerate(MIGRATIONS[:before]):
            db.executescript(f"BEGIN; {migration} PRAGMA user_version = {version + 1}; COMMIT;")
        db.execute("ATTACH DATABASE ? AS current", (str(current),))
        tables = [row[0] for row in db.execute("SELECT name FROM main.sqlite_master WHERE type = 'table'")]
        for table in tables:
            columns = ", ".join(row[1] for row in db.execute(f"PRAGMA main.table_info({table})"))
            db.execute(f"INSERT INTO main.{table} ({columns}) SELECT {columns} FROM current.{table}")
        assert "seed_commitment" not in {row[1] for row in db.execute("PRAGMA main.table_info(matches)")}
    db.close()


def test_a_match_stored_before_commitments_is_migrated_and_replays_with_a_note(tmp_path):
    played = HostProcess(data_dir=tmp_path / "now").start()
    try:
        with played.client() as client:
            match, _ = tictactoe_won_by_x(client)
    finally:
        played.stop()
    (tmp_path / "before").mkdir()
    older_store(tmp_path / "now" / "gamehost.db", tmp_path / "before" / "gamehost.db")
    host = HostProcess(data_dir=tmp_path / "before").start()
    try:
        with host.client() as client:
            assert client.match(match.name).seed_commitment == b""
            log = client.log(match.name)
            assert log.complete and log.HasField("seed") and not log.seed_salt and not log.seed_commitment
            assert len(client.create_match("tictactoe").seed_commitment) == 32, "new matches commit"
        done = replay(host, match.name)
    finally:
        host.stop()
    assert done.returncode == 0, done.stderr
    assert "note: no commitment recorded" in done.stdout
    assert "verified: 9 events replay to the recorded result" in done.stdout
