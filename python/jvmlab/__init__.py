"""jvmlab: a lab for quantified JVM tuning.

Library API (no CLI needed)::

    import jvmlab
    log = jvmlab.gclog.load("gc.log")
    log.events        # polars DataFrame, one row per GC pause / concurrent phase / safepoint
    log.diagnostics   # lines matched / ignored / unknown, samples, time going backwards
    log.summary()     # GC counts, rates, pause percentiles, overhead, allocation rate, ...
"""

from jvmlab import gclog
from jvmlab.errors import InputError, JvmLabError

__version__ = "0.1.0"

__all__ = ["InputError", "JvmLabError", "__version__", "gclog"]
