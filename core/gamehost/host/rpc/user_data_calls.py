"""ExportUserData and DeleteUserData: a user's data for the user or an
admin (engine/user_data.py decides who may and what each does). The export
adds what the host holds outside its store: the API keys its key file gives
the user, and the remote agents they have connected here now."""

from __future__ import annotations

import json
from typing import Any

from gamehost.host.auth.api_keys import ApiKeys
from gamehost.host.auth.principal import Principal
from gamehost.host.engine.match_engine import MatchEngine
from gamehost.host.rpc.request_fields import resource_id
from gamehost.v1 import gamehost_pb2 as pb


def asked_subject(player: str, caller: Principal) -> str:
    """The user a request names ("players/{subject}"), the caller when it names none or "players/me" (as
    GetPlayerProfile reads it)."""
    return resource_id(player, "players", "player") if player and player != "players/me" else caller.subject


class UserDataCalls:
    def __init__(self, engine: MatchEngine, api_keys: ApiKeys | None) -> None:
        self.user_data = engine.user_data
        self.agents = engine.agents
        self.api_keys = api_keys

    async def export(self, request: pb.ExportUserDataRequest, caller: Principal) -> pb.UserDataExport:
        subject = asked_subject(request.player, caller)
        agents = sorted({link.name for links in self.agents.links.values() for link in links
                         if link.subject == subject})
        document = await self.user_data.export(subject, caller, {"api_keys": self._keys_of(subject),
                                                                 "agents_connected": agents})
        return pb.UserDataExport(player=f"players/{subject}",
                                 json=json.dumps(document, ensure_ascii=False, indent=1, sort_keys=False))

    async def delete(self, request: pb.DeleteUserDataRequest, caller: Principal) -> pb.DeleteUserDataResponse:
        subject = asked_subject(request.player, caller)
        done = await self.user_data.erase(subject, caller, request.confirm)
        return pb.DeleteUserDataResponse(player=f"players/{subject}", pseudonym=done.pseudonym, rows=done.rows,
                                         matches=len(done.match_ids))

    def _keys_of(self, subject: str) -> list[dict[str, Any]]:
        """The key file's entries naming the user (never their hashes): the operator's file, which only the
        operator can change."""
        if self.api_keys is None:
            return []
        return [{"name": key.name, "roles": sorted(key.roles), "display_name": key.display_name}
                for key in self.api_keys.keys if key.name == subject]
