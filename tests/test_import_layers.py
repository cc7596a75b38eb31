"""The code's layers and its import graph: no cycles anywhere, each layer of
the host imports only the layers below it, and the SDK imports nothing of the
host. Imports are read from the source (every ``import`` statement, at any
depth, including those under ``if TYPE_CHECKING:``), so a lazy import is a
dependency too."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Collection, Iterable, Mapping

import pytest

REPO = Path(__file__).resolve().parent.parent
SOURCE_ROOTS = [REPO / "core", REPO / "clients" / "python",
                *sorted(path.parent for path in (REPO / "plugins").glob("*/pyproject.toml"))]
GENERATED = ("gamehost.v1.", "google.rpc.")

# The host's layers, top first: a module may import its own layer and the ones below it.
HOST_LAYERS = [
    ["gamehost.host.ops"],
    ["gamehost.host.web"],
    ["gamehost.host.rpc"],
    ["gamehost.host.engine"],
    ["gamehost.host.workers"],
    ["gamehost.host.codec", "gamehost.host.store", "gamehost.host.auth"],
    ["gamehost.host.errors", "gamehost.host.plugins", "gamehost.host.bots", "gamehost.host.due_timers",
     "gamehost.host.collector", "gamehost.host.traces"],
]


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def source_modules(roots: Iterable[Path] = SOURCE_ROOTS) -> dict[str, Path]:
    modules = {}
    for root in roots:
        for path in root.rglob("*.py"):
            relative = path.relative_to(root).parts
            if relative[0] in ("tests", "build") or "plugin_template" in relative or path.name.startswith("setup"):
                continue
            name = module_name(root, path)
            if name and not name.startswith(GENERATED):
                modules[name] = path
    return modules


def imported_names(path: Path, name: str, modules: Collection[str]) -> set[str]:
    """The modules ``path`` (the module ``name``) imports, as the import
    system resolves them: ``import a.b`` and ``from a import b`` (``b`` a
    module) import ``a.b``; ``from a import x`` (``x`` any other name, such
    as one a package's ``__init__`` re-exports) imports ``a`` itself, so a
    cycle through a package's ``__init__`` shows. The parent packages every
    import runs first are left out: they are implied by every import alike."""
    tree = ast.parse(path.read_text(), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                found.add(submodule if submodule in modules else base)
    return found


def import_graph(modules: Mapping[str, Path]) -> dict[str, set[str]]:
    """Each module and the modules of ``modules`` it imports. A package's
    ``__init__`` importing its own modules is an edge like any other."""
    graph = {}
    for name, path in modules.items():
        graph[name] = {target for target in imported_names(path, name, modules) if target in modules and target != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def within(module: str, *packages: str) -> bool:
    return any(module == package or module.startswith(package + ".") for package in packages)


def layer_of(module: str) -> int | None:
    for depth, layer in enumerate(HOST_LAYERS):
        if any(module == prefix or module.startswith(prefix + ".") for prefix in layer):
            return depth
    return None


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph(source_modules())


def test_no_module_of_the_host_the_clients_or_the_plugins_is_in_an_import_cycle(graph):
    found = cycles(graph)
    assert not found, "import cycles:\n" + "\n".join(" <-> ".join(component) for component in found)


def test_every_module_of_the_host_belongs_to_a_layer(graph):
    unplaced = sorted(name for name in graph
                      if name.startswith("gamehost.host.") and layer_of(name) is None)
    assert not unplaced, f"modules of gamehost.host in no layer of HOST_LAYERS: {unplaced}"


def test_each_layer_of_the_host_imports_only_the_layers_below_it(graph):
    upward = [f"{name} ({layer_of(name)}) imports {target} ({layer_of(target)})"
              for name, targets in sorted(graph.items()) if layer_of(name) is not None
              for target in sorted(targets) if layer_of(target) is not None and layer_of(target) < layer_of(name)]
    assert not upward, "imports up the layers:\n" + "\n".join(upward)


def test_the_sdk_imports_nothing_of_the_host_nor_the_test_kit(graph):
    reaching = [f"{name} imports {target}" for name, targets in sorted(graph.items())
                if name.startswith("gamehost.sdk") for target in sorted(targets)
                if within(target, "gamehost.host", "gamehost.testing", "gamehost.cli")]
    assert not reaching, "\n".join(reaching)


def test_plugins_import_the_sdk_and_never_the_host(graph):
    reaching = [f"{name} imports {target}" for name, targets in sorted(graph.items())
                if name.startswith("gamehost_") for target in sorted(targets)
                if within(target, "gamehost.host", "gamehost.testing", "gamehost.cli")]
    assert not reaching, "\n".join(reaching)


def test_the_graph_is_read_from_every_source_root():
    # Guards the checks above against reading nothing: each root contributes modules.
    modules = source_modules()
    assert any(name.startswith("gamehost.host.engine.") for name in modules)
    assert any(name.startswith("gamehost.client") for name in modules)
    assert any(name.startswith("gamehost_tictactoe") for name in modules)


def fixture_graph(root: Path, files: Mapping[str, str]) -> dict[str, set[str]]:
    """The import graph of a small tree of modules written under ``root``."""
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return import_graph(source_modules([root]))


# A package's __init__ re-exports a name of one of its modules, and another of its modules imports that name
# from the package: importing either runs the other first.
REEXPORT_CYCLE = {
    "shop/__init__.py": "from shop.prices import Price\nfrom shop.till import Till\n",
    "shop/prices.py": "class Price: ...\n",
    "shop/till.py": "from shop import Price\nclass Till: ...\n",
}
# The package's __init__ imports a sibling module by ``from . import``, and that module takes a name the
# __init__ itself defines.
SIBLING_CYCLE = {
    "shop/__init__.py": "from . import till\nOPEN_HOURS = (9, 17)\n",
    "shop/till.py": "from shop import OPEN_HOURS\n",
}
# Through the __init__ chain of a subpackage: the subpackage's __init__ imports the top package's re-export.
NESTED_CYCLE = {
    "shop/__init__.py": "from shop.stock import Shelf\n",
    "shop/stock/__init__.py": "from shop.stock.shelf import Shelf\n",
    "shop/stock/shelf.py": "from shop import Shelf as _Shelf\nclass Shelf: ...\n",
}


@pytest.mark.parametrize("files", [REEXPORT_CYCLE, SIBLING_CYCLE, NESTED_CYCLE],
                         ids=["re-export", "sibling-in-init", "subpackage-init"])
def test_the_checker_reports_a_cycle_through_a_package_init(tmp_path, files):
    found = cycles(fixture_graph(tmp_path, files))
    assert found and "shop" in found[0], f"no cycle through shop/__init__.py found in {found}"


def test_the_checker_counts_a_module_imported_from_its_package_as_that_module_not_the_package(tmp_path):
    """``from shop import prices`` (a module) depends on shop.prices, not on
    whatever else shop/__init__.py imports: no cycle is made up."""
    graph = fixture_graph(tmp_path, {
        "shop/__init__.py": "from shop.till import Till\n",
        "shop/prices.py": "PRICE = 1\n",
        "shop/till.py": "from shop import prices\nimport shop.prices\nclass Till: ...\n",
    })
    assert graph["shop.till"] == {"shop.prices"} and graph["shop"] == {"shop.till"}
    assert cycles(graph) == []


def test_the_checker_reports_an_import_up_the_layers_through_a_re_exporting_package(tmp_path):
    graph = fixture_graph(tmp_path, {
        "gamehost/host/engine/__init__.py": "from gamehost.host.engine.match_engine import MatchEngine\n",
        "gamehost/host/engine/match_engine.py": "class MatchEngine: ...\n",
        "gamehost/host/workers/runner.py": "from gamehost.host.engine import MatchEngine\n",
    })
    assert graph["gamehost.host.workers.runner"] == {"gamehost.host.engine"}
    assert layer_of("gamehost.host.engine") < layer_of("gamehost.host.workers.runner")
