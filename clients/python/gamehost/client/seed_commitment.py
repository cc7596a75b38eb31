"""Verifiable chance: the host's commitment to a match's seed.

At creation the host publishes ``commitment(seed, salt)`` (``Match.seed_commitment``)
and keeps the seed and salt secret; once the match is over ``MatchLog`` reveals
both, and anyone can hash them again. The byte layout, which the Go and
TypeScript clients repeat (docs/security.md):

    SHA-256( b"gamehost/seed-commitment/v1" || 0x00 || seed as 8 bytes, unsigned big-endian || salt )

The label keeps these hashes apart from any other SHA-256 the host computes,
and the fixed-width seed keeps the split between seed and salt unambiguous."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

DOMAIN = b"gamehost/seed-commitment/v1\x00"
SALT_BYTES = 32
SEED_MAX = 2**64 - 1


def new_salt() -> bytes:
    """32 random bytes: enough that nobody can try every seed against a commitment."""
    return secrets.token_bytes(SALT_BYTES)


def commitment(seed: int, salt: bytes) -> bytes:
    """The 32-byte commitment to ``seed`` (0 to 2**64 - 1) under ``salt``."""
    if not 0 <= seed <= SEED_MAX:
        raise ValueError(f"a seed is 0 to 2**64 - 1, not {seed}")
    return hashlib.sha256(DOMAIN + seed.to_bytes(8, "big") + salt).digest()


@dataclass(frozen=True)
class CommitmentCheck:
    """What checking a finished match's revealed seed against its commitment
    found: ``recorded`` False when the match has no commitment (created
    before the host made them), else ``matches`` says whether the seed and
    salt hash to it."""

    recorded: bool
    matches: bool

    @property
    def rejected(self) -> bool:
        return self.recorded and not self.matches


def check(published: bytes, seed: int, salt: bytes) -> CommitmentCheck:
    """Check the revealed ``seed`` and ``salt`` against the ``published`` commitment."""
    if not published:
        return CommitmentCheck(recorded=False, matches=False)
    if len(salt) != SALT_BYTES or not 0 <= seed <= SEED_MAX:
        return CommitmentCheck(recorded=True, matches=False)
    return CommitmentCheck(recorded=True, matches=hmac.compare_digest(commitment(seed, salt), published))
