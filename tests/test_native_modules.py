"""The Rust crate's modules as imports (docs/architecture.md, native part): no two modules use each other,
directly or around a loop, and the format parsers share only the lower modules, never the dispatch above
them nor one another. Read from native/src (every `use`, every `crate::` / `super::` path, test modules
too), so a new file is held to the same rules.

A module is a file, or a directory (its mod.rs and files): a directory's files may use one another's items
through its mod.rs, which declares them, but between the files of one directory and between the crate's
top-level modules no loop is allowed."""

from __future__ import annotations

import re
from collections import defaultdict
from functools import cache
from pathlib import Path

SRC = Path(__file__).parents[1] / "native" / "src"
ROOT = "<crate root>"

# The format parsers, the dispatch above them, and what the formats may share below them.
FORMATS = {"unified", "legacy", "openj9"}
DISPATCH = "parser"
SHARED = {"table", "columns", "names", "numbers", "decorators", "diagnostics"}

Module = tuple[str, ...]

_RAW_STRING = re.compile(r'b?r(#*)"')
_CHAR = re.compile(r"'(?:\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]+\}|.)|[^\\'\n])'")
_INLINE_MOD = re.compile(r"\bmod\s+(\w+)\s*\{")
_DECLARED_MOD = re.compile(r"\bmod\s+(\w+)\s*[;{]")
_USE = re.compile(r"\buse\s+([^;]+);")
_PATH = re.compile(r"\b(?:crate|super|self)(?:\s*::\s*\w+)+")
_BARE_PATH = re.compile(r"(?<![\w:])(\w+)\s*::\s*\w+")
_TYPE = re.compile(r"\b(?:struct|enum|trait|type)\s+(\w+)")
_INHERENT_IMPL = re.compile(r"\bimpl\s*(?:<[^>{]*>)?\s*(\w+)\s*(?:<[^>{]*>)?\s*\{")


def strip_comments_and_literals(src: str) -> str:
    """The code without comments, string and char literals (their braces and paths are no code)."""
    out: list[str] = []
    i, n = 0, len(src)
    while i < n:
        ident_before = i > 0 and (src[i - 1].isalnum() or src[i - 1] == "_")
        if src.startswith("//", i):
            end = src.find("\n", i)
            i = n if end < 0 else end
            continue
        if src.startswith("/*", i):
            depth = 0
            while i < n:
                if src.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif src.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                    if depth == 0:
                        break
                else:
                    i += 1
            out.append(" ")
            continue
        raw = _RAW_STRING.match(src, i)
        if raw and not ident_before:
            end = src.find('"' + raw.group(1), raw.end())
            i = end + 1 + len(raw.group(1))
            out.append('""')
            continue
        if src[i] == '"' or (src.startswith('b"', i) and not ident_before):
            i = src.index('"', i) + 1
            while src[i] != '"':
                i += 2 if src[i] == "\\" else 1
            i += 1
            out.append('""')
            continue
        char = _CHAR.match(src, i) if src[i] == "'" else None
        if char:
            i = char.end()
            out.append("' '")
            continue
        out.append(src[i])
        i += 1
    return "".join(out)


def expand_use(tree: str) -> list[list[str]]:
    """`a::{b, c::{d, self}}` -> [[a, b], [a, c, d], [a, c]]."""
    tree = re.sub(r"\s+", "", re.sub(r"\s+as\s+\w+", "", tree))
    if "{" not in tree:
        return [[s for s in tree.split("::") if s and s != "*"]]
    head, _, body = tree.partition("{")
    body = body[: body.rindex("}")]
    parts, depth, start = [], 0, 0
    for k, ch in enumerate(body):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(body[start:k])
            start = k + 1
    parts.append(body[start:])
    prefix = [s for s in head.split("::") if s]
    paths = []
    for part in filter(None, parts):
        for sub in expand_use(part):
            paths.append(prefix + [s for s in sub if s != "self"])
    return paths


def file_module(path: Path, src: Path = SRC) -> Module:
    parts = path.relative_to(src).with_suffix("").parts
    if parts in (("lib",), ("main",)):
        return ()
    return parts[:-1] if parts[-1] == "mod" else parts


def inline_spans(code: str) -> list[tuple[int, int, Module]]:
    """(start, end, chain of inline module names) of every `mod name { ... }` in a file."""
    opening = {m.end() - 1: m.group(1) for m in _INLINE_MOD.finditer(code)}
    stack: list[tuple[str, int, int]] = []
    spans, depth = [], 0
    for i, ch in enumerate(code):
        if ch == "{":
            depth += 1
            if i in opening:
                stack.append((opening[i], depth, i))
        elif ch == "}":
            if stack and stack[-1][1] == depth:
                chain = tuple(name for name, _, _ in stack)
                spans.append((stack.pop()[2], i, chain))
            depth -= 1
    return spans


def innermost(spans: list[tuple[int, int, Module]], pos: int) -> Module:
    return max((chain for start, end, chain in spans if start < pos < end), key=len, default=())


@cache
def read_crate(src: Path) -> dict[Module, str]:
    """Module of each file -> its code without comments and literals."""
    return {file_module(p, src): strip_comments_and_literals(p.read_text()) for p in src.rglob("*.rs")}


@cache
def module_graph(src: Path = SRC) -> dict[Module, set[Module]]:
    """File module -> the file modules it uses (an inline module counts as its file's)."""
    files = read_crate(src)
    spans = {module: inline_spans(code) for module, code in files.items()}
    known = set(files) | {module + chain for module in files for _, _, chain in spans[module]}
    children: dict[Module, set[str]] = defaultdict(set)
    for module, code in files.items():
        for m in _DECLARED_MOD.finditer(code):
            children[module + innermost(spans[module], m.start())].add(m.group(1))

    def owner(target: Module) -> Module | None:
        while target and target not in known:
            target = target[:-1]
        if target in files:
            return target
        while target not in files:  # an inline module: its file's
            target = target[:-1]
        return target

    def resolve(here: Module, segments: list[str]) -> Module | None:
        if not segments:
            return None
        first, rest = segments[0], segments[1:]
        if first == "crate":
            return tuple(rest)
        if first == "self":
            return here + tuple(rest)
        if first == "super":
            base = here[:-1]
            while rest and rest[0] == "super":
                base, rest = base[:-1], rest[1:]
            return base + tuple(rest)
        if first in children[here]:
            return here + tuple(segments)
        return None  # another crate, or a name in scope

    graph: dict[Module, set[Module]] = {m: set() for m in files}
    for module, code in files.items():
        found: list[tuple[int, list[str]]] = []
        for m in _USE.finditer(code):
            found += [(m.start(), path) for path in expand_use(m.group(1))]
        for m in _PATH.finditer(code):
            found.append((m.start(), re.split(r"\s*::\s*", m.group(0))))
        for m in _BARE_PATH.finditer(code):
            found.append((m.start(), re.split(r"\s*::\s*", m.group(0))))
        for pos, segments in found:
            target = resolve(module + innermost(spans[module], pos), segments)
            if target is None:
                continue
            used = owner(target)
            if used is not None and used != module:
                graph[module].add(used)
    return graph


def loops(edges: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(component)

    for v in list(edges):
        if v not in index:
            visit(v)
    return found


def name(module: Module) -> str:
    return "::".join(module) or ROOT


def top_level_edges(src: Path = SRC) -> dict[str, set[str]]:
    edges: dict[str, set[str]] = defaultdict(set)
    for module, used in module_graph(src).items():
        for target in used:
            a, b = name(module[:1]), name(target[:1])
            if a != b:
                edges[a].add(b)
    return edges


def test_no_loop_between_the_crates_top_level_modules():
    assert loops(top_level_edges()) == []


def test_no_loop_between_the_files_of_a_directory():
    found = []
    graph = module_graph()
    directories = {m[:-1] for m in graph if m}
    for directory in directories:
        depth = len(directory)
        edges: dict[str, set[str]] = defaultdict(set)
        for module, used in graph.items():
            if module[:depth] != directory or len(module) == depth:
                continue
            for target in used:
                if target[:depth] == directory and len(target) > depth and target[depth] != module[depth]:
                    edges[name(module[: depth + 1])].add(name(target[: depth + 1]))
        found += loops(edges)
    assert found == []


def methods_away_from_their_type(src: Path = SRC) -> list[str]:
    files = read_crate(src)
    defined: dict[str, set[str]] = defaultdict(set)
    for module, code in files.items():
        for m in _TYPE.finditer(code):
            defined[m.group(1)].add(name(module[:1]))
    wrong = [
        f"{name(module)} has methods of {m.group(1)} ({', '.join(sorted(defined[m.group(1)]))})"
        for module, code in files.items()
        for m in _INHERENT_IMPL.finditer(code)
        if defined[m.group(1)] and name(module[:1]) not in defined[m.group(1)]
    ]
    return wrong


def test_methods_live_in_their_types_module():
    """An `impl Type { ... }` away from the type's top-level module is a use the paths do not show (the
    type's methods call into the module that holds them)."""
    assert methods_away_from_their_type() == []


def test_format_parsers_share_only_the_lower_modules():
    edges = top_level_edges()
    wrong = [f"{f} uses {t}" for f in FORMATS for t in edges[f] if t not in SHARED]
    wrong += [f"{s} uses {t}" for s in SHARED for t in edges[s] if t in FORMATS | {DISPATCH}]
    assert wrong == []
    # the dispatch is above every format, and each format builds the shared table
    assert edges[DISPATCH] >= FORMATS | {"table"}
    assert all("table" in edges[f] for f in FORMATS)


def test_the_reader_sees_uses_of_every_form():
    code = strip_comments_and_literals(
        'use crate::{a::b, c::{d, self}};\n// use crate::x;\nlet s = "crate::y";\nmod t { use super::*; }\n'
        "let q = crate::e::f(1); let c = '{';\n"
    )
    assert "crate::x" not in code and "crate::y" not in code and "{'" not in code
    assert expand_use("crate::{a::b, c::{d, self}}") == [
        ["crate", "a", "b"],
        ["crate", "c", "d"],
        ["crate", "c"],
    ]
    assert inline_spans(code)[0][2] == ("t",)
    assert loops({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]
    # the graph holds the known directions
    edges = top_level_edges()
    assert "columns" in edges["summary"] and "summary" not in edges["columns"]
    assert ROOT in edges["python"] and DISPATCH in edges[ROOT]
