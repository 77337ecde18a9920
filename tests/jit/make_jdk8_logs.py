"""Makes the real JDK 8 compilation logs of tests/jit/logs (`jdk8u504-*`) on OpenJDK 8u504 (`/opt/jdk8`,
the Debian sid chroot of tools/jdk8-chroot.sh; JDK 8 is not in CI, so the outputs are committed) and
writes their entries into MANIFEST.toml, keeping the other files' entries.

    .venv/bin/python tests/jit/make_jdk8_logs.py        # needs `make java` (build/java); a few seconds

Each file is one JVM's whole output (no trimming: text and XML of the same run stay comparable); the runs
are the bundled world generator, the inlining pair the smallest world (`--radius 0 --threads 1`), so the
files stay small. `jdk8u504-telemetry-*` are written with the flags jvmlab gives JDK 8 for
`[telemetry] jit` (jit_log_flags): LogVMOutput's XML `jit.log`.
"""

from __future__ import annotations

import gzip
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(Path(__file__).parent))

from make_logs import json_str  # noqa: E402

from jvmlab.experiment.execution.telemetry import jit_log_flags  # noqa: E402

LOGS = Path(__file__).with_name("logs")
CLASSES = ROOT / "build" / "java"
JAVA8 = Path(os.environ.get("JAVA8", "/opt/jdk8/bin/java"))
PREFIX = "jdk8u504-"
WORLD = ["jvmlab.workloads.ChunkGen", "--radius", "2", "--threads", "2"]
SMALL_WORLD = ["jvmlab.workloads.ChunkGen", "--radius", "0", "--threads", "1"]
XML = ["-XX:+UnlockDiagnosticVMOptions", "-XX:+LogCompilation"]
INLINING = [*XML, "-XX:LogFile=inlining.xml", "-XX:+PrintCompilation", "-XX:+PrintInlining"]
# A code cache this small fills during the run on 8u504 (1000k-1300k: the compilers do not even start;
# 2000k: never full); the workload then dies of an InternalError (exit status 1).
FULL = ["-XX:InitialCodeCacheSize=1600k", "-XX:ReservedCodeCacheSize=1600k", "-XX:+PrintCompilation"]
TIMEOUT_S = 120


def run(flags: list[str], work: Path, workload: list[str], stdout: Path | None = None) -> int:
    argv = [str(JAVA8), *flags, "-cp", str(CLASSES), *workload, "--out", str(work / "world")]
    with open(stdout or os.devnull, "wb") as out:
        return subprocess.run(
            argv, stdout=out, stderr=subprocess.STDOUT, timeout=TIMEOUT_S, cwd=work
        ).returncode


def gzip_to(src: Path, dst: Path) -> None:
    with open(src, "rb") as f, open(dst, "wb") as raw, gzip.GzipFile("", "wb", 9, raw, mtime=0) as g:
        shutil.copyfileobj(f, g)


def make(work: Path) -> list[dict[str, str]]:
    made: list[dict[str, str]] = []

    def keep(src: Path, name: str, flags: list[str], workload: list[str], what: str) -> None:
        if name.endswith(".gz"):
            gzip_to(src, LOGS / name)
        else:
            shutil.copy(src, LOGS / name)
        shown = " ".join(flags).replace(str(work), "DIR")
        made.append(
            {"file": name, "jdk": "8", "java": str(JAVA8), "flags": shown,
             "command": " ".join(workload) + " --out DIR", "what": what}
        )  # fmt: skip

    flags = ["-XX:+PrintCompilation"]
    run(flags, work, WORLD, work / "print.txt")
    keep(work / "print.txt", f"{PREFIX}print.txt.gz", flags, WORLD, "stdout, gzipped")
    run(INLINING, work, SMALL_WORLD, work / "inlining.txt")
    keep(work / "inlining.txt", f"{PREFIX}inlining.txt.gz", INLINING, SMALL_WORLD,
         "stdout, gzipped: PrintCompilation and PrintInlining")  # fmt: skip
    keep(work / "inlining.xml", f"{PREFIX}inlining.xml.gz", INLINING, SMALL_WORLD,
         "LogCompilation XML of the same run, gzipped")  # fmt: skip
    flags = ["-XX:-TieredCompilation", "-XX:+UnlockDiagnosticVMOptions", "-XX:+PrintCompilation",
             "-XX:+PrintInlining"]  # fmt: skip
    run(flags, work, SMALL_WORLD, work / "untiered.txt")
    keep(work / "untiered.txt", f"{PREFIX}untiered-inlining.txt.gz", flags, SMALL_WORLD,
         "stdout, gzipped: C2 alone (28 columns before a depth-1 call site)")  # fmt: skip
    flags = ["-XX:+PrintCompilation", "-XX:+PrintCodeCacheOnCompilation", "-XX:+PrintCodeCache"]
    run(flags, work, WORLD, work / "codeheaps.txt")
    keep(work / "codeheaps.txt", f"{PREFIX}codeheaps.txt.gz", flags, WORLD,
         "stdout, gzipped: the code cache after each compilation")  # fmt: skip
    rc = run(FULL, work, WORLD, work / "full.txt")
    keep(work / "full.txt", f"{PREFIX}codecache-full.txt", FULL, WORLD,
         f"stdout; CodeCache is full (exit status {rc})")  # fmt: skip
    for level in ("summary", "compilations"):
        flags = jit_log_flags(level, 8, work)
        run(flags, work, WORLD)
        keep(work / "jit.log", f"{PREFIX}telemetry-{level}.xml.gz", flags, WORLD,
             f'LogVMOutput XML, gzipped: [telemetry] jit = "{level}" on JDK 8')  # fmt: skip
    flags = [f for f in jit_log_flags("summary", 8, work) if f != "-XX:+PrintCompilation"]
    run(flags, work, WORLD)
    keep(work / "jit.log", f"{PREFIX}codecache-reports-only.xml.gz", flags, WORLD,
         "LogVMOutput XML, gzipped: code cache reports without compilation lines, which carry no time"
         " (jvmlab's JDK 8 jit = \"summary\" before PrintCompilation was added)")  # fmt: skip
    return made


def main() -> None:
    if not CLASSES.joinpath("jvmlab/workloads/ChunkGen.class").exists():
        sys.exit("build/java has no ChunkGen: run `make java` first")
    with tempfile.TemporaryDirectory(dir="/tmp") as tmp:  # under /tmp: the chroot sees the same path
        made = make(Path(tmp))
    kept = tomllib.loads((LOGS / "MANIFEST.toml").read_text())
    lines = ["# Written by tests/jit/make_logs.py: what made each log of this folder.", ""]
    entries = [{"file": f, **v} for f, v in kept.items() if not f.startswith(PREFIX)] + made
    for e in entries:
        lines += [f'["{e["file"]}"]', *(f"{k} = {json_str(v)}" for k, v in e.items() if k != "file"), ""]
    (LOGS / "MANIFEST.toml").write_text("\n".join(lines))


if __name__ == "__main__":
    main()
