"""Host settings from flags, with environment variables as defaults."""

from __future__ import annotations

import os
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit


def _env(name: str, default: str) -> str:
    return os.environ.get(f"GAMEHOST_{name}", default)


def _env_number(name: str, default: float, kind: type) -> float:
    text = _env(name, str(default))
    try:
        return kind(text)
    except ValueError:
        raise SystemExit(f"gamehost: GAMEHOST_{name} must be a number, not {text!r}") from None


@dataclass
class HostConfig:
    address: str = "127.0.0.1:50051"
    data_dir: str = "data"
    store: str = "sqlite"
    durability: str = "normal"  # "full": fsync every SQLite commit, for power loss
    log_format: str = "auto"
    log_level: str = "info"
    bot_delay: float = 0.0
    max_message_bytes: int = 1 << 20
    shutdown_grace: float = 5.0
    metrics_port: int | None = None  # Prometheus /metrics; None: off, 0: any free port
    store_check_interval: float = 5.0  # seconds between readiness checks of the store

    @classmethod
    def from_env(cls) -> "HostConfig":
        return cls(
            address=_env("ADDRESS", cls.address),
            data_dir=_env("DATA_DIR", cls.data_dir),
            store=_env("STORE", cls.store),
            durability=_env("DURABILITY", cls.durability),
            log_format=_env("LOG_FORMAT", cls.log_format),
            log_level=_env("LOG_LEVEL", cls.log_level),
            bot_delay=_env_number("BOT_DELAY", cls.bot_delay, float),
            max_message_bytes=_env_number("MAX_MESSAGE_BYTES", cls.max_message_bytes, int),
            shutdown_grace=_env_number("SHUTDOWN_GRACE", cls.shutdown_grace, float),
            metrics_port=_env_number("METRICS_PORT", 0, int) if _env("METRICS_PORT", "") else None,
            store_check_interval=_env_number("STORE_CHECK_INTERVAL", cls.store_check_interval, float),
        )


def without_password(store: str) -> str:
    """The store spec for logs: a URL's password replaced by '***'."""
    parts = urlsplit(store)
    if not parts.password:
        return store
    user = f"{parts.username}:***@" if parts.username else ":***@"
    return urlunsplit(parts._replace(netloc=user + parts.netloc.rpartition("@")[2]))
