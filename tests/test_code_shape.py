"""Sizes a reader can hold in mind: no class of the host, the SDK, the test
kit or the CLI over 500 lines, and no file of the host over 500 lines
(generated code aside)."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORE = REPO / "core" / "gamehost"
MAX_LINES = 500


def test_no_file_of_the_host_is_over_500_lines():
    long = [f"{path.relative_to(REPO)}: {count} lines"
            for path in sorted((CORE / "host").rglob("*.py"))
            if (count := len(path.read_text().splitlines())) > MAX_LINES]
    assert not long, "\n".join(long)


def test_no_class_is_over_500_lines():
    long = []
    for path in sorted(CORE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ClassDef) and (size := node.end_lineno - node.lineno + 1) > MAX_LINES:
                long.append(f"{path.relative_to(REPO)}:{node.lineno} {node.name}: {size} lines")
    assert not long, "\n".join(long)


def test_the_checks_read_the_host():
    assert len(list((CORE / "host").rglob("*.py"))) > 50
