"""The web client's files at "/": index.html for client-side routes, content
types by extension, nothing outside the root."""

from __future__ import annotations

import mimetypes
from pathlib import Path, PurePosixPath

from aiohttp import web

# Set here rather than guessed from the machine's /etc/mime.types, which varies.
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
    ".json": "application/json", ".map": "application/json", ".webmanifest": "application/manifest+json",
    ".svg": "image/svg+xml", ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
    ".gif": "image/gif", ".webp": "image/webp", ".ico": "image/x-icon", ".wasm": "application/wasm",
    ".woff": "font/woff", ".woff2": "font/woff2", ".ttf": "font/ttf", ".txt": "text/plain; charset=utf-8",
}
NOT_FOUND = "not found\n"

# The web client a source checkout builds (clients/web: npm run build).
CHECKOUT_WEB_ROOT = Path(__file__).resolve().parents[4] / "clients" / "web" / "dist"


def default_web_root() -> Path | None:
    return CHECKOUT_WEB_ROOT if CHECKOUT_WEB_ROOT.is_dir() else None


def content_type(path: Path) -> str:
    return CONTENT_TYPES.get(path.suffix.lower()) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"


def escapes(url_path: str) -> bool:
    """Whether a decoded URL path tries to leave the root ("..", "\\", NUL)."""
    return any(part in ("..", ".") or "\\" in part or "\0" in part for part in url_path.split("/"))


class StaticRoot:
    def __init__(self, root: Path | None, rpc_paths: frozenset[str]) -> None:
        self.root = root.resolve() if root is not None else None
        self.rpc_paths = rpc_paths

    def _file(self, url_path: str) -> Path | None:
        """The file a URL path names, or None; symlinks leading out of the
        root name nothing."""
        parts = PurePosixPath(url_path).parts[1:]
        target = self.root.joinpath(*parts).resolve()
        if not target.is_relative_to(self.root):
            return None
        if target.is_dir():
            target = target / "index.html"
        return target if target.is_file() else None

    async def handle(self, request: web.Request) -> web.StreamResponse:
        if request.path in self.rpc_paths:
            return web.Response(status=405, headers={"Allow": "POST"},
                                text="RPCs take POST (Connect or gRPC-Web); see docs/protocol.md.\n")
        if self.root is None:
            return web.Response(status=404, text="this host serves no web client: build clients/web "
                                                 "(npm run build) or pass --web-root.\n")
        if escapes(request.path):
            return web.Response(status=404, text=NOT_FOUND)
        target = self._file(request.path)
        if target is None and "." not in PurePosixPath(request.path).name:
            target = self._file("/index.html")  # a client-side route: the app decides what to show
        if target is None:
            return web.Response(status=404, text=NOT_FOUND)
        headers = {"Content-Type": content_type(target), "X-Content-Type-Options": "nosniff"}
        if target.suffix == ".html":
            headers["Cache-Control"] = "no-cache"  # so a new build's hashed assets are found
        return web.FileResponse(target, headers=headers)
