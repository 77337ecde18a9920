"""Type stub of the private Rust module `jvmlab._native` (checked by tests/test_native_stub.py)."""

from typing import Any

def parse_logs(sources: list[tuple[str, str | None]]) -> dict[str, Any]:
    """Parse GC log sources (path, zip entry or None), in order, as one log.

    Returns {"columns": {name: numpy array}, "categories": {column: [values]},
    "diagnostics": {...}, "format": {...}}. Categorical columns hold codes, 0 meaning null and
    code k meaning categories[column][k - 1]. Nullable integers use the minimum int64, floats NaN.
    Raises OSError naming the file when it cannot be read.
    """

def build_info() -> dict[str, str]:
    """Version and build profile of the native module."""
