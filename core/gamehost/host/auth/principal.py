"""Who is calling: the identity every call carries from the gate to the engine."""

from __future__ import annotations

from dataclasses import dataclass, field

ADMIN = "admin"
# A backend that seats its own users: it may create matches reserving seats for any users (match_access.py).
MATCHMAKER = "matchmaker"
# A remote agent: it may register on the ServeAgent stream and play the seats that name it (engine/agents.py).
AGENT = "agent"


@dataclass(frozen=True)
class Principal:
    """A caller. ``subject`` is empty for an anonymous caller, who is known
    only by its network address (``peer``, used for its quotas)."""

    subject: str = ""
    display_name: str = ""
    roles: frozenset[str] = field(default_factory=frozenset)
    method: str = "anonymous"  # "anonymous", "jwt" or "api-key"
    peer: str = ""

    @property
    def anonymous(self) -> bool:
        return not self.subject

    @property
    def admin(self) -> bool:
        return ADMIN in self.roles

    @property
    def quota_key(self) -> str:
        """Whose budget a call spends: the user's, else its address's."""
        return f"user:{self.subject}" if self.subject else f"peer:{self.peer}"


def anonymous(peer: str) -> Principal:
    return Principal(peer=peer)
