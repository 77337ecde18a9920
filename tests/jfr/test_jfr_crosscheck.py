"""Cross-check of the GC log parser against the JVM's own JFR events (jdk.GarbageCollection).

For each installed JDK 17 / 25, each collector it accepts and several -Xlog selections and decorator sets,
GcChurn runs for a few seconds with a JFR recording and a GC log. Then, per case:
  - the log has no unknown GC lines;
  - every JFR gcId is a gc_id of the event table;
  - per gc id, the sum of pause_ms of the `pause` rows matches JFR's sumOfPauses (the sum over the JFR
    events of that id) within max(0.05 ms, 1%) for at least 90% of the collections, differences
    explained in KNOWN_DIFFERENCES aside.

JVM runs are cached in build/jfr-logs/<case>-<hash>/ (the hash covers the command line, the JDK and the
workload's class file), so a re-run only parses. Without pytest-xdist the missing cases are generated
up front, two JVMs at a time; under xdist each test generates its own case (a file lock keeps workers
from running a case twice).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import subprocess
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import jvmlab
import polars as pl
import pytest
from jvmlab.demo import WORKLOAD_CLASS, classes_dir
from jvmlab.errors import JvmLabError
from jvmlab.jdk import Jdk, installed_jdks
from jvmlab.jdk.launch import run_jvm, xlog_file_option

REPO_ROOT = Path(__file__).resolve().parents[2]
CACHE_DIR = REPO_ROOT / "build" / "jfr-logs"
JDK_MAJORS = (17, 25)
PARALLEL_JVMS = 2
JVM_TIMEOUT_S = 90
JFR_PRINT_TIMEOUT_S = 60
HEAP_FLAGS = ("-Xmx256m", "-XX:MetaspaceSize=16m")
# ~3 s of churn with humongous arrays, metaspace growth (Metadata GC Threshold) and one System.gc().
WORKLOAD_ARGS = (
    "--duration-s=3",
    "--rate-mb-s=300",
    "--live-mb=32",
    "--humongous=0.02",
    "--classes-per-s=400",
    "--system-gc-s=2",
)
PAUSE_TOLERANCE_MS = 0.05  # the log prints pauses to 0.001 ms; JFR's timer and the log's differ slightly
PAUSE_TOLERANCE_FRACTION = 0.01
MIN_AGREEMENT = 0.9


@dataclass(frozen=True)
class Collector:
    name: str
    flags: tuple[str, ...]


@dataclass(frozen=True)
class LogConfig:
    label: str
    selection: str
    decorators: str


SERIAL = Collector("serial", ("-XX:+UseSerialGC",))
PARALLEL = Collector("parallel", ("-XX:+UseParallelGC",))
G1 = Collector("g1", ("-XX:+UseG1GC",))
ZGC = Collector("zgc", ("-XX:+UseZGC",))  # JDK 25: generational only
SHENANDOAH = Collector("shenandoah", ("-XX:+UseShenandoahGC",))
SHENANDOAH_GEN = Collector(
    "shenandoah-gen",
    ("-XX:+UseShenandoahGC", "-XX:+UnlockExperimentalVMOptions", "-XX:ShenandoahGCMode=generational"),
)
COLLECTORS = {
    17: (SERIAL, PARALLEL, G1, ZGC, SHENANDOAH),
    25: (SERIAL, PARALLEL, G1, ZGC, SHENANDOAH, SHENANDOAH_GEN),
}
LOG_CONFIGS = (
    LogConfig("all-uptime-level-tags", "gc*,safepoint", "uptime,level,tags"),
    LogConfig("gc-time-uptime", "gc", "time,uptime"),
    LogConfig("gcstar-utc-millis-pid-tid", "gc*", "utctime,uptimemillis,pid,tid,level,tags"),
    LogConfig("gc-heapdebug-nanos", "gc,gc+heap=debug", "uptimenanos"),
)


@dataclass(frozen=True)
class Case:
    jdk: Jdk
    collector: Collector
    log: LogConfig

    @property
    def id(self) -> str:
        return f"jdk{self.jdk.major}-{self.collector.name}-{self.log.label}"

    def argv(self, out_dir: Path, classpath: Path) -> list[str]:
        jfr = f"-XX:StartFlightRecording=filename={out_dir / 'rec.jfr'}"
        xlog = xlog_file_option(self.log.selection, out_dir / "gc.log", self.log.decorators)
        workload = ["-cp", str(classpath), WORKLOAD_CLASS, *WORKLOAD_ARGS]
        return [str(self.jdk.java), *HEAP_FLAGS, *self.collector.flags, jfr, xlog, *workload]

    def cache_dir(self, classpath: Path) -> Path:
        class_file = classpath / (WORKLOAD_CLASS.replace(".", "/") + ".class")
        key = hashlib.sha256()
        key.update(self.jdk.version.encode())
        key.update("\0".join(self.argv(Path("OUT"), Path("CP"))[1:]).encode())
        key.update(class_file.read_bytes())
        return CACHE_DIR / f"{self.id}-{key.hexdigest()[:10]}"


# ---- the case matrix ---------------------------------------------------------------------------------


@cache
def accepts(java: Path, flags: tuple[str, ...]) -> bool:
    """Whether this JVM starts with these flags (e.g. a build without Shenandoah refuses it)."""
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


def all_cases() -> list[Case]:
    cases = []
    for jdk in jdks_under_test():
        for collector in COLLECTORS[jdk.major]:
            if accepts(jdk.java, collector.flags):
                cases.extend(Case(jdk, collector, log) for log in LOG_CONFIGS)
    return cases


CASES = all_cases()


# ---- running a case (cached) ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CaseFiles:
    dir: Path

    @property
    def log(self) -> Path:
        return self.dir / "gc.log"

    @property
    def jfr_json(self) -> Path:
        return self.dir / "gc-events.json"

    @property
    def run_record(self) -> Path:
        return self.dir / "run.json"


@contextmanager
def case_lock(case_dir: Path) -> Iterator[None]:
    """An exclusive lock per case, across threads and xdist workers."""
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    with open(case_dir.with_name(case_dir.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def run_case(case: Case, files: CaseFiles, classpath: Path) -> None:
    """Runs the JVM, then `jfr print` of its GarbageCollection events; run.json is written last."""
    files.dir.mkdir(parents=True, exist_ok=True)
    for stale in files.dir.iterdir():
        stale.unlink()
    with open(files.dir / "stdout.txt", "wb") as out:
        run = run_jvm(case.argv(files.dir, classpath), timeout_s=JVM_TIMEOUT_S, stdout=out)
    record = {"argv": run.argv, "returncode": run.returncode, "timed_out": run.timed_out,
              "elapsed_s": round(run.elapsed_s, 3), "jfr_print_error": None}  # fmt: skip
    if run.ok:
        record["jfr_print_error"] = print_jfr_events(case.jdk, files)
    files.run_record.write_text(json.dumps(record, indent=1))


def print_jfr_events(jdk: Jdk, files: CaseFiles) -> str | None:
    """`jfr print --json --events jdk.GarbageCollection` into gc-events.json; the error text if it fails."""
    argv = [str(jdk.jfr), "print", "--json", "--events", "jdk.GarbageCollection", str(files.dir / "rec.jfr")]
    try:
        done = subprocess.run(argv, capture_output=True, timeout=JFR_PRINT_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return f"timed out after {JFR_PRINT_TIMEOUT_S} s"
    if done.returncode != 0:
        return done.stderr.decode(errors="replace")[-2000:]
    files.jfr_json.write_bytes(done.stdout)
    return None


def generate(case: Case) -> CaseFiles:
    """The files of a case, running it unless a complete earlier run is cached."""
    classpath = classes_dir()
    files = CaseFiles(case.cache_dir(classpath))
    with case_lock(files.dir):
        if not files.run_record.is_file():
            run_case(case, files, classpath)
    return files


@pytest.fixture(scope="session")
def prefetched(request: pytest.FixtureRequest) -> None:
    """Without xdist: generates the selected cases up front, PARALLEL_JVMS at a time."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return  # each test generates its own case; xdist spreads them over the workers
    selected = {item.callspec.params["case"] for item in request.session.items
                if hasattr(item, "callspec") and "case" in item.callspec.params}  # fmt: skip
    try:
        with ThreadPoolExecutor(PARALLEL_JVMS) as pool:
            list(pool.map(generate, sorted(selected, key=lambda c: c.id)))
    except JvmLabError as e:
        pytest.fail(str(e))


# ---- reading a case ------------------------------------------------------------------------------------

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


@dataclass(frozen=True)
class JfrGc:
    """The jdk.GarbageCollection events of one gcId (generational Shenandoah can emit two per id)."""

    gc_id: int
    names: tuple[str, ...]
    causes: tuple[str, ...]
    sum_of_pauses_ms: float


def read_jfr_gcs(path: Path) -> dict[int, JfrGc]:
    events = [e["values"] for e in json.loads(path.read_bytes())["recording"]["events"]]
    by_id: dict[int, JfrGc] = {}
    for v in events:
        gc_id = int(v["gcId"])
        prev = by_id.get(gc_id, JfrGc(gc_id, (), (), 0.0))
        by_id[gc_id] = JfrGc(gc_id, prev.names + (v["name"],), prev.causes + (str(v.get("cause")),),
                             prev.sum_of_pauses_ms + duration_ms(v["sumOfPauses"]))  # fmt: skip
    return by_id


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


@dataclass(frozen=True)
class Loaded:
    case: Case
    files: CaseFiles
    log: jvmlab.gclog.GcLog
    jfr: dict[int, JfrGc]


@cache
def load_case(case: Case) -> Loaded:
    files = generate(case)
    record = json.loads(files.run_record.read_text())
    if record["returncode"] != 0 or record["timed_out"]:
        tail = (files.dir / "stdout.txt").read_text(errors="replace")[-2000:]
        pytest.fail(f"{case.id}: the JVM failed ({record}); output:\n{tail}")
    if record["jfr_print_error"]:
        pytest.fail(f"{case.id}: jfr print failed: {record['jfr_print_error']}")
    return Loaded(case, files, jvmlab.gclog.load(files.log), read_jfr_gcs(files.jfr_json))


# ---- legitimate differences between the log and JFR ----------------------------------------------------


@dataclass(frozen=True)
class KnownDifference:
    """A documented reason why a log's pause sum may differ from JFR's; `explains` bounds the difference."""

    name: str
    reason: str
    explains: Callable[[Case, JfrGc, LogGc | None], bool]


def _zgc_pauses_not_selected(case: Case, jfr: JfrGc, log: LogGc | None) -> bool:
    return case.collector is ZGC and "gc*" not in case.log.selection and log is None


def _shenandoah_pause_scope(case: Case, jfr: JfrGc, log: LogGc | None) -> bool:
    if case.collector not in (SHENANDOAH, SHENANDOAH_GEN) or log is None:
        return False
    excess_ms = log.pause_ms - jfr.sum_of_pauses_ms
    return 0 <= excess_ms <= SHENANDOAH_EXCESS_PER_PAUSE_MS * log.pauses


SHENANDOAH_EXCESS_PER_PAUSE_MS = 0.1
KNOWN_DIFFERENCES = (
    # ZGC logs its pauses (Pause Mark Start/End, Relocate Start) at gc+phases: a selection without gc*
    # has the collection lines but no pause lines, so the table has no pause rows for these ids.
    KnownDifference(
        "zgc-pauses-not-selected",
        "ZGC pause lines are tagged gc+phases, not in the selection",
        _zgc_pauses_not_selected,
    ),
    # Shenandoah times each pause in the log around the whole VM operation (ShenandoahGCPauseMark plus
    # the GCTraceTime of the operation), while JFR's pause timer covers only the inner phase: every pause
    # line is 0.01-0.06 ms longer than JFR's jdk.GCPhasePause of the same name (e.g. JDK 17
    # "Pause Final Mark (unload classes) 0.185ms" vs JFR 0.142 ms). Tiny pauses make this exceed 1%.
    KnownDifference(
        "shenandoah-pause-scope",
        f"Shenandoah log pauses include up to {SHENANDOAH_EXCESS_PER_PAUSE_MS} ms of VM-operation time "
        "outside JFR's pause timer",
        _shenandoah_pause_scope,
    ),
)


def agrees(jfr: JfrGc, log: LogGc | None) -> bool:
    logged_ms = log.pause_ms if log else 0.0
    tolerance_ms = max(PAUSE_TOLERANCE_MS, PAUSE_TOLERANCE_FRACTION * jfr.sum_of_pauses_ms)
    return abs(logged_ms - jfr.sum_of_pauses_ms) <= tolerance_ms


def explanation(case: Case, jfr: JfrGc, log: LogGc | None) -> str | None:
    for known in KNOWN_DIFFERENCES:
        if known.explains(case, jfr, log):
            return known.name
    return None


def describe(jfr: JfrGc, log: LogGc | None) -> str:
    logged = f"{log.pause_ms:.3f} ms from {list(log.phases)}" if log else "no pause rows"
    return (f"GC({jfr.gc_id}) {'/'.join(jfr.names)} ({'/'.join(jfr.causes)}): "
            f"JFR sumOfPauses {jfr.sum_of_pauses_ms:.3f} ms, log {logged}")  # fmt: skip


# ---- the tests -----------------------------------------------------------------------------------------

requires_cases = pytest.mark.skipif(not CASES, reason="no JDK 17 or 25 with bin/jfr is installed")
parametrize_cases = pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])


@requires_cases
@parametrize_cases
def test_no_unknown_gc_lines(case: Case, prefetched: None) -> None:
    loaded = load_case(case)
    diag = loaded.log.diagnostics
    assert diag["lines_unknown_gc"] == 0, (
        f"{loaded.files.log}: {diag['lines_unknown_gc']} unknown GC lines, e.g. {diag['unknown_samples']}"
    )


@requires_cases
@parametrize_cases
def test_every_jfr_gc_is_in_the_table(case: Case, prefetched: None) -> None:
    loaded = load_case(case)
    assert len(loaded.jfr) >= 2, f"{loaded.files.dir}: JFR recorded {len(loaded.jfr)} collections"
    table_ids = set(loaded.log.events["gc_id"].drop_nulls().to_list())
    missing = [describe(g, None) for gc_id, g in sorted(loaded.jfr.items()) if gc_id not in table_ids]
    assert not missing, f"{loaded.files.log}: JFR collections without rows:\n" + "\n".join(missing)


@requires_cases
@parametrize_cases
def test_pause_sums_agree_with_jfr(case: Case, prefetched: None) -> None:
    loaded = load_case(case)
    pauses = log_pauses(loaded.log.events)
    disagreeing = []
    for gc_id, jfr in sorted(loaded.jfr.items()):
        log = pauses.get(gc_id)
        if not agrees(jfr, log) and explanation(case, jfr, log) is None:
            disagreeing.append(describe(jfr, log))
    agreement = 1 - len(disagreeing) / len(loaded.jfr)
    report = f"{loaded.files.log}: {len(disagreeing)} of {len(loaded.jfr)} collections disagree:\n"
    assert agreement >= MIN_AGREEMENT, report + "\n".join(disagreeing)
    if disagreeing:
        warnings.warn(report + "\n".join(disagreeing), stacklevel=1)
