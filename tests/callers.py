"""One caller's raw GameHost and GameHostAdmin stubs on a test host: a
fixture user (x-fixture-user) or an API key's bearer, or nobody."""

from __future__ import annotations

import grpc
import pytest

from hosts import HostProcess
from identities import bearer

from gamehost.v1 import gamehost_pb2_grpc as pb_grpc

CALL_TIMEOUT = 30  # seconds: a loaded machine's replica may first take the other's steps


class Caller:
    """Calls by method name, as one caller: ``caller("GetMatch", request)``."""

    def __init__(self, host: HostProcess, user: str = "", key: str = "") -> None:
        self.channel = host.channel()
        self.metadata = (("x-fixture-user", user),) if user else bearer(key) if key else ()
        self.game = pb_grpc.GameHostStub(self.channel)
        self.admin = pb_grpc.GameHostAdminStub(self.channel)
        self.subject = user

    def __call__(self, method: str, request, admin: bool = False):
        return getattr(self.admin if admin else self.game, method)(request, metadata=self.metadata,
                                                                   timeout=CALL_TIMEOUT)

    def refused(self, method: str, request, admin: bool = False) -> grpc.RpcError:
        with pytest.raises(grpc.RpcError) as caught:
            self(method, request, admin)
        return caught.value
