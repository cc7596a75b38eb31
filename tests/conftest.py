"""Fixtures: real hosts in child processes (see hosts.py); the order the
suite's tests are handed to pytest-xdist's workers in."""

from __future__ import annotations

import uuid

import pytest

from databases import create_database, drop_database
from go_client import build_gamehost_go
from hosts import HostProcess
from identities import IdentityProvider, write_api_keys
from web_hosts import serving_web_client

LONG_RUNNING = "long_running"


def pytest_configure(config):
    config.addinivalue_line(
        "markers", f"{LONG_RUNNING}: a test that runs for tens of seconds on an idle machine; its module is run "
                   "first, so that no worker ends the run alone on it while the others stand idle")


def pytest_collection_modifyitems(items):
    """Modules holding a long-running test go first, each kept whole (its
    module-scoped hosts start once), in their collected order; then the
    batches of the plugins' conformance sweeps (5 to 30 s each); then the
    rest. Under ``--dist worksteal`` a worker runs its share from the front
    and idle workers steal from the back: long tests at the front are over
    early, and the run ends on short ones. Every xdist worker sorts alike,
    as the order depends only on the collected items."""
    long_modules = {getattr(item, "module", None) for item in items if item.get_closest_marker(LONG_RUNNING)}

    def rank(item) -> int:
        if getattr(item, "module", None) in long_modules:
            return 0
        return 1 if _is_sweep_batch(item) else 2

    items.sort(key=rank)


def _is_sweep_batch(item) -> bool:
    """A batch of seeds of a plugin's random-playout sweep: its module is
    plugins/<plugin>/tests/test_<game>_conformance.py."""
    path = getattr(item, "path", None)
    return path is not None and path.name.endswith("_conformance.py") and "plugins" in path.parts


@pytest.fixture(scope="session")
def host():
    """One host with the in-memory store, every installed plugin and the
    fixture plugins; tests open their own matches on it."""
    process = HostProcess().start()
    yield process
    process.stop()


@pytest.fixture(scope="module")
def idp():
    """A JWT identity provider the signed-in hosts of a module trust."""
    with IdentityProvider() as provider:
        yield provider


@pytest.fixture(scope="module")
def admin_key(tmp_path_factory):
    """An API key with the admin role: (the keys file, the key)."""
    path = tmp_path_factory.mktemp("keys") / "api-keys.json"
    return path, write_api_keys(path, ("ops", ["admin"]))["ops"]


@pytest.fixture(scope="module")
def signed_in_host(idp):
    """A host (memory store) that accepts ``idp``'s tokens."""
    process = HostProcess(*idp.host_args()).start()
    yield process
    process.stop()


@pytest.fixture(scope="module")
def web_host():
    """A host serving the web client to the module's browser scenarios (memory store)."""
    yield from serving_web_client()


@pytest.fixture(scope="module")
def signed_in_web_host(idp):
    """A host serving the web client that also accepts ``idp``'s tokens
    (anonymous callers stay welcome, as on any host without --auth-required)."""
    yield from serving_web_client(*idp.host_args())


@pytest.fixture()
def user(idp):
    """``user("ann")``: a new signed-in person, (subject, token), named Ann."""
    def subject_and_token(name: str) -> tuple[str, str]:
        subject = f"{name}-{uuid.uuid4().hex[:6]}"
        return subject, idp.token(subject, name=name.title())
    return subject_and_token


@pytest.fixture()
def client(host):
    with host.client() as connected:
        yield connected


@pytest.fixture()
def start_host(tmp_path):
    """Start extra hosts (e.g. on a data directory); all are stopped after the test."""
    started: list[HostProcess] = []

    def start(*args: str, **kwargs) -> HostProcess:
        process = HostProcess(*args, **kwargs).start()
        started.append(process)
        return process

    yield start
    for process in started:
        process.stop()


@pytest.fixture()
def postgres_url():
    """A fresh, empty PostgreSQL database for one test, dropped after it (databases.py)."""
    url = create_database()
    yield url
    drop_database(url)


@pytest.fixture(scope="session")
def gamehost_go(tmp_path_factory, worker_id):
    """The gamehost-go binary, built once for the whole run (all xdist workers)."""
    shared = tmp_path_factory.getbasetemp()
    return build_gamehost_go(shared if worker_id == "master" else shared.parent)
