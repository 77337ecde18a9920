"""What a JDK has is known in one place each (jvmlab.jdk): the collectors and their flags in
jdk/collectors.py, Java version strings read in jdk/versions.py, a JDK's tools found in jdk/tools.py. Read
from the package's source (string constants, regular expressions, paths built with `/ "bin"`), so a second
table, parser or lookup anywhere fails here; each exception is listed with its reason."""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

import pytest

import jvmlab
from jvmlab.jdk.collectors import COLLECTORS, OPENJ9_POLICIES, selecting_flags

# one worker: the package's sources are parsed once (0.7 CPU-s) for the four guards, not once per guard
pytestmark = pytest.mark.xdist_group("knowledge-base")

PACKAGE = Path(jvmlab.__file__).parent
COLLECTORS_MODULE = PACKAGE / "jdk" / "collectors.py"
VERSIONS_MODULE = PACKAGE / "jdk" / "versions.py"
TOOLS_MODULE = PACKAGE / "jdk" / "tools.py"
# Collector names that other modules may compare against one at a time; three or more together in one
# literal are a list of collectors, which is the table's.
NAMES_IN_A_LIST = 3
# Lists of collector names that are not what the collectors are: module -> why.
NAME_LISTS_ALLOWED = {
    "tune/space.py": "the order of tune's collector choices (a search's first points try the first ones)",
}
# Pieces of a pattern that read a Java version: the legacy `1.` prefix, JDK 8's `_<update>` and `-b<build>`,
# the `JRE (...)` of a VM info string, the `JDK ...` line of VM.version.
VERSION_PATTERN_PIECES = ("1\\.", "_(\\d", "-b(\\d", "JRE \\(", "^JDK ")
REGEX_CALLS = ("compile", "match", "search", "fullmatch", "findall", "finditer", "split", "sub")


def sources() -> Iterator[tuple[Path, ast.AST]]:
    yield from _parsed(tuple(sorted(PACKAGE.rglob("*.py"))))


@functools.cache
def _parsed(paths: tuple[Path, ...]) -> tuple[tuple[Path, ast.AST], ...]:
    """Parsed once per process: the guards only read the trees."""
    return tuple((path, ast.parse(path.read_text())) for path in paths)


@functools.cache
def _collector_flags() -> frozenset[str]:
    return frozenset({*selecting_flags(), *(c.mode_flag for c in COLLECTORS if c.mode_flag)})


def strings(tree: ast.AST) -> Iterator[ast.Constant]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node


def where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(PACKAGE)}:{getattr(node, 'lineno', '?')}"


def collector_flag_in(text: str) -> bool:
    """`UseG1GC`, `-XX:+UseG1GC`, `+UseG1GC`, `-XX:ShenandoahGCMode=...`: a collector's or a mode's flag as a
    value of its own (prose that mentions one is not)."""
    name = text.removeprefix("-XX:").lstrip("+-").split("=", 1)[0]
    return name in _collector_flags() and (text == name or text.startswith(("-XX:", "+", "-")))


def test_collector_flags_are_written_in_the_collector_table_only():
    found = [
        f"{where(path, s)}: {s.value!r}"
        for path, tree in sources()
        if path != COLLECTORS_MODULE
        for s in strings(tree)
        if collector_flag_in(s.value)
    ]
    assert not found, "read them from jvmlab.jdk.collectors:\n" + "\n".join(found)


def test_no_other_list_of_collectors_or_gc_policies():
    names = {c.name for c in COLLECTORS} | set(OPENJ9_POLICIES)
    found = []
    for path, tree in sources():
        if path == COLLECTORS_MODULE or str(path.relative_to(PACKAGE)) in NAME_LISTS_ALLOWED:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Tuple | ast.List | ast.Set | ast.Dict):
                items = node.keys if isinstance(node, ast.Dict) else node.elts
                named = [i.value for i in items if isinstance(i, ast.Constant) and i.value in names]
                if len(named) >= NAMES_IN_A_LIST:
                    found.append(f"{where(path, node)}: {named}")
    assert not found, "read them from jvmlab.jdk.collectors:\n" + "\n".join(found)


def test_java_versions_are_read_in_versions_only():
    found = []
    for path, tree in sources():
        if path == VERSIONS_MODULE:
            continue
        for node in ast.walk(tree):
            call = isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            if not call or node.func.attr not in REGEX_CALLS or getattr(node.func.value, "id", "") != "re":
                continue
            pattern = node.args[0] if node.args else None
            text = pattern.value if isinstance(pattern, ast.Constant) else None
            if isinstance(text, str) and any(piece in text for piece in VERSION_PATTERN_PIECES):
                found.append(f"{where(path, node)}: {text!r}")
    assert not found, "use jvmlab.jdk.versions (parse_version, version_in_info, ...):\n" + "\n".join(found)


def test_tools_are_found_in_tools_only():
    """No path built as `home / "bin" / ...` (or joinpath/os.path.join with "bin") but in jdk/tools.py."""
    found = []
    for path, tree in sources():
        if path == TOOLS_MODULE:
            continue
        for node in ast.walk(tree):
            parts: list[ast.expr] = []
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
                parts = [node.left, node.right]
            elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") in ("joinpath", "join"):
                parts = list(node.args)
            if any(isinstance(p, ast.Constant) and p.value == "bin" for p in parts):
                found.append(where(path, node))
    assert not found, "use jvmlab.jdk.tools (tool_path, find_tool, home_of_java): " + ", ".join(found)


def test_the_guards_see_what_they_guard(tmp_path):
    """Each check finds a planted duplicate (so none of them passes by looking at nothing)."""
    planted = ast.parse(
        'FLAGS = ("-XX:+UseG1GC", "UseZGC")\nNAMES = ["G1", "ZGC", "gencon"]\n'
        're.match(r"(?:1\\.)?(\\d+)", v)\njava = home / "bin" / "java"\n'
    )
    constants = [s.value for s in strings(planted)]
    assert [c for c in constants if collector_flag_in(c)] == ["-XX:+UseG1GC", "UseZGC"]
    assert not collector_flag_in("consider G1 (-XX:+UseG1GC) for latency")
    assert any(piece in r"(?:1\.)?(\d+)" for piece in VERSION_PATTERN_PIECES)
    divisions = [n for n in ast.walk(planted) if isinstance(n, ast.BinOp)]
    assert any(isinstance(n.right, ast.Constant) and n.right.value == "bin" for n in divisions)
