"""Every section mark a plugin cites resolves to a heading of its game's rules.

The plugins cite the rules by section number (``§2.5``, ``spec 1.7``,
``section 3.8``, ``sections 3.3 to 3.7``); docs/rules/<game>.md states the
rules in the project's own words under those same numbers, so a reader of the
code can open what a mark points at.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
PLUGINS = ROOT / "plugins"
RULES = ROOT / "docs" / "rules"

RULES_FILES = {
    "campanile": "campanile.md",
    "burgbaumeister": "burgbaumeister.md",
    "scalino": "scalino.md",
    "kensington": "kensington.md",
    "callisto": "callisto.md",
}
"""Plugin directory -> its rules in docs/rules/. A plugin missing here cites no section."""

BARE_MARKS = {"campanile": "1"}
"""Plugins that cite their part's sections as bare numbers, "(1.2 step 2)",
and that part's number: there a number 1.N in a comment or a string is a mark
(a float literal in code is not)."""

CITED_SUFFIXES = (".py", ".md")
"""The plugin's code, tests and README."""

SKIPPED_DIRECTORIES = {"__pycache__", "build", "dist"}

NUMBER = r"\d+(?:\.\d+)*(?!\.?\w)"
"""A section number; "§2.x" (a placeholder for a whole part) is no number."""
LATER_NUMBER = r"\d+\.\d+(?:\.\d+)*(?!\.?\w)"
"""A further number of a list ("spec 1.7, 1.9"): dotted, so "rules 1-5" is no section."""
ASIDE = r"(?:\s*\([^()\n]*\))?"
"""What a list may say about a number, "(components)"."""
JOINT = r"(?:\s*,\s*|,?\s+and\s+|\s+to\s+)"
MARK = re.compile(
    # "§2.5", "spec 1.7", "sections 3.1 (components), 3.2 (geometry) and 3.6", "sections 3.3 to 3.7".
    rf"(?:§\s?|\bspec\s+|\bsections?\s+)(?P<first>{NUMBER})(?P<rest>{ASIDE}(?:{JOINT}{LATER_NUMBER}{ASIDE})*)",
    re.IGNORECASE,
)
HEADING = re.compile(r"^#{1,6}\s+(\d+(?:\.\d+)*)\.?(?:\s|$)")


def marks_in(text: str) -> list[tuple[int, str]]:
    """(line, section number) of every section mark in ``text``."""
    found = []
    for mark in MARK.finditer(text):
        numbers = [mark["first"], *re.findall(LATER_NUMBER, mark["rest"])]
        line = text.count("\n", 0, mark.start()) + 1
        found += [(line, number) for number in numbers]
    return found


def bare_marks_in(text: str, part: str, python: bool) -> list[tuple[int, str]]:
    """(line, section number) of every bare "N.n" of ``part`` in the comments
    and strings of Python source, or anywhere in other text."""
    bare = re.compile(rf"(?<![\w.§])({re.escape(part)}\.[1-9]\d*(?:\.\d+)*)(?!\w|\.\d)")
    pieces = [(1, text)]
    if python:
        prose = {tokenize.COMMENT, tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}
        pieces = [(token.start[0], token.string) for token in tokenize.generate_tokens(io.StringIO(text).readline)
                  if token.type in prose]
    return [(line + piece.count("\n", 0, mark.start()), mark[1])
            for line, piece in pieces for mark in bare.finditer(piece)]


def headings_in(markdown: str) -> set[str]:
    """The section numbers that open a heading line, outside code blocks."""
    numbers, in_code = set(), False
    for line in markdown.splitlines():
        if line.lstrip().startswith("```"):
            in_code = not in_code
        elif not in_code and (heading := HEADING.match(line)):
            numbers.add(heading[1])
    return numbers


def plugin_files(plugin: Path) -> list[Path]:
    return sorted(path for path in plugin.rglob("*")
                  if path.is_file() and path.suffix in CITED_SUFFIXES
                  and not any(part in SKIPPED_DIRECTORIES or part.endswith(".egg-info") or part.startswith(".")
                              for part in path.relative_to(plugin).parts))


def cited_marks(plugin: Path) -> list[tuple[str, str]]:
    """("file:line", section number) of every mark in the plugin's files, each once."""
    found = []
    for path in plugin_files(plugin):
        text = path.read_text(encoding="utf-8")
        marks = marks_in(text)
        if plugin.name in BARE_MARKS:
            marks += bare_marks_in(text, BARE_MARKS[plugin.name], python=path.suffix == ".py")
        found += [(f"{path.relative_to(ROOT)}:{line}", number) for line, number in sorted(set(marks))]
    return found


def plugin_directories() -> list[Path]:
    return sorted(path for path in PLUGINS.iterdir() if path.is_dir() and (path / "pyproject.toml").exists())


@pytest.mark.parametrize("game", sorted(RULES_FILES))
def test_every_section_mark_of_the_plugin_is_a_heading_of_its_rules(game):
    marks = cited_marks(PLUGINS / game)
    assert marks, f"plugins/{game} cites no section: the mark pattern no longer matches how it cites its rules"
    rules = RULES / RULES_FILES[game]
    if not rules.exists():
        pytest.fail(f"docs/rules/{RULES_FILES[game]} is missing: plugins/{game} cites {len(marks)} section marks "
                    f"({', '.join(sorted({number for _, number in marks}, key=section_order))}) that point into it.")
    headings = headings_in(rules.read_text(encoding="utf-8"))
    unresolved = [f"{where}: {number}" for where, number in marks if number not in headings]
    assert not unresolved, (f"section marks with no heading in docs/rules/{RULES_FILES[game]}:\n"
                            + "\n".join(unresolved))


def test_plugins_without_rules_in_docs_cite_no_section():
    cited = {plugin.name: cited_marks(plugin) for plugin in plugin_directories() if plugin.name not in RULES_FILES}
    stray = [f"{where}: {number}" for marks in cited.values() for where, number in marks]
    assert not stray, "section marks in a plugin with no docs/rules/ file (add it to RULES_FILES):\n" + "\n".join(stray)


def test_no_plugin_points_at_rules_outside_the_repository():
    outside = [f"{path.relative_to(ROOT)}:{line_number}" for plugin in plugin_directories()
               for path in plugin_files(plugin)
               for line_number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
               if "shared/rules/" in line]
    assert not outside, ("these lines point at shared/rules/, which is not in the repository; "
                         "the rules are docs/rules/<game>.md:\n" + "\n".join(outside))


def section_order(number: str) -> tuple[int, ...]:
    return tuple(int(part) for part in number.split("."))


@pytest.mark.parametrize("text, numbers", [
    ("(§2.2, §2.9.5): seat", ["2.2", "2.9.5"]),
    ("a flag (§ 2.4) and spec 1.5.1", ["2.4", "1.5.1"]),
    ("Turn flow (spec 1.7, 1.9)", ["1.7", "1.9"]),
    ("(spec 1.8, rules 1-5)", ["1.8"]),
    ("Spec 1.9 B, judged", ["1.9"]),
    ("scores a point a column (spec 1.10). So", ["1.10"]),
    ("scalino.md sections 3.3 to 3.7 (French", ["3.3", "3.7"]),
    ("sections 3.1 (components), 3.2 (geometry) and\n3.6 (scoring)", ["3.1", "3.2", "3.6"]),
    ("md section 3.8 (French original:", ["3.8"]),
    ("Section numbers (§2.x) refer to the spec", []),
])
def test_marks_are_read_in_every_form_the_plugins_write(text, numbers):
    assert [number for _, number in marks_in(text)] == numbers


def test_bare_marks_are_read_in_comments_and_strings_only():
    source = 'CARDS = 1.5  # by style (1.1)\n"""Draw (1.3 step 3, A1); version 1.0.0, §1.4."""\n'
    assert bare_marks_in(source, "1", python=True) == [(1, "1.1"), (2, "1.3")]


def test_headings_are_numbered_heading_lines_outside_code():
    markdown = "# 2 Part\n## 2.3 Board\n### 2.9.5 Colours\n2.4 not a heading\n```\n# 2.6 code\n```\n#### 2.7. Scoring"
    assert headings_in(markdown) == {"2", "2.3", "2.9.5", "2.7"}
