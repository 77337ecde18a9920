"""One measurement in a fresh process; prints one JSON object on stdout. Started by bench/_measure.py.

    python bench/_child.py read PATH      plain read in 1 MB chunks (I/O baseline), timed in-process
    python bench/_child.py parse PATH     jvmlab._native.parse_logs alone (the event table), timed in-process
    python bench/_child.py stream PATH    jvmlab._native.summarize_logs alone (summary, no table), timed
    python bench/_child.py load PATH      jvmlab.gclog.load(PATH).events (end-to-end fallback, no CLI)
    python bench/_child.py startup        python start-up + import of jvmlab and polars (fixed cost)

Modules are imported inside each mode, so a mode's peak RSS holds only what that mode needs.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from typing import Any

CHUNK = 1 << 20


def read(path: str) -> dict[str, Any]:
    buf = bytearray(CHUNK)
    view, total = memoryview(buf), 0
    t0, c0 = time.perf_counter(), time.process_time()
    with open(path, "rb", buffering=0) as f:
        while n := f.readinto(view):
            total += n
    return {"timed_s": time.perf_counter() - t0, "timed_cpu_s": time.process_time() - c0, "bytes": total}


def lines(path: str) -> dict[str, Any]:
    from jvmlab import _native

    t0, c0 = time.perf_counter(), time.process_time()
    count, total = _native.count_lines([(path, None)])
    timed_s, timed_cpu_s = time.perf_counter() - t0, time.process_time() - c0
    return {"timed_s": timed_s, "timed_cpu_s": timed_cpu_s, "bytes": total, "lines": count}


def parse(path: str) -> dict[str, Any]:
    from jvmlab import _native

    t0, c0 = time.perf_counter(), time.process_time()
    raw = _native.parse_logs([(path, None)])
    timed_s, timed_cpu_s = time.perf_counter() - t0, time.process_time() - c0
    diag = raw["diagnostics"]
    keep = ("lines_total", "lines_matched", "lines_ignored", "lines_unknown", "time_backwards", "bytes_read")
    return {
        "timed_s": timed_s,
        "timed_cpu_s": timed_cpu_s,
        "events": len(raw["columns"]["uptime_s"]),
        "column_bytes": sum(a.nbytes for a in raw["columns"].values()),
        "diagnostics": {k: diag[k] for k in keep},
        "unknown_samples": diag["unknown_samples"][:3],
    }


def stream(path: str) -> dict[str, Any]:
    from jvmlab import _native

    t0, c0 = time.perf_counter(), time.process_time()
    raw = _native.summarize_logs([(path, None)])
    timed_s, timed_cpu_s = time.perf_counter() - t0, time.process_time() - c0
    return {"timed_s": timed_s, "timed_cpu_s": timed_cpu_s, "events": raw["events"]}


def load(path: str) -> dict[str, Any]:
    import jvmlab

    t0 = time.perf_counter()
    log = jvmlab.gclog.load(path)
    return {"timed_s": time.perf_counter() - t0, "events": log.events.height}


def startup() -> dict[str, Any]:
    import polars

    import jvmlab
    from jvmlab import _native

    return {"jvmlab": jvmlab.__version__, "build_info": _native.build_info(), "polars": polars.__version__}


MODES: dict[str, Callable[..., dict[str, Any]]] = {
    "read": read,
    "lines": lines,
    "parse": parse,
    "stream": stream,
    "load": load,
    "startup": startup,
}


def main(argv: list[str]) -> int:
    mode, *rest = argv
    json.dump(MODES[mode](*rest), sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
