"""Fresh PostgreSQL databases for the tests, on the server GAMEHOST_TEST_POSTGRES
names (``make test`` starts one with scripts/start-test-postgres). Without it
a test is skipped, except under CI, where a missing database is a failure."""

from __future__ import annotations

import os
import uuid
from urllib.parse import urlsplit

import pytest


def create_database() -> str:
    """A new, empty database: its URL."""
    server = os.environ.get("GAMEHOST_TEST_POSTGRES")
    if not server:
        if os.environ.get("CI"):
            pytest.fail("GAMEHOST_TEST_POSTGRES is not set: run the tests with make test (scripts/test-postgres)")
        pytest.skip("no PostgreSQL: set GAMEHOST_TEST_POSTGRES or run `make test`")
    import psycopg

    name = f"gamehost_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    return urlsplit(server)._replace(path=f"/{name}").geturl()


def drop_database(url: str) -> None:
    import psycopg

    name = urlsplit(url).path.lstrip("/")
    with psycopg.connect(os.environ["GAMEHOST_TEST_POSTGRES"], autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
