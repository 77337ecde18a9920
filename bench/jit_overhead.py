"""JIT telemetry overhead: chunkgen's chunks/s with [telemetry] jit = "compilations" against without.

    .venv/bin/python bench/jit_overhead.py                  # what `make bench` runs
    .venv/bin/python bench/jit_overhead.py --rounds 10 --radius 20 --java /path/to/bin/java

Target (issue 15): at most 2 % fewer chunks/s with the compilation log on. Each run is a fresh JVM generating
the same world; the two kinds alternate in ABBA rounds (so drift hits them alike), and the overhead is
jvmlab's own relative change (mean of the runs, bootstrap 95 % CI, Welch's p) of the average rate chunkgen
prints, with the medians beside it. The "compilations" runs get exactly the flags a trial gets
(execution/telemetry.py: the jit+compilation, codecache and pagesize log to a file) and have their code
cache sampled once a second through the attach socket, as a trial does from readiness on.
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import _overhead

from jvmlab.errors import JvmLabError
from jvmlab.experiment.execution.telemetry import jit_log_flags
from jvmlab.jdk.attach import diagnostic
from jvmlab.workloads import classes_dir

TARGET_PERCENT = 2.0
RATE = re.compile(r"Task finished: (\d+) chunks in ([0-9.]+) s \(average rate ([0-9.]+) cps\)")
SAMPLE_S = 1.0


def sample_code_cache(pid: int, stop: threading.Event, counted: list[int]) -> None:
    """What a trial's JitWatch does: Compiler.codecache once a second until the JVM ends."""
    while not stop.wait(SAMPLE_S):
        try:
            diagnostic(pid, "Compiler.codecache", tool_fallback=False)
            counted[0] += 1
        except JvmLabError:
            return


def run(java: str, major: int, radius: int, logged: bool, work: Path) -> tuple[float, int]:
    """(chunks/s, compilation log lines) of one fresh chunkgen JVM."""
    world = work / "world"
    shutil.rmtree(world, ignore_errors=True)
    log = work / "jit.log"
    log.unlink(missing_ok=True)
    flags = jit_log_flags("compilations", major, work) if logged else []
    argv = [java, *flags, "-cp", str(classes_dir()), "jvmlab.workloads.ChunkGen", "--radius", str(radius)]
    argv += ["--threads", "2", "--out", str(world)]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stop, samples = threading.Event(), [0]
    sampler = threading.Thread(target=sample_code_cache, args=(proc.pid, stop, samples), daemon=True)
    if logged:
        sampler.start()
    try:
        out, err = proc.communicate(timeout=600)
    finally:
        stop.set()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    if logged:
        sampler.join(timeout=15)
    m = RATE.search(out)
    if proc.returncode != 0 or m is None:
        raise SystemExit(f"chunkgen failed ({proc.returncode}): {err.strip()[-400:]}")
    lines = log.read_text().count("[jit,compilation]") if logged and log.is_file() else 0
    return float(m.group(3)), lines


def java_major(java: str) -> int:
    said = subprocess.run([java, "-version"], capture_output=True, text=True, check=False).stderr
    m = re.search(r'version "(1\.)?(\d+)', said)
    return int(m.group(2)) if m else 17


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=6, help="ABBA rounds: 2 runs of each kind per round")
    p.add_argument("--radius", type=int, default=20, help="chunkgen's world radius (20: 1,681 chunks)")
    p.add_argument("--java", default="java")
    a = p.parse_args()
    major = java_major(a.java)
    lines: list[int] = []
    with tempfile.TemporaryDirectory(prefix="jvmlab-bench-") as tmp:
        work = Path(tmp)
        run(a.java, major, 4, False, work)  # warm the page cache and the file system

        def one(logged: bool) -> float:
            rate, n = run(a.java, major, a.radius, logged, work)
            if logged:
                lines.append(n)
            return rate

        rates = _overhead.abba(a.rounds, one, "jit log")
    code = _overhead.report(rates, "jit log", TARGET_PERCENT, f"JDK {major}\n")
    print(f"compilation log lines per run (median): {statistics.median(lines):,.0f}")
    sys.exit(code)


if __name__ == "__main__":
    main()
