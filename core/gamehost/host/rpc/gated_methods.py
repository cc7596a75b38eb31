"""A servicer's methods as grpcio calls them: the gate admits the caller
first (``Gate.admit``), the method then runs with it, and whatever it
raises ends the call with its status (``status.py``)."""

from __future__ import annotations

import contextlib
import functools
from typing import Any, AsyncIterator, Awaitable, Callable, ContextManager, Coroutine, Protocol, TypeVar

import grpc
import structlog

from gamehost.host import errors, traces
from gamehost.host.auth.principal import Principal
from gamehost.host.rpc.gate import Gate
from gamehost.host.rpc.grpc_handlers import send_status
from gamehost.host.rpc.status import to_grpc_status
from gamehost.v1 import gamehost_pb2 as pb

log = structlog.get_logger("gamehost.service")


class GatedServicer(Protocol):
    gate: Gate


Servicer = TypeVar("Servicer", bound=GatedServicer)
Request = TypeVar("Request")
Response = TypeVar("Response")
Context = grpc.aio.ServicerContext


async def _abort(context: Context, method_name: str, error: Exception) -> None:
    """End the call with the status for ``error``; an unexpected one is logged
    and becomes INTERNAL without internals in the message."""
    traces.failed(error)
    if not isinstance(error, errors.HostError):
        log.exception("rpc failed", method=method_name, error=str(error))
        error = errors.Internal(f"The host failed on {method_name}: {type(error).__name__}. It has been logged.",
                                "HOST_ERROR")
    await send_status(context, to_grpc_status(error))  # quiet if the caller has gone


def unary(method: Callable[[Servicer, Request, Context, Principal], Awaitable[Response]]
          ) -> Callable[[Servicer, Request, Context], Coroutine[Any, Any, Response | None]]:
    """Admit the caller through the gate, then run the method with it;
    translate the errors into statuses."""
    async def call(self: Servicer, request: Request, context: Context) -> Response | None:
        try:
            caller = await self.gate.admit(method.__name__, request, context)
            return await method(self, request, context, caller)
        except grpc.aio.AbortError:
            raise
        except Exception as error:
            await _abort(context, method.__name__, error)
            return None  # the call has ended with the error's status

    @functools.wraps(method)
    async def wrapper(self: Servicer, request: Request, context: Context) -> Response | None:
        if not traces.on():
            return await call(self, request, context)
        with _call_span(method.__name__, context):
            return await call(self, request, context)
    return wrapper


def _call_span(method_name: str, context: Context) -> ContextManager[Any]:
    """The servicer's span of a call, the caller's span (W3C ``traceparent``
    in the call's metadata: the web port's, or a client's) its parent."""
    return traces.server_span(f"grpc {method_name}", traces.carrier_of(context.invocation_metadata() or ()),
                              {"rpc.system": "grpc", "rpc.method": method_name})


StreamMethod = Callable[[Servicer, Request, Context, Principal], AsyncIterator[Response]]
StreamHandler = Callable[[Servicer, Request, Context], AsyncIterator[Response]]


def streaming(method: StreamMethod[Servicer, Request, Response]) -> StreamHandler[Servicer, Request, Response]:
    """The same for a server-streaming method."""
    return _streamed(method, lambda request: request)


def bidirectional(method: StreamMethod[Servicer, Request, Response]) -> StreamHandler[Servicer, Request, Response]:
    """The same for a stream of requests: the caller is admitted once, when
    the stream opens (each message then passes ``Gate.admit_message``)."""
    return _streamed(method, lambda requests: pb.SessionRequest())


def _streamed(method: StreamMethod[Servicer, Request, Response], admitted_as: Callable[[Request], object]
              ) -> StreamHandler[Servicer, Request, Response]:
    """``admitted_as(request)``: the message the gate checks to admit the call."""
    @functools.wraps(method)
    async def wrapper(self: Servicer, request: Request, context: Context) -> AsyncIterator[Response]:
        try:
            # A stream's span covers its admission only: a watch lasts as long as the watcher stays.
            with _call_span(method.__name__, context) if traces.on() else contextlib.nullcontext():
                caller = await self.gate.admit(method.__name__, admitted_as(request), context)
            async for message in method(self, request, context, caller):
                yield message
        except grpc.aio.AbortError:
            raise
        except Exception as error:
            await _abort(context, method.__name__, error)
    return wrapper
