"""gRPC-Web: binary (application/grpc-web, +proto, +json) and text
(application/grpc-web-text, base64 of the same frames). Messages are
length-prefixed frames; the status follows in a trailer frame (flag 0x80).
A client that sends grpc-accept-encoding: gzip gets its larger messages
gzipped (grpc-encoding: gzip, the frame's compressed flag)."""

from __future__ import annotations

import base64
import binascii
import re
from contextlib import aclosing

import grpc
from aiohttp import web

from gamehost.host.web import codec, compression, deadlines, framing
from gamehost.host.web.errors import failure_trailers, grpc_trailers
from gamehost.host.web.gateway import Gateway
from gamehost.host.web.upstream import Failure, Method, unexpected

TRAILERS = 0x80
# content type -> (text?, codec)
CONTENT_TYPES = {
    "application/grpc-web": (False, codec.PROTO),
    "application/grpc-web+proto": (False, codec.PROTO),
    "application/grpc-web+json": (False, codec.JSON),
    "application/grpc-web-text": (True, codec.PROTO),
    "application/grpc-web-text+proto": (True, codec.PROTO),
}
BASE64_SEGMENT = re.compile(rb"[A-Za-z0-9+/]+={0,2}")


def _decode_text(body: bytes) -> bytes:
    """Base64 that may be several padded segments back to back, as clients
    that encode each write separately send it."""
    compact = re.sub(rb"\s+", b"", body)
    segments = BASE64_SEGMENT.findall(compact)
    if b"".join(segments) != compact:
        raise Failure.local(grpc.StatusCode.INVALID_ARGUMENT, "the grpc-web-text body is not base64.",
                            "INVALID_ENVELOPE")
    try:
        return b"".join(base64.b64decode(segment) for segment in segments)
    except binascii.Error as error:
        raise Failure.local(grpc.StatusCode.INVALID_ARGUMENT, f"the grpc-web-text body is not base64: {error}",
                            "INVALID_ENVELOPE") from None


def _trailer_frame(trailers: dict[str, str]) -> bytes:
    return framing.envelope(TRAILERS, "".join(f"{key}: {value}\r\n" for key, value in trailers.items()).encode())


async def handle(gateway: Gateway, request: web.Request, method: Method, content_type: str) -> web.StreamResponse:
    text, kind = CONTENT_TYPES[content_type]
    response = web.StreamResponse(status=200, headers={"Content-Type": content_type})
    gzip = compression.accepts_gzip(request.headers.get("grpc-accept-encoding"))
    if gzip:
        response.headers["grpc-encoding"] = compression.GZIP

    async def send(frame: bytes) -> None:
        if not response.prepared:
            await response.prepare(request)
        await response.write(base64.b64encode(frame) if text else frame)

    trailers = grpc_trailers(grpc.StatusCode.OK)
    try:
        timeout = deadlines.grpc_timeout(request.headers.get("grpc-timeout"))
        limit = gateway.body_limit(kind)
        body = await framing.read_body(request, limit * 4 // 3 + 4 if text else limit)
        message = framing.single_message(_decode_text(body) if text else body,
                                         request.headers.get("grpc-encoding", ""), limit)
        message = codec.request_bytes(kind, method.input, message)
        if method.server_streaming:
            async with aclosing(gateway.upstream.stream(method, message, timeout, gateway.caller_metadata(request))) as messages:
                async for data in messages:
                    await send(framing.message_envelope(codec.response_body(kind, method.output, data), gzip))
        else:
            data = await gateway.upstream.unary(method, message, timeout, gateway.caller_metadata(request))
            await send(framing.message_envelope(codec.response_body(kind, method.output, data), gzip))
    except Failure as failure:
        trailers = failure_trailers(failure)
    except ConnectionResetError:  # the browser went away while we wrote; the upstream call is cancelled
        return response
    except Exception as error:
        trailers = failure_trailers(unexpected(method, error))
    try:
        await send(_trailer_frame(trailers))
        await response.write_eof()
    except ConnectionResetError:  # the browser went away before the status: nobody to tell
        pass
    return response
