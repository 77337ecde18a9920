"""jvmlab: a lab for quantified JVM tuning.

Library API (no CLI needed)::

    import jvmlab
    log = jvmlab.gclog.load("gc.log")
    log.events        # polars DataFrame, one row per GC pause / concurrent phase / safepoint
    log.diagnostics   # lines matched / ignored / unknown, samples, time going backwards
    jvmlab.metrics.summarize(log)   # GC counts, rates, pause percentiles, overhead, allocation rate, ...
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from jvmlab.errors import InputError, JvmLabError

if TYPE_CHECKING:
    from jvmlab import gclog, metrics

__version__ = "0.1.0"

__all__ = ["InputError", "JvmLabError", "__version__", "gclog", "metrics"]
LAZY = ("gclog", "metrics")


def __getattr__(name: str) -> Any:
    """`jvmlab.gclog` and `jvmlab.metrics` on first use: a command that reads no GC log (`jvmlab load`) does
    not pay for them."""
    if name in LAZY:
        return importlib.import_module(f"jvmlab.{name}")  # sets the attribute: called once
    raise AttributeError(f"module 'jvmlab' has no attribute {name!r}")
