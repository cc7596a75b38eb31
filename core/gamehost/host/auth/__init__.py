"""Identities: who a caller is (principal.py) and how the host learns it
(authenticator.py: plugins, API keys, JWTs, anonymous)."""

from gamehost.host.auth.principal import ADMIN, AGENT, Principal, anonymous

__all__ = ["ADMIN", "AGENT", "Principal", "anonymous"]
