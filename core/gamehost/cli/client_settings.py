"""The client commands' settings: which host, signed in how, over TLS or not.
Each a flag with a GAMEHOST_* variable (cli/setting_flags.py); no file."""

from __future__ import annotations

import os
from typing import Annotated

from pydantic import AfterValidator
from pydantic_settings import BaseSettings, SettingsConfigDict

from gamehost.host.ops.config import setting


def _readable_file(value: str) -> str:
    if value and not os.path.isfile(value):
        raise ValueError(f"{value!r} is not a readable file")
    return value


def _client_flag(default, help: str, flag: str, dest: str, metavar: str = ""):
    field = setting(default, help, metavar=metavar)
    field.json_schema_extra.update(flag=flag, dest=dest)
    return field


class ClientSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="GAMEHOST_", env_ignore_empty=True, extra="forbid")

    target: str = _client_flag("127.0.0.1:50051", "host address", "--host", "host")
    token: str = _client_flag("", "sign in: a JWT from your identity provider or an API key; not the player "
                                  "token of --token", "--bearer-token", "bearer_token", "TOKEN")
    tls: bool = _client_flag(False, "connect over TLS, trusting the system's CAs", "--tls", "tls")
    tls_ca: Annotated[str, AfterValidator(_readable_file)] = _client_flag(
        "", "connect over TLS, trusting this PEM CA or certificate", "--tls-ca", "tls_ca", "FILE")

    @classmethod
    def settings_customise_sources(cls, settings_cls, init_settings, env_settings, dotenv_settings,
                                   file_secret_settings):
        return (init_settings,)  # load_settings adds the flags and the environment
