"""Bodies and length-prefixed envelopes, shared by Connect streaming and
gRPC-Web: a flags byte, a 4-byte big-endian length, then the data."""

from __future__ import annotations

import struct
import zlib

import grpc
from aiohttp import web

from gamehost.host.errors import shown
from gamehost.host.web import compression
from gamehost.host.web.upstream import Failure

COMPRESSED = 0x01
HEADER = struct.Struct(">BI")


def envelope(flags: int, data: bytes) -> bytes:
    return HEADER.pack(flags, len(data)) + data


def message_envelope(data: bytes, gzip: bool) -> bytes:
    """A message's envelope: compressed, with the flag set, when the client
    reads gzip and the message is large enough to gain from it."""
    if gzip and compression.worth_compressing(data):
        return envelope(COMPRESSED, compression.gzip(data))
    return envelope(0, data)


def too_large(size: int, limit: int) -> Failure:
    return Failure.local(grpc.StatusCode.RESOURCE_EXHAUSTED,
                         f"the request is {size} bytes or more, larger than this host accepts ({limit} bytes); "
                         f"see --max-message-bytes.", "MESSAGE_TOO_LARGE")


async def read_body(request: web.Request, limit: int) -> bytes:
    """The whole request body, refused with RESOURCE_EXHAUSTED past ``limit``
    (before and after decompression), decompressed as its Content-Encoding says.
    aiohttp's own decompression is off (app.py): its errors would end the
    call as a gateway failure, and it knows no limit."""
    body = await _read_raw(request, limit)
    encoding = request.headers.get("Content-Encoding", "").strip().lower()
    if encoding in ("", "identity"):
        return body
    if encoding == "gzip":
        return gunzip(body, limit)
    raise Failure.local(grpc.StatusCode.UNIMPLEMENTED,
                        f"the body is compressed with {shown(encoding)}; this host reads gzip or uncompressed "
                        f"bodies.", "UNSUPPORTED_COMPRESSION")


async def _read_raw(request: web.Request, limit: int) -> bytes:
    if request.content_length is not None and request.content_length > limit:
        raise too_large(request.content_length, limit)
    chunks, size = [], 0
    async for chunk in request.content.iter_any():
        size += len(chunk)
        if size > limit:
            raise too_large(size, limit)
        chunks.append(chunk)
    return b"".join(chunks)


def gunzip(data: bytes, limit: int) -> bytes:
    inflater = zlib.decompressobj(wbits=31)
    try:
        out = inflater.decompress(data, limit + 1)
    except zlib.error as error:
        raise Failure.local(grpc.StatusCode.INVALID_ARGUMENT, f"the request is not valid gzip: {error}",
                            "INVALID_COMPRESSION") from None
    if len(out) > limit:
        raise too_large(len(out), limit)
    if not inflater.eof:
        raise Failure.local(grpc.StatusCode.INVALID_ARGUMENT, "the request is not valid gzip: it ends early.",
                            "INVALID_COMPRESSION")
    return out


def single_message(body: bytes, encoding: str, limit: int) -> bytes:
    """The one enveloped request message of a server-streaming or gRPC-Web
    call, decompressed when its flag says so."""
    if len(body) < HEADER.size:
        raise Failure.local(grpc.StatusCode.INVALID_ARGUMENT, "the request has no enveloped message.",
                            "INVALID_ENVELOPE")
    flags, length = HEADER.unpack_from(body)
    data = body[HEADER.size:]
    if length != len(data):
        raise Failure.local(grpc.StatusCode.INVALID_ARGUMENT,
                            f"the envelope announces {length} bytes but {len(data)} follow; send exactly one "
                            f"message.", "INVALID_ENVELOPE")
    if flags & COMPRESSED:
        if encoding != "gzip":
            raise Failure.local(grpc.StatusCode.UNIMPLEMENTED,
                                f"the message is compressed with {shown(encoding) if encoding else 'no named encoding'}; "
                                f"this host reads gzip or uncompressed messages.", "UNSUPPORTED_COMPRESSION")
        data = gunzip(data, limit)
    return data
