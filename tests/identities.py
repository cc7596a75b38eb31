"""Signed-in callers for the tests: an identity provider's key pair, its JWKS
served over HTTP on 127.0.0.1, tokens minted with it, and API key files.

Reusable by any test (the browser test signs in with ``IdentityProvider``):

    with IdentityProvider() as idp:
        host = HostProcess(*idp.host_args())
        token = idp.token("alice", roles=["admin"])
        metadata = bearer(token)
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa

from gamehost.host.auth.api_keys import key_entry, new_key

ISSUER = "https://idp.test.gamehost.invalid"
AUDIENCE = "gamehost-test"


def bearer(token: str) -> tuple[tuple[str, str], ...]:
    """gRPC call metadata carrying ``token``."""
    return (("authorization", f"Bearer {token}"),)


class SigningKey:
    """An RSA key pair with a key id, as an identity provider holds one."""

    def __init__(self, kid: str | None = None) -> None:
        self.kid = kid or uuid.uuid4().hex[:8]
        self.private = rsa.generate_private_key(public_exponent=65537, key_size=2048)

    def public_jwk(self) -> dict:
        jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self.private.public_key()))
        return {**jwk, "kid": self.kid, "use": "sig", "alg": "RS256"}


class IdentityProvider:
    """Signs tokens and serves its JWKS at ``jwks_url`` (127.0.0.1 only).
    ``rotate()`` switches to a new key; the old one is no longer published."""

    def __init__(self, issuer: str = ISSUER, audience: str = AUDIENCE) -> None:
        self.issuer = issuer
        self.audience = audience
        self.key = SigningKey()
        self.fetches = 0
        provider = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 (the http.server name)
                provider.fetches += 1
                body = json.dumps({"keys": [provider.key.public_jwk()]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):  # keep test output clean
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "IdentityProvider":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    @property
    def jwks_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/.well-known/jwks.json"

    def host_args(self, min_refresh: float = 0.2) -> list[str]:
        """``gamehost serve`` flags that make a host trust this provider."""
        return ["--jwks", self.jwks_url, "--jwt-issuer", self.issuer, "--jwt-audience", self.audience,
                "--jwks-min-refresh", str(min_refresh)]

    def rotate(self) -> SigningKey:
        """Publish a new key in place of the current one; returns the old one."""
        old, self.key = self.key, SigningKey()
        return old

    def token(self, subject: str, *, roles: list[str] = (), name: str = "", expires_in: float = 600,
              audience: str | None = None, issuer: str | None = None, key: SigningKey | None = None,
              **claims) -> str:
        now = int(time.time())
        payload = {"sub": subject, "iss": issuer or self.issuer, "aud": audience or self.audience,
                   "iat": now, "exp": now + int(expires_in), "roles": list(roles), **claims}
        if name:
            payload["name"] = name
        signer = key or self.key
        return jwt.encode(payload, signer.private, algorithm="RS256", headers={"kid": signer.kid})


def write_api_keys(path: Path, *entries: tuple[str, list[str]]) -> dict[str, str]:
    """An API key file with a fresh key per (name, roles); returns name -> key."""
    keys = {name: new_key() for name, _ in entries}
    path.write_text(json.dumps([key_entry(name, keys[name], list(roles), f"{name.title()} (key)")
                                for name, roles in entries]))
    return keys
