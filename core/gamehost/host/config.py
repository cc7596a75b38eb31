"""Host settings from flags, with environment variables as defaults."""

from __future__ import annotations

import os
from dataclasses import dataclass


def _env(name: str, default: str) -> str:
    return os.environ.get(f"GAMEHOST_{name}", default)


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

    @classmethod
    def from_env(cls) -> "HostConfig":
        return cls(
            address=_env("ADDRESS", cls.address),
            data_dir=_env("DATA_DIR", cls.data_dir),
            store=_env("STORE", cls.store),
            durability=_env("DURABILITY", cls.durability),
            log_format=_env("LOG_FORMAT", cls.log_format),
            log_level=_env("LOG_LEVEL", cls.log_level),
            bot_delay=float(_env("BOT_DELAY", str(cls.bot_delay))),
            max_message_bytes=int(_env("MAX_MESSAGE_BYTES", str(cls.max_message_bytes))),
            shutdown_grace=float(_env("SHUTDOWN_GRACE", str(cls.shutdown_grace))),
        )
