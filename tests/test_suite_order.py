"""The order the suite is handed to pytest-xdist in: modules with a
long-running test first, each whole, then the conformance sweeps, so that a
run does not end with one worker alone on a long test (conftest.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).parent


def collected(*paths: str) -> list[str]:
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:randomly", "-p",
                           "no:cacheprovider", *paths], cwd=TESTS.parent, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return [line for line in done.stdout.splitlines() if "::" in line]


def test_long_modules_go_first_and_stay_whole_then_the_conformance_sweeps_then_the_rest():
    # Named last, collected last; one of its three tests is marked long_running. The run ends on short
    # tests: a sweep's batches (5 to 30 s each) come right after the long modules, not last.
    ids = collected("tests/test_chance.py", "tests/test_worker_replacement.py",
                    "plugins/tictactoe/tests/test_tictactoe_rules.py", "plugins/callisto/tests/test_callisto_conformance.py")
    modules = [test_id.split("::")[0] for test_id in ids]
    assert modules[0] == "tests/test_worker_replacement.py"
    assert modules.count("tests/test_worker_replacement.py") == 3 and "tests/test_chance.py" in modules
    order = ["tests/test_worker_replacement.py", "plugins/callisto/tests/test_callisto_conformance.py"]
    ranks = [order.index(module) if module in order else len(order) for module in modules]
    assert ranks == sorted(ranks) and set(ranks) == {0, 1, 2}
