"""A serving group's routing: a call about a match another process owns goes
to that process, over its Unix socket, as bytes.

Every unary and server-streaming method whose request names a match
(``name: "matches/..."``) is wrapped. The wrapped handler decodes the
request once (the gate and the owner's hash need it) and keeps its bytes;
when another process owns the match, it admits the caller through this
process's gate (identity, input limits, quotas: every caller is somebody
before any engine) and sends the original bytes to the owner with the
caller's metadata, the admitted caller (forwarded_caller.py) and the time
left of the caller's deadline. The owner's answer, messages or status with
its message, details and trailers, is passed back unchanged, never decoded.

When the owner cannot be reached (it died and is being started again), the
call is served here: the store is shared, so this process catches up from
it as any replica does, and the call is answered correctly at the price of
a catch-up. gRPC's UNAVAILABLE without our error details means the owner's
code never ran the call.

Session streams (many matches on one stream) are not forwarded: their moves
are served by the process that holds the stream, with the catch-ups that
costs.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Callable

import grpc
import structlog

from gamehost.host import errors
from gamehost.host.rpc.forwarded_caller import FORWARDED_CALLER, encode_caller
from gamehost.host.rpc.gate import Gate
from gamehost.host.rpc.grpc_handlers import send_status
from gamehost.host.ops.serving_group import MATCHES_PREFIX, GroupMember
from gamehost.host.rpc.status import to_grpc_status

log = structlog.get_logger("gamehost.forwarding")

STATUS_DETAILS = "grpc-status-details-bin"
# Metadata the channel sets itself, or that gRPC refuses from an application.
HOP_HEADERS = frozenset({"user-agent", "te", "content-type", "host", "authority", FORWARDED_CALLER})
# The owner is restarted within a second or two: look for it again soon.
CHANNEL_OPTIONS = [("grpc.initial_reconnect_backoff_ms", 100), ("grpc.min_reconnect_backoff_ms", 100),
                   ("grpc.max_reconnect_backoff_ms", 1000)]


@dataclass(frozen=True)
class Routed:
    """A request's bytes and its decoding (or Undecodable)."""

    raw: bytes
    request: object


@dataclass(frozen=True)
class _PassedStatus(grpc.Status):
    """The owner's status as a grpc.Status, to end this call with it."""

    code: grpc.StatusCode
    details: str
    trailing_metadata: tuple[tuple[str, str | bytes], ...]


def _names_a_match(request_class) -> bool:
    field = request_class.DESCRIPTOR.fields_by_name.get("name")
    return field is not None and field.type == field.TYPE_STRING


class Forwarder:
    def __init__(self, member: GroupMember, gate: Gate, max_message_bytes: int) -> None:
        self.member = member
        self.gate = gate
        self.options = [*CHANNEL_OPTIONS, ("grpc.max_receive_message_length", 16 * max_message_bytes),
                        ("grpc.max_send_message_length", max_message_bytes)]
        self._channels: dict[int, grpc.aio.Channel] = {}
        self.forwarded = 0    # calls sent to their owner
        self.fell_back = 0    # calls served here because the owner could not be reached

    def owner_elsewhere(self, request) -> int | None:
        """The index of the process that owns the match ``request`` names, when not this one."""
        name = getattr(request, "name", None)
        if type(name) is not str or not name.startswith(MATCHES_PREFIX):
            return None
        owner = self.member.owner_of(name)
        return None if owner == self.member.index else owner

    def channel(self, index: int) -> grpc.aio.Channel:
        channel = self._channels.get(index)
        if channel is None:
            channel = self._channels[index] = grpc.aio.insecure_channel(self.member.target(index),
                                                                        options=self.options)
        return channel

    async def close(self) -> None:
        channels, self._channels = list(self._channels.values()), {}
        await asyncio.gather(*(channel.close() for channel in channels))

    # ------------------------------------------------------------ wrapping handlers

    def route(self, service: str, method: str, generated, checked):
        """``checked`` (the registered handler) routed by match owner, when
        its request names one; else ``checked`` as it is."""
        request_class = getattr(generated.request_deserializer, "__self__", None)
        if request_class is None or not _names_a_match(request_class) or \
                not (checked.unary_unary or checked.unary_stream):
            return checked
        decode = checked.request_deserializer  # tolerant: never raises
        path = f"/{service}/{method}"

        def routed_request(data: bytes) -> Routed:
            return Routed(data, decode(data))

        if checked.unary_unary:
            local = checked.unary_unary

            async def unary(routed: Routed, context):
                owner = self.owner_elsewhere(routed.request)
                if owner is None:
                    return await local(routed.request, context)
                return await self._forward_unary(owner, path, method, routed, context, local)

            return checked._replace(request_deserializer=routed_request, unary_unary=unary)

        local_stream = checked.unary_stream

        async def stream(routed: Routed, context):
            owner = self.owner_elsewhere(routed.request)
            answers = (local_stream(routed.request, context) if owner is None else
                       self._forward_stream(owner, path, method, routed, context, local_stream))
            async for answer in answers:
                yield answer

        return checked._replace(request_deserializer=routed_request, unary_stream=stream)

    # ------------------------------------------------------------ forwarding

    async def _admitted_metadata(self, method: str, routed: Routed, context) -> tuple | None:
        """The metadata to forward, once this process's gate admits the
        caller; None when it refused (the call has then ended)."""
        try:
            caller = await self.gate.admit(method, routed.request, context)
        except errors.HostError as error:
            await send_status(context, to_grpc_status(error))
            return None
        passed = tuple((key, value) for key, value in (context.invocation_metadata() or ())
                       if key.lower() not in HOP_HEADERS and not key.startswith(("grpc-", ":")))
        return (*passed, (FORWARDED_CALLER, encode_caller(caller)))

    async def _forward_unary(self, owner: int, path: str, method: str, routed: Routed, context,
                             local: Callable):
        metadata = await self._admitted_metadata(method, routed, context)
        if metadata is None:
            return None
        forward: grpc.aio.UnaryUnaryMultiCallable[bytes, bytes] = self.channel(owner).unary_unary(path)
        call = forward(routed.raw, metadata=metadata, timeout=context.time_remaining())
        try:
            answer = await call
        except grpc.aio.AioRpcError as error:
            if self._unreachable(error):
                return await self._fall_back(owner, routed, context, local)
            await self._pass_status(context, error)
            return None
        self.forwarded += 1
        await self._pass_trailers(context, call)
        return answer  # bytes: the response serializer passes them as they are

    async def _forward_stream(self, owner: int, path: str, method: str, routed: Routed, context,
                              local: Callable):
        metadata = await self._admitted_metadata(method, routed, context)
        if metadata is None:
            return
        forward: grpc.aio.UnaryStreamMultiCallable[bytes, bytes] = self.channel(owner).unary_stream(path)
        call = forward(routed.raw, metadata=metadata, timeout=context.time_remaining())
        received = False
        try:
            async for message in call:
                received = True
                yield message
        except grpc.aio.AioRpcError as error:
            if not received and self._unreachable(error):
                async for message in await self._fall_back(owner, routed, context, local):
                    yield message
                return
            await self._pass_status(context, error)
            return
        finally:
            call.cancel()  # the caller went away: so does the stream to the owner (no-op once ended)
        self.forwarded += 1
        await self._pass_trailers(context, call)

    @staticmethod
    def _unreachable(error: grpc.aio.AioRpcError) -> bool:
        """UNAVAILABLE from gRPC itself (no connection), not an answer of the owner's code."""
        return error.code() == grpc.StatusCode.UNAVAILABLE and not any(
            key == STATUS_DETAILS for key, _ in (error.trailing_metadata() or ()))

    async def _fall_back(self, owner: int, routed: Routed, context, local: Callable):
        self.fell_back += 1
        log.warning("owner unreachable; serving the call here", owner=owner)
        if asyncio.iscoroutinefunction(local):
            return await local(routed.request, context)
        return local(routed.request, context)

    @staticmethod
    async def _pass_status(context, error: grpc.aio.AioRpcError) -> None:
        await send_status(context, _PassedStatus(error.code(), error.details() or "",
                                                 tuple(error.trailing_metadata() or ())))

    @staticmethod
    async def _pass_trailers(context, call) -> None:
        trailers = await call.trailing_metadata()
        if trailers:
            context.set_trailing_metadata(tuple(trailers))
