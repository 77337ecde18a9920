"""Advice benchmark: `jvmlab advise LOG` against `jvmlab gc summary LOG` on the same >= 500 MB logs.

    .venv/bin/python bench/advise.py                # what `make bench` runs
    .venv/bin/python bench/advise.py --repeat 5 --size-mb 500

Target (issue 13): advise costs at most 1.5x gc summary on a 500 MB log. Each run is a fresh process
(`--json`, recommended flags not checked: `--no-check`, so no JVM starts); the two commands alternate within
each round, so noise hits them alike; the table shows medians, the ratio and MB/s of each.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import make_logs

JVMLAB = Path(sys.executable).with_name("jvmlab")
TARGET_RATIO = 1.5
MB = make_logs.MB


def measure(argv: list[str]) -> tuple[float, float, int]:
    """(wall s, CPU s, peak RSS bytes) of one fresh process; its output is discarded."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        err = proc.stderr.read().decode() if proc.stderr else ""
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}): {err.strip()}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024


def commands(path: Path) -> dict[str, list[str]]:
    return {
        "gc summary": [str(JVMLAB), "gc", "summary", str(path), "--json"],
        "advise": [str(JVMLAB), "advise", str(path), "--json", "--no-check"],
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument(
        "--logs", default=",".join(make_logs.DEFAULT_LOGS), help=f"of: {', '.join(make_logs.SPECS)}"
    )
    p.add_argument("--size-mb", type=float, default=make_logs.DEFAULT_SIZE_MB)
    p.add_argument("--repeat", type=int, default=3)
    a = p.parse_args()
    print(
        f"{'log':>6} {'MB':>6}  {'command':<11} {'median s':>9} {'CPU s':>7} {'MB/s':>7} {'peak RSS MB':>12}"
    )
    verdicts = []
    for log in [n.strip() for n in a.logs.split(",") if n.strip()]:
        m = make_logs.ensure(log, a.size_mb)
        path, size = Path(m.path), m.size_bytes
        subprocess.run(["cat", str(path)], stdout=subprocess.DEVNULL, check=True)  # warm the page cache
        runs: dict[str, list[tuple[float, float, int]]] = {name: [] for name in commands(path)}
        for _ in range(a.repeat):
            for name, argv in commands(path).items():
                runs[name].append(measure(argv))
        medians = {}
        for name, values in runs.items():
            wall = statistics.median(v[0] for v in values)
            cpu = statistics.median(v[1] for v in values)
            rss = max(v[2] for v in values)
            medians[name] = wall
            print(f"{log:>6} {size / MB:>6.0f}  {name:<11} {wall:>9.2f} {cpu:>7.2f} {size / MB / wall:>7.0f} "
                  f"{rss / MB:>12.0f}")  # fmt: skip
        ratio = medians["advise"] / medians["gc summary"]
        ok = ratio <= TARGET_RATIO
        verdicts.append(ok)
        verdict = "ok" if ok else "MISSED"
        print(f"{log:>6}: advise / gc summary = {ratio:.2f}x (target <= {TARGET_RATIO}x): {verdict}")
    sys.exit(0 if all(verdicts) else 1)


if __name__ == "__main__":
    main()
