"""SubmitMoveRequest as the unary call and the Session stream both send it."""

from __future__ import annotations

import uuid
from typing import Any, Mapping

from gamehost.client.names import match_name
from gamehost.client.structs import to_struct
from gamehost.v1 import gamehost_pb2 as pb


def move_request(match: str, token: str, *, move_id: str = "", move: Mapping[str, Any] | None = None,
                 expected_version: int | None = None, request_id: str | None = None) -> pb.SubmitMoveRequest:
    """A SubmitMoveRequest by move id or structured move; a fresh request id
    unless one is given (a retry sends the same one)."""
    request = pb.SubmitMoveRequest(name=match_name(match), player_token=token,
                                   request_id=request_id or uuid.uuid4().hex)
    if move is not None:
        request.structured.CopyFrom(to_struct(move))
    else:
        request.move_id = move_id
    if expected_version is not None:
        request.expected_version = expected_version
    return request
