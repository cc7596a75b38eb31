"""Statuses in the shapes browsers read: Connect's error JSON and gRPC-Web's
trailer fields. Both carry the servicer's google.rpc details unchanged."""

from __future__ import annotations

import base64
from urllib.parse import quote

import grpc
from google.protobuf import descriptor_pool, json_format, message_factory

from gamehost.host.web.upstream import Failure

# Connect's HTTP status for each code of a failed unary call (the Connect
# protocol's error-code table).
CONNECT_HTTP_STATUS = {
    "canceled": 499, "unknown": 500, "invalid_argument": 400, "deadline_exceeded": 504, "not_found": 404,
    "already_exists": 409, "permission_denied": 403, "resource_exhausted": 429, "failed_precondition": 400,
    "aborted": 409, "out_of_range": 400, "unimplemented": 501, "internal": 500, "unavailable": 503,
    "data_loss": 500, "unauthenticated": 401,
}


def connect_code(code: grpc.StatusCode) -> str:
    """Connect spells gRPC's CANCELLED with one L; the rest are the lower-case names."""
    return "canceled" if code is grpc.StatusCode.CANCELLED else code.name.lower()


def _debug_json(type_name: str, value: bytes) -> dict | None:
    """The detail as JSON for people reading curl output (Connect's optional
    "debug" field); clients decode "value"."""
    try:
        message = message_factory.GetMessageClass(descriptor_pool.Default().FindMessageTypeByName(type_name))()
        message.ParseFromString(value)
        return json_format.MessageToDict(message)
    except Exception:  # an unknown or unreadable type: the detail still travels in "value"
        return None


def connect_error(failure: Failure) -> dict:
    """Connect's error object: code, message and details [{type, value}],
    value being the detail's protobuf bytes in unpadded base64."""
    error: dict = {"code": connect_code(failure.code)}
    if failure.message:
        error["message"] = failure.message
    details = []
    for packed in failure.status().details:
        type_name = packed.type_url.rsplit("/", 1)[-1]
        detail: dict[str, object] = {"type": type_name,
                                     "value": base64.b64encode(packed.value).decode().rstrip("=")}
        debug = _debug_json(type_name, packed.value)
        if debug is not None:
            detail["debug"] = debug
        details.append(detail)
    if details:
        error["details"] = details
    return error


def grpc_trailers(code: grpc.StatusCode, message: str = "", details: bytes = b"") -> dict[str, str]:
    """gRPC's status trailers: grpc-message percent-encoded, the details as
    base64 in grpc-status-details-bin."""
    trailers = {"grpc-status": str(code.value[0])}
    if message:
        trailers["grpc-message"] = quote(message, safe=" !\"#$&'()*+,-./:;<=>?@[\\]^_`{|}~")
    if details:
        trailers["grpc-status-details-bin"] = base64.b64encode(details).decode()
    return trailers


def failure_trailers(failure: Failure) -> dict[str, str]:
    return grpc_trailers(failure.code, failure.message, failure.status().SerializeToString() if failure.details
                         else b"")
