"""Fixtures: real hosts in child processes (see hosts.py)."""

from __future__ import annotations

import pytest

from hosts import HostProcess


@pytest.fixture(scope="session")
def host():
    """One host with the in-memory store, every installed plugin and the
    fixture plugins; tests open their own matches on it."""
    process = HostProcess().start()
    yield process
    process.stop()


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
