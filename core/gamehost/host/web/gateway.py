"""What every browser-protocol handler needs: the upstream channel and the
size limits that match --max-message-bytes."""

from __future__ import annotations

from dataclasses import dataclass

from gamehost.host.web.codec import JSON
from gamehost.host.web.upstream import Upstream

JSON_EXPANSION = 4  # JSON spells a message in up to ~4 times its protobuf bytes (names, quotes, base64)


@dataclass
class Gateway:
    upstream: Upstream
    max_message_bytes: int

    def body_limit(self, codec: str) -> int:
        """Bytes of request body read before refusing; the servicer's own limit
        then applies to the protobuf message itself."""
        return self.max_message_bytes * (JSON_EXPANSION if codec == JSON else 1) + 5
