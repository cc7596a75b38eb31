"""The web address a person opens once the host is up: said in the logs
when the web port serves the page (its web root holds index.html), so that
whoever started ``gamehost serve`` need not work it out from the flags."""

from __future__ import annotations

from pathlib import Path

import structlog

from gamehost.host.ops.config import HostConfig
from gamehost.host.ops.ports import split_address
from gamehost.host.ops.transport import tls_enabled
from gamehost.host.web.static import default_web_root

log = structlog.get_logger("gamehost.web")

# Addresses that listen on every interface: a browser on this machine reaches them at the loopback.
EVERY_INTERFACE = {"", "0.0.0.0", "::"}


def page_address(config: HostConfig, web_port: int) -> str | None:
    """``http://HOST:PORT/`` of the page, or None when the web port serves no page."""
    web_root = (None if config.web_root == "off" else Path(config.web_root) if config.web_root
                else default_web_root())
    if web_root is None or not (web_root / "index.html").is_file():
        return None
    host, _ = split_address(config.address)
    host = host.strip("[]")
    if host in EVERY_INTERFACE:
        host = "127.0.0.1"
    elif ":" in host:
        host = f"[{host}]"
    return f"{'https' if tls_enabled(config) else 'http'}://{host}:{web_port}/"


def announce_page(config: HostConfig, web_port: int | None) -> None:
    """Logs "Open http://HOST:PORT/ in a browser" when there is a page to open."""
    url = page_address(config, web_port) if web_port else None
    if url:
        log.info(f"Open {url} in a browser", url=url)
