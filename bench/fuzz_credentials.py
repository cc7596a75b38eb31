"""The credentials the fuzz run sends: none, real ones (a player's and an
operator's API key, a JWT of the trusted provider) and broken or forged
ones (unsigned, HMAC-signed with the public key, another key under the
trusted kid, expired, an ``exp`` beyond a float, wrong audience, garbage,
past the 8,192-character limit, a wrong scheme; on the web port also tabs
and bytes outside ASCII, which gRPC clients cannot send). The host trusts a
JWKS file written here: no network."""

from __future__ import annotations

import base64
import json
import random
import time
from pathlib import Path

import jwt

from tests.identities import AUDIENCE, ISSUER, SigningKey, write_api_keys


def _segment(data: dict | bytes) -> str:
    raw = data if isinstance(data, bytes) else json.dumps(data).encode()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


# Credentials whose holder may abort or delete any match.
ADMIN_KINDS = frozenset({"admin-key", "jwt-admin"})


class Credentials:
    def __init__(self, directory: Path, rng: random.Random) -> None:
        self.rng = rng
        self.key, self.stranger = SigningKey(), SigningKey()
        self.jwks_file = directory / "jwks.json"
        self.jwks_file.write_text(json.dumps({"keys": [self.key.public_jwk()]}))
        self.keys_file = directory / "api-keys.json"
        self.api_keys = write_api_keys(self.keys_file, ("fuzz-player", []), ("fuzz-ops", ["admin"]))

    def host_args(self) -> list[str]:
        return ["--api-keys", str(self.keys_file), "--jwks", str(self.jwks_file), "--jwt-issuer", ISSUER,
                "--jwt-audience", AUDIENCE]

    def _claims(self, **changes) -> dict:
        now = int(time.time())
        return {"sub": "fuzz-jwt", "iss": ISSUER, "aud": AUDIENCE, "iat": now, "exp": now + 3600, **changes}

    def _signed(self, key: SigningKey, **changes) -> str:
        return jwt.encode(self._claims(**changes), key.private, algorithm="RS256", headers={"kid": self.key.kid})

    def header(self, browser: bool) -> tuple[str, str]:
        """(a kind to count answers by, the ``authorization`` value, "" for none)."""
        r = self.rng
        if r.random() < 0.5:
            return "none", ""
        kinds = {
            "player-key": lambda: f"Bearer {self.api_keys['fuzz-player']}",
            "admin-key": lambda: f"Bearer {self.api_keys['fuzz-ops']}",
            "jwt": lambda: f"Bearer {self._signed(self.key)}",
            "jwt-admin": lambda: f"Bearer {self._signed(self.key, roles=['admin'])}",
            "jwt-other-key": lambda: f"Bearer {self._signed(self.stranger)}",
            "jwt-expired": lambda: f"Bearer {self._signed(self.key, exp=int(time.time()) - 3600)}",
            "jwt-audience": lambda: f"Bearer {self._signed(self.key, aud='someone-else')}",
            "jwt-unsigned": lambda: "Bearer " + _segment({"alg": "none", "kid": self.key.kid}) + "."
                                    + _segment(self._claims()) + ".",
            "jwt-hmac": lambda: "Bearer " + _segment({"alg": "HS256", "kid": self.key.kid}) + "."
                                + _segment(self._claims()) + "." + _segment(r.randbytes(32)),
            "jwt-huge-exp": lambda: "Bearer " + _segment({"alg": "RS256", "kid": self.key.kid}) + "."
                                    + _segment(b'{"sub":"x","iss":"%s","aud":"%s","exp":1e400}'
                                               % (ISSUER.encode(), AUDIENCE.encode())) + "." + _segment(b"sig"),
            "garbage": lambda: "Bearer " + r.choice(["a.b.c", "...", "x", "é" if browser else "e", base64.b64encode(r.randbytes(40))
                                                     .decode()]),
            "too-long": lambda: "Bearer " + "k" * r.choice([8_193, 9_000, 20_000]),
            "wrong-scheme": lambda: r.choice(["Basic dXNlcjpwYXNz", "Bearer", "Bearer  ", "Token abc"]),
        }
        if browser:
            kinds["tab-or-non-ascii"] = lambda: r.choice(["Bearer a\tb", "Bearer caf\u00e9",
                                                          "Bearer \u00ff\u00ff"])
        kind = r.choice(sorted(kinds))
        value = kinds[kind]()
        assert browser or all(" " <= c <= "~" for c in value), value  # gRPC clients send printable ASCII only
        return kind, value
