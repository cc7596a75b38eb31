"""Who is calling: plugins' schemes first, then the built-in ones.

Built-in, from the ``authorization: Bearer <credential>`` metadata: a JWT
(three dot-separated parts) is checked against the identity provider's
keys, anything else against the API key file. A call with no credential is
anonymous, unless the operator requires sign-in.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Mapping

import structlog

from gamehost.host import errors
from gamehost.host.auth.api_keys import ApiKeys
from gamehost.host.auth.jwt_tokens import JwtSettings, JwtVerifier
from gamehost.host.auth.principal import Principal, anonymous

log = structlog.get_logger("gamehost.auth")

MAX_CREDENTIAL = 8192  # characters; a longer bearer credential is refused unread


@dataclass
class AuthSettings:
    api_keys: str = ""           # path of the API key file; "": none
    jwks: str = ""               # JWKS URL or file; "": no JWTs
    jwt_issuer: str = ""
    jwt_audience: str = ""
    jwt_roles_claim: str = "roles"
    jwt_name_claim: str = "name"
    jwks_min_refresh: float = 10.0
    required: bool = False       # refuse anonymous calls

    def check(self) -> None:
        if self.jwks and not (self.jwt_issuer and self.jwt_audience):
            raise SystemExit("gamehost: --jwks needs --jwt-issuer and --jwt-audience (the values your identity "
                             "provider puts in iss and aud)")


def _is_jwt(credential: str) -> bool:
    return credential.count(".") == 2


class Authenticator:
    def __init__(self, settings: AuthSettings, plugin_hooks=()) -> None:
        settings.check()
        self.required = settings.required
        self.api_keys = ApiKeys.load(settings.api_keys) if settings.api_keys else None
        self.jwt = JwtVerifier(JwtSettings(settings.jwks, settings.jwt_issuer, settings.jwt_audience,
                                           settings.jwt_roles_claim, settings.jwt_name_claim,
                                           settings.jwks_min_refresh)) if settings.jwks else None
        self.plugin_hooks = list(plugin_hooks)  # pluggy hook implementations of gamehost_authenticate

    async def authenticate(self, metadata: Mapping[str, str], peer: str) -> Principal:
        for impl in self.plugin_hooks:
            principal = await self._ask_plugin(impl, metadata, peer)
            if principal is not None:
                return principal
        header = metadata.get("authorization", "")
        if not header:
            if self.required:
                raise errors.Unauthenticated("This host requires sign-in: send 'authorization: Bearer <token>' "
                                             "with a token from the identity provider or an API key.",
                                             "AUTHENTICATION_REQUIRED")
            return anonymous(peer)
        scheme, _, credential = header.partition(" ")
        credential = credential.strip()
        if scheme.lower() != "bearer" or not credential:
            raise errors.Unauthenticated("The authorization metadata must be 'Bearer <token>'.",
                                         "INVALID_AUTHORIZATION")
        if len(credential) > MAX_CREDENTIAL:
            raise errors.Unauthenticated(f"The bearer token is longer than {MAX_CREDENTIAL} characters.",
                                         "INVALID_BEARER_TOKEN", metadata=errors.metadata_of(problem="length"))
        if _is_jwt(credential):
            if self.jwt is None:
                raise errors.Unauthenticated("This host accepts no JWTs (no --jwks configured).",
                                             "INVALID_BEARER_TOKEN", metadata=errors.metadata_of(problem="no-jwks"))
            return await self.jwt.principal(credential, peer)
        principal = self.api_keys.principal(credential, peer) if self.api_keys else None
        if principal is None:
            raise errors.Unauthenticated("The bearer token is not a valid API key of this host.",
                                         "INVALID_BEARER_TOKEN", metadata=errors.metadata_of(problem="api-key"))
        return principal

    @staticmethod
    async def _ask_plugin(impl, metadata: Mapping[str, str], peer: str) -> Principal | None:
        try:
            answer = impl.function(metadata=metadata, peer=peer)
            if inspect.isawaitable(answer):
                answer = await answer
        except errors.HostError:
            raise
        except Exception as error:  # a broken plugin scheme admits nobody and stops nothing
            log.error("authentication plugin failed; passed over", plugin=impl.plugin_name,
                      error=f"{type(error).__name__}: {error}")
            return None
        if answer is not None and not isinstance(answer, Principal):
            log.error("authentication plugin returned no Principal; passed over", plugin=impl.plugin_name)
            return None
        return answer
