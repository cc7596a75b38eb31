"""Between grpcio and the servicer: requests that do not decode reach the
gate as a value, not an exception, and statuses go out quietly.

grpcio answers a request its deserializer cannot read with INTERNAL or
UNKNOWN on its own, before any of our code runs. ``add_servicer`` registers
the generated handlers with a deserializer that cannot raise: bytes that are
not the method's request message (garbage, a Struct nested past protobuf's
decode limit) become an ``Undecodable``, which the gate refuses with
INVALID_ARGUMENT and a BadRequest like every other bad input. A method the
servicer does not implement answers UNIMPLEMENTED through ``send_status``
rather than through grpcio's NotImplementedError path, which prints a
traceback when the caller has gone.
"""

from __future__ import annotations

import asyncio
import inspect
from dataclasses import dataclass
from typing import Callable

import grpc
# grpcio's error for a status sent to a call already gone (its stubs leave out this Cython layer)
from grpc._cython.cygrpc import ExecuteBatchError

from gamehost.host import errors
from gamehost.host.rpc.status import to_grpc_status

GENERATED_MODULE_SUFFIX = "_pb2_grpc"  # where the generated servicer base classes live


async def send_status(context, status: grpc.Status) -> None:
    """End the call with ``status``. If the caller cancelled (a browser went
    away) before grpcio learnt of it, the status has nobody to go to: the
    call ends as cancelled, which grpcio logs quietly, not with a traceback."""
    try:
        await context.abort_with_status(status)
    except ExecuteBatchError:
        raise asyncio.CancelledError() from None


@dataclass(frozen=True)
class Undecodable:
    """A request body that is not a ``message_type`` message."""

    message_type: str
    size: int
    problem: str

    def error(self) -> errors.InvalidArgument:
        return errors.invalid_field(
            "request", f"the {self.size}-byte body is not a {self.message_type} message ({self.problem}).",
            "UNDECODABLE_REQUEST")

    def ListFields(self):  # noqa: N802 - reads as an empty message to code that walks requests
        return []


def tolerant(deserializer: Callable[[bytes], object]) -> Callable[[bytes], object]:
    """``deserializer`` that returns an Undecodable instead of raising."""
    message_type = getattr(getattr(deserializer, "__self__", None), "DESCRIPTOR", None)
    name = message_type.full_name if message_type is not None else "request"

    def deserialize(data: bytes):
        try:
            return deserializer(data)
        except RecursionError:
            return Undecodable(name, len(data), "nested too deep")
        except Exception:  # protobuf's DecodeError and whatever its C layer raises: all the client's bytes
            return Undecodable(name, len(data), "protobuf cannot decode it")

    return deserialize


def _unimplemented(path: str):
    async def answer(request, context):
        await send_status(context, to_grpc_status(errors.Unimplemented(
            f"{path} is not implemented by this host.", "NOT_IMPLEMENTED")))
    return answer


Admit = Callable[[str, object], None]  # (method name, context): raises a HostError to refuse the call


def _admitted(name: str, admit: Admit | None, context) -> grpc.Status | None:
    """The status refusing the call, or None once ``admit`` let it in."""
    if admit is None:
        return None
    try:
        admit(name, context)
    except errors.HostError as error:
        return to_grpc_status(error)
    return None


def _refusing(name: str, behavior, kind: str, admit: Admit | None):
    """``behavior`` (a servicer's method that does not pass our gate) with an
    Undecodable request refused before it runs, and the call admitted by
    ``admit`` (the quotas of callers known by their address alone)."""
    if kind == "stream_stream":  # the request stream is the servicer's to read
        async def streams(requests, context):
            refusal = _admitted(name, admit, context)
            if refusal is not None:
                await send_status(context, refusal)
                return
            async for message in behavior(requests, context):
                yield message
        return streams
    if kind == "unary_stream" and inspect.isasyncgenfunction(behavior):
        async def stream(request, context):
            refusal = request.error() if isinstance(request, Undecodable) else None
            status = to_grpc_status(refusal) if refusal is not None else _admitted(name, admit, context)
            if status is not None:
                await send_status(context, status)
                return
            async for message in behavior(request, context):
                yield message
        return stream
    # unary, or a stream written with context.write (the health service's Watch)

    async def unary(request, context):
        if isinstance(request, Undecodable):
            await send_status(context, to_grpc_status(request.error()))
        refusal = _admitted(name, admit, context)
        if refusal is not None:
            await send_status(context, refusal)
        return await behavior(request, context)
    return unary


def passing_bytes(serializer: Callable[[object], bytes]) -> Callable[[object], bytes]:
    """``serializer`` that sends a message already encoded (bytes) as it is:
    watchers share one encoding of each event (event_frames.py)."""
    def serialize(message) -> bytes:
        return message if type(message) is bytes else serializer(message)

    return serialize


def _checked(service: str, name: str, handler, gated: bool, admit: Admit | None = None):
    kind = "unary_unary" if handler.unary_unary else "unary_stream" if handler.unary_stream else \
        "stream_stream" if handler.stream_stream else None
    if kind is None:  # client streams: none of ours
        return handler
    if kind == "stream_stream" and not gated:  # reflection: its own messages, admitted when it opens
        return handler._replace(stream_stream=_refusing(name, handler.stream_stream, kind, admit))
    if kind == "stream_stream":  # the deserializer runs per message: the servicer answers an Undecodable one
        return handler._replace(request_deserializer=tolerant(handler.request_deserializer),
                                response_serializer=passing_bytes(handler.response_serializer))
    behavior = getattr(handler, kind)
    if getattr(behavior, "__module__", "").endswith(GENERATED_MODULE_SUFFIX):
        # the generated base class's method: the servicer does not implement it
        handler = handler._replace(**{kind: _unimplemented(f"/{service}/{name}")})
    elif not gated:
        handler = handler._replace(**{kind: _refusing(name, behavior, kind, admit)})
    return handler._replace(request_deserializer=tolerant(handler.request_deserializer),
                            response_serializer=passing_bytes(handler.response_serializer) if gated
                            else handler.response_serializer)


class _Registrar:
    """Stands in for the server while a generated ``add_*_to_server`` runs,
    then registers its handlers with tolerant deserializers."""

    def __init__(self, server: grpc.aio.Server, gated: bool, router=None, admit: Admit | None = None) -> None:
        self.server = server
        self.gated = gated
        self.admit = admit
        self.router = router  # a serving group's Forwarder (forwarding.py), or None

    def add_generic_rpc_handlers(self, handlers) -> None:
        pass  # the registered handlers below serve every method of the service

    def add_registered_method_handlers(self, service: str, handlers: dict) -> None:
        checked = {name: _checked(service, name, handler, self.gated, self.admit) for name, handler in handlers.items()}
        if self.router is not None:
            checked = {name: self.router.route(service, name, handlers[name], handler)
                       for name, handler in checked.items()}
        self.server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service, checked),))
        self.server.add_registered_method_handlers(service, checked)


def add_servicer(add_to_server: Callable, servicer, server: grpc.aio.Server, *, gated: bool = True,
                 router=None, admit: Admit | None = None) -> None:
    """``add_to_server(servicer, server)`` (a generated function), with
    requests that do not decode handed to the servicer as Undecodable when
    its methods pass the gate (``gated``), refused here otherwise (e.g. the
    standard health service), and admitted by ``admit`` (its caller's
    quotas). ``router``: calls about a match another process of the group
    owns go there (forwarding.py)."""
    add_to_server(servicer, _Registrar(server, gated, router, admit))
