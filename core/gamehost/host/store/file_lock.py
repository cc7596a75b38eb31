"""One host per SQLite file. A second process writing the same database
would commit steps the first never sees: it holds its matches in memory,
and only a shared store (PostgreSQL) makes the engine catch up. So the
SQLite store holds an exclusive lock on a file beside the database for as
long as it is open; the kernel releases it when the process ends, however
it ends."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from gamehost.host.store.base import StoreUnusable


class DatabaseLock:
    def __init__(self, database: Path) -> None:
        self.path = database.with_name(database.name + ".lock")
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock, or raise StoreUnusable naming the holder's pid."""
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            os.close(fd)
            database = self.path.with_name(self.path.name.removesuffix(".lock"))
            raise StoreUnusable(
                f"{database} is in use by another gamehost process{f' (pid {holder})' if holder else ''}. "
                "Two hosts cannot share one SQLite file: stop the other one, give this one its own "
                "--data-dir, or run replicas on a shared PostgreSQL store (--store postgresql://...).") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd = fd

    def release(self) -> None:
        # The file stays: removing it would race a process opening it to lock.
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
