"""The error every failed call raises, with the host's google.rpc details unpacked."""

from __future__ import annotations

from dataclasses import dataclass, field

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status


@dataclass
class GameHostError(Exception):
    """A failed call, with the host's structured details unpacked."""

    code: grpc.StatusCode
    message: str
    reason: str = ""
    metadata: dict[str, str] = field(default_factory=dict)
    field_violations: list[tuple[str, str]] = field(default_factory=list)

    def __str__(self) -> str:
        return f"{self.code.name}: {self.message}"

    @classmethod
    def from_rpc_error(cls, error: grpc.RpcError) -> "GameHostError":
        status = rpc_status.from_call(error)
        return cls.from_details(error.code(), error.details() or "", status.details if status else ())

    @classmethod
    def from_details(cls, code: grpc.StatusCode, message: str, details) -> "GameHostError":
        """The error of ``code`` with the google.rpc ``details`` (Any messages) unpacked."""
        found = cls(code, message)
        for detail in details:
            info = error_details_pb2.ErrorInfo()
            bad_request = error_details_pb2.BadRequest()
            if detail.Unpack(info):
                found.reason, found.metadata = info.reason, dict(info.metadata)
            elif detail.Unpack(bad_request):
                found.field_violations = [(v.field, v.description) for v in bad_request.field_violations]
        return found
