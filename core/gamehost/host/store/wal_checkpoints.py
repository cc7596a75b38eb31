"""The SQLite store's WAL checkpoints, made on a thread of their own.

SQLite copies the write-ahead log back into the database file (a
checkpoint) when a commit takes the log past ``wal_autocheckpoint`` pages,
inside that commit: on the event loop's thread, where the store's calls run.
Under the soak a checkpoint came every 0.6 s and held the loop 8 ms (p50)
to 40 ms (max) while it wrote and fsynced the database file, and every call
in flight waited (bench/README.md, "Where the soak's tail comes from").

So the commits on the loop only append to the log, and this thread, on its
own connection, checkpoints in ``PASSIVE`` mode (it never waits for, nor
blocks, the writer) a moment after commits were made. ``sqlite3`` lets go of
the GIL while SQLite works, so the loop runs meanwhile. Durability does not
change: a commit is in the log when it is acknowledged, checkpointed or not.
Should this thread fall behind, the loop's connection still checkpoints
once the log reaches ``BACKSTOP_PAGES``, as before, only later.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import structlog

log = structlog.get_logger("gamehost.store")

BACKSTOP_PAGES = 10_000   # the loop's connection checkpoints itself past this (SQLite's default is 1,000)
GATHER_SECONDS = 0.5      # after a commit, wait this long so one checkpoint takes many commits


class WalCheckpointer:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.checkpoints = 0  # made by this thread, for tests and curiosity
        self._committed = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="sqlite-wal-checkpoints", daemon=True)
        self._thread.start()

    def committed(self) -> None:
        """A commit was made on the loop: checkpoint soon."""
        if not self._committed.is_set():
            self._committed.set()

    def stop(self) -> None:
        self._stopping.set()
        self._committed.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def _run(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            while True:
                self._committed.wait()
                self._committed.clear()
                if self._stopping.wait(GATHER_SECONDS):  # meanwhile commits gather: one checkpoint for many
                    return
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                    self.checkpoints += 1
                except sqlite3.Error as error:  # e.g. the disk is full: the loop's connection checkpoints later
                    log.warning("WAL checkpoint failed", path=str(self.path), error=str(error))
        finally:
            db.close()
