"""Building the Go client (clients/go) for the tests that run it."""

from __future__ import annotations

import fcntl
import shutil
import subprocess
from pathlib import Path

GO = shutil.which("go")
GO_MODULE = Path(__file__).parent.parent / "clients" / "go"


def build_gamehost_go(shared: Path) -> Path:
    """The gamehost-go binary in ``shared``. Under pytest-xdist each worker is
    its own session: the first one builds while the others wait on the lock,
    then reuse the binary."""
    assert GO, "go must be on PATH in CI"
    binary = shared / "gamehost-go"
    with open(shared / "gamehost-go.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not binary.exists():
            built = subprocess.run([GO, "build", "-buildvcs=false", "-o", str(binary), "./cmd/gamehost-go"],
                                   cwd=GO_MODULE, capture_output=True, text=True, timeout=600)
            assert built.returncode == 0, built.stderr
    return binary
