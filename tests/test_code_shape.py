"""Sizes a reader can hold in mind: no class of the host, the SDK, the test
kit or the CLI over 500 lines, and no file of the host over 500 lines
(generated code aside). And parts that meet through public names only: no
module of the host reads another object's private attributes."""

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


# Names with a leading underscore that are public all the same: namedtuple's API, and the standard
# library's exit without clean-up (a worker process leaving).
PUBLIC_UNDERSCORED = {"_replace", "_asdict", "_fields", "_make", "os._exit"}


def private_reaches(tree: ast.AST) -> list[tuple[int, str]]:
    """Where code reads ``x._name`` of an ``x`` other than ``self``, ``cls``
    or ``super()``: one part reaching into another's private state."""
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")):
            continue
        owner = node.value
        if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
            continue
        if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super":
            continue
        written = ast.unparse(node)
        if node.attr not in PUBLIC_UNDERSCORED and written not in PUBLIC_UNDERSCORED:
            found.append((node.lineno, written))
    return found


def test_no_part_of_the_host_reads_another_objects_private_attributes():
    reaches = [f"{path.relative_to(REPO)}:{line} {written}"
               for path in sorted((CORE / "host").rglob("*.py"))
               for line, written in private_reaches(ast.parse(path.read_text(), str(path)))]
    assert not reaches, "\n".join(reaches)


def test_the_private_reach_check_sees_one():
    tree = ast.parse("class Hook:\n    def turns(self):\n        return self.engine._live, self._own, super()._base\n")
    assert private_reaches(tree) == [(3, "self.engine._live")]


def test_the_checks_read_the_host():
    assert len(list((CORE / "host").rglob("*.py"))) > 50
