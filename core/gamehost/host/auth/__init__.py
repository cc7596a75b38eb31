"""Identities: who a caller is (principal.py) and how the host learns it
(authenticator.py: plugins, API keys, JWTs, anonymous)."""

from gamehost.host.auth.principal import ADMIN, Principal, anonymous

__all__ = ["ADMIN", "Principal", "anonymous"]
