"""The gateway's side of the host's own gRPC server: which methods exist, and
calling them over a loopback channel with raw bytes.

Requests and responses pass as serialized protobuf (identity serializers), so
the servicer alone decodes, validates and decides; the gateway only changes
the framing. A call's status comes back as a ``Failure``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import AsyncGenerator

import grpc
import structlog
from google.protobuf import any_pb2, descriptor_pb2, message_factory
from google.protobuf.descriptor import ServiceDescriptor
from google.protobuf.message import Message
from google.rpc import error_details_pb2, status_pb2

from gamehost.host.rpc.status import DOMAIN

STATUS_DETAILS_KEY = "grpc-status-details-bin"

log = structlog.get_logger("gamehost.web")


@dataclass(frozen=True)
class Method:
    path: str            # "/gamehost.v1.GameHost/GetGame", the URL path in both browser protocols
    input: type[Message]   # request message class
    output: type[Message]  # response message class
    server_streaming: bool
    no_side_effects: bool = False  # marked NO_SIDE_EFFECTS in the proto: Connect's GET form may call it


def methods_of(*services: ServiceDescriptor) -> dict[str, Method]:
    """Every unary and server-streaming method of ``services``, by URL path."""
    table = {}
    for service in services:
        for method in service.methods:
            if method.client_streaming:
                continue  # browsers cannot stream requests over HTTP/1.1; none of ours does
            path = f"/{service.full_name}/{method.name}"
            reads_only = method.GetOptions().idempotency_level == descriptor_pb2.MethodOptions.NO_SIDE_EFFECTS
            table[path] = Method(path, message_factory.GetMessageClass(method.input_type),
                                 message_factory.GetMessageClass(method.output_type), method.server_streaming,
                                 reads_only)
    return table


class Failure(Exception):
    """A call that ended with a non-OK status: the code, the message, and the
    serialized google.rpc.Status carrying the details (empty when none)."""

    def __init__(self, code: grpc.StatusCode, message: str, details: bytes = b"") -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details

    @classmethod
    def local(cls, code: grpc.StatusCode, message: str, reason: str, field: str = "body") -> "Failure":
        """A failure found by the gateway itself (unreadable body, wrong
        framing...), with an ErrorInfo like the servicer's, and for
        INVALID_ARGUMENT a BadRequest naming what was wrong (the body, a header)."""
        info = any_pb2.Any()
        info.Pack(error_details_pb2.ErrorInfo(reason=reason, domain=DOMAIN))
        details = [info]
        if code is grpc.StatusCode.INVALID_ARGUMENT:
            bad_request = any_pb2.Any()
            bad_request.Pack(error_details_pb2.BadRequest(field_violations=[
                error_details_pb2.BadRequest.FieldViolation(field=field, description=message)]))
            details.append(bad_request)
        status = status_pb2.Status(code=code.value[0], message=message, details=details)
        return cls(code, message, status.SerializeToString())

    @classmethod
    def of(cls, error: grpc.aio.AioRpcError) -> "Failure":
        details = b""
        for key, value in error.trailing_metadata() or ():
            if key == STATUS_DETAILS_KEY and isinstance(value, bytes):  # a "-bin" key's value: bytes
                details = value
        return cls(error.code(), error.details() or "", details)

    def status(self) -> status_pb2.Status:
        """The google.rpc.Status, details included."""
        status = status_pb2.Status()
        if self.details:
            status.ParseFromString(self.details)
        status.code, status.message = self.code.value[0], self.message
        return status


def unexpected(method: Method, error: Exception) -> Failure:
    """A gateway bug: logged, and INTERNAL without internals for the client,
    as the servicer does."""
    log.exception("browser call failed", method=method.path, error=str(error))
    return Failure.local(grpc.StatusCode.INTERNAL, f"The host failed on {method.path}: {type(error).__name__}. "
                                                   f"It has been logged.", "HOST_ERROR")


class Upstream:
    """A loopback channel to the host's gRPC server, with the same message
    limits as the server."""

    def __init__(self, target: str, max_message_bytes: int) -> None:
        self.channel = grpc.aio.insecure_channel(target, options=[
            ("grpc.max_send_message_length", max_message_bytes),
            ("grpc.max_receive_message_length", 16 * max_message_bytes),
        ])

    async def unary(self, method: Method, request: bytes, timeout: float | None, metadata=()) -> bytes:
        invoke: grpc.aio.UnaryUnaryMultiCallable[bytes, bytes] = self.channel.unary_unary(method.path)
        call = invoke(request, timeout=timeout, metadata=metadata)
        try:
            return await call
        except grpc.aio.AioRpcError as error:
            raise Failure.of(error) from None

    async def stream(self, method: Method, request: bytes, timeout: float | None,
                     metadata=()) -> AsyncGenerator[bytes, None]:
        """The response messages as they come; a non-OK end raises Failure.
        Closing the iterator early (the browser went away) cancels the call."""
        invoke: grpc.aio.UnaryStreamMultiCallable[bytes, bytes] = self.channel.unary_stream(method.path)
        call = invoke(request, timeout=timeout, metadata=metadata)
        try:
            async for message in call:
                yield message
        except grpc.aio.AioRpcError as error:
            raise Failure.of(error) from None
        finally:
            call.cancel()

    async def close(self) -> None:
        await self.channel.close()
