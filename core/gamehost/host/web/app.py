"""The host's HTTP port: Connect and gRPC-Web for browsers, and the web
client's files, served by aiohttp inside the host's asyncio loop.

Every RPC is forwarded to the host's own gRPC server (upstream.py), so gRPC,
Connect and gRPC-Web clients get the same answers and the same errors.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ContextManager

import grpc
from aiohttp import web
from google.protobuf import descriptor_pool
from grpc_health.v1 import health

from gamehost.host import traces
from gamehost.host.errors import shown
from gamehost.host.web import connect, grpc_web
from gamehost.host.web.cors import CorsPolicy
from gamehost.host.web.errors import connect_error
from gamehost.host.web.gateway import Gateway
from gamehost.host.web.static import StaticRoot
from gamehost.host.web.upstream import Failure, Method, methods_of
from gamehost.v1 import gamehost_pb2

SERVICES = (gamehost_pb2.DESCRIPTOR.services_by_name["GameHost"],
            gamehost_pb2.DESCRIPTOR.services_by_name["GameHostAdmin"],
            # the health module registers its service on import; found by name, the descriptor has the
            # type of the others (the health stubs name protobuf's C classes instead)
            descriptor_pool.Default().FindServiceByName(health.SERVICE_NAME))


def _unsupported(method: Method) -> web.Response:
    types = (connect.STREAM_TYPES if method.server_streaming else connect.UNARY_TYPES).keys()
    accepted = ", ".join([*types, *grpc_web.CONTENT_TYPES])
    return web.Response(status=415, headers={"Accept-Post": accepted},
                        text=f"{method.path} takes one of these content types: {accepted}\n")


def _web_span(request: web.Request, method: Method) -> ContextManager[Any]:
    """The web port's span of a browser's call, the page's span its parent
    when the request has a W3C ``traceparent`` header; the call forwarded
    to the gRPC side carries this span's context (Gateway.caller_metadata)."""
    return traces.server_span(f"web {method.path.lstrip('/')}", traces.carrier_of(request.headers.items()),
                              {"http.request.method": request.method, "url.path": request.path,
                               "network.protocol.name": "http"})


def build_app(gateway: Gateway, cors: CorsPolicy, web_root: Path | None) -> web.Application:
    methods = methods_of(*SERVICES)

    async def rpc(request: web.Request) -> web.StreamResponse:
        method = methods.get(request.path)
        if method is None:
            failure = Failure.local(grpc.StatusCode.UNIMPLEMENTED,
                                    f"{shown(request.path)} is not a method of this host.", "UNKNOWN_METHOD")
            return web.Response(status=404, body=json.dumps(connect_error(failure)).encode(),
                                content_type="application/json")
        if not traces.on():
            return await forward(request, method)
        with _web_span(request, method):
            return await forward(request, method)

    async def forward(request: web.Request, method: Method) -> web.StreamResponse:
        content_type = request.content_type.lower()
        if content_type in grpc_web.CONTENT_TYPES:
            return await grpc_web.handle(gateway, request, method, content_type)
        if not method.server_streaming and content_type in connect.UNARY_TYPES:
            return await connect.unary(gateway, request, method, connect.UNARY_TYPES[content_type])
        if method.server_streaming and content_type in connect.STREAM_TYPES:
            return await connect.server_stream(gateway, request, method, connect.STREAM_TYPES[content_type])
        return _unsupported(method)

    static = StaticRoot(web_root, frozenset(methods))

    async def get(request: web.Request) -> web.StreamResponse:
        method = methods.get(request.path)
        if method is not None and method.no_side_effects and request.method == "GET":
            if not traces.on():
                return await connect.unary_get(gateway, request, method)
            with _web_span(request, method):
                return await connect.unary_get(gateway, request, method)
        return await static.handle(request)  # files; and 405 for the RPCs that take POST only

    app = web.Application(middlewares=[cors.preflight])
    app.on_response_prepare.append(cors.on_response_prepare)
    app.router.add_post("/{path:.*}", rpc)
    app.router.add_get("/{path:.*}", get)
    return app
