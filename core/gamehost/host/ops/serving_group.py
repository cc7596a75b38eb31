"""One serving process of a group (`gamehost serve --processes N`): which
one it is, which matches it owns, and where its siblings listen.

The processes share the public ports (SO_REUSEPORT: the kernel hands each
new connection to one of them), so any of them may receive a call for any
match. A match is owned by one process, chosen by a hash of its id that
every process computes alike; the others forward its calls to the owner
over the owner's Unix socket (forwarding.py), so the match is held in one
process's memory and its moves pay no catch-up.
"""

from __future__ import annotations

import os
import zlib
from dataclasses import dataclass

MATCHES_PREFIX = "matches/"


def owner_index(match_id: str, count: int) -> int:
    """The process that owns ``match_id`` among ``count``: CRC-32 (stable
    across processes and restarts, unlike Python's salted ``hash``)."""
    return zlib.crc32(match_id.removeprefix(MATCHES_PREFIX).encode()) % count


def socket_path(socket_dir: str, index: int) -> str:
    return os.path.join(socket_dir, f"process-{index}.sock")


@dataclass(frozen=True)
class GroupMember:
    index: int       # 0 .. count-1, kept by a restarted process
    count: int
    socket_dir: str  # the group's private directory (mode 0700) of Unix sockets

    def owns(self, match_id: str) -> bool:
        return owner_index(match_id, self.count) == self.index

    def owner_of(self, match_id: str) -> int:
        return owner_index(match_id, self.count)

    @property
    def socket(self) -> str:
        return socket_path(self.socket_dir, self.index)

    def target(self, index: int) -> str:
        """The gRPC target of process ``index``'s Unix socket."""
        return f"unix:{socket_path(self.socket_dir, index)}"
