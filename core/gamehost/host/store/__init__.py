"""Durable match records: an append-only event log plus snapshots.

``open_store`` picks a backend from a URL-ish spec:
``memory`` (tests), ``sqlite:///path/to/file.db`` or a data directory
(the embedded default: ``<data-dir>/gamehost.db``).
"""

from __future__ import annotations

from pathlib import Path

from gamehost.host.store.base import MatchRecord, SeatRecord, Store, VersionConflict
from gamehost.host.store.memory import MemoryStore
from gamehost.host.store.sqlite import SQLiteStore


def open_store(spec: str | None, data_dir: str | Path | None = None, durability: str = "normal") -> Store:
    if spec in (None, "", "sqlite"):
        directory = Path(data_dir or "data")
        directory.mkdir(parents=True, exist_ok=True)
        return SQLiteStore(directory / "gamehost.db", durability)
    if spec == "memory":
        return MemoryStore()
    if spec.startswith("sqlite://"):
        return SQLiteStore(Path(spec.removeprefix("sqlite://")), durability)
    raise ValueError(f"unknown store {spec!r}: use 'memory', 'sqlite' or 'sqlite:///path/file.db'")


__all__ = ["MatchRecord", "MemoryStore", "SQLiteStore", "SeatRecord", "Store", "VersionConflict", "open_store"]
