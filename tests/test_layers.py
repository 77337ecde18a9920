"""The architecture as imports (the table of jvmlab/layers.py, drawn in docs/architecture.md): lower layers
never import higher ones, no two modules or packages import each other, the three parts of
`jvmlab.experiment` keep their directions, and views never read the store or parse a log. Read from the
source (every import, deferred ones too), so a new module is held to the same rules."""

from __future__ import annotations

import ast
from pathlib import Path

import jvmlab
from jvmlab.layers import RANKS, diagram

PACKAGE = Path(jvmlab.__file__).parent


def imports() -> dict[str, set[tuple[str, str | None]]]:
    """module -> {(imported module, imported name or None)} for every jvmlab import of every module."""
    found: dict[str, set[tuple[str, str | None]]] = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        edges: set[tuple[str, str | None]] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                edges |= {(a.name, None) for a in node.names if a.name.startswith("jvmlab.")}
            elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("jvmlab"):
                edges |= {(node.module, a.name) for a in node.names}
        found[module] = edges
    return found


def part(module: str, depth: int = 1) -> str:
    return ".".join(module.split(".")[1 : 1 + depth])


def test_lower_layers_never_import_higher_ones():
    wrong = []
    for module, edges in imports().items():
        if module == "jvmlab" or part(module) not in RANKS:
            continue
        for target, _ in edges:
            if target in ("jvmlab", "jvmlab._native") or part(target) not in RANKS:
                continue
            if RANKS[part(target)] > RANKS[part(module)]:
                wrong.append(f"{module} imports {target}")
    assert not wrong
    assert set(RANKS) >= {part(m) for m in imports() if m.count(".") >= 1 and part(m) != "_native"}


def test_execution_storage_and_analysis_keep_their_directions():
    forbidden = {
        "experiment.storage": ("experiment.execution", "experiment.analysis", "experiment.spec"),
        "experiment.execution": ("experiment.analysis",),
        "experiment.analysis": ("experiment.execution",),
    }
    wrong = [
        f"{module} imports {target}"
        for module, edges in imports().items()
        for target, _ in edges
        for source, targets in forbidden.items()
        if part(module, 2) == source and part(target, 2) in targets
    ]
    assert not wrong


def test_views_neither_read_the_store_nor_parse_logs():
    reading = {
        ("jvmlab.experiment.storage", "Store"),
        ("jvmlab.experiment.storage.store", "Store"),
        ("jvmlab.gclog", "load"),
        ("jvmlab.gclog", "load_many"),
        ("jvmlab.metrics", "summarize"),
        ("jvmlab.metrics", "summarize_path"),
        ("jvmlab.metrics.summary", "summarize"),
        ("jvmlab.metrics.summary", "summarize_path"),
    }
    wrong = [
        f"{module} imports {name} from {target}"
        for module, edges in imports().items()
        if part(module) == "report"
        for target, name in edges
        if (target, name) in reading or part(target, 2) == "experiment.execution"
    ]
    assert not wrong


def test_gc_log_views_do_not_know_experiments():
    wrong = [
        f"{module} imports {target}"
        for module, edges in imports().items()
        if part(module, 2) == "report.gclog"
        for target, _ in edges
        if part(target, 2) == "report.experiment" or part(target) == "experiment"
    ]
    assert not wrong


def module_graph() -> dict[str, set[str]]:
    """module -> the jvmlab modules it imports (a `from a import b` of a module b counts as b; imports only
    for annotations, under `if TYPE_CHECKING:`, do not; a module's imports of its own packages do not)."""
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path

    def module_of(dotted: str) -> str | None:
        parts = dotted.split(".")
        while parts and ".".join(parts) not in modules:
            parts.pop()
        return ".".join(parts) if parts else None

    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        tree = ast.parse(path.read_text())
        annotations_only = {
            id(n)
            for block in ast.walk(tree)
            if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
            for n in ast.walk(block)
        }
        targets: set[str | None] = set()
        for node in ast.walk(tree):
            if id(node) in annotations_only:
                continue
            if isinstance(node, ast.Import):
                targets |= {module_of(a.name) for a in node.names if a.name.startswith("jvmlab.")}
            elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("jvmlab"):
                targets |= {module_of(f"{node.module}.{a.name}") for a in node.names}
        graph[module] = {
            t for t in targets if t and t != module and not module.startswith(t + ".") and t != "jvmlab"
        }
    return graph


def loops(graph: dict[str, set[str]]) -> list[set[str]]:
    """The groups of nodes that reach each other (strongly connected components of two or more)."""
    reach = {node: {node} | targets for node, targets in graph.items()}
    changed = True
    while changed:  # transitive closure; a few hundred modules
        changed = False
        for seen in reach.values():
            more = set().union(*(reach.get(t, {t}) for t in seen)) - seen
            if more:
                seen |= more
                changed = True
    groups = {frozenset(n for n in reach[node] if node in reach.get(n, ())) for node in graph}
    return [set(g) for g in groups if len(g) > 1]


def test_no_two_modules_import_each_other_lazily_or_not():
    found = loops(module_graph())
    assert not found, "modules that import each other (move the shared piece into a lower module): " + str(
        [sorted(g) for g in found]
    )


def test_no_two_packages_import_each_other():
    graph = module_graph()
    packages: dict[str, set[str]] = {}
    for module, targets in graph.items():
        packages.setdefault(part(module), set()).update(part(t) for t in targets if part(t) != part(module))
    found = loops(packages)
    assert not found, str([sorted(g) for g in found])


def test_the_loop_finder_finds_a_loop():
    assert loops({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]
    assert loops({"a": {"b"}, "b": set()}) == []


def test_the_architecture_doc_draws_the_layer_table():
    doc = (PACKAGE.parents[1] / "docs" / "architecture.md").read_text()
    drawn = doc.split("## Layers", 1)[1].split("```", 2)[1].strip("\n")
    assert drawn == diagram(), "docs/architecture.md: paste jvmlab.layers.diagram() under '## Layers'"
