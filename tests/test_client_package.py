"""The Python client is a thin distribution: stubs and a typed client, no
host machinery."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import requires


def test_client_distribution_depends_only_on_grpc_and_protobuf():
    names = {requirement.split(">")[0].split("=")[0].split("[")[0].strip() for requirement in requires("gamehost-client")
             if "extra ==" not in requirement}  # optional: jsonpatch, for views as changes ([patches])
    assert names == {"grpcio", "grpcio-status", "googleapis-common-protos", "protobuf"}


def test_importing_the_client_loads_no_plugin_manager_or_database_driver():
    code = ("import sys, gamehost.client, gamehost.v1.gamehost_pb2_grpc; "
            "print(sorted(m for m in ('pluggy', 'sqlite3', 'structlog', 'gamehost.host', 'gamehost.sdk') "
            "if m in sys.modules))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"
