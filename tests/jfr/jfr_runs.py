"""The JVM runs behind the JFR cross-check: which JDKs and collectors, how to run them, what they produced.

A run is one JDK x collector: GcChurn for a few seconds with a JFR recording and one -Xlog output per
LogConfig (several unified-logging outputs of one JVM describe the same collections). A case is a run
and one of its logs. Runs are cached in build/jfr-logs/<run>-<hash>/ (the hash covers the command line,
the JDK, the workload's class file and the recording's settings); run.json, written last, marks a
complete run.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import re
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import cache
from pathlib import Path

import polars as pl

import jvmlab
from jvmlab.jdk import Jdk, installed_jdks
from jvmlab.jdk.launch import run_jvm, xlog_file_option
from jvmlab.workloads import GC_CHURN as WORKLOAD_CLASS
from jvmlab.workloads import classes_dir

REPO_ROOT = Path(__file__).resolve().parents[2]
CACHE_DIR = REPO_ROOT / "build" / "jfr-logs"
JDK_MAJORS = (11, 17, 25)
JVM_TIMEOUT_S = 90
JFR_EVENTS = ("jdk.GarbageCollection", "jdk.ExecuteVMOperation")
JFR_SETTINGS = Path(__file__).with_name("gc_events.jfc")
JFR_PRINT_TIMEOUT_S = 60
HEAP_FLAGS = ("-Xmx128m", "-XX:MetaspaceSize=10m")
# 3 s of churn with humongous arrays, metaspace growth (Metadata GC Threshold) and a System.gc() every second.
# Not 2 s: with 29-38 collections a run, one pause timed differently under load weighs too much against the
# shares the checks allow (a clean clone: 29 of 38 JDK 17 Parallel pauses agreed with JFR, 80 % asked).
WORKLOAD_ARGS = (
    "--rate-mb-s=300",
    "--live-mb=24",
    "--humongous=0.02",
    "--classes-per-s=400",
    "--system-gc-s=1",
)


@dataclass(frozen=True)
class Collector:
    name: str
    flags: tuple[str, ...]
    duration_s: int = 3  # GcChurn's run time


@dataclass(frozen=True)
class LogConfig:
    label: str
    selection: str
    decorators: str

    @property
    def logs_zgc_pauses(self) -> bool:
        """ZGC logs its pauses at gc+phases (info), which `gc` alone does not select."""
        return "gc*" in self.selection or "gc+phases" in self.selection


SERIAL = Collector("serial", ("-XX:+UseSerialGC",))
PARALLEL = Collector("parallel", ("-XX:+UseParallelGC",))
G1 = Collector("g1", ("-XX:+UseG1GC",))
ZGC = Collector("zgc", ("-XX:+UseZGC",))  # JDK 25: generational ZGC, the only mode left
SHENANDOAH = Collector("shenandoah", ("-XX:+UseShenandoahGC",))
SHENANDOAH_GEN = Collector(
    "shenandoah-gen",
    ("-XX:+UseShenandoahGC", "-XX:+UnlockExperimentalVMOptions", "-XX:ShenandoahGCMode=generational"),
)
# JDK 11 has CMS: started early (20% occupancy) so that its cycles, and its scavenges before remark,
# happen within the run.
CMS_SBR = Collector(
    "cms-sbr",
    ("-XX:+UseConcMarkSweepGC", "-XX:+CMSScavengeBeforeRemark", "-XX:CMSInitiatingOccupancyFraction=20",
     "-XX:+UseCMSInitiatingOccupancyOnly"),
)  # fmt: skip
COLLECTORS = {
    11: (CMS_SBR,),
    17: (SERIAL, PARALLEL, G1, ZGC, SHENANDOAH),
    25: (SERIAL, PARALLEL, G1, ZGC, SHENANDOAH, SHENANDOAH_GEN),
}
LOG_CONFIGS = (
    LogConfig("all-uptime-level-tags", "gc*,safepoint", "uptime,level,tags"),
    LogConfig("gc-time-uptime", "gc", "time,uptime"),
    LogConfig("gcstar-utctime-uptimemillis-pid-tid", "gc*", "utctime,uptimemillis,pid,tid,level,tags"),
    LogConfig("gc-heapdebug-uptimenanos", "gc,gc+heap=debug", "uptimenanos"),
    LogConfig("debug-trace-uptime-tid", "gc*=debug,gc+age=trace,safepoint", "uptime,tid,level,tags"),
    LogConfig("gc-none", "gc", "none"),
    LogConfig("gcstar-timemillis-timenanos-hostname", "gc*", "timemillis,timenanos,hostname,level,tags"),
)


@dataclass(frozen=True)
class Run:
    """One JVM: a JDK and a collector, logging to one file per LogConfig."""

    jdk: Jdk
    collector: Collector

    @property
    def id(self) -> str:
        return f"jdk{self.jdk.major}-{self.collector.name}"

    def argv(self, out_dir: Path, classpath: Path) -> list[str]:
        # only the GC, heap and safepoint events, every VM operation among them (threshold 0 ms): a JVM of
        # 1.7 CPU-s where settings=profile (method samples, allocation samples...) costs 2.2-3.1
        jfr = f"-XX:StartFlightRecording=filename={out_dir / 'rec.jfr'},settings={JFR_SETTINGS}"
        xlogs = [xlog_file_option(c.selection, log_path(out_dir, c), c.decorators) for c in LOG_CONFIGS]
        duration = f"--duration-s={self.collector.duration_s}"
        workload = ["-cp", str(classpath), WORKLOAD_CLASS, duration, *WORKLOAD_ARGS]
        return [str(self.jdk.java), *HEAP_FLAGS, *self.collector.flags, jfr, *xlogs, *workload]

    def cache_dir(self, classpath: Path) -> Path:
        class_file = classpath / (WORKLOAD_CLASS.replace(".", "/") + ".class")
        key = hashlib.sha256()
        key.update(self.jdk.version.encode())
        key.update("\0".join(self.argv(Path("OUT"), Path("CP"))[1:]).encode())
        key.update(class_file.read_bytes())
        key.update(JFR_SETTINGS.read_bytes())
        return CACHE_DIR / f"{self.id}-{key.hexdigest()[:10]}"


@dataclass(frozen=True)
class Case:
    """One log of one run: what each test checks."""

    run: Run
    log: LogConfig

    @property
    def id(self) -> str:
        return f"{self.run.id}-{self.log.label}"


def log_path(run_dir: Path, config: LogConfig) -> Path:
    return run_dir / f"{config.label}.log"


# ---- the matrix ----------------------------------------------------------------------------------------


@cache
def accepts(java: Path, flags: tuple[str, ...]) -> bool:
    """Whether this JVM starts with these flags (a build without Shenandoah refuses it, for one)."""
    try:
        done = subprocess.run([str(java), *flags, "-version"], capture_output=True, timeout=JVM_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def jdks_under_test() -> list[Jdk]:
    by_major: dict[int, Jdk] = {}
    for jdk in installed_jdks():
        if jdk.major in JDK_MAJORS and jdk.has_jfr:
            by_major.setdefault(jdk.major, jdk)
    return [by_major[m] for m in sorted(by_major)]


def all_runs() -> list[Run]:
    return [
        Run(jdk, collector)
        for jdk in jdks_under_test()
        for collector in COLLECTORS[jdk.major]
        if accepts(jdk.java, collector.flags)
    ]


def all_cases() -> list[Case]:
    return [Case(run, config) for run in all_runs() for config in LOG_CONFIGS]


# ---- running (cached) ----------------------------------------------------------------------------------


@contextmanager
def run_lock(run_dir: Path) -> Iterator[None]:
    """An exclusive lock per run, across threads and pytest-xdist workers."""
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    with open(run_dir.with_name(run_dir.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def execute(run: Run, run_dir: Path, classpath: Path) -> None:
    """Runs the JVM, then `jfr print` of its GarbageCollection events; run.json is written last."""
    run_dir.mkdir(parents=True, exist_ok=True)
    for stale in run_dir.iterdir():
        stale.unlink()
    with open(run_dir / "stdout.txt", "wb") as out:
        jvm = run_jvm(run.argv(run_dir, classpath), timeout_s=JVM_TIMEOUT_S, stdout=out)
    jfr_print_error = print_jfr_events(run.jdk, run_dir) if jvm.ok else None
    record = {"argv": jvm.argv, "returncode": jvm.returncode, "timed_out": jvm.timed_out,
              "elapsed_s": round(jvm.elapsed_s, 3), "jfr_print_error": jfr_print_error}  # fmt: skip
    (run_dir / "run.json").write_text(json.dumps(record, indent=1))


def print_jfr_events(jdk: Jdk, run_dir: Path) -> str | None:
    """`jfr print --json` of the collections and VM operations into gc-events.json; the error if it fails."""
    events = ",".join(JFR_EVENTS)
    argv = [str(jdk.jfr), "print", "--json", "--events", events, str(run_dir / "rec.jfr")]
    try:
        done = subprocess.run(argv, capture_output=True, timeout=JFR_PRINT_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return f"timed out after {JFR_PRINT_TIMEOUT_S} s"
    if done.returncode != 0:
        return done.stderr.decode(errors="replace")[-2000:]
    (run_dir / "gc-events.json").write_bytes(done.stdout)
    return None


def generate(run: Run) -> Path:
    """The directory of a complete run, running it unless an earlier complete run is cached."""
    classpath = classes_dir()
    run_dir = run.cache_dir(classpath)
    with run_lock(run_dir):
        if not (run_dir / "run.json").is_file():
            execute(run, run_dir, classpath)
    return run_dir


# ---- reading JFR ---------------------------------------------------------------------------------------

_ISO_DURATION = re.compile(r"^(-)?PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?$")


def duration_ms(value: str | float) -> float:
    """A `jfr print --json` duration ("PT0.005856331S", "PT1M2.5S", "PT0S"; plain numbers are ns) in ms."""
    if isinstance(value, int | float):
        return value / 1e6
    m = _ISO_DURATION.match(value)
    if m is None:
        raise ValueError(f"unexpected JFR duration {value!r}")
    sign, hours, minutes, seconds = m.groups()
    total_s = int(hours or 0) * 3600 + int(minutes or 0) * 60 + float(seconds or 0)
    return (-1 if sign else 1) * total_s * 1000


def instant_ns(value: str) -> int:
    """A `jfr print --json` instant ("2026-11-22T03:08:44.332458091Z") in ns since the epoch."""
    base, _, fraction = value.rstrip("Z").partition(".")
    seconds = int(datetime.fromisoformat(base).replace(tzinfo=UTC).timestamp())
    return seconds * 1_000_000_000 + int((fraction or "0").ljust(9, "0")[:9])


@dataclass(frozen=True)
class JfrGc:
    """The jdk.GarbageCollection events of one gcId (generational Shenandoah can emit two per id), and
    the total duration of the safepoint VM operations (jdk.ExecuteVMOperation) overlapping them: the
    operation that holds a stop-the-world collection, or those of a concurrent cycle's pauses."""

    gc_id: int
    names: tuple[str, ...]
    causes: tuple[str, ...]
    sum_of_pauses_ms: float
    vm_operation_ms: float = 0.0


def _interval_ns(v: dict) -> tuple[int, int]:
    start = instant_ns(v["startTime"])
    return start, start + round(duration_ms(v["duration"]) * 1e6)


def _overlapping_operations_ms(interval: tuple[int, int], operations: list[tuple[int, int]]) -> float:
    start_ns, end_ns = interval
    return (
        sum(op_end - op_start for op_start, op_end in operations if op_start <= end_ns and start_ns <= op_end)
        / 1e6
    )


def read_jfr_gcs(path: Path) -> dict[int, JfrGc]:
    events = json.loads(path.read_bytes())["recording"]["events"]
    operations = [_interval_ns(e["values"]) for e in events
                  if e["type"] == "jdk.ExecuteVMOperation" and e["values"].get("safepoint")]  # fmt: skip
    by_id: dict[int, JfrGc] = {}
    for v in (e["values"] for e in events if e["type"] == "jdk.GarbageCollection"):
        gc_id = int(v["gcId"])
        prev = by_id.get(gc_id, JfrGc(gc_id, (), (), 0.0))
        by_id[gc_id] = replace(
            prev,
            names=prev.names + (v["name"],),
            causes=prev.causes + (str(v.get("cause")),),
            sum_of_pauses_ms=prev.sum_of_pauses_ms + duration_ms(v["sumOfPauses"]),
            vm_operation_ms=prev.vm_operation_ms + _overlapping_operations_ms(_interval_ns(v), operations),
        )
    return by_id


# ---- reading a case ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LogGc:
    """The pause rows of one gc id in the event table."""

    gc_id: int
    pause_ms: float
    pauses: int
    phases: tuple[str, ...]


def log_pauses(events: pl.DataFrame) -> dict[int, LogGc]:
    pauses = (
        events.filter(pl.col("category") == "pause", pl.col("gc_id").is_not_null())
        .group_by("gc_id")
        .agg(pl.col("pause_ms").sum(), pl.len().alias("n"), pl.col("phase").cast(pl.String))
    )
    return {r["gc_id"]: LogGc(r["gc_id"], r["pause_ms"], r["n"], tuple(r["phase"]))
            for r in pauses.iter_rows(named=True)}  # fmt: skip


class RunFailed(Exception):
    """The JVM or `jfr print` of a run failed; the message has the details."""


@dataclass(frozen=True)
class Loaded:
    case: Case
    path: Path
    log: jvmlab.gclog.GcLog
    jfr: dict[int, JfrGc]
    elapsed_s: float


@cache
def load_case(case: Case) -> Loaded:
    run_dir = generate(case.run)
    record = json.loads((run_dir / "run.json").read_text())
    if record["returncode"] != 0 or record["timed_out"]:
        tail = (run_dir / "stdout.txt").read_text(errors="replace")[-2000:]
        raise RunFailed(f"{case.run.id}: the JVM failed ({record}); output:\n{tail}")
    if record["jfr_print_error"]:
        raise RunFailed(f"{case.run.id}: jfr print failed: {record['jfr_print_error']}")
    path = log_path(run_dir, case.log)
    jfr = read_jfr_gcs(run_dir / "gc-events.json")
    # A verbose selection can pass the JVM's 20 MB default file size: the rotated set (x.log.0, ..., x.log)
    # is one log, which jvmlab orders itself.
    rotated = [path, *run_dir.glob(f"{path.name}.*")]
    return Loaded(case, path, jvmlab.gclog.load(rotated), jfr, record["elapsed_s"])
