"""Whether the SQLite file can serve: a database and not something else,
no damaged page, and room to write (the readiness probe)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from gamehost.host.store.base import StoreUnusable

SQLITE_HEADER = b"SQLite format 3\x00"
PROBE_TABLE = "gamehost_write_probe"  # one row, rewritten by each readiness check
QUICK_CHECK_PROBLEMS = 3  # the damage a refusal names at most
MIN_FREE_PAGES = 16  # fewer pages left than a few moves need: as good as full
MIN_FREE_BYTES = 1 << 20  # less room left on the disk than this: as good as full


def free_bytes(directory: Path) -> int:
    """Room left on the disk holding ``directory`` for this process: root
    may also use the blocks the filesystem reserves for it."""
    stats = os.statvfs(directory)
    return stats.f_frsize * (stats.f_bfree if os.geteuid() == 0 else stats.f_bavail)


def check_file(path: Path) -> None:
    """SQLite takes an empty file for a new database and would start an
    empty host on it: a file that is there must already be a database."""
    if not path.exists():
        return
    with open(path, "rb") as file:
        header = file.read(len(SQLITE_HEADER))
    if not header:
        raise StoreUnusable(f"{path} is empty (0 bytes), not a gamehost database. If it was lost, "
                            "restore it from a backup; to start an empty host, remove the file.")
    if header != SQLITE_HEADER:
        raise StoreUnusable(f"{path} is not an SQLite database (it starts with {header[:8]!r}). "
                            "Restore it from a backup or point --data-dir/--store elsewhere.")


def check_pages(db: sqlite3.Connection) -> None:
    """Every page of the file read once (SQLite's quick_check): a file
    damaged past its header would otherwise start, and fail the first
    call, or the start-up, that reads the damaged page."""
    problems = [row[0] for row in db.execute(f"PRAGMA quick_check({QUICK_CHECK_PROBLEMS})").fetchall()]
    if problems != ["ok"]:
        raise sqlite3.DatabaseError("; ".join(" ".join(problem.split()) for problem in problems)[:400])


def probe_write(db: sqlite3.Connection, path: Path) -> None:
    """Commit a tiny write, as every move does: fails while the disk is
    full or the file cannot be written. A tiny commit can still succeed
    on a full disk (the log is written over from its start once it was
    copied back, needing no new room) while the next copy into the
    database file fails and moves after it: the disk's free room is
    checked first. A database held at its
    max_page_count fails only writes that need a new page, so the room
    left there is checked too."""
    free = free_bytes(path.parent)
    if free < MIN_FREE_BYTES:  # the probe alone may still commit: it writes over the start of a copied log
        raise sqlite3.OperationalError(f"database or disk is full: {free} bytes free on the disk of {path}")
    room = (db.execute("PRAGMA max_page_count").fetchone()[0] - db.execute("PRAGMA page_count").fetchone()[0]
            + db.execute("PRAGMA freelist_count").fetchone()[0])
    if room < MIN_FREE_PAGES:
        raise sqlite3.OperationalError(f"database or disk is full: {room} pages left under max_page_count")
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute(f"CREATE TABLE IF NOT EXISTS {PROBE_TABLE} (id INTEGER PRIMARY KEY, probed REAL)")
        db.execute(f"INSERT OR REPLACE INTO {PROBE_TABLE} VALUES (1, julianday('now'))")
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
