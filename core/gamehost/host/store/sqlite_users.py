"""The SQLite store's users' data (``user_rows.py``): one process per file,
so erasure is one ``BEGIN IMMEDIATE`` transaction and nothing is announced."""

from __future__ import annotations

import sqlite3
from typing import Any, Callable, Sequence

from gamehost.host.store.user_rows import collect as collect_rows, erase as erase_rows
from gamehost.host.store.user_data import Erasure


class _Rows:
    """The connection as ``user_rows.Rows``: its calls never wait, so nothing interleaves with them."""

    mark = "?"
    row_lock = ""  # the transaction holds the file

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        return self.db.execute(sql, tuple(params)).fetchall()

    async def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        return self.db.execute(sql, tuple(params)).rowcount


class SQLiteUsers:
    def __init__(self, connection: Callable[[], sqlite3.Connection], committed: Callable[[], None]) -> None:
        self._connection = connection  # the store's open connection, read at each call
        self._committed = committed  # tells the store's checkpoints of a commit, as its own transactions do

    async def export(self, subject: str) -> dict[str, Any]:
        return await collect_rows(_Rows(self._connection()), subject)

    async def erase(self, subject: str, pseudonym: str) -> Erasure:
        db = self._connection()
        db.execute("BEGIN IMMEDIATE")
        try:
            done = await erase_rows(_Rows(db), subject, pseudonym)
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        self._committed()
        return done
