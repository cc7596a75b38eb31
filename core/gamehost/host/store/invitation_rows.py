"""Private matches' invitations in the databases: one row per match holding
the SHA-256 of its code (never the code), read on every use so that a
revoked code admits nobody on any replica. The SQL is the same for both
backends but for the driver's placeholder."""

from __future__ import annotations

from typing import Any, Awaitable, Callable


def upsert_sql(mark: str) -> str:
    return (f"INSERT INTO match_invitations VALUES ({mark}, {mark}) ON CONFLICT (match_id) "
            "DO UPDATE SET code_hash = excluded.code_hash RETURNING match_id")


def admits_sql(mark: str) -> str:
    return f"SELECT match_id FROM match_invitations WHERE match_id = {mark} AND code_hash = {mark}"


def revoke_sql(mark: str) -> str:
    return f"DELETE FROM match_invitations WHERE match_id = {mark} RETURNING match_id"


class PostgresInvitations:
    """The PostgreSQL store's invitation methods (``Store``'s), over its one-row query."""

    _one: Callable[[str, tuple], Awaitable[Any]]

    async def set_invitation(self, match_id: str, code_hash: str) -> None:
        await self._one(upsert_sql("%s"), (match_id, code_hash))

    async def invitation_admits(self, match_id: str, code_hash: str) -> bool:
        return await self._one(admits_sql("%s"), (match_id, code_hash)) is not None

    async def revoke_invitation(self, match_id: str) -> bool:
        return await self._one(revoke_sql("%s"), (match_id,)) is not None
