"""Profiling overhead: chunkgen's chunks/s with async-profiler sampling CPU every 10 ms against without.

    .venv/bin/python bench/profile_overhead.py                  # what `make bench` runs
    .venv/bin/python bench/profile_overhead.py --rounds 10 --radius 20 --java /path/to/bin/java

Target (issue 14): at most 3 % fewer chunks/s with the profiler. Each run is a fresh JVM generating the same
world; the two kinds alternate in ABBA rounds (so drift hits them alike), and the overhead is jvmlab's own
relative change (mean of the runs, bootstrap 95 % CI, Welch's p) of the average rate chunkgen prints, with
the medians beside it. The profiler is loaded as -agentpath from the start, as `jvmlab profile -- java`
does; an experiment attaches it at ready, which costs the same per sample.
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import _overhead

from jvmlab.profile.agent import agentpath, sampling
from jvmlab.workloads import classes_dir

TARGET_PERCENT = 3.0
RATE = re.compile(r"Task finished: (\d+) chunks in ([0-9.]+) s \(average rate ([0-9.]+) cps\)")


def run(java: str, radius: int, profiled: bool, work: Path) -> tuple[float, int]:
    """(chunks/s, samples recorded) of one fresh chunkgen JVM."""
    world = work / "world"
    shutil.rmtree(world, ignore_errors=True)
    output = work / "profile.collapsed"
    output.unlink(missing_ok=True)
    agent = [agentpath(sampling("cpu", "10ms"), output)] if profiled else []
    argv = [java, *agent, "-cp", str(classes_dir()), "jvmlab.workloads.ChunkGen", "--radius", str(radius)]
    argv += ["--threads", "2", "--out", str(world)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600, check=False)
    m = RATE.search(done.stdout)
    if done.returncode != 0 or m is None:
        raise SystemExit(f"chunkgen failed ({done.returncode}): {done.stderr.strip()[-400:]}")
    samples = 0
    if profiled:
        samples = sum(int(line.rsplit(" ", 1)[1]) for line in output.read_text().splitlines() if line.strip())
    return float(m.group(3)), samples


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=6, help="ABBA rounds: 2 runs of each kind per round")
    p.add_argument("--radius", type=int, default=20, help="chunkgen's world radius (20: 1,681 chunks)")
    p.add_argument("--java", default="java")
    a = p.parse_args()
    samples: list[int] = []
    with tempfile.TemporaryDirectory(prefix="jvmlab-bench-") as tmp:
        work = Path(tmp)
        run(a.java, 4, False, work)  # warm the page cache and the file system

        def one(profiled: bool) -> float:
            rate, n = run(a.java, a.radius, profiled, work)
            if profiled:
                samples.append(n)
            return rate

        rates = _overhead.abba(a.rounds, one, "profiled")
    code = _overhead.report(rates, "profiled", TARGET_PERCENT)
    print(f"samples per profiled run (median): {statistics.median(samples):,.0f}")
    sys.exit(code)


if __name__ == "__main__":
    main()
