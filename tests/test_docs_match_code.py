"""The documentation states what the code has: docs/architecture.md lists
every RPC of the proto and names only files that exist, and
docs/plugin-guide.md gives every hook with the signature its specification
declares. Each check fails with the list of what differs."""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
ARCHITECTURE = REPO / "docs" / "architecture.md"
PLUGIN_GUIDE = REPO / "docs" / "plugin-guide.md"
PROTO = REPO / "proto" / "gamehost" / "v1" / "gamehost.proto"
HOOKSPECS = REPO / "core" / "gamehost" / "sdk" / "hookspecs.py"

RPC_SECTION = "## The services and their RPCs"
# Where a path in the docs may be rooted: the repository, the core package and the host.
PATH_ROOTS = [REPO, REPO / "core" / "gamehost", REPO / "core" / "gamehost" / "host", REPO / "clients",
              REPO / "clients" / "python" / "gamehost"]
FILE_SUFFIXES = ("py", "pyi", "proto", "ts", "tsx", "go", "md", "toml", "json", "yaml", "yml", "sh", "mjs", "js",
                 "tmpl", "service", "sql", "cfg", "ini", "txt", "html", "css")
PATH_TOKEN = re.compile(r"(?<![\w./-])((?:[\w.-]+/)*[\w-][\w.-]*\.(?:" + "|".join(FILE_SUFFIXES) + r"))(?![\w/])")
FOLDER_SPAN = re.compile(r"^((?:[\w.-]+/)+)$")
NOT_SEARCHED = {".git", ".venv", "node_modules", "__pycache__", "build", "dist", ".mypy_cache", ".pytest_cache"}


def sections(text: str) -> dict[str, str]:
    """Each ``## `` heading's text, up to the next one."""
    found: dict[str, str] = {}
    heading = None
    for line in text.splitlines():
        if line.startswith("## "):
            heading = line.strip()
            found[heading] = ""
        elif heading is not None:
            found[heading] += line + "\n"
    return found


def code_spans(text: str) -> list[str]:
    """The text of every inline code span and every fenced block's lines."""
    spans: list[str] = []
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            spans.append(line)
        else:
            # In a table, a code span writes "|" as "\\|" (GitHub's tables).
            spans.extend(span.replace("\\|", "|") for span in re.findall(r"`([^`]+)`", line))
    return spans


# ------------------------------------------------------------ the RPCs

def proto_rpcs() -> set[tuple[str, str]]:
    rpcs = set()
    service = None
    for line in PROTO.read_text().splitlines():
        opened = re.match(r"\s*service\s+(\w+)\s*\{", line)
        if opened:
            service = opened.group(1)
            continue
        rpc = re.match(r"\s*rpc\s+(\w+)\s*\(", line)
        if rpc and service:
            rpcs.add((service, rpc.group(1)))
    return rpcs


def documented_rpcs() -> set[tuple[str, str]]:
    """The RPCs the section lists: table rows whose first cell is an RPC's
    name, under a ``### Service`` heading naming its service."""
    section = sections(ARCHITECTURE.read_text()).get(RPC_SECTION)
    assert section is not None, f"docs/architecture.md has no section {RPC_SECTION!r}"
    rpcs = set()
    service = None
    for line in section.splitlines():
        heading = re.match(r"###\s+`?(\w+)`?", line)
        if heading:
            service = heading.group(1)
            continue
        row = re.match(r"\|\s*`(\w+)`\s*\|", line)
        if row:
            assert service is not None, f"an RPC row before any ### service heading: {line}"
            rpcs.add((service, row.group(1)))
    return rpcs


def test_architecture_lists_every_rpc_of_the_proto_and_nothing_else():
    in_proto, in_docs = proto_rpcs(), documented_rpcs()
    assert in_proto, "no rpc read from the proto"
    missing = sorted(f"{service}.{rpc}" for service, rpc in in_proto - in_docs)
    extra = sorted(f"{service}.{rpc}" for service, rpc in in_docs - in_proto)
    assert not missing and not extra, (f"{RPC_SECTION} of docs/architecture.md differs from gamehost.proto:\n"
                                       f"  not listed: {missing}\n  listed but not an rpc: {extra}")


# ------------------------------------------------------------ the files

def repository_names() -> tuple[set[str], set[str]]:
    """The names of every file and every folder in the repository (outside
    environments and build output)."""
    files, folders = set(), set()
    for root, dirs, names in os.walk(REPO):
        dirs[:] = [d for d in dirs if d not in NOT_SEARCHED]
        folders.update(dirs)
        files.update(names)
    return files, folders


def named_paths(text: str) -> tuple[set[str], set[str]]:
    """The file paths and the folders (``x/``) named in code spans."""
    files, folders = set(), set()
    for span in code_spans(text):
        for token in PATH_TOKEN.findall(span):
            files.add(token)
        folder = FOLDER_SPAN.match(span.strip())
        if folder:
            folders.add(folder.group(1))
    return files, folders


def missing_paths(text: str) -> list[str]:
    file_names, folder_names = repository_names()
    files, folders = named_paths(text)
    missing = []
    for path in sorted(files):
        if "/" not in path:
            if path not in file_names:
                missing.append(path)
        elif not any((root / path).is_file() for root in PATH_ROOTS):
            missing.append(path)
    for folder in sorted(folders):
        name = folder.rstrip("/")
        if "/" not in name:
            if name not in folder_names:
                missing.append(folder)
        elif not any((root / name).is_dir() for root in PATH_ROOTS):
            missing.append(folder)
    return missing


def test_the_path_check_reads_paths_and_folders():
    files, folders = named_paths("`rpc/service.py` and `moves.py: MatchMoves.submit`, `engine/`, `a b/`\n"
                                 "```\n core/gamehost/host/engine/steps.py  commit\n```\n")
    assert files == {"rpc/service.py", "moves.py", "core/gamehost/host/engine/steps.py"}
    assert folders == {"engine/"}
    assert missing_paths("`rpc/service.py` `no_such_module.py` `engine/` `nowhere/`") == [
        "no_such_module.py", "nowhere/"]


def test_every_file_and_folder_architecture_names_exists():
    missing = missing_paths(ARCHITECTURE.read_text())
    assert not missing, ("docs/architecture.md names files or folders the repository lacks "
                         "(a bare name: no file has it; a path: not under the repository, core/gamehost/, "
                         "core/gamehost/host/ nor clients/):\n  " + "\n  ".join(missing))


# ------------------------------------------------------------ the hooks

def hook_signatures() -> dict[str, str]:
    """Each hookspec's signature as the guide should give it:
    ``name(param: annotation, ...) -> annotation``."""
    tree = ast.parse(HOOKSPECS.read_text())
    signatures = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("gamehost_"):
            params = ", ".join(arg.arg + (f": {ast.unparse(arg.annotation)}" if arg.annotation else "")
                               for arg in node.args.args)
            returns = f" -> {ast.unparse(node.returns)}" if node.returns else ""
            signatures[node.name] = f"{node.name}({params}){returns}"
    return signatures


def hook_parameters(signature: str) -> list[str]:
    """The parameter names of ``name(a: x, b) -> y``, however loosely written."""
    inside = signature[signature.index("(") + 1:signature.rindex(")")] if ")" in signature else ""
    names, depth, current = [], 0, ""
    for char in inside + ",":
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        if char == "," and depth == 0:
            name = re.match(r"\s*\*{0,2}(\w+)", current)
            if name:
                names.append(name.group(1))
            current = ""
        else:
            current += char
    return names


def guide_hook_mentions() -> list[str]:
    """Every ``gamehost_*(...)`` the guide writes in an inline code span."""
    mentions = []
    for line in PLUGIN_GUIDE.read_text().splitlines():
        for span in re.findall(r"`([^`]+)`", line):
            mentions.extend(re.findall(r"\bgamehost_\w+\(.*", span))
    return mentions


def test_the_guide_gives_every_hook_with_its_exact_signature():
    signatures = hook_signatures()
    assert len(signatures) >= 5, "no hookspec read"
    spans = set(code_spans(PLUGIN_GUIDE.read_text()))
    missing = sorted(signature for signature in signatures.values() if signature not in spans)
    assert not missing, ("docs/plugin-guide.md does not give these hooks with their exact signature "
                         "(in a code span of its own):\n  " + "\n  ".join(missing))


def test_every_hook_the_guide_gives_is_a_hookspec_with_those_parameters():
    signatures = hook_signatures()
    wrong = []
    for mention in guide_hook_mentions():
        name = mention[:mention.index("(")]
        if name not in signatures:
            wrong.append(f"{mention}: no hookspec {name}")
        elif hook_parameters(mention) != hook_parameters(signatures[name]):
            wrong.append(f"{mention}: the hookspec's parameters are {hook_parameters(signatures[name])}")
    assert not wrong, "docs/plugin-guide.md gives hooks the hookspecs do not declare:\n  " + "\n  ".join(wrong)


def test_typed_hook_signatures_in_the_guide_are_exact():
    """A signature written with annotations must be the hookspec's own."""
    signatures = hook_signatures()
    wrong = [span for span in code_spans(PLUGIN_GUIDE.read_text())
             if re.match(r"gamehost_\w+\(.*:.*\)", span) and span.split("(")[0] in signatures
             and span != signatures[span.split("(")[0]]]
    assert not wrong, ("docs/plugin-guide.md writes typed hook signatures that differ from the hookspecs:\n  "
                       + "\n  ".join(f"{span} (hookspec: {signatures[span.split('(')[0]]})" for span in wrong))


@pytest.mark.parametrize("signature, names", [
    ("gamehost_match_event(match_id, game_id, event)", ["match_id", "game_id", "event"]),
    ("gamehost_clock_ran_out(game_id: str, seats: int, ran_out: Sequence[int]) -> Sequence[int] | None",
     ["game_id", "seats", "ran_out"]),
    ("gamehost_bots() -> {name: bot}", []),
])
def test_hook_parameters_are_read_from_loose_and_typed_signatures(signature, names):
    assert hook_parameters(signature) == names
