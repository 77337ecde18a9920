"""The `.pyi` stub of the private Rust module matches the module, and the module is a release build."""

from __future__ import annotations

import ast
from pathlib import Path

import jvmlab
from jvmlab import _native

STUB = Path(jvmlab.__file__).with_name("_native.pyi")


def test_stub_lists_exactly_the_module_functions_and_classes():
    tree = ast.parse(STUB.read_text())
    stubbed = {n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.ClassDef)}
    exported = {n for n in dir(_native) if not n.startswith("_") and callable(getattr(_native, n))}
    assert stubbed == exported


def test_release_build():
    assert _native.build_info()["profile"] == "release"


def test_parse_logs_returns_the_documented_shape(tmp_path):
    log = tmp_path / "gc.log"
    log.write_text("[0.295s][info][gc] GC(0) Pause Young (Allocation Failure) 69M->21M(247M) 108.188ms\n")
    raw = _native.parse_logs([(str(log), None)])
    assert set(raw) == {"columns", "categories", "diagnostics", "format"}
    assert raw["columns"]["pause_ms"].tolist() == [108.188]
    kind = raw["columns"]["kind"][0]
    assert raw["categories"]["kind"][kind - 1] == "young"
