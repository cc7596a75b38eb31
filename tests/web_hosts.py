"""The browser tests' host: ``gamehost serve`` with the built web client on
its web port, for the Node scenarios (clients/web/e2e) that drive headless
Chromium against it. conftest.py's ``web_host`` and ``signed_in_web_host``
fixtures start one per module."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import pytest

from hosts import HostProcess

WEB = Path(__file__).resolve().parents[1] / "clients" / "web"
CHROMIUM = Path(os.environ.get("GAMEHOST_CHROMIUM", "/usr/bin/chromium"))


def require_browser() -> None:
    """Fails the test, saying what to run, when the web client is not built or there is no Chromium."""
    if not (WEB / "dist" / "index.html").is_file() or not (WEB / "node_modules" / "playwright-core").is_dir():
        pytest.fail("the web client is not built: run `make web` (npm ci and vite build in clients/web)")
    if not CHROMIUM.exists():
        pytest.fail(f"no {CHROMIUM}: `apt-get install chromium` (make test does it) or set GAMEHOST_CHROMIUM")


def serving_web_client(*args: str) -> Iterator[HostProcess]:
    """A host serving the web client (with ``args``), stopped when the caller is done."""
    require_browser()
    process = HostProcess("--web-root", str(WEB / "dist"), *args).start()
    try:
        yield process
    finally:
        process.stop()
