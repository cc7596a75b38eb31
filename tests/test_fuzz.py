"""The short fuzz run: bench/fuzz.py with a few thousand requests over every
RPC of both services (Session as sequences of requests) and both ports,
with credentials real, broken and forged, matches played alongside; the
invariants are read back afterwards (gapless versions, exact replays, no
other seat's token in a view). It starts its own host; any
INTERNAL, UNKNOWN or hang, a traceback in the host's log, a crash, or a change
to the match only refused calls reached fails it (see bench/fuzz.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # bench.fuzz runs as a module from here


def test_a_short_fuzz_run_gets_no_internal_or_unknown_answer(tmp_path):
    report_file = tmp_path / "fuzz.json"
    finished = subprocess.run([sys.executable, "-m", "bench.fuzz", "--requests", "4000", "--workers", "8",
                               "--max-seconds", "60", "--seed", "13", "--json", str(report_file)],
                              capture_output=True, text=True, timeout=180, cwd=ROOT)
    assert report_file.exists(), finished.stderr[-3000:]
    report = json.loads(report_file.read_text())
    statuses = report["statuses"]
    assert not statuses.get("INTERNAL") and not statuses.get("UNKNOWN") and not statuses.get("HANG"), \
        report["bad_answers"]
    assert report["answered"] >= 4000 and {"grpc", "connect", "grpc-web"} <= set(report["by_port"])
    assert statuses.get("INVALID_ARGUMENT", 0) > 1000 and statuses.get("OK", 0) > 100  # refused and served alike
    assert report["sentinel_unchanged"] and report["host_alive"] and report["still_serving"]
    assert not report["host_log_failures"], report["host_log_failures"]
    assert report["live_traffic"]["matches"] > 0
    assert not report["unreached_methods"], report["unreached_methods"]  # both services, Session included
    assert {"none", "player-key", "admin-key", "jwt", "jwt-unsigned", "jwt-hmac", "jwt-huge-exp",
            "too-long", "tab-or-non-ascii"} <= set(report["by_credential"])
    invariants = report["invariants"]
    assert not invariants["version_gaps"] and not invariants["replay_mismatches"], invariants
    assert invariants["finished_replayed"] > 0 and invariants["views_checked"] > 0 and not invariants["leaked_tokens"]
    assert finished.returncode == 0 and report["passed"]
