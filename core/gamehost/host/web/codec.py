"""Message codecs of the browser protocols: binary protobuf passes through
untouched; JSON is the canonical protobuf JSON mapping (json_format)."""

from __future__ import annotations

import grpc
from google.protobuf import json_format
from google.protobuf.message import DecodeError, Message

from gamehost.host.errors import shown
from gamehost.host.web.upstream import Failure

PROTO, JSON = "proto", "json"


def request_bytes(codec: str, message_class: type[Message], body: bytes) -> bytes:
    """The serialized request the servicer receives."""
    if codec == PROTO:
        return body
    message = message_class()
    try:
        json_format.Parse(body.decode("utf-8"), message, ignore_unknown_fields=True)
    except (json_format.ParseError, UnicodeDecodeError, RecursionError) as error:
        raise Failure.local(grpc.StatusCode.INVALID_ARGUMENT,
                            f"the request body is not valid JSON for {message_class.DESCRIPTOR.full_name}: "
                            f"{shown(error, 120)}",
                            "INVALID_JSON") from None
    return message.SerializeToString()


def response_body(codec: str, message_class: type[Message], data: bytes) -> bytes:
    """The servicer's serialized response in the client's codec."""
    if codec == PROTO:
        return data
    message = message_class()
    try:
        message.ParseFromString(data)
    except DecodeError as error:  # the server sent it: not the client's fault
        raise Failure(grpc.StatusCode.INTERNAL, f"unreadable response from the host: {error}") from None
    return json_format.MessageToJson(message, indent=None).encode()
