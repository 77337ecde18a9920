"""The package from a fresh interpreter: the library API works without the CLI, and `jvmlab load` imports
nothing it does not use (its start-up is CPU taken from the JVM it measures: docs/load-driver.md)."""

from __future__ import annotations

import subprocess
import sys


def run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_library_api_from_a_bare_import(tmp_path):
    log = tmp_path / "gc.log"
    log.write_text("[0.295s][info][gc] GC(0) Pause Young (Allocation Failure) 69M->21M(247M) 108.188ms\n")
    code = f"import jvmlab; print(jvmlab.gclog.load({str(log)!r}).events.height, jvmlab.__version__)"
    assert run(code).split()[0] == "1"


def test_jvmlab_load_imports_no_heavy_module():
    code = (
        "import sys; import jvmlab.cli.main, jvmlab.cli.load_run, jvmlab.load.driver; "
        "print([m for m in ('sqlalchemy', 'polars', 'pydantic', 'rich', 'numpy', 'jvmlab.gclog') "
        "if m in sys.modules])"
    )
    assert run(code) == "[]"
