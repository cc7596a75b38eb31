"""Static API keys: a file the operator writes, holding only a hash of each key.

The file is JSON, a list of entries::

    [{"name": "ops", "sha256": "<hex digest of the key>", "roles": ["admin"],
      "display_name": "Operations"}]

A file holding one entry alone (an object, not a list) is read as a list of
one, so the entry ``gamehost api-key NAME`` prints can be saved as it is;
``gamehost api-key NAME --file F`` appends it to ``F`` (creating it). A key is
checked by hashing what the caller sent and comparing the digest with every
entry in constant time, so neither the keys nor the time taken tell an
attacker which prefix was right.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from pathlib import Path

from gamehost.host.auth.principal import Principal

KEY_PREFIX = "ghk_"  # marks a gamehost API key, so it is not mistaken for a JWT


@dataclass(frozen=True)
class ApiKey:
    name: str
    digest: bytes
    roles: frozenset[str]
    display_name: str


def key_digest(key: str) -> bytes:
    return hashlib.sha256(key.encode()).digest()


def new_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)


def key_entry(name: str, key: str, roles: list[str], display_name: str = "") -> dict:
    """The file entry for ``key``: its digest, never the key itself."""
    return {"name": name, "sha256": key_digest(key).hex(), "roles": roles, "display_name": display_name or name}


def append_entry(path: str | Path, entry: dict) -> int:
    """Add ``entry`` to the key file at ``path`` (made if missing, readable by
    its owner only) and return how many entries it holds now. The file is
    checked as the host will read it, so a file the host would refuse is left
    untouched and named, and it is replaced whole so a crash never leaves half
    of it."""
    path = Path(path)
    entries: list = []
    if path.exists():
        ApiKeys.load(path)  # refuses (SystemExit) a file the host could not read
        loaded = json.loads(path.read_text())
        entries = [loaded] if isinstance(loaded, dict) else loaded
    entries.append(entry)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(entries, indent=2) + "\n")
    partial.chmod(0o600)
    partial.replace(path)
    return len(entries)


class ApiKeys:
    def __init__(self, keys: list[ApiKey]) -> None:
        self.keys = keys

    @classmethod
    def load(cls, path: str | Path) -> "ApiKeys":
        """Read the key file; a malformed one stops the host at start with a clear message."""
        try:
            entries = json.loads(Path(path).read_text())
        except (OSError, ValueError) as error:
            raise SystemExit(f"gamehost: cannot read the API key file {path}: {error}") from None
        if isinstance(entries, dict):
            entries = [entries]
        if not isinstance(entries, list):
            raise SystemExit(f"gamehost: {path} must hold a JSON list of keys (or one key's object)")
        keys = []
        for number, entry in enumerate(entries, 1):
            try:
                digest = bytes.fromhex(entry["sha256"])
                if len(digest) != 32 or not entry["name"]:
                    raise ValueError("a key needs a name and a 64-digit sha256")
                keys.append(ApiKey(str(entry["name"]), digest, frozenset(map(str, entry.get("roles", []))),
                                   str(entry.get("display_name") or entry["name"])))
            except (KeyError, TypeError, ValueError, AttributeError) as error:
                raise SystemExit(f"gamehost: {path}: key {number} is malformed ({error}); "
                                 "expected name, sha256, roles, display_name") from None
        return cls(keys)

    def principal(self, key: str, peer: str) -> Principal | None:
        """The identity of ``key``, or None if no entry matches."""
        digest = key_digest(key)
        found = None
        for entry in self.keys:  # no early exit: every entry is compared
            if hmac.compare_digest(entry.digest, digest):
                found = entry
        if found is None:
            return None
        return Principal(subject=found.name, display_name=found.display_name, roles=found.roles,
                         method="api-key", peer=peer)
