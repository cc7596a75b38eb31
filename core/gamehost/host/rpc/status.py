"""Engine errors as gRPC statuses with google.rpc error details."""

from __future__ import annotations

import grpc
from google.protobuf import any_pb2
from google.protobuf.message import Message
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from gamehost.host.errors import FailedPrecondition, HostError

DOMAIN = "gamehost.dev"


def _packed(message: Message) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(message)
    return packed


def to_grpc_status(error: HostError) -> grpc.Status:
    return rpc_status.to_status(to_rpc_status(error))


def to_rpc_status(error: HostError) -> status_pb2.Status:
    """The google.rpc.Status for ``error``: its code, message and details."""
    details: list[Message] = [error_details_pb2.ErrorInfo(reason=error.reason, domain=DOMAIN, metadata=error.metadata)]
    if error.field_violations:
        details.append(error_details_pb2.BadRequest(field_violations=[
            error_details_pb2.BadRequest.FieldViolation(field=field, description=description)
            for field, description in error.field_violations]))
    if isinstance(error, FailedPrecondition):
        details.append(error_details_pb2.PreconditionFailure(violations=[
            error_details_pb2.PreconditionFailure.Violation(
                type=error.reason, subject=error.metadata.get("rule", ""), description=error.message)]))
    if error.resource is not None:
        details.append(error_details_pb2.ResourceInfo(resource_type=error.resource[0],
                                                      resource_name=error.resource[1],
                                                      description=error.message))
    if error.quota_violations:
        details.append(error_details_pb2.QuotaFailure(violations=[
            error_details_pb2.QuotaFailure.Violation(subject=subject, description=description)
            for subject, description in error.quota_violations]))
    if error.localized is not None:  # the player's sentence in the language the request asked for
        details.append(error_details_pb2.LocalizedMessage(locale=error.localized[0], message=error.localized[1]))
    if error.retry_after is not None:
        retry = error_details_pb2.RetryInfo()
        retry.retry_delay.FromNanoseconds(int(error.retry_after * 1e9))
        details.append(retry)
    return status_pb2.Status(code=getattr(code_pb2, error.code), message=error.message,
                             details=[_packed(detail) for detail in details])
