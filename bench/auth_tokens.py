"""The cost of authenticating one call, in-process: the gate's work before
the servicer runs, for an anonymous call, an API key, a JWT verified for the
first time (signature, claims) and the same JWT again (the verified-token
cache). Keys and JWKS are local (a file): no network in the figures.

    python -m bench.auth_tokens [--calls N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import tempfile
import time
from pathlib import Path


from tests.identities import SigningKey, write_api_keys

import jwt

from gamehost.host.auth.authenticator import AuthSettings, Authenticator

ISSUER, AUDIENCE = "https://idp.bench.invalid", "gamehost-bench"


def token(key: SigningKey, subject: str) -> str:
    now = int(time.time())
    return jwt.encode({"sub": subject, "iss": ISSUER, "aud": AUDIENCE, "iat": now, "exp": now + 3600,
                       "roles": ["player"], "name": subject}, key.private, algorithm="RS256",
                      headers={"kid": key.kid})


async def per_call(authenticator: Authenticator, metadata_of, calls: int) -> float:
    """µs per authenticate(), the fastest of 5 runs: on a shared machine the
    slower runs measure the neighbours."""
    runs = []
    for _ in range(5):
        started = time.perf_counter()
        for number in range(calls):
            await authenticator.authenticate(metadata_of(number), "ipv4:127.0.0.1")
        runs.append((time.perf_counter() - started) / calls * 1e6)
    return min(runs)


async def first_verifications(authenticator: Authenticator, tokens: list[str]) -> float:
    """µs per call when every token is new (each one verified once): the
    fastest of 5 slices of the tokens."""
    await authenticator.authenticate({"authorization": f"Bearer {tokens[0]}"}, "peer")  # loads the JWKS
    slices, runs = [tokens[1:][i::5] for i in range(5)], []
    for part in slices:
        started = time.perf_counter()
        for text in part:
            await authenticator.authenticate({"authorization": f"Bearer {text}"}, "peer")
        runs.append((time.perf_counter() - started) / len(part) * 1e6)
    return min(runs)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        key = SigningKey()
        jwks = Path(scratch) / "jwks.json"
        jwks.write_text(json.dumps({"keys": [key.public_jwk()]}))
        api_key = write_api_keys(Path(scratch) / "keys.json", *[(f"user{n}", []) for n in range(10)])["user9"]
        authenticator = Authenticator(AuthSettings(api_keys=str(Path(scratch) / "keys.json"), jwks=str(jwks),
                                                   jwt_issuer=ISSUER, jwt_audience=AUDIENCE))
        fresh = [token(key, f"user{n}") for n in range(args.calls)]  # a new token each call: no cache hits
        repeated = fresh[0]
        results = {
            "anonymous": await per_call(authenticator, lambda n: {}, args.calls),
            "api_key (10 keys in the file)": await per_call(
                authenticator, lambda n: {"authorization": f"Bearer {api_key}"}, args.calls),
        }
        verifier = Authenticator(AuthSettings(jwks=str(jwks), jwt_issuer=ISSUER, jwt_audience=AUDIENCE))
        results["jwt, first verification (RS256)"] = await first_verifications(verifier, fresh)
        results["jwt, cached (same token again)"] = await per_call(
            authenticator, lambda n: {"authorization": f"Bearer {repeated}"}, args.calls)
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.processor() or platform.machine()}, "
          f"Python {platform.python_version()}, PyJWT {jwt.__version__}")
    for name, micros in results.items():
        print(f"{name:<36} {micros:8.1f} µs per call")


if __name__ == "__main__":
    asyncio.run(main())
