"""The `.pyi` stub of the private Rust module matches the module, and the module is a release build."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import jvmlab
from jvmlab import _native

STUB = Path(jvmlab.__file__).with_name("_native.pyi")
CARGO_TOML = Path(__file__).parents[1] / "native" / "Cargo.toml"

# What the stub lists that a build may leave out, by the Cargo feature that builds it in.
OPTIONAL = {"LocalServer": "test-server"}


def stubbed() -> dict[str, ast.FunctionDef | ast.ClassDef]:
    tree = ast.parse(STUB.read_text())
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef | ast.ClassDef)}


def test_stub_lists_exactly_the_module_functions_and_classes():
    exported = {n for n in dir(_native) if not n.startswith("_") and callable(getattr(_native, n))}
    built = set(_native.build_info()["features"])
    # An optional name may be missing only when the module says its feature was left out, and then must be.
    left_out = {name for name, feature in OPTIONAL.items() if feature not in built}
    assert set(stubbed()) - left_out == exported


def test_optional_names_say_so_in_the_stub():
    features = tomllib.loads(CARGO_TOML.read_text())["features"]
    assert set(_native.build_info()["features"]) <= set(features)
    nodes = stubbed()
    for name, feature in OPTIONAL.items():
        assert feature in features, f"{feature}: not a feature of native/Cargo.toml"
        assert f"`{feature}` Cargo feature" in (ast.get_docstring(nodes[name]) or ""), name


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
