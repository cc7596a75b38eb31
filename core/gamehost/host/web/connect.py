"""The Connect protocol: unary calls (application/proto, application/json;
and, for methods without side effects, the GET form with the request in the
URL) and server streams (application/connect+proto, application/connect+json).
Answers are gzipped for clients that accept it (compression.py): a unary
body by HTTP's Content-Encoding, a stream's messages each in its envelope."""

from __future__ import annotations

import base64
import binascii
import json
from contextlib import aclosing
from urllib.parse import unquote_to_bytes

import grpc
from aiohttp import web

from gamehost.host.errors import shown
from gamehost.host.web import codec, compression, deadlines, framing
from gamehost.host.web.errors import CONNECT_HTTP_STATUS, connect_error
from gamehost.host.web.gateway import Gateway
from gamehost.host.web.upstream import Failure, Method, unexpected

END_STREAM = 0x02
UNARY_TYPES = {"application/proto": codec.PROTO, "application/json": codec.JSON}
STREAM_TYPES = {"application/connect+proto": codec.PROTO, "application/connect+json": codec.JSON}


def _check_version(request: web.Request) -> None:
    version = request.headers.get("Connect-Protocol-Version")
    if version is not None and version != "1":
        raise Failure.local(grpc.StatusCode.INVALID_ARGUMENT,
                            f"Connect-Protocol-Version {shown(version)} is not supported; this host speaks version 1.",
                            "UNSUPPORTED_PROTOCOL_VERSION")


def error_response(failure: Failure) -> web.Response:
    error = connect_error(failure)
    return web.Response(status=CONNECT_HTTP_STATUS[error["code"]], body=json.dumps(error).encode(),
                        content_type="application/json")


async def unary(gateway: Gateway, request: web.Request, method: Method, kind: str) -> web.StreamResponse:
    try:
        _check_version(request)
        body = await framing.read_body(request, gateway.body_limit(kind))
        return await _call(gateway, request, method, kind, body)
    except Failure as failure:
        return error_response(failure)
    except Exception as error:
        return error_response(unexpected(method, error))


async def unary_get(gateway: Gateway, request: web.Request, method: Method) -> web.StreamResponse:
    """Connect's GET form, for a method marked NO_SIDE_EFFECTS: the request
    message is the query's ``message`` (base64url when ``base64=1``, which
    binary messages need), in the ``encoding`` named, gzipped if
    ``compression`` says so; ``connect=v1`` stands for the version header."""
    try:
        query = _query(request)
        version = query.get("connect", b"v1").decode("ascii", "replace")
        if version != "v1":
            raise Failure.local(grpc.StatusCode.INVALID_ARGUMENT,
                                f"connect={shown(version)} is not supported; this host speaks connect=v1.",
                                "UNSUPPORTED_PROTOCOL_VERSION")
        kind = query.get("encoding", b"").decode("ascii", "replace")
        if kind not in (codec.PROTO, codec.JSON):
            raise Failure.local(grpc.StatusCode.INVALID_ARGUMENT,
                                f"encoding={shown(kind) if kind else '(none)'}: a GET call names its message's "
                                f"encoding, proto or json.", "INVALID_GET_REQUEST")
        limit = gateway.body_limit(kind)
        message = query.get("message", b"")
        if query.get("base64") == b"1":
            message = _base64url(message)
        if len(message) > limit:
            raise framing.too_large(len(message), limit)
        encoding = query.get("compression", b"identity").decode("ascii", "replace")
        if encoding == compression.GZIP:
            message = framing.gunzip(message, limit)
        elif encoding != "identity":
            raise Failure.local(grpc.StatusCode.UNIMPLEMENTED,
                                f"compression={shown(encoding)}; this host reads gzip or uncompressed messages.",
                                "UNSUPPORTED_COMPRESSION")
        return await _call(gateway, request, method, kind, message)
    except Failure as failure:
        return error_response(failure)
    except Exception as error:
        return error_response(unexpected(method, error))


def _query(request: web.Request) -> dict[str, bytes]:
    """The query's parameters, values as bytes (an unencoded binary message
    is bytes, not text); the last of a repeated name wins."""
    params = {}
    for pair in request.rel_url.raw_query_string.split("&"):
        name, _, value = pair.partition("=")
        params[unquote_to_bytes(name.replace("+", " ")).decode("utf-8", "replace")] = \
            unquote_to_bytes(value.replace("+", " "))
    return params


def _base64url(text: bytes) -> bytes:
    try:
        return base64.b64decode(text + b"=" * (-len(text) % 4), altchars=b"-_", validate=True)
    except (binascii.Error, ValueError) as error:
        raise Failure.local(grpc.StatusCode.INVALID_ARGUMENT, f"the message is not base64url: {error}",
                            "INVALID_GET_REQUEST") from None


async def _call(gateway: Gateway, request: web.Request, method: Method, kind: str, body: bytes) -> web.Response:
    timeout = deadlines.connect_timeout(request.headers.get("Connect-Timeout-Ms"))
    answer = await gateway.upstream.unary(method, codec.request_bytes(kind, method.input, body), timeout,
                                         gateway.caller_metadata(request))
    body = codec.response_body(kind, method.output, answer)
    response = web.Response(body=body, content_type=f"application/{kind}")
    if compression.accepts_gzip(request.headers.get("Accept-Encoding")) and compression.worth_compressing(body):
        response.enable_compression(web.ContentCoding.gzip)
    return response


async def server_stream(gateway: Gateway, request: web.Request, method: Method, kind: str) -> web.StreamResponse:
    """Each upstream message is written as soon as it arrives; the stream ends
    with an end-of-stream envelope holding the error, if any. Errors go there
    too, with HTTP 200, as the protocol says for streams."""
    response = web.StreamResponse(status=200, headers={"Content-Type": f"application/connect+{kind}"})
    gzip = compression.accepts_gzip(request.headers.get("Connect-Accept-Encoding"))
    if gzip:
        response.headers["Connect-Content-Encoding"] = compression.GZIP
    end: dict = {}
    try:
        _check_version(request)
        timeout = deadlines.connect_timeout(request.headers.get("Connect-Timeout-Ms"))
        limit = gateway.body_limit(kind)
        body = await framing.read_body(request, limit)
        message = framing.single_message(body, request.headers.get("Connect-Content-Encoding", ""), limit)
        await response.prepare(request)
        async with aclosing(gateway.upstream.stream(
                method, codec.request_bytes(kind, method.input, message), timeout,
                gateway.caller_metadata(request))) as messages:
            async for data in messages:
                await response.write(framing.message_envelope(codec.response_body(kind, method.output, data), gzip))
    except Failure as failure:
        end = {"error": connect_error(failure)}
    except ConnectionResetError:  # the browser went away while we wrote; the upstream call is cancelled
        return response
    except Exception as error:
        end = {"error": connect_error(unexpected(method, error))}
    try:
        if not response.prepared:
            await response.prepare(request)
        await response.write(framing.envelope(END_STREAM, json.dumps(end).encode()))
        await response.write_eof()
    except ConnectionResetError:  # the browser went away before the end of the stream: nobody to tell
        pass
    return response
