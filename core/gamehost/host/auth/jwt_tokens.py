"""JWT bearer tokens from an identity provider (OIDC access or ID tokens).

A token passes when its signature checks out against a key of the provider's
JWKS (chosen by ``kid``), with an asymmetric algorithm only (no "none", no
HMAC: a public key must never double as a shared secret), its issuer and
audience are the configured ones, and it has not expired (a small leeway
for clock skew). Verified tokens are cached until they expire.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import jwt

from gamehost.host import errors
from gamehost.host.auth.jwks import JwksUnavailable, KeySet
from gamehost.host.auth.principal import Principal
from gamehost.host.auth.token_cache import VerifiedTokens

ASYMMETRIC_ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"]
LEEWAY = 30.0  # seconds of clock skew tolerated on exp, nbf and iat
LATEST_EXPIRY = 253402300799  # 9999-12-31T23:59:59Z, the last time datetime and every clock library can hold


def invalid_token(why: str, problem: str) -> errors.Unauthenticated:
    return errors.Unauthenticated(f"The bearer token is not valid: {why}. Sign in again.", "INVALID_BEARER_TOKEN",
                                  metadata=errors.metadata_of(problem=problem))


@dataclass
class JwtSettings:
    jwks: str                      # URL or file
    issuer: str
    audience: str
    roles_claim: str = "roles"     # a list of role names, or a space-separated string; dotted paths allowed
    name_claim: str = "name"
    min_refresh: float = 10.0      # seconds between JWKS fetches caused by unknown kids


class JwtVerifier:
    def __init__(self, settings: JwtSettings, cache: VerifiedTokens | None = None) -> None:
        self.settings = settings
        self.keys = KeySet(settings.jwks, min_refresh=settings.min_refresh)
        self.cache = cache or VerifiedTokens()

    async def principal(self, token: str, peer: str) -> Principal:
        cached = self.cache.get(token)
        if cached is not None:
            return Principal(cached.subject, cached.display_name, cached.roles, cached.method, peer) \
                if cached.peer != peer else cached
        try:
            header = jwt.get_unverified_header(token)
        except jwt.PyJWTError:
            raise invalid_token("it is not a well-formed JWT", "malformed") from None
        if header.get("alg") not in ASYMMETRIC_ALGORITHMS:
            raise invalid_token("its algorithm is not accepted", "algorithm")
        try:
            key = await self.keys.key(str(header.get("kid", "")))
        except JwksUnavailable:
            raise errors.Unauthenticated("The host cannot read its identity provider's signing keys now; "
                                         "try again later.", "JWKS_UNAVAILABLE") from None
        if key is None:
            raise invalid_token("it was signed with a key the identity provider does not publish", "unknown-key")
        try:
            claims = jwt.decode(token, key, algorithms=ASYMMETRIC_ALGORITHMS, audience=self.settings.audience,
                                issuer=self.settings.issuer, leeway=LEEWAY,
                                options={"require": ["exp", "sub", "iss", "aud"]})
        except jwt.ExpiredSignatureError:
            raise errors.Unauthenticated("The bearer token has expired. Sign in again.", "TOKEN_EXPIRED") from None
        except jwt.InvalidAudienceError:
            raise invalid_token("it is meant for another audience", "audience") from None
        except jwt.InvalidIssuerError:
            raise invalid_token("another issuer made it", "issuer") from None
        except jwt.InvalidSignatureError:
            raise invalid_token("its signature does not match", "signature") from None
        except jwt.MissingRequiredClaimError as error:
            raise invalid_token(f"it lacks the {error.claim!r} claim", "claims") from None
        except jwt.PyJWTError as error:
            raise invalid_token(type(error).__name__, "invalid") from None
        # PyJWT checked that exp reads as an integer, of any size (JSON has no limit); the cache keeps it as
        # a float, which an integer past a float's range does not convert to.
        expires = int(claims["exp"])
        if expires > LATEST_EXPIRY:
            raise invalid_token("its expiry time ('exp') is past the year 9999", "claims")
        subject = str(claims["sub"])
        if not subject or len(subject) > 256:
            raise invalid_token("its subject is empty or too long", "claims")
        principal = Principal(subject=subject, display_name=str(self._claim(claims, self.settings.name_claim)
                                                                or subject)[:64],
                              roles=self._roles(claims), method="jwt", peer=peer)
        self.cache.put(token, principal, float(expires))
        return principal

    def _roles(self, claims: dict) -> frozenset[str]:
        value = self._claim(claims, self.settings.roles_claim)
        if isinstance(value, str):
            return frozenset(value.split())
        if isinstance(value, list):
            return frozenset(str(role) for role in value)
        return frozenset()

    @staticmethod
    def _claim(claims: dict, path: str) -> Any:
        """A claim by name, or by dotted path into nested objects (e.g.
        Keycloak's "realm_access.roles"); a name with dots is tried whole first."""
        if path in claims:
            return claims[path]
        value: Any = claims
        for part in path.split("."):
            if not isinstance(value, dict):
                return None
            value = value.get(part)
        return value
