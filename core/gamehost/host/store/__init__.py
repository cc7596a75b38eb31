"""Durable match records: an append-only event log plus snapshots.

``open_store`` picks a backend from a URL-ish spec:
``memory`` (tests), ``sqlite:///path/to/file.db`` or a data directory
(the embedded default: ``<data-dir>/gamehost.db``), or
``postgresql://user:password@host:port/database`` (shared by replicas).
"""

from __future__ import annotations

from pathlib import Path


from gamehost.host.store.base import MatchRecord, SeatRecord, Store, StoreUnusable, VersionConflict, describe_store
from gamehost.host.store.memory import MemoryStore
from gamehost.host.store.sqlite import SQLiteStore


def open_store(spec: str | None, data_dir: str | Path | None = None, durability: str = "normal",
               owner: str = "", claim_lease: float = 10.0, open_timeout: float = 30.0) -> Store:
    """For a shared store: ``owner`` names this replica in claims, held for
    ``claim_lease`` seconds; ``open()`` waits up to ``open_timeout`` seconds
    for the database."""
    if spec in (None, "", "sqlite"):
        directory = Path(data_dir or "data")
        directory.mkdir(parents=True, exist_ok=True)
        return SQLiteStore(directory / "gamehost.db", durability)
    if spec == "memory":
        return MemoryStore()
    if spec.startswith("sqlite://"):
        return SQLiteStore(Path(spec.removeprefix("sqlite://")), durability)
    if spec.startswith(("postgresql://", "postgres://")):
        from gamehost.host.store.postgres import PostgresStore  # psycopg only when asked for

        return PostgresStore(spec, owner=owner, lease=claim_lease, open_timeout=open_timeout)
    raise ValueError(f"unknown store {spec!r}: use 'memory', 'sqlite', 'sqlite:///path/file.db' "
                     "or 'postgresql://user:password@host/database'")


__all__ = ["MatchRecord", "MemoryStore", "SQLiteStore", "SeatRecord", "Store", "StoreUnusable", "VersionConflict", "describe_store",
           "open_store"]
