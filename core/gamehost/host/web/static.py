"""The web client's files at "/": index.html for client-side routes, content
types by extension, nothing outside the root. Text files go gzipped to
browsers that accept it (each compressed once, at the best level, and kept
while the file is unchanged); a build's hashed assets are cached for good."""

from __future__ import annotations

import mimetypes
import re
from pathlib import Path, PurePosixPath

from aiohttp import web

from gamehost.host.web import compression

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
COMPRESSIBLE = frozenset({".html", ".js", ".mjs", ".css", ".json", ".map", ".webmanifest", ".svg", ".txt",
                          ".wasm"})
COMPRESSED_CACHE_BYTES = 16 * 1024 * 1024  # gzipped files kept in memory; the web client's are about 0.2 MB
# Vite names a build's assets "assets/<name>-<hash>.<ext>": a new build has new
# names, so a browser may keep these for good.
HASHED_ASSET = re.compile(r"^/assets/.+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$")
IMMUTABLE = "public, max-age=31536000, immutable"

# The web client a source checkout builds (clients/web: npm run build).
CHECKOUT_WEB_ROOT = Path(__file__).resolve().parents[4] / "clients" / "web" / "dist"


def default_web_root() -> Path | None:
    return CHECKOUT_WEB_ROOT if CHECKOUT_WEB_ROOT.is_dir() else None


def content_type(path: Path) -> str:
    return CONTENT_TYPES.get(path.suffix.lower()) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"


class CompressedFiles:
    """Each file's gzipped bytes, made on first request and kept until the
    file changes (its size or modification time) or the cache is full."""

    def __init__(self, limit: int = COMPRESSED_CACHE_BYTES) -> None:
        self.limit = limit
        self.files: dict[Path, tuple[tuple[int, int], bytes]] = {}
        self.size = 0

    def get(self, path: Path) -> tuple[bytes, str]:
        """(gzipped bytes, ETag)."""
        stat = path.stat()
        stamp = (stat.st_mtime_ns, stat.st_size)
        etag = f'"{stat.st_mtime_ns:x}-{stat.st_size:x}-gzip"'
        cached = self.files.get(path)
        if cached is not None and cached[0] == stamp:
            return cached[1], etag
        data = compression.gzip(path.read_bytes(), 9)
        if cached is not None:
            self.size -= len(self.files.pop(path)[1])
        while self.files and self.size + len(data) > self.limit:
            self.size -= len(self.files.pop(next(iter(self.files)))[1])  # the oldest first
        if len(data) <= self.limit:
            self.files[path] = (stamp, data)
            self.size += len(data)
        return data, etag


def escapes(url_path: str) -> bool:
    """Whether a decoded URL path tries to leave the root ("..", "\\", NUL)."""
    return any(part in ("..", ".") or "\\" in part or "\0" in part for part in url_path.split("/"))


class StaticRoot:
    def __init__(self, root: Path | None, rpc_paths: frozenset[str]) -> None:
        self.root = root.resolve() if root is not None else None
        self.rpc_paths = rpc_paths
        self.compressed = CompressedFiles()

    def _file(self, root: Path, url_path: str) -> Path | None:
        """The file a URL path names under ``root``, or None; symlinks leading
        out of the root name nothing."""
        parts = PurePosixPath(url_path).parts[1:]
        target = root.joinpath(*parts).resolve()
        if not target.is_relative_to(root):
            return None
        if target.is_dir():
            target = target / "index.html"
        return target if target.is_file() else None

    async def handle(self, request: web.Request) -> web.StreamResponse:
        if request.path in self.rpc_paths:
            return web.Response(status=405, headers={"Allow": "POST"},
                                text="This RPC takes POST (Connect or gRPC-Web): only calls without side effects "
                                     "have Connect's GET form; see docs/protocol.md.\n")
        root = self.root
        if root is None:
            return web.Response(status=404, text="this host serves no web client: build clients/web "
                                                 "(npm run build) or pass --web-root.\n")
        if escapes(request.path):
            return web.Response(status=404, text=NOT_FOUND)
        target = self._file(root, request.path)
        if target is None and "." not in PurePosixPath(request.path).name:
            target = self._file(root, "/index.html")  # a client-side route: the app decides what to show
        if target is None:
            return web.Response(status=404, text=NOT_FOUND)
        headers = {"Content-Type": content_type(target), "X-Content-Type-Options": "nosniff"}
        if target.suffix == ".html":
            headers["Cache-Control"] = "no-cache"  # so a new build's hashed assets are found
        elif HASHED_ASSET.match(request.path):
            headers["Cache-Control"] = IMMUTABLE
        if target.suffix.lower() not in COMPRESSIBLE:
            return web.FileResponse(target, headers=headers)
        headers["Vary"] = "Accept-Encoding"
        if not compression.accepts_gzip(request.headers.get("Accept-Encoding")):
            return web.FileResponse(target, headers=headers)
        data, etag = self.compressed.get(target)
        headers.update({"Content-Encoding": compression.GZIP, "ETag": etag})
        if etag in request.headers.get("If-None-Match", ""):
            return web.Response(status=304, headers=headers)
        return web.Response(body=data, headers=headers)
