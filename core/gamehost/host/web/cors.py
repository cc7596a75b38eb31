"""Cross-origin access for browser clients served from another origin.

With no allowed origins (the default) the host sends no CORS headers, so
browsers allow only pages from this same origin. CORS is not access control:
it tells browsers which pages may read answers; other clients are unaffected.
"""

from __future__ import annotations

import re

from aiohttp import web

# What Connect and gRPC-Web clients send, and what they must be able to read.
ALLOWED_HEADERS = ("Content-Type", "Connect-Protocol-Version", "Connect-Timeout-Ms", "Connect-Content-Encoding",
                   "Connect-Accept-Encoding", "Grpc-Timeout", "Grpc-Encoding", "Grpc-Accept-Encoding", "X-Grpc-Web",
                   "X-User-Agent", "Authorization")
EXPOSED_HEADERS = ("Grpc-Status", "Grpc-Message", "Grpc-Status-Details-Bin", "Grpc-Encoding",
                   "Grpc-Accept-Encoding", "Connect-Content-Encoding", "Connect-Accept-Encoding", "Content-Encoding")
ALLOWED_METHODS = ("POST", "GET", "HEAD")
PREFLIGHT_MAX_AGE = 7200
ORIGIN = re.compile(r"https?://[a-z0-9.\-]+(:[0-9]{1,5})?|https?://\[[0-9a-f:.]+\](:[0-9]{1,5})?")


def parse_origins(text: str) -> tuple[str, ...]:
    """Comma-separated origins like https://play.example.com or
    http://localhost:5173, or "*" for any. Raises ValueError naming a bad one."""
    origins = []
    for item in (part.strip().lower().rstrip("/") for part in text.split(",")):
        if not item:
            continue
        if item != "*" and not ORIGIN.fullmatch(item):
            raise ValueError(f"{item!r} is not an origin: write scheme://host[:port], e.g. http://localhost:5173, "
                             f"or * for any origin")
        origins.append(item)
    return tuple(origins)


class CorsPolicy:
    def __init__(self, origins: tuple[str, ...]) -> None:
        self.any = "*" in origins
        self.origins = frozenset(origins)

    def allows(self, origin: str) -> bool:
        return self.any or origin.lower().rstrip("/") in self.origins

    def _allow_origin(self, origin: str) -> dict[str, str]:
        return {"Access-Control-Allow-Origin": "*" if self.any else origin, "Vary": "Origin"}

    @web.middleware
    async def preflight(self, request: web.Request, handler):
        """Answer preflight requests here, before routing: 204 with the
        permissions for an allowed origin, 403 without them otherwise."""
        origin = request.headers.get("Origin")
        if request.method != "OPTIONS" or origin is None or "Access-Control-Request-Method" not in request.headers:
            return await handler(request)
        if not self.allows(origin):
            return web.Response(status=403, text=f"origin {origin} is not allowed; see --cors-origins.\n",
                                headers={"Vary": "Origin"})
        headers = {
            **self._allow_origin(origin),
            "Access-Control-Allow-Methods": ", ".join(ALLOWED_METHODS),
            "Access-Control-Allow-Headers": ", ".join(ALLOWED_HEADERS),
            "Access-Control-Max-Age": str(PREFLIGHT_MAX_AGE),
        }
        if request.headers.get("Access-Control-Request-Private-Network") == "true":
            # Chrome asks before a public page calls a host on a private address, e.g. localhost.
            headers["Access-Control-Allow-Private-Network"] = "true"
        return web.Response(status=204, headers=headers)

    async def on_response_prepare(self, request: web.Request, response: web.StreamResponse) -> None:
        """Add the CORS headers to every answer to an allowed origin, streams
        included (their headers go out before the handler ends)."""
        origin = request.headers.get("Origin")
        if origin is not None and self.allows(origin) and request.method != "OPTIONS":
            response.headers.update(self._allow_origin(origin))
            response.headers["Access-Control-Expose-Headers"] = ", ".join(EXPOSED_HEADERS)
