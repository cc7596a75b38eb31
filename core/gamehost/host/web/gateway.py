"""What every browser-protocol handler needs: the upstream channel and the
size limits that match --max-message-bytes."""

from __future__ import annotations

from dataclasses import dataclass

import grpc
from aiohttp import web

from gamehost.host import traces
from gamehost.host.rpc.peers import FORWARDED_PEER, GATEWAY_KEY, Network, behind_proxies, peer_name
from gamehost.host.web.codec import JSON
from gamehost.host.web.upstream import Failure, Upstream

MAX_ACCEPT_LANGUAGE = 256  # longer headers are left out: the answer is then in English
JSON_EXPANSION = 4  # JSON spells a message in up to ~4 times its protobuf bytes (names, quotes, base64)


def _is_metadata_value(text: str) -> bool:
    """Whether gRPC carries ``text`` as a metadata value: printable ASCII and
    spaces only. The gRPC port never sees anything else (its clients cannot
    send it); forwarded, it would fail inside grpc, not as the caller's error."""
    return text.isascii() and text.isprintable()


@dataclass
class Gateway:
    upstream: Upstream
    max_message_bytes: int
    key: str = ""  # this process's gateway key: the gRPC side believes x-gamehost-peer only with it
    trusted_proxies: tuple[Network, ...] = ()

    def caller_metadata(self, request: web.Request) -> tuple[tuple[str, str], ...]:
        """Who the browser is, for the gRPC side's gate: its credential
        (the Authorization header) and its address (or, from a listed proxy,
        the X-Forwarded-For client), with the key."""
        credential = request.headers.get("Authorization")
        if credential and not _is_metadata_value(credential):
            raise Failure.local(grpc.StatusCode.UNAUTHENTICATED,
                                "The Authorization header must be 'Bearer <token>', in printable ASCII (no tabs, "
                                "control characters or non-ASCII bytes).", "INVALID_AUTHORIZATION")
        forwarded = (("authorization", credential),) if credential else ()
        languages = request.headers.get("Accept-Language")
        if languages and len(languages) <= MAX_ACCEPT_LANGUAGE and _is_metadata_value(languages):
            # the words of the answer in the browser's language when the request names none (rpc/locales.py)
            forwarded = (*forwarded, ("accept-language", languages))
        if traces.on():  # the web port's span, parent of the servicer's
            forwarded = (*forwarded, *traces.outgoing_headers().items())
        if not self.key:
            return forwarded
        ip = behind_proxies(request.remote or "", request.headers.get("X-Forwarded-For"), self.trusted_proxies)
        return (*forwarded, (FORWARDED_PEER, peer_name(ip)), (GATEWAY_KEY, self.key))

    def body_limit(self, codec: str) -> int:
        """Bytes of request body read before refusing; the servicer's own limit
        then applies to the protobuf message itself."""
        return self.max_message_bytes * (JSON_EXPANSION if codec == JSON else 1) + 5
